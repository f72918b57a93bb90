/* The registry's store: one tree per root (hive), kept in a text file
 * per hive under the registry folder and reread when another process
 * changed it.  See regstore.c for the folder and the file format.
 *
 * Every access goes between hive_lock and hive_unlock: the process lock
 * and an flock on the hive's file, so that two processes changing the
 * same hive do not lose each other's changes.  Keys are found by path
 * (names case-insensitive), never held across hive_unlock: the tree may
 * be reread at the next hive_lock. */
#ifndef NDSHIM_REGSTORE_H
#define NDSHIM_REGSTORE_H

#include <stdbool.h>
#include <stddef.h>
#include <windef.h>
#include <winbase.h>

#include "core/list.h"

enum hive_id { HIVE_MACHINE, HIVE_USER, HIVE_USERS, HIVE_COUNT };

struct reg_value {
	struct list entry; /* in the key's values, in creation order */
	WCHAR *name;       /* "" for the default value */
	DWORD type;
	DWORD size;
	BYTE *data;
};

struct reg_key {
	struct list entry;   /* in the parent's subkeys, sorted by upper-cased name */
	struct reg_key *parent;
	WCHAR *name;
	struct list subkeys;
	struct list values;
	FILETIME last_write;
	bool is_volatile;    /* REG_OPTION_VOLATILE: never written to the file */
};

/* The hive's root key, locked; NULL with *err set when the file cannot
 * be read or locked (ERROR_REGISTRY_IO_FAILED, ERROR_ACCESS_DENIED). */
struct reg_key *hive_lock(enum hive_id hive, DWORD *err);
/* modified: write the hive's file first.  ERROR_SUCCESS, or the error
 * of the write (ERROR_REGISTRY_IO_FAILED). */
DWORD hive_unlock(enum hive_id hive, bool modified);

/* Tree operations, hive locked.  path: backslash-separated, "" or NULL
 * for key itself. */
struct reg_key *regkey_find(struct reg_key *key, const WCHAR *path);
/* Creates the missing keys of path; *created tells whether the last
 * was new.  NULL when out of memory. */
struct reg_key *regkey_create(struct reg_key *key, const WCHAR *path, bool is_volatile, bool *created);
/* Removes key (which has no subkeys) from its parent and frees it. */
void regkey_delete(struct reg_key *key);
struct reg_value *regkey_value(struct reg_key *key, const WCHAR *name);
/* Sets (replacing) a value; false when out of memory. */
bool regkey_set_value(struct reg_key *key, const WCHAR *name, DWORD type, const void *data, DWORD size);
void regkey_delete_value(struct reg_value *value);
void regkey_touch(struct reg_key *key);

/* The folder of the hive files (malloc'd): $NDSHIM_REGISTRY, else
 * $XDG_DATA_HOME/ndshim/registry, else ~/.local/share/ndshim/registry
 * (~: $HOME, else the password database's home).  NULL when the user
 * has no home at all: the hives then live in memory for the run. */
char *registry_folder(void);
/* Tests: forget every hive's tree, so the next hive_lock reads the files. */
void regstore_forget(void);

#endif

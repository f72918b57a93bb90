/* Loaded modules: PE images mapped from files and builtin DLLs.
 *
 * All module state is guarded by the loader lock, a recursive mutex held
 * while DllMain and TLS callbacks run (as on Windows), so a DllMain may
 * call LoadLibrary. */
#ifndef NDSHIM_MODULE_H
#define NDSHIM_MODULE_H

#include <stdbool.h>
#include <stdint.h>

#include "builtin.h"
#include "core/list.h"
#include <winerror.h>

#include "pe_image.h"

struct module {
	struct list entry;      /* modules, in load order */
	struct list init_entry; /* modules whose imports are bound, dependencies first */
	char *name;             /* base file name, e.g. "kernel32.dll" */
	char *path;             /* Linux path; NULL for builtins */
	WCHAR *dos_path;        /* what GetModuleFileNameW reports: C:\... */
	uint8_t *base;          /* the HMODULE */
	uint32_t size;
	struct pe_image img;    /* headers, read from the mapped image */
	const struct builtin_dll *builtin;
	int refcount;
	int tls_index;          /* -1: no static TLS */
	bool is_exe;
	bool in_init_list;
	bool attached;          /* DLL_PROCESS_ATTACH has run */
	bool no_thread_calls;   /* DisableThreadLibraryCalls */
	struct module **deps;   /* modules this one imports from (one reference each) */
	unsigned int nr_deps;
};

/* Why a load failed: a one-line message for the user, and the Win32
 * error LoadLibrary reports. */
struct load_error {
	char msg[512];
	DWORD code;
};

/* Windows' file name for a DLL name: ".dll" appended when the name has
 * no extension; a trailing dot means "no extension" and is dropped.
 * Malloc'ed; NULL when out of memory. */
char *dll_file_name(const char *name);

void loader_lock(void);
void loader_unlock(void);

/* Where a DLL name leads, by the one search policy every load uses
 * (LoadLibrary, imports, forwarders, ndrun --check): a name with a path
 * is that file; an API-set name (api-ms-win-*, ext-ms-win-*) is the
 * builtin that hosts it (winapi-shim/apisets.list); a DLL on Windows'
 * KnownDLLs list (pe-loader/knowndlls.list) is the builtin, never a file
 * beside the program; another bare name is looked for in the program's
 * folder, then in NDSHIM_DLL_PATH's folders (case-insensitively), then
 * among the builtin DLLs.  NDSHIM_DLL_OVERRIDES changes the order per
 * DLL (module_dll_override). */
struct dll_location {
	char *path;                        /* a PE file (absolute), or NULL */
	const struct builtin_dll *builtin; /* else the builtin */
	char *file_name;                   /* bare names: what was searched for */
	bool apiset;                       /* the name was an API set's */
};

/* What NDSHIM_DLL_OVERRIDES says for a DLL file name ("x.dll"). */
enum dll_order {
	DLL_ORDER_DEFAULT,        /* not named: the default rule */
	DLL_ORDER_NATIVE,         /* n: a PE file only */
	DLL_ORDER_BUILTIN,        /* b: the builtin only */
	DLL_ORDER_NATIVE_BUILTIN, /* n,b */
	DLL_ORDER_BUILTIN_NATIVE, /* b,n */
};
enum dll_order module_dll_override(const char *file_name);
/* Is file_name ("x.dll", any case) on Windows' KnownDLLs list? */
bool module_is_known_dll(const char *file_name);

/* 0 with *loc filled (free it with dll_location_free), or -1 with *err
 * set ("X not found (imported by Y)").  Nothing is loaded. */
int module_locate(const char *name, const char *importer, struct dll_location *loc, struct load_error *err);
void dll_location_free(struct dll_location *loc);
/* The program whose folder is searched first (module_load_exe sets it). */
void module_set_program(const char *exe_path);

/* Load a module by name or path; takes a reference.  NULL with *err set.
 * importer (may be NULL) is named in messages about missing DLLs. */
struct module *module_load(const char *name, const char *importer, struct load_error *err);
/* Load the program itself. */
struct module *module_load_exe(const char *path, struct load_error *err);
/* Run DLL_PROCESS_ATTACH for every module that has not had it, in
 * dependency order.  static_load: the process is starting, so DllMain
 * gets a non-NULL lpvReserved (NULL for LoadLibrary, as documented).
 * FALSE (err set) when a DllMain fails. */
bool module_attach_pending(bool static_load, struct load_error *err);
void module_release(struct module *m);

struct module *module_from_base(const void *base);
struct module *module_from_address(const void *addr);
struct module *module_find_by_name(const char *name);
struct module *module_exe(void);
/* Loader lock held.  The HMODULEs of the loaded modules, the program's
 * first, then in load order: at most max stored, the count returned. */
unsigned int module_list_bases(HMODULE *out, unsigned int max);

/* An export's address, following forwarders; NULL when absent.
 * name: an export name, or NULL to look up ordinal. */
void *module_find_export(struct module *m, const char *name, unsigned int ordinal, struct load_error *err);

/* Thread attach/detach and process detach, over the init order. */
void module_notify_threads(DWORD reason);
void module_process_detach(void);

#endif

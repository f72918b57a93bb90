/* File objects: a handle-table object wrapping a Linux file descriptor,
 * for CreateFile handles, the standard handles, pipes and consoles.
 *
 * ReadFile/WriteFile and friends find the object with file_get.  The
 * fields below `overlapped` are reserved for the completion-port code:
 * an overlapped file (FILE_FLAG_OVERLAPPED) keeps its port association
 * and notification modes there. */
#ifndef NDSHIM_FILE_H
#define NDSHIM_FILE_H

#include <pthread.h>
#include <stdbool.h>

#include <windef.h>
#include <winbase.h>

#include "core/object.h"

struct file {
	struct object obj;
	int fd;
	DWORD access;   /* as granted: GENERIC_* expanded to FILE_* rights */
	DWORD options;  /* FILE_FLAG_* given to CreateFile */
	char *unix_path; /* FILE_FLAG_DELETE_ON_CLOSE: unlinked on destroy */
	bool own_fd;     /* close fd on destroy */
	/* WriteConsoleW may get half of a surrogate pair in one call. */
	WCHAR pending_high_surrogate;
	/* ReadConsoleW: decoded input that did not fit the caller's buffer. */
	WCHAR *console_pending;
	size_t console_pending_len;
	pthread_mutex_t lock; /* the console fields */

	/* overlapped I/O (completion ports), owned by that code */
	struct {
		struct object *port;
		ULONG_PTR key;
		UCHAR notification_modes; /* FILE_SKIP_* */
	} overlapped;
};

extern const struct object_ops file_ops;

static inline struct file *to_file(struct object *obj)
{
	return container_of(obj, struct file, obj);
}

/* A new file object for fd (one reference, no handle yet); NULL when out
 * of memory.  own_fd: the object closes fd when it is destroyed. */
struct file *file_create(int fd, DWORD access, DWORD options, bool own_fd);

/* file_create + handle_create; drops the object's own reference.  NULL
 * with the last error set on failure (the fd is closed if owned). */
HANDLE file_create_handle(int fd, DWORD access, DWORD options, bool own_fd);

/* The file behind h, referenced (file_release it), or NULL with
 * ERROR_INVALID_HANDLE. */
struct file *file_get(HANDLE h);
void file_release(struct file *f);

/* GENERIC_READ/WRITE/EXECUTE/ALL -> the FILE_* rights they stand for. */
DWORD file_map_generic(DWORD access);

#endif

/* File objects: a handle-table object wrapping a Linux file descriptor,
 * for CreateFile handles, the standard handles, pipes and consoles.
 *
 * ReadFile/WriteFile and friends find the object with file_get.  Every
 * file is an io target (core/overlapped.h): completion port association,
 * notification modes, pending requests, and the object's own signaled
 * state that waits on the file handle see.  Named pipe ends (core/pipe.h)
 * have fd -1 and a pipe; the ND provider's overlapped file (ndshim.dll)
 * has fd -1 and no pipe. */
#ifndef NDSHIM_FILE_H
#define NDSHIM_FILE_H

#include <pthread.h>
#include <stdbool.h>

#include <windef.h>
#include <winbase.h>

#include "core/object.h"
#include "core/overlapped.h"

struct pipe_instance;

struct file {
	struct object obj;
	int fd;
	DWORD access;   /* as granted: GENERIC_* expanded to FILE_* rights */
	DWORD options;  /* FILE_FLAG_* given to CreateFile */
	char *unix_path; /* FILE_FLAG_DELETE_ON_CLOSE: unlinked on destroy */
	bool own_fd;     /* close fd on destroy */
	bool anon_pipe;  /* CreatePipe end: a read at EOF is ERROR_BROKEN_PIPE */
	bool console_input; /* opened as CONIN$: the console's input (core/conin.h) */
	/* WriteConsoleW may get half of a surrogate pair in one call. */
	WCHAR pending_high_surrogate;
	/* ReadConsoleW: decoded input that did not fit the caller's buffer. */
	WCHAR *console_pending;
	size_t console_pending_len;
	pthread_mutex_t lock; /* the console fields, dir_cursor, dir_watch */

	struct io_target io;
	/* named pipe ends: the instance (a reference) and which end */
	struct pipe_instance *pipe;
	bool pipe_server;
	unsigned int pipe_conn; /* client: the connection it belongs to */
	/* LockFile(Ex)'s byte ranges held through this handle (core/filelock.h);
	 * NULL until the first lock. */
	struct filelock_state *locks;
	/* NtQueryDirectoryFile's place in a folder (ntdll/dirquery.c), under
	 * lock, freed with the file by dir_cursor_free; NULL until the first
	 * query. */
	void *dir_cursor;
	void (*dir_cursor_free)(void *cursor);
	/* ReadDirectoryChangesW's watch (kernel32/dirchanges.c), the same way. */
	void *dir_watch;
	void (*dir_watch_free)(void *watch);
};

extern const struct object_ops file_ops;

static inline struct file *to_file(struct object *obj)
{
	return container_of(obj, struct file, obj);
}

/* A new file object for fd (one reference, no handle yet); NULL when out
 * of memory.  own_fd: the object closes fd when it is destroyed. */
struct file *file_create(int fd, DWORD access, DWORD options, bool own_fd);
/* The same, for a file whose io target shares a lock (pipe ends). */
struct file *file_create_shared(int fd, DWORD access, DWORD options, bool own_fd,
				pthread_mutex_t *io_lock);

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

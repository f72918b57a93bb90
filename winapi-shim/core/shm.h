/* Per-user shared segments for named objects that other ndrun processes
 * must see (docs/processes.md): one file per name in
 * /dev/shm/ndshim-<uid>/ (mode 0700), no server.
 *
 * Lifetime follows Windows (the object lives while anyone holds it):
 * every holder keeps a shared flock on its fd; the holder that closes
 * last finds it can take the lock exclusively and unlinks the file.  A
 * file nobody holds (its last holder was killed) is stale: whoever
 * opens it next takes the exclusive lock, unlinks it and starts anew. */
#ifndef NDSHIM_SHM_H
#define NDSHIM_SHM_H

#include <stdbool.h>
#include <stdint.h>
#include <windef.h>
#include <winbase.h>

/* The segment for (kind, name), with a shared lock held: an existing
 * one (*existed), else (create) a new one of size bytes.  Local\ and
 * Global\ prefixes name the same per-user namespace.  *path gets its
 * file name (malloc'd) for shm_close_named.  -1 with *err
 * (ERROR_FILE_NOT_FOUND when !create and there is none). */
int shm_open_named(const char *kind, const WCHAR *name, bool create, uint64_t size, bool *existed,
		   DWORD *err, char **path);

/* shm_open_named, where a segment this call creates is first passed to
 * init(fd, ctx), before anyone else can see it (its contents are then
 * complete when others open it).  init returns 0, or -1 with errno to
 * give up.  It may be called more than once: a creation that loses the
 * race to another creator is discarded and the other's segment opened. */
int shm_open_named_init(const char *kind, const WCHAR *name, bool create, uint64_t size,
			int (*init)(int fd, void *ctx), void *ctx, bool *existed, DWORD *err,
			char **path);

/* Whether a segment (kind, name) exists now (a hint: it may go or come
 * right after). */
bool shm_named_exists(const char *kind, const WCHAR *name);

/* The holder is done with fd: the last one removes the segment.  Frees
 * path. */
void shm_close_named(int fd, char *path);

/* A segment descriptor that came from elsewhere (another process,
 * through DuplicateHandle or inheritance) with its own shared lock:
 * tracked like one shm_open_named gave, for shm_exit. */
void shm_adopt(int fd, const char *path);

/* At process exit: every segment this process still holds is closed as
 * shm_close_named would, so the last holder's exit removes its file
 * (a process ends without closing its handles). */
void shm_exit(void);

/* What killed or crashed processes left in the folder, removed: a
 * segment nobody holds (the exclusive flock is free), the handle
 * server's socket p<pid>.sock of a process that is gone.  ndrun calls
 * it at start-up; it costs one stat when the folder does not exist.
 * Returns how many files it removed. */
int shm_sweep_stale(void);

#endif

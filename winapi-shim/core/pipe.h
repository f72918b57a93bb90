/* Named pipes (\\.\pipe\name), in-process: CreateNamedPipe makes a
 * server end, CreateFile on the name a client end; both are struct file
 * objects (fd -1) sharing one pipe instance, whose lock is also both ends'
 * io-target lock.  Data a writer sends goes straight into the reader's
 * pending reads (completed on the writer's thread through io_complete),
 * else into the reader's queue: no helper thread, no polling.
 *
 * Byte and message types and read modes; writes never wait for buffer
 * space (the buffer sizes are advisory, as Windows allows).  The pipe
 * functions take a struct file with f->pipe set and follow ReadFile's
 * shape: TRUE, or FALSE with the last error set (ERROR_IO_PENDING for an
 * overlapped request left pending).  On a handle opened without
 * FILE_FLAG_OVERLAPPED they block until the request completes. */
#ifndef NDSHIM_PIPE_H
#define NDSHIM_PIPE_H

#include <stdbool.h>
#include <windef.h>
#include <winbase.h>

struct file;
struct pipe_instance;

/* Does name start with \\.\pipe\ (case-insensitively)? */
bool pipe_is_name(const WCHAR *name);

/* CreateNamedPipeW: INVALID_HANDLE_VALUE with the last error on failure. */
HANDLE pipe_create_server(const WCHAR *name, DWORD open_mode, DWORD pipe_mode, DWORD max_instances,
			  DWORD out_size, DWORD in_size);
/* CreateFileW on a pipe name: ERROR_FILE_NOT_FOUND when no instance has
 * the name, ERROR_PIPE_BUSY when none is listening. */
HANDLE pipe_open_client(const WCHAR *name, DWORD access, DWORD flags);

BOOL pipe_read(struct file *f, void *buf, DWORD len, DWORD *done, OVERLAPPED *ov);
BOOL pipe_write(struct file *f, const void *buf, DWORD len, DWORD *done, OVERLAPPED *ov);
BOOL pipe_connect(struct file *f, OVERLAPPED *ov);
BOOL pipe_disconnect(struct file *f);
BOOL pipe_peek(struct file *f, void *buf, DWORD size, DWORD *read, DWORD *avail, DWORD *left);
/* SetNamedPipeHandleState's read mode (PIPE_READMODE_*); NULL: unchanged. */
BOOL pipe_set_state(struct file *f, const DWORD *mode);

/* The full name (\\.\pipe\x) of the pipe whose server end f is, malloc'ed;
 * NULL for other files or when out of memory.  For opening a client end
 * relative to a server handle (NtOpenFile with an empty name). */
WCHAR *pipe_server_name(struct file *f);
/* The file's last handle is closing: its peer sees a broken pipe. */
void pipe_close_end(struct file *f);
/* The file object is destroyed: drop its reference on the instance. */
void pipe_release(struct pipe_instance *p);

#endif

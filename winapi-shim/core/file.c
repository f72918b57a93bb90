#include <stdlib.h>
#include <unistd.h>

#define WIN32_NO_STATUS
#include "core/conin.h"
#include "core/debug.h"
#include "core/file.h"
#include "core/filelock.h"
#include "core/handle.h"
#include "core/pipe.h"
#undef WIN32_NO_STATUS
#include <ntstatus.h>

static void file_destroy(struct object *obj)
{
	struct file *f = to_file(obj);

	TRACE(file, "fd %d%s\n", f->fd, f->unix_path ? " (delete on close)" : "");
	if (f->unix_path)
		unlink(f->unix_path);
	filelock_forget(f);
	if (f->dir_cursor)
		f->dir_cursor_free(f->dir_cursor);
	if (f->dir_watch)
		f->dir_watch_free(f->dir_watch);
	if (f->own_fd && f->fd >= 0)
		close(f->fd);
	io_target_destroy(&f->io);
	if (f->pipe)
		pipe_release(f->pipe);
	free(f->unix_path);
	free(f->console_pending);
	pthread_mutex_destroy(&f->lock);
	free(f);
}

static bool match_any(struct io_request *req, void *ctx)
{
	return true;
}

/* The last handle going away ends the file's pending requests, as the
 * I/O manager's cleanup does. */
static void file_close_handle(struct object *obj, unsigned int handles_left)
{
	struct file *f = to_file(obj);

	if (handles_left)
		return;
	if (f->pipe)
		pipe_close_end(f);
	conin_unwatch(f);
	io_cancel(&f->io, match_any, NULL, STATUS_CANCELLED);
	/* Windows releases the byte-range locks at cleanup, not when the
	 * last reference (a request in flight) goes. */
	filelock_forget(f);
}

/* Overlapped handles signal completions (core/overlapped.h).  A console
 * input handle is signaled while input waits (core/conin.h).  Other
 * synchronous handles are always signaled, as on Windows, where the file
 * object's event is set again as each synchronous request ends: a wait
 * on a redirected standard input returns at once, data or not. */
static bool file_signaled(struct object *obj, unsigned int tid)
{
	struct file *f = to_file(obj);

	if ((f->options & FILE_FLAG_OVERLAPPED) || (f->fd < 0 && !f->pipe))
		return io_target_signaled(&f->io);
	if (conin_is_input(f))
		return conin_signaled_locked(f);
	return true;
}

static bool file_satisfied(struct object *obj, unsigned int tid)
{
	return false;
}

static struct io_target *file_io_target(struct object *obj)
{
	return &to_file(obj)->io;
}

const struct object_ops file_ops = {
	.type_name = "file",
	.signaled = file_signaled,
	.satisfied = file_satisfied,
	.close_handle = file_close_handle,
	.io_target = file_io_target,
	.destroy = file_destroy,
};

DWORD file_map_generic(DWORD access)
{
	if (access & GENERIC_READ)
		access |= FILE_GENERIC_READ;
	if (access & GENERIC_WRITE)
		access |= FILE_GENERIC_WRITE;
	if (access & GENERIC_EXECUTE)
		access |= FILE_GENERIC_EXECUTE;
	if (access & GENERIC_ALL)
		access |= FILE_ALL_ACCESS;
	return access & ~(GENERIC_READ | GENERIC_WRITE | GENERIC_EXECUTE | GENERIC_ALL);
}

struct file *file_create_shared(int fd, DWORD access, DWORD options, bool own_fd,
				pthread_mutex_t *io_lock)
{
	struct file *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	object_init(&f->obj, &file_ops);
	f->fd = fd;
	f->access = file_map_generic(access);
	f->options = options;
	f->own_fd = own_fd;
	pthread_mutex_init(&f->lock, NULL);
	io_target_init(&f->io, &f->obj, io_lock);
	return f;
}

struct file *file_create(int fd, DWORD access, DWORD options, bool own_fd)
{
	return file_create_shared(fd, access, options, own_fd, NULL);
}

HANDLE file_create_handle(int fd, DWORD access, DWORD options, bool own_fd)
{
	struct file *f = file_create(fd, access, options, own_fd);
	HANDLE h;

	if (!f) {
		if (own_fd)
			close(fd);
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	h = handle_create(&f->obj, f->access, 0);
	object_unref(&f->obj);
	return h;
}

struct file *file_get(HANDLE h)
{
	struct object *obj;

	obj = handle_get(h, &file_ops);
	return obj ? to_file(obj) : NULL;
}

void file_release(struct file *f)
{
	object_unref(&f->obj);
}

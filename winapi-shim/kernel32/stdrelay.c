/* A named pipe end given to a child as its standard output or error.
 * Named pipes live inside this process (core/pipe.c) and have no fd for
 * the child to inherit, so the child gets the write end of a Linux pipe
 * and a relay thread here copies what arrives into the named pipe
 * through a handle of its own.  That handle keeps the pipe end open
 * until every writer in the child (and its children) is gone, so the
 * reader at the other end sees ERROR_BROKEN_PIPE exactly when the child
 * has finished writing, as with an inherited handle.  This is what
 * ninja does for every command it runs. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/debug.h"
#include "core/errors.h"
#include "core/file.h"
#include "core/handle.h"
#include "kernel32/kernel32_private.h"

struct relay {
	HANDLE h;   /* our own handle to the named pipe end */
	int fd;     /* read end of the Linux pipe */
	bool overlapped;
};

static bool relay_write(struct relay *r, const char *buf, DWORD len)
{
	OVERLAPPED ov = { 0 };
	DWORD done = 0;
	bool ok;

	if (!r->overlapped)
		return WriteFile(r->h, buf, len, &done, NULL) && done == len;
	if (!(ov.hEvent = CreateEventW(NULL, TRUE, FALSE, NULL)))
		return false;
	ok = WriteFile(r->h, buf, len, NULL, &ov) ||
	     (GetLastError() == ERROR_IO_PENDING && GetOverlappedResult(r->h, &ov, &done, TRUE));
	CloseHandle(ov.hEvent);
	return ok;
}

static void *relay_thread(void *arg)
{
	struct relay *r = arg;
	char buf[16384];
	ssize_t n;

	for (;;) {
		n = read(r->fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || !relay_write(r, buf, (DWORD)n))
			break;
	}
	TRACE(process, "relay for %p ends (%s)\n", r->h, n ? "reader gone" : "writers gone");
	close(r->fd);
	CloseHandle(r->h);
	free(r);
	return NULL;
}

int stdrelay_start(HANDLE h)
{
	struct object *obj = handle_get(h, &file_ops);
	struct relay *r = NULL;
	pthread_attr_t attr;
	sigset_t all, old;
	int fds[2] = { -1, -1 };
	pthread_t th;
	DWORD access = 0;
	bool ok = false;

	if (!obj)
		return -1;
	handle_get_info(h, &access, NULL);
	if (!to_file(obj)->pipe || !(to_file(obj)->access & FILE_WRITE_DATA) || !(r = calloc(1, sizeof(*r))) ||
	    pipe2(fds, O_CLOEXEC))
		goto out;
	r->fd = fds[0];
	r->overlapped = to_file(obj)->options & FILE_FLAG_OVERLAPPED;
	if (!(r->h = handle_create(obj, access, 0)))
		goto out;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	ok = !pthread_create(&th, &attr, relay_thread, r);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (!ok)
		CloseHandle(r->h);
out:
	object_unref(obj);
	if (!ok) {
		if (fds[0] >= 0)
			close(fds[0]);
		if (fds[1] >= 0)
			close(fds[1]);
		free(r);
		return -1;
	}
	TRACE(process, "named pipe end %p relayed from fd %d\n", h, fds[1]);
	return fds[1];
}

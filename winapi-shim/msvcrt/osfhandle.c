/* _get_osfhandle and _open_osfhandle: the Win32 handle behind a C
 * runtime file descriptor, and a descriptor for a handle.  The CRT's
 * descriptors are Linux ones (file.c), so each direction needs a
 * kernel32 file object: for a descriptor, one made over a duplicate of
 * it (the same open file, offset included) the first time it is asked
 * for and kept until the descriptor is closed; for a handle, a duplicate
 * of its file's descriptor, and the handle is closed with it, as
 * _close closes the handle on Windows.  A table entry remembers which
 * file (device and inode) it was made for, so a descriptor number that
 * was closed behind the CRT's back (and reused) is not given a stale
 * handle. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include "msvcrt/msvcrt_private.h"
#include "core/file.h"
#include "core/debug.h"

#define OSF_FDS 1024
#define CRT_O_APPEND 0x0008

struct osf {
	HANDLE handle;
	dev_t dev;
	ino_t ino;
};

static struct osf osf[OSF_FDS];
static pthread_mutex_t osf_lock = PTHREAD_MUTEX_INITIALIZER;

static int same_file(int fd, const struct osf *e)
{
	struct stat st;

	return !fstat(fd, &st) && st.st_dev == e->dev && st.st_ino == e->ino;
}

/* The descriptor is closed (or about to be reused): its handle goes. */
void crt_osf_closed(int fd)
{
	HANDLE h = NULL;

	if (fd < 0 || fd >= OSF_FDS)
		return;
	pthread_mutex_lock(&osf_lock);
	h = osf[fd].handle;
	osf[fd].handle = NULL;
	pthread_mutex_unlock(&osf_lock);
	if (h)
		CloseHandle(h);
}

static intptr_t get_osfhandle(int fd, int report)
{
	struct stat st;
	HANDLE h = INVALID_HANDLE_VALUE, stale = NULL;
	int flags, dup_fd;
	DWORD access;

	if (fd < 0 || fd >= OSF_FDS || fcntl(fd, F_GETFD) < 0) {
		crt_set_errno(EBADF);
		if (report)
			crt_invalid_parameter_noinfo();
		return (intptr_t)INVALID_HANDLE_VALUE;
	}
	if (fd <= 2)
		return (intptr_t)GetStdHandle(STD_INPUT_HANDLE - (DWORD)fd);
	pthread_mutex_lock(&osf_lock);
	if (osf[fd].handle) {
		if (same_file(fd, &osf[fd])) {
			h = osf[fd].handle;
			goto out;
		}
		stale = osf[fd].handle;
		osf[fd].handle = NULL;
	}
	flags = fcntl(fd, F_GETFL);
	access = (flags & O_ACCMODE) == O_RDONLY ? GENERIC_READ :
		 (flags & O_ACCMODE) == O_WRONLY ? GENERIC_WRITE : GENERIC_READ | GENERIC_WRITE;
	dup_fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (dup_fd < 0 || fstat(fd, &st) < 0) {
		if (dup_fd >= 0)
			close(dup_fd);
		crt_set_errno_host(errno);
		goto out;
	}
	h = file_create_handle(dup_fd, file_map_generic(access), 0, true);
	if (!h) {
		h = INVALID_HANDLE_VALUE;
		crt_set_errno(ENOMEM);
		goto out;
	}
	osf[fd].handle = h;
	osf[fd].dev = st.st_dev;
	osf[fd].ino = st.st_ino;
	TRACE(msvcrt, "fd %d -> handle %p\n", fd, h);
out:
	pthread_mutex_unlock(&osf_lock);
	if (stale)
		CloseHandle(stale);
	return (intptr_t)h;
}

/* msvcrt.dll reports a bad descriptor through errno only; the UCRT also
 * calls the invalid-parameter handler. */
intptr_t __cdecl crt__get_osfhandle(int fd)
{
	return get_osfhandle(fd, 0);
}

intptr_t __cdecl ucrt__get_osfhandle(int fd)
{
	return get_osfhandle(fd, 1);
}

int __cdecl crt__open_osfhandle(intptr_t handle, int flags)
{
	struct file *f = file_get((HANDLE)handle);
	struct stat st;
	int fd;

	if (!f) {
		crt_set_errno(EBADF);
		return -1;
	}
	if (f->fd < 0) {
		/* named pipe ends have no Linux descriptor to stand for them */
		file_release(f);
		crt_set_errno(EBADF);
		return -1;
	}
	fd = fcntl(f->fd, F_DUPFD_CLOEXEC, 3);
	file_release(f);
	if (fd < 0 || fd >= OSF_FDS || fstat(fd, &st) < 0) {
		if (fd >= 0)
			close(fd);
		crt_set_errno(EMFILE);
		return -1;
	}
	if (flags & CRT_O_APPEND)
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_APPEND);
	/* binary unless a text mode is asked for: _fmode does not count here */
	if (!(flags & (CRT_O_TEXT | CRT_O_WTEXT | CRT_O_U16TEXT | CRT_O_U8TEXT)))
		flags |= CRT_O_BINARY;
	crt_fd_opened(fd, flags);
	pthread_mutex_lock(&osf_lock);
	osf[fd].handle = (HANDLE)handle;
	osf[fd].dev = st.st_dev;
	osf[fd].ino = st.st_ino;
	pthread_mutex_unlock(&osf_lock);
	TRACE(msvcrt, "handle %p -> fd %d\n", (HANDLE)handle, fd);
	return fd;
}

/* Low-level I/O: msvcrt file descriptors are the Linux ones.  Text mode
 * is recorded (for _setmode) but never translates line ends. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "msvcrt/msvcrt_private.h"
#include "core/debug.h"
#include "core/path.h"

#define CRT_O_RDONLY 0x0000
#define CRT_O_WRONLY 0x0001
#define CRT_O_RDWR 0x0002
#define CRT_O_APPEND 0x0008
#define CRT_O_CREAT 0x0100
#define CRT_O_TRUNC 0x0200
#define CRT_O_EXCL 0x0400
#define CRT_S_IWRITE 0x0080

#define MODE_FDS 1024
static int fd_mode[MODE_FDS]; /* 0: never set, the default is _O_TEXT */

/* A path the program gave the C runtime as a Linux path, by the one path
 * policy kernel32 uses too (core/path.h: drives, devices such as NUL,
 * case-insensitive lookup).  Narrow names are in the CRT's encoding
 * (conv.c).  NULL with errno set: ENOENT for a name that maps to no file
 * (a missing drive, a device that does not exist), ENOMEM. */
char *crt_unix_path(const char *path)
{
	WCHAR *w = crt_utf8_to_wide_alloc(path);
	DWORD err = ERROR_NOT_ENOUGH_MEMORY;
	char *u = w ? path_to_unix(w, &err) : NULL;

	free(w);
	if (!u) {
		*crt___doserrno() = err;
		crt_set_errno(err == ERROR_NOT_ENOUGH_MEMORY ? ENOMEM : ENOENT);
	}
	return u;
}

static int text_mode_of(int flags)
{
	if (flags & (CRT_O_TEXT | CRT_O_BINARY | CRT_O_WTEXT | CRT_O_U16TEXT | CRT_O_U8TEXT))
		return flags & (CRT_O_TEXT | CRT_O_BINARY | CRT_O_WTEXT | CRT_O_U16TEXT | CRT_O_U8TEXT);
	return crt__fmode ? crt__fmode : CRT_O_TEXT;
}

void crt_fd_opened(int fd, int flags)
{
	if (fd >= 0 && fd < MODE_FDS)
		fd_mode[fd] = text_mode_of(flags);
}

static int open_unix(const char *path, int flags, int pmode)
{
	int uf = O_CLOEXEC;
	switch (flags & 3) {
	case CRT_O_RDONLY: uf |= O_RDONLY; break;
	case CRT_O_WRONLY: uf |= O_WRONLY; break;
	default: uf |= O_RDWR; break;
	}
	if (flags & CRT_O_APPEND)
		uf |= O_APPEND;
	if (flags & CRT_O_CREAT)
		uf |= O_CREAT;
	if (flags & CRT_O_TRUNC)
		uf |= O_TRUNC;
	if (flags & CRT_O_EXCL)
		uf |= O_EXCL;
	char *upath = crt_unix_path(path);
	if (!upath)
		return -1;
	/* _S_IWRITE absent: a read-only file */
	int fd = open(upath, uf, (pmode & CRT_S_IWRITE) ? 0666 : 0444);
	TRACE(msvcrt, "%s %#x -> %d\n", upath, flags, fd);
	free(upath);
	if (fd < 0) {
		crt_set_errno_host(errno);
		return -1;
	}
	if (fd < MODE_FDS)
		fd_mode[fd] = text_mode_of(flags);
	return fd;
}

int __cdecl crt__open(const char *path, int flags, ...)
{
	int pmode = 0;
	if (flags & CRT_O_CREAT) {
		__ms_va_list ap;
		__ms_va_start(ap, flags);
		pmode = __builtin_va_arg(ap, int);
		__ms_va_end(ap);
	}
	return open_unix(path, flags, pmode);
}

int __cdecl crt__wopen(const WCHAR *path, int flags, ...)
{
	int pmode = 0;
	if (flags & CRT_O_CREAT) {
		__ms_va_list ap;
		__ms_va_start(ap, flags);
		pmode = __builtin_va_arg(ap, int);
		__ms_va_end(ap);
	}
	char *p = crt_wide_to_utf8_alloc(path);
	if (!p) {
		crt_set_errno(ENOMEM);
		return -1;
	}
	int fd = open_unix(p, flags, pmode);
	free(p);
	return fd;
}

int __cdecl crt__read(int fd, void *buf, unsigned int count)
{
	ssize_t r;
	if (count > INT32_MAX)
		count = INT32_MAX;
	do
		r = read(fd, buf, count);
	while (r < 0 && errno == EINTR);
	if (r < 0) {
		crt_set_errno_host(errno);
		return -1;
	}
	return r;
}

int __cdecl crt__write(int fd, const void *buf, unsigned int count)
{
	size_t done = 0;
	while (done < count) {
		ssize_t r = write(fd, (const char *)buf + done, count - done);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			crt_set_errno_host(errno);
			return done ? (int)done : -1;
		}
		done += r;
	}
	return done;
}

int __cdecl crt__close(int fd)
{
	crt_osf_closed(fd);
	if (close(fd) < 0) {
		crt_set_errno_host(errno);
		return -1;
	}
	if (fd >= 0 && fd < MODE_FDS)
		fd_mode[fd] = 0;
	return 0;
}

int64_t __cdecl crt__lseeki64(int fd, int64_t off, int whence)
{
	if (whence < 0 || whence > 2) {
		crt_set_errno(EINVAL);
		return -1;
	}
	off_t r = lseek(fd, off, whence);
	if (r < 0) {
		crt_set_errno_host(errno);
		return -1;
	}
	return r;
}

int __cdecl crt__lseek(int fd, int off, int whence)
{
	int64_t r = crt__lseeki64(fd, off, whence);
	if (r > INT32_MAX) {
		crt_set_errno(EINVAL);
		return -1;
	}
	return r;
}

int64_t __cdecl crt__filelengthi64(int fd)
{
	struct stat st;
	if (fstat(fd, &st) < 0) {
		crt_set_errno_host(errno);
		return -1;
	}
	return st.st_size;
}

int __cdecl crt__filelength(int fd)
{
	int64_t r = crt__filelengthi64(fd);
	return r > INT32_MAX ? -1 : (int)r;
}

/* Windows mode bits: _S_IFDIR 0x4000, _S_IFCHR 0x2000, _S_IFIFO 0x1000,
 * _S_IFREG 0x8000, _S_IREAD 0x100, _S_IWRITE 0x80, _S_IEXEC 0x40,
 * repeated in the group and other triplets. */
int __cdecl crt__fstat64(int fd, struct crt_stat64 *buf)
{
	struct stat st;
	if (!buf) {
		crt_set_errno(EINVAL);
		return -1;
	}
	if (fstat(fd, &st) < 0) {
		crt_set_errno_host(errno);
		return -1;
	}
	memset(buf, 0, sizeof(*buf));
	unsigned short mode = 0;
	if (S_ISDIR(st.st_mode))
		mode = 0x4000;
	else if (S_ISCHR(st.st_mode))
		mode = 0x2000;
	else if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))
		mode = 0x1000;
	else
		mode = 0x8000;
	unsigned short perm = 0x100;
	if (st.st_mode & S_IWUSR)
		perm |= 0x80;
	if (st.st_mode & S_IXUSR || S_ISDIR(st.st_mode))
		perm |= 0x40;
	mode |= perm | (perm >> 3) | (perm >> 6);
	buf->st_mode = mode;
	buf->st_nlink = st.st_nlink;
	/* msvcrt reports the drive for files and the fd for devices */
	buf->st_dev = buf->st_rdev = S_ISREG(st.st_mode) || S_ISDIR(st.st_mode) ? 0 : fd;
	buf->st_size = st.st_size;
	buf->atime = st.st_atim.tv_sec;
	buf->mtime = st.st_mtim.tv_sec;
	buf->ctime_ = st.st_ctim.tv_sec;
	return 0;
}

int __cdecl crt__isatty(int fd)
{
	return isatty(fd) ? 0x40 : 0;
}

int __cdecl crt__setmode(int fd, int mode)
{
	int valid = CRT_O_TEXT | CRT_O_BINARY | CRT_O_WTEXT | CRT_O_U16TEXT | CRT_O_U8TEXT;
	if (fcntl(fd, F_GETFD) < 0 || fd >= MODE_FDS) {
		crt_set_errno(EBADF);
		return -1;
	}
	if (!mode || (mode & ~valid) || (mode & (mode - 1))) {
		crt_set_errno(EINVAL);
		return -1;
	}
	int old = fd_mode[fd] ? fd_mode[fd] : CRT_O_TEXT;
	fd_mode[fd] = mode;
	return old;
}

/* remove: files only, as on Windows (a folder gives EACCES there). */
int __cdecl crt_remove(const char *path)
{
	struct stat st;
	char *u = crt_unix_path(path);
	int r = -1;

	if (!u)
		return -1;
	if (!stat(u, &st) && S_ISDIR(st.st_mode))
		crt_set_errno(EACCES);
	else if (unlink(u) < 0)
		crt_set_errno_host(errno);
	else
		r = 0;
	free(u);
	return r;
}

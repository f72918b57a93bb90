/* Low-level I/O: msvcrt file descriptors are the Linux ones, each with
 * msvcrt's translation mode (docs/crt-text-mode.md): in text mode _write
 * turns "\n" into "\r\n" and _read "\r\n" into "\n" and stops at
 * Ctrl-Z; _O_U16TEXT and _O_WTEXT do the same with UTF-16 units, and
 * _O_U8TEXT writes UTF-16 as UTF-8.  Descriptors start in text mode
 * (_fmode's mode when it says binary), stdin, stdout and stderr too. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
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
#define CTRL_Z 0x1a
/* _umask's mask of _S_IREAD and _S_IWRITE for files _open creates */
int crt_umask_value;
static int fd_mode[MODE_FDS]; /* 0: never set, the default is _O_TEXT */
/* Text-mode reads: Ctrl-Z was seen (reads return 0 until a seek), and a
 * byte read ahead after a CR on a pipe or device (+1; 0: none). */
static unsigned char fd_ctrlz[MODE_FDS];
static short fd_ahead[MODE_FDS];

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
	if (fd >= 0 && fd < MODE_FDS) {
		fd_mode[fd] = text_mode_of(flags);
		fd_ctrlz[fd] = 0;
		fd_ahead[fd] = 0;
	}
}

int crt_fd_mode(int fd)
{
	if (fd < 0 || fd >= MODE_FDS || !fd_mode[fd])
		return CRT_O_TEXT;
	return fd_mode[fd];
}

void crt_fd_reset(int fd)
{
	if (fd >= 0 && fd < MODE_FDS) {
		fd_ctrlz[fd] = 0;
		fd_ahead[fd] = 0;
	}
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
	int fd = open(upath, uf, (pmode & ~crt_umask_value & CRT_S_IWRITE) ? 0666 : 0444);
	TRACE(msvcrt, "%s %#x -> %d\n", upath, flags, fd);
	free(upath);
	if (fd < 0) {
		crt_set_errno_host(errno);
		return -1;
	}
	crt_fd_opened(fd, flags);
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

static ssize_t read_raw(int fd, void *buf, size_t count)
{
	ssize_t r;

	do
		r = read(fd, buf, count);
	while (r < 0 && errno == EINTR);
	return r;
}

/* The byte after a CR at the end of what was read: read now, and given
 * back (a file seeks back to it, a pipe keeps it for the next read). */
static int next_byte(int fd, bool seekable)
{
	unsigned char c;

	if (read_raw(fd, &c, 1) != 1)
		return -1;
	if (seekable)
		lseek(fd, -1, SEEK_CUR);
	else
		fd_ahead[fd] = (short)(c + 1);
	return c;
}

/* Text mode on the bytes just read into buf[0..n): "\r\n" -> "\n", and
 * Ctrl-Z ends the data (the file position goes back to it).  Returns the
 * new count. */
static size_t text_read(int fd, char *buf, size_t n, bool seekable)
{
	size_t i = 0, o = 0;

	for (; i < n; i++) {
		if (buf[i] == CTRL_Z) {
			fd_ctrlz[fd] = 1;
			if (seekable)
				lseek(fd, -(off_t)(n - i), SEEK_CUR);
			break;
		}
		if (buf[i] == '\r') {
			if (i + 1 < n) {
				if (buf[i + 1] == '\n')
					continue;
			} else if (next_byte(fd, seekable) == '\n') {
				if (seekable)
					lseek(fd, 1, SEEK_CUR);
				else
					fd_ahead[fd] = 0;
				buf[o++] = '\n';
				break;
			}
		}
		buf[o++] = buf[i];
	}
	return o;
}

/* The same with UTF-16 units (_O_U16TEXT, _O_WTEXT): CR LF -> LF. */
static size_t text_read_wide(char *buf, size_t n)
{
	size_t o = 0;

	for (size_t i = 0; i + 1 < n; i += 2) {
		if (buf[i] == '\r' && !buf[i + 1] && i + 3 < n && buf[i + 2] == '\n' && !buf[i + 3])
			continue;
		buf[o++] = buf[i];
		buf[o++] = buf[i + 1];
	}
	return o;
}

int __cdecl crt__read(int fd, void *buf, unsigned int count)
{
	int mode = crt_fd_mode(fd);
	char *p = buf;
	size_t got = 0;
	ssize_t r;

	if (count > INT32_MAX)
		count = INT32_MAX;
	if (mode == CRT_O_BINARY || fd >= MODE_FDS) {
		if ((r = read_raw(fd, buf, count)) < 0) {
			crt_set_errno_host(errno);
			return -1;
		}
		return (int)r;
	}
	if ((mode == CRT_O_U16TEXT || mode == CRT_O_WTEXT) && (count & 1)) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return -1;
	}
	if (fd_ctrlz[fd] || !count)
		return 0;
	if (fd_ahead[fd] && mode != CRT_O_U16TEXT && mode != CRT_O_WTEXT) {
		p[got++] = (char)(fd_ahead[fd] - 1);
		fd_ahead[fd] = 0;
	}
	if ((r = read_raw(fd, p + got, count - got)) < 0) {
		if (got)
			r = 0;
		else {
			crt_set_errno_host(errno);
			return -1;
		}
	}
	got += (size_t)r;
	if (mode == CRT_O_U16TEXT || mode == CRT_O_WTEXT)
		return (int)text_read_wide(p, got);
	return (int)text_read(fd, p, got, lseek(fd, 0, SEEK_CUR) >= 0);
}

static int write_raw(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t r = write(fd, p, n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			crt_set_errno_host(errno);
			return -1;
		}
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

/* Text modes: the program's bytes (or UTF-16 units) translated in
 * chunks; the count of the program's bytes that went out whole. */
int __cdecl crt__write(int fd, const void *buf, unsigned int count)
{
	int mode = crt_fd_mode(fd);
	const char *s = buf;
	char chunk[1024];
	size_t done = 0;

	if (mode == CRT_O_BINARY || fd >= MODE_FDS) {
		while (done < count) {
			ssize_t r = write(fd, s + done, count - done);
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
	if (mode != CRT_O_TEXT && (count & 1)) {
		/* the wide modes write whole UTF-16 units */
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return -1;
	}
	while (done < count) {
		size_t k = 0, from = done;

		if (mode == CRT_O_TEXT) {
			while (done < count && k < sizeof(chunk) - 1) {
				if (s[done] == '\n')
					chunk[k++] = '\r';
				chunk[k++] = s[done++];
			}
		} else if (mode == CRT_O_U8TEXT) {
			/* UTF-16 in, UTF-8 out (a pair as one character) */
			while (done + 1 < count && k < sizeof(chunk) - 8) {
				unsigned int u = (unsigned char)s[done] | (unsigned char)s[done + 1] << 8;

				done += 2;
				if (u >= 0xd800 && u < 0xdc00 && done + 1 < count) {
					unsigned int l = (unsigned char)s[done] | (unsigned char)s[done + 1] << 8;

					if (l >= 0xdc00 && l < 0xe000) {
						u = 0x10000 + ((u - 0xd800) << 10) + (l - 0xdc00);
						done += 2;
					}
				}
				if (u == '\n')
					chunk[k++] = '\r';
				k += crt_encode_wchar(u, chunk + k);
			}
		} else {
			while (done + 1 < count && k < sizeof(chunk) - 4) {
				if (s[done] == '\n' && !s[done + 1]) {
					chunk[k++] = '\r';
					chunk[k++] = 0;
				}
				chunk[k++] = s[done++];
				chunk[k++] = s[done++];
			}
		}
		if (write_raw(fd, chunk, k) < 0)
			return from ? (int)from : -1;
	}
	return (int)count;
}

int __cdecl crt__close(int fd)
{
	crt_osf_closed(fd);
	if (close(fd) < 0) {
		crt_set_errno_host(errno);
		return -1;
	}
	if (fd >= 0 && fd < MODE_FDS) {
		fd_mode[fd] = 0;
		crt_fd_reset(fd);
	}
	return 0;
}

int64_t __cdecl crt__lseeki64(int fd, int64_t off, int whence)
{
	if (whence < 0 || whence > 2) {
		crt_set_errno(EINVAL);
		return -1;
	}
	off_t r = lseek(fd, off, whence);
	crt_fd_reset(fd);
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

/* io.h beyond _open/_read/_write (file.c): _sopen and _creat (share
 * flags are not enforced between processes here: Linux has no mandatory
 * sharing), _dup/_dup2 (the copy keeps the text mode), _eof, _tell,
 * _chsize, _commit, _umask, _pipe, _chmod and _mktemp. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "msvcrt/msvcrt_private.h"

#define CRT_O_CREAT 0x0100
#define CRT_O_TRUNC 0x0200
#define CRT_O_WRONLY 0x0001
#define CRT_O_NOINHERIT 0x0080
#define CRT_S_IWRITE 0x0080
#define CRT_S_IREAD 0x0100

static int fail(int err)
{
	crt_set_errno(err);
	crt_invalid_parameter_noinfo();
	return err;
}

int __cdecl crt__sopen(const char *path, int flags, int share, ...)
{
	int pmode = 0;

	(void)share;
	if (flags & CRT_O_CREAT) {
		__ms_va_list ap;

		__ms_va_start(ap, share);
		pmode = __builtin_va_arg(ap, int);
		__ms_va_end(ap);
	}
	return crt__open(path, flags, pmode);
}

int __cdecl crt__wsopen(const WCHAR *path, int flags, int share, ...)
{
	int pmode = 0;

	(void)share;
	if (flags & CRT_O_CREAT) {
		__ms_va_list ap;

		__ms_va_start(ap, share);
		pmode = __builtin_va_arg(ap, int);
		__ms_va_end(ap);
	}
	return crt__wopen(path, flags, pmode);
}

int __cdecl crt__sopen_s(int *fd, const char *path, int flags, int share, int pmode)
{
	(void)share;
	if (!fd)
		return fail(EINVAL);
	*fd = -1;
	if (!path || (pmode & ~(CRT_S_IREAD | CRT_S_IWRITE)))
		return fail(EINVAL);
	*fd = crt__open(path, flags, pmode);
	return *fd < 0 ? *crt__errno() : 0;
}

int __cdecl crt__wsopen_s(int *fd, const WCHAR *path, int flags, int share, int pmode)
{
	(void)share;
	if (!fd)
		return fail(EINVAL);
	*fd = -1;
	if (!path || (pmode & ~(CRT_S_IREAD | CRT_S_IWRITE)))
		return fail(EINVAL);
	*fd = crt__wopen(path, flags, pmode);
	return *fd < 0 ? *crt__errno() : 0;
}

int __cdecl crt__creat(const char *path, int pmode)
{
	return crt__open(path, CRT_O_CREAT | CRT_O_TRUNC | CRT_O_WRONLY, pmode);
}

int __cdecl crt__wcreat(const WCHAR *path, int pmode)
{
	return crt__wopen(path, CRT_O_CREAT | CRT_O_TRUNC | CRT_O_WRONLY, pmode);
}

/* ---- descriptors ------------------------------------------------------------------ */

static bool valid_fd(int fd)
{
	if (fd < 0 || fcntl(fd, F_GETFD) < 0) {
		crt_set_errno(EBADF);
		return false;
	}
	return true;
}

int __cdecl crt__dup(int fd)
{
	int d;

	if (!valid_fd(fd))
		return -1;
	d = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (d < 0) {
		crt_set_errno_host(errno);
		return -1;
	}
	crt_fd_opened(d, crt_fd_mode(fd));
	return d;
}

/* to becomes a copy of from (to's old file closed first, and the handle
 * _get_osfhandle made for it); stdout's and stderr's Win32 handles
 * follow, as on Windows. */
int __cdecl crt__dup2(int from, int to)
{
	if (!valid_fd(from) || to < 0) {
		crt_set_errno(EBADF);
		return -1;
	}
	if (from == to)
		return 0;
	crt_osf_closed(to);
	if (dup3(from, to, to <= 2 ? 0 : O_CLOEXEC) < 0) {
		crt_set_errno_host(errno);
		return -1;
	}
	crt_fd_opened(to, crt_fd_mode(from));
	return 0;
}

int64_t __cdecl crt__telli64(int fd)
{
	return crt__lseeki64(fd, 0, SEEK_CUR);
}

int __cdecl crt__tell(int fd)
{
	return crt__lseek(fd, 0, SEEK_CUR);
}

/* 1 at the end of the file, 0 before it, -1 for a bad descriptor. */
int __cdecl crt__eof(int fd)
{
	off_t here, end;

	if (!valid_fd(fd))
		return -1;
	here = lseek(fd, 0, SEEK_CUR);
	if (here < 0) {
		crt_set_errno_host(errno);
		return -1;
	}
	end = lseek(fd, 0, SEEK_END);
	lseek(fd, here, SEEK_SET);
	return here >= end;
}

int __cdecl crt__chsize_s(int fd, int64_t size)
{
	if (!valid_fd(fd))
		return fail(EBADF);
	if (size < 0)
		return fail(EINVAL);
	if (ftruncate(fd, size) < 0) {
		crt_set_errno_host(errno == EINVAL ? EACCES : errno);
		return *crt__errno();
	}
	return 0;
}

int __cdecl crt__chsize(int fd, int size)
{
	return crt__chsize_s(fd, size) ? -1 : 0;
}

int __cdecl crt__commit(int fd)
{
	if (!valid_fd(fd))
		return -1;
	if (fsync(fd) < 0 && errno != EINVAL) {
		crt_set_errno_host(errno);
		return -1;
	}
	return 0;
}

int __cdecl crt__umask(int mode)
{
	int old = crt_umask_value;

	crt_umask_value = mode & (CRT_S_IREAD | CRT_S_IWRITE);
	return old;
}

int __cdecl crt__umask_s(int mode, int *old)
{
	if (!old || (mode & ~(CRT_S_IREAD | CRT_S_IWRITE)))
		return fail(EINVAL);
	*old = crt__umask(mode);
	return 0;
}

/* A pipe as two descriptors in mode (_O_BINARY, _O_TEXT or _fmode's). */
int __cdecl crt__pipe(int *fds, unsigned int size, int mode)
{
	int p[2];

	(void)size;
	if (!fds)
		return fail(EINVAL);
	if (pipe2(p, O_CLOEXEC) < 0) {
		crt_set_errno_host(errno);
		return -1;
	}
	crt_fd_opened(p[0], mode & ~CRT_O_NOINHERIT);
	crt_fd_opened(p[1], mode & ~CRT_O_NOINHERIT);
	fds[0] = p[0];
	fds[1] = p[1];
	return 0;
}

/* ---- files by name ---------------------------------------------------------------- */

/* _S_IWRITE: writable; without it, read-only (Windows' one permission). */
int __cdecl crt__chmod(const char *path, int mode)
{
	struct stat st;
	char *u;
	int r = -1;

	if (!path)
		return fail(EINVAL), -1;
	if (!(u = crt_unix_path(path))) {
		crt_set_errno(ENOMEM);
		return -1;
	}
	if (stat(u, &st) < 0)
		crt_set_errno_host(errno);
	else if (chmod(u, (mode & CRT_S_IWRITE) ? (st.st_mode | S_IWUSR) : (st.st_mode & ~(mode_t)(S_IWUSR | S_IWGRP |
												   S_IWOTH))) < 0)
		crt_set_errno_host(errno);
	else
		r = 0;
	free(u);
	return r;
}

int __cdecl crt__wchmod(const WCHAR *path, int mode)
{
	char *u;
	int r;

	if (!path)
		return fail(EINVAL), -1;
	if (!(u = crt_wide_to_utf8_alloc(path))) {
		crt_set_errno(ENOMEM);
		return -1;
	}
	r = crt__chmod(u, mode);
	free(u);
	return r;
}

/* _mktemp: the template's six trailing X become a letter and five digits
 * of the thread's id; letters from 'a' on until the name is not taken. */
static int mktemp_units(void *tmpl, size_t len, int wide)
{
	unsigned int id = (unsigned int)GetCurrentThreadId() % 100000;
	char name[4096];
	size_t start;

	if (len < 6)
		return -1;
	start = len - 6;
	for (size_t i = start; i < len; i++)
		if ((wide ? ((WCHAR *)tmpl)[i] : ((char *)tmpl)[i]) != 'X')
			return -1;
	for (int i = 5; i >= 1; i--, id /= 10) {
		if (wide)
			((WCHAR *)tmpl)[start + (size_t)i] = (WCHAR)('0' + id % 10);
		else
			((char *)tmpl)[start + (size_t)i] = (char)('0' + id % 10);
	}
	for (char letter = 'a'; letter <= 'z'; letter++) {
		char *u;
		bool taken;

		if (wide) {
			((WCHAR *)tmpl)[start] = (WCHAR)letter;
			if (crt_wide_to_utf8(tmpl, len + 1, name, sizeof(name)) != len + 1)
				return -1;
		} else {
			((char *)tmpl)[start] = letter;
			if (len + 1 > sizeof(name))
				return -1;
			memcpy(name, tmpl, len + 1);
		}
		u = crt_unix_path(name);
		taken = u && !access(u, F_OK);
		free(u);
		if (!taken)
			return 0;
	}
	return -1;
}

char *__cdecl crt__mktemp(char *tmpl)
{
	if (!tmpl) {
		fail(EINVAL);
		return NULL;
	}
	if (mktemp_units(tmpl, strlen(tmpl), 0)) {
		crt_set_errno(EINVAL);
		return NULL;
	}
	return tmpl;
}

WCHAR *__cdecl crt__wmktemp(WCHAR *tmpl)
{
	if (!tmpl) {
		fail(EINVAL);
		return NULL;
	}
	if (mktemp_units(tmpl, crt_wcslen(tmpl), 1)) {
		crt_set_errno(EINVAL);
		return NULL;
	}
	return tmpl;
}

int __cdecl crt__mktemp_s(char *tmpl, size_t size)
{
	size_t len;

	if (!tmpl || !size || (len = strnlen(tmpl, size)) >= size || mktemp_units(tmpl, len, 0))
		return fail(EINVAL);
	return 0;
}

int __cdecl crt__wmktemp_s(WCHAR *tmpl, size_t size)
{
	size_t len;

	if (!tmpl || !size || (len = crt_wcsnlen(tmpl, size)) >= size || mktemp_units(tmpl, len, 1))
		return fail(EINVAL);
	return 0;
}

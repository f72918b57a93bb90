/* The UCRT's filesystem set over kernel32, so that folders and paths
 * follow the one path policy (core/path.h) the Win32 calls use: the
 * current directory, folders, unlink/rename, _access, _fullpath and the
 * program's path.  Narrow paths are UTF-8 (conv.c); Win32 errors become
 * errno values here, the Win32 code going to _doserrno. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msvcrt/msvcrt_private.h"

/* The CRT's mapping of the Win32 errors a file-system call can give. */
static int fail_win32(void)
{
	DWORD e = GetLastError();
	int err;

	switch (e) {
	case ERROR_FILE_NOT_FOUND:
	case ERROR_PATH_NOT_FOUND:
	case ERROR_INVALID_DRIVE:
	case ERROR_BAD_PATHNAME:
		err = ENOENT;
		break;
	case ERROR_ACCESS_DENIED:
	case ERROR_SHARING_VIOLATION:
	case ERROR_LOCK_VIOLATION:
	case ERROR_CURRENT_DIRECTORY:
		err = EACCES;
		break;
	case ERROR_ALREADY_EXISTS:
	case ERROR_FILE_EXISTS:
		err = EEXIST;
		break;
	case ERROR_DIR_NOT_EMPTY:
		err = CRT_ENOTEMPTY;
		break;
	case ERROR_NOT_ENOUGH_MEMORY:
	case ERROR_OUTOFMEMORY:
		err = ENOMEM;
		break;
	case ERROR_FILENAME_EXCED_RANGE:
		err = CRT_ENAMETOOLONG;
		break;
	default:
		err = EINVAL;
		break;
	}
	*crt___doserrno() = e;
	crt_set_errno(err);
	return -1;
}

static WCHAR *wide_path(const char *path)
{
	WCHAR *w;

	if (!path) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return NULL;
	}
	w = crt_utf8_to_wide_alloc(path);
	if (!w)
		crt_set_errno(ENOMEM);
	return w;
}

WCHAR *__cdecl crt__wgetcwd(WCHAR *buf, int size)
{
	DWORD need = GetCurrentDirectoryW(0, NULL);

	if (!need) {
		fail_win32();
		return NULL;
	}
	if (!buf) {
		size_t n = (size_t)size > need ? (size_t)size : need;
		buf = crt_malloc(n * sizeof(WCHAR));
		if (!buf) {
			crt_set_errno(ENOMEM);
			return NULL;
		}
	} else if (size <= 0 || (DWORD)size < need) {
		crt_set_errno(ERANGE);
		return NULL;
	}
	GetCurrentDirectoryW(need, buf);
	return buf;
}

char *__cdecl crt__getcwd(char *buf, int size)
{
	WCHAR *w = crt__wgetcwd(NULL, 0);
	size_t need;

	if (!w)
		return NULL;
	need = crt_wide_to_utf8(w, crt_wcslen(w), NULL, 0) + 1;
	if (!buf) {
		buf = crt_malloc((size_t)size > need ? (size_t)size : need);
		if (!buf) {
			crt_free(w);
			crt_set_errno(ENOMEM);
			return NULL;
		}
	} else if (size <= 0 || (size_t)size < need) {
		crt_free(w);
		crt_set_errno(ERANGE);
		return NULL;
	}
	crt_wide_to_utf8(w, crt_wcslen(w), buf, need - 1);
	buf[need - 1] = 0;
	crt_free(w);
	return buf;
}

/* The current directory's drive: 1 for A: ... 26 for Z:, 0 when it has
 * none (a UNC path). */
int __cdecl crt__getdrive(void)
{
	WCHAR *cwd = crt__wgetcwd(NULL, 0);
	int drive = 0;

	if (cwd && cwd[0] && cwd[1] == ':') {
		WCHAR c = cwd[0] | 0x20;

		if (c >= 'a' && c <= 'z')
			drive = c - 'a' + 1;
	}
	crt_free(cwd);
	return drive;
}

int __cdecl crt__wchdir(const WCHAR *path)
{
	if (!path)
		return crt_invalid_arg();
	return SetCurrentDirectoryW(path) ? 0 : fail_win32();
}

int __cdecl crt__wmkdir(const WCHAR *path)
{
	if (!path)
		return crt_invalid_arg();
	return CreateDirectoryW(path, NULL) ? 0 : fail_win32();
}

int __cdecl crt__wrmdir(const WCHAR *path)
{
	if (!path)
		return crt_invalid_arg();
	return RemoveDirectoryW(path) ? 0 : fail_win32();
}

int __cdecl crt__wunlink(const WCHAR *path)
{
	if (!path)
		return crt_invalid_arg();
	return DeleteFileW(path) ? 0 : fail_win32();
}

/* mode: 0 existence, 2 write, 4 read, 6 both; a read-only file fails
 * for writing, folders are always readable and writable. */
int __cdecl crt__waccess(const WCHAR *path, int mode)
{
	DWORD attr;

	if (!path || (mode & ~6))
		return crt_invalid_arg();
	attr = GetFileAttributesW(path);
	if (attr == INVALID_FILE_ATTRIBUTES)
		return fail_win32();
	if ((mode & 2) && (attr & FILE_ATTRIBUTE_READONLY) && !(attr & FILE_ATTRIBUTE_DIRECTORY)) {
		crt_set_errno(EACCES);
		return -1;
	}
	return 0;
}

#define NARROW(name, wname)                                     \
	int __cdecl crt_##name(const char *path)                \
	{                                                       \
		WCHAR *w = wide_path(path);                     \
		int r = w ? crt_##wname(w) : -1;                \
		free(w);                                        \
		return r;                                       \
	}
NARROW(_chdir, _wchdir)
NARROW(_mkdir, _wmkdir)
NARROW(_rmdir, _wrmdir)
NARROW(_unlink, _wunlink)
#undef NARROW

int __cdecl crt__access(const char *path, int mode)
{
	WCHAR *w = wide_path(path);
	int r = w ? crt__waccess(w, mode) : -1;

	free(w);
	return r;
}

/* rename: fails when the new name exists, as on Windows. */
int __cdecl crt_rename(const char *from, const char *to)
{
	char *a = from ? crt_unix_path(from) : NULL, *b = a && to ? crt_unix_path(to) : NULL;
	int r = -1;

	if (!from || !to) {
		crt_set_errno(EINVAL);
	} else if (!a || !b) {
		/* errno set by crt_unix_path */
	} else if (!access(b, F_OK)) {
		crt_set_errno(EEXIST);
	} else if (rename(a, b) < 0) {
		crt_set_errno_host(errno);
	} else {
		r = 0;
	}
	free(a);
	free(b);
	return r;
}

char *__cdecl crt__fullpath(char *out, const char *rel, size_t size)
{
	WCHAR *w, full[MAX_PATH * 4];
	DWORD n;
	size_t need;

	if (!rel || !*rel)
		return crt__getcwd(out, (int)size);
	w = wide_path(rel);
	if (!w)
		return NULL;
	n = GetFullPathNameW(w, sizeof(full) / sizeof(full[0]), full, NULL);
	free(w);
	if (!n || n >= sizeof(full) / sizeof(full[0])) {
		if (n)
			crt_set_errno(ERANGE);
		else
			fail_win32();
		return NULL;
	}
	need = crt_wide_to_utf8(full, n, NULL, 0) + 1;
	if (!out) {
		out = crt_malloc(need);
		if (!out) {
			crt_set_errno(ENOMEM);
			return NULL;
		}
	} else if (size < need) {
		crt_set_errno(ERANGE);
		return NULL;
	}
	crt_wide_to_utf8(full, n, out, need - 1);
	out[need - 1] = 0;
	return out;
}

/* The program's path, as GetModuleFileName reports it. */
static char *pgmptr;
static WCHAR *wpgmptr;

static void init_pgmptr(void)
{
	static WCHAR path[MAX_PATH * 4];

	if (wpgmptr)
		return;
	if (!GetModuleFileNameW(NULL, path, sizeof(path) / sizeof(path[0])))
		return;
	pgmptr = crt_wide_to_utf8_alloc(path);
	wpgmptr = path;
}

int __cdecl crt__get_pgmptr(char **out)
{
	if (!out) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return EINVAL;
	}
	init_pgmptr();
	*out = pgmptr;
	return 0;
}

int __cdecl crt__get_wpgmptr(WCHAR **out)
{
	if (!out) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return EINVAL;
	}
	init_pgmptr();
	*out = wpgmptr;
	return 0;
}

int __cdecl crt__wrename(const WCHAR *from, const WCHAR *to)
{
	char *a = from ? crt_wide_to_utf8_alloc(from) : NULL, *b = to ? crt_wide_to_utf8_alloc(to) : NULL;
	int r = -1;

	if (a && b)
		r = crt_rename(a, b);
	else
		crt_set_errno(from && to ? ENOMEM : EINVAL);
	free(a);
	free(b);
	return r;
}

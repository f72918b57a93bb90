/* _findfirst, _findnext, _findclose (io.h) over kernel32's
 * FindFirstFileW, in each of the runtimes' layouts: the times 32 or 64
 * bits, the size 32 or 64, the name narrow (the CRT's UTF-8) or wide.
 * _findfirst returns a handle (-1 and errno ENOENT when nothing matches);
 * attrib is the file's attributes with FILE_ATTRIBUTE_NORMAL as
 * _A_NORMAL (0). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "msvcrt/msvcrt_private.h"

#define NAME_MAX_ 260

/* The four layouts, narrow and wide (offsets as in io.h, x64). */
#define FINDDATA(tag, time_t_, size_t_, ch)                                                             \
	struct crt_##tag {                                                                              \
		unsigned int attrib;                                                                    \
		time_t_ time_create, time_access, time_write;                                          \
		size_t_ size;                                                                           \
		ch name[NAME_MAX_];                                                                     \
	};
FINDDATA(finddata32, int, unsigned int, char)
FINDDATA(finddata32i64, int, int64_t, char)
FINDDATA(finddata64i32, int64_t, unsigned int, char)
FINDDATA(finddata64, int64_t, int64_t, char)
FINDDATA(wfinddata32, int, unsigned int, WCHAR)
FINDDATA(wfinddata32i64, int, int64_t, WCHAR)
FINDDATA(wfinddata64i32, int64_t, unsigned int, WCHAR)
FINDDATA(wfinddata64, int64_t, int64_t, WCHAR)
_Static_assert(sizeof(struct crt_finddata32) == 280, "_finddata32_t");
_Static_assert(sizeof(struct crt_finddata32i64) == 288, "_finddata32i64_t");
_Static_assert(sizeof(struct crt_finddata64i32) == 296, "_finddata64i32_t");
_Static_assert(sizeof(struct crt_finddata64) == 304, "_finddata64_t");
_Static_assert(sizeof(struct crt_wfinddata64) == 560, "_wfinddata64_t");

static int64_t unix_time(const FILETIME *ft)
{
	uint64_t t = (uint64_t)ft->dwHighDateTime << 32 | ft->dwLowDateTime;

	if (!t)
		return -1;
	return (int64_t)(t / 10000000) - 11644473600LL;
}

/* The parts every layout has; the name is the caller's to copy. */
struct found {
	unsigned int attrib;
	int64_t create, access, write, size;
};

static void found_of(const WIN32_FIND_DATAW *fd, struct found *f)
{
	f->attrib = fd->dwFileAttributes == FILE_ATTRIBUTE_NORMAL ? 0 : fd->dwFileAttributes;
	f->create = unix_time(&fd->ftCreationTime);
	f->access = unix_time(&fd->ftLastAccessTime);
	f->write = unix_time(&fd->ftLastWriteTime);
	f->size = (int64_t)((uint64_t)fd->nFileSizeHigh << 32 | fd->nFileSizeLow);
}

static void set_errno_from_find(DWORD err)
{
	crt_set_errno(err == ERROR_NOT_ENOUGH_MEMORY ? ENOMEM : err == ERROR_INVALID_NAME ? EINVAL : ENOENT);
}

static HANDLE first(const WCHAR *pattern, WIN32_FIND_DATAW *fd)
{
	HANDLE h;

	if (!pattern) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return INVALID_HANDLE_VALUE;
	}
	h = FindFirstFileW(pattern, fd);
	if (h == INVALID_HANDLE_VALUE)
		set_errno_from_find(GetLastError());
	return h;
}

static HANDLE first_narrow(const char *pattern, WIN32_FIND_DATAW *fd)
{
	WCHAR *w;
	HANDLE h;

	if (!pattern)
		return first(NULL, fd);
	if (!(w = crt_utf8_to_wide_alloc(pattern))) {
		crt_set_errno(ENOMEM);
		return INVALID_HANDLE_VALUE;
	}
	h = first(w, fd);
	free(w);
	return h;
}

static int next(intptr_t handle, WIN32_FIND_DATAW *fd)
{
	if (!FindNextFileW((HANDLE)handle, fd)) {
		set_errno_from_find(GetLastError());
		return -1;
	}
	return 0;
}

/* Fills one layout from fd: tag, its time and size types, narrow or wide. */
#define FILL(tag, time_t_, size_t_, wide)                                                                \
	static int fill_##tag(const WIN32_FIND_DATAW *fd, struct crt_##tag *d)                          \
	{                                                                                               \
		struct found f;                                                                         \
		found_of(fd, &f);                                                                       \
		d->attrib = f.attrib;                                                                   \
		d->time_create = (time_t_)f.create;                                                     \
		d->time_access = (time_t_)f.access;                                                     \
		d->time_write = (time_t_)f.write;                                                       \
		d->size = (size_t_)f.size;                                                              \
		if (wide)                                                                               \
			memcpy(d->name, fd->cFileName, sizeof(fd->cFileName));                          \
		else                                                                                    \
			crt_wide_to_utf8(fd->cFileName, crt_wcslen(fd->cFileName) + 1, (char *)d->name, \
					 NAME_MAX_);                                                    \
		return 0;                                                                               \
	}

/* _findfirstXX/_findnextXX for one layout. */
#define FORMS(tag, first_name, next_name, ch, first_fn)                                                 \
	intptr_t __cdecl first_name(const ch *pattern, struct crt_##tag *d)                             \
	{                                                                                               \
		WIN32_FIND_DATAW fd;                                                                    \
		HANDLE h;                                                                               \
		if (!d) {                                                                               \
			crt_set_errno(EINVAL);                                                          \
			crt_invalid_parameter_noinfo();                                                 \
			return -1;                                                                      \
		}                                                                                       \
		h = first_fn(pattern, &fd);                                                             \
		if (h == INVALID_HANDLE_VALUE)                                                          \
			return -1;                                                                      \
		fill_##tag(&fd, d);                                                                     \
		return (intptr_t)h;                                                                     \
	}                                                                                               \
	int __cdecl next_name(intptr_t handle, struct crt_##tag *d)                                     \
	{                                                                                               \
		WIN32_FIND_DATAW fd;                                                                    \
		if (!d) {                                                                               \
			crt_set_errno(EINVAL);                                                          \
			crt_invalid_parameter_noinfo();                                                 \
			return -1;                                                                      \
		}                                                                                       \
		if (next(handle, &fd))                                                                  \
			return -1;                                                                      \
		return fill_##tag(&fd, d);                                                              \
	}

FILL(finddata32, int, unsigned int, 0)
FILL(finddata32i64, int, int64_t, 0)
FILL(finddata64i32, int64_t, unsigned int, 0)
FILL(finddata64, int64_t, int64_t, 0)
FILL(wfinddata32, int, unsigned int, 1)
FILL(wfinddata32i64, int, int64_t, 1)
FILL(wfinddata64i32, int64_t, unsigned int, 1)
FILL(wfinddata64, int64_t, int64_t, 1)

FORMS(finddata32, crt__findfirst32, crt__findnext32, char, first_narrow)
FORMS(finddata32i64, crt__findfirst32i64, crt__findnext32i64, char, first_narrow)
FORMS(finddata64i32, crt__findfirst64i32, crt__findnext64i32, char, first_narrow)
FORMS(finddata64, crt__findfirst64, crt__findnext64, char, first_narrow)
FORMS(wfinddata32, crt__wfindfirst32, crt__wfindnext32, WCHAR, first)
FORMS(wfinddata32i64, crt__wfindfirst32i64, crt__wfindnext32i64, WCHAR, first)
FORMS(wfinddata64i32, crt__wfindfirst64i32, crt__wfindnext64i32, WCHAR, first)
FORMS(wfinddata64, crt__wfindfirst64, crt__wfindnext64, WCHAR, first)

int __cdecl crt__findclose(intptr_t handle)
{
	if (!FindClose((HANDLE)handle)) {
		crt_set_errno(ENOENT);
		return -1;
	}
	return 0;
}

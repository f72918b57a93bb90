/* What an open file handle names and how it changes (fileapi.h,
 * winbase.h): GetFinalPathNameByHandle, SetFileInformationByHandle,
 * GetFileTime/SetFileTime.  The kernel knows the path of an open
 * descriptor (/proc/self/fd), which the path policy (core/path.h) turns
 * into C:\...; the rest is fstat/futimens/ftruncate. */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/debug.h"
#include "core/errors.h"
#include "core/file.h"
#include "core/path.h"
#include "core/wstr.h"
#include "core/codepage.h"
#include "kernel32/kernel32_private.h"

#define VOLUME_NAME_MASK (VOLUME_NAME_GUID | VOLUME_NAME_NT | VOLUME_NAME_NONE)

DWORD WINAPI GetFinalPathNameByHandleW(HANDLE h, LPWSTR buf, DWORD size, DWORD flags)
{
	static const WCHAR prefix[] = { '\\', '\\', '?', '\\', 0 };
	char link[64], target[PATH_MAX];
	struct file *f;
	WCHAR *dos, *name;
	DWORD len, ret;
	ssize_t n;

	TRACE(file, "%p %p %u %#x\n", h, buf, (unsigned)size, (unsigned)flags);
	if (flags & ~(VOLUME_NAME_MASK | FILE_NAME_OPENED)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return 0;
	}
	/* Volume GUIDs and NT device names do not exist on Linux. */
	if ((flags & VOLUME_NAME_MASK) == VOLUME_NAME_GUID || (flags & VOLUME_NAME_MASK) == VOLUME_NAME_NT) {
		SetLastError(ERROR_NOT_SUPPORTED);
		return 0;
	}
	f = file_get(h);
	if (!f)
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", f->fd);
	n = readlink(link, target, sizeof(target) - 1);
	file_release(f);
	if (n <= 0 || target[0] != '/') {
		/* A pipe or socket ("pipe:[123]") has no file name. */
		SetLastError(n <= 0 ? ERROR_INVALID_HANDLE : ERROR_INVALID_FUNCTION);
		return 0;
	}
	target[n] = 0;
	dos = path_from_unix(target);
	if (!dos) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return 0;
	}
	/* VOLUME_NAME_DOS: "\\?\C:\x"; VOLUME_NAME_NONE: "\x". */
	name = dos;
	if ((flags & VOLUME_NAME_MASK) == VOLUME_NAME_NONE)
		name = dos + 2;
	len = (DWORD)wstr_len(name) + ((flags & VOLUME_NAME_MASK) == VOLUME_NAME_DOS ? 4 : 0);
	if (len + 1 > size) {
		ret = len + 1;
	} else {
		WCHAR *p = buf;

		if ((flags & VOLUME_NAME_MASK) == VOLUME_NAME_DOS) {
			memcpy(p, prefix, 4 * sizeof(WCHAR));
			p += 4;
		}
		memcpy(p, name, (wstr_len(name) + 1) * sizeof(WCHAR));
		ret = len;
	}
	free(dos);
	return ret;
}

DWORD WINAPI GetFinalPathNameByHandleA(HANDLE h, LPSTR buf, DWORD size, DWORD flags)
{
	WCHAR *w;
	DWORD len, need;

	len = GetFinalPathNameByHandleW(h, NULL, 0, flags);
	if (!len)
		return 0;
	w = malloc(len * sizeof(WCHAR));
	if (!w) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return 0;
	}
	GetFinalPathNameByHandleW(h, w, len, flags);
	need = (DWORD)WideCharToMultiByte(cp_file(), 0, w, -1, NULL, 0, NULL, NULL);
	if (need > size) {
		free(w);
		return need;
	}
	WideCharToMultiByte(cp_file(), 0, w, -1, buf, (int)size, NULL, NULL);
	free(w);
	return need - 1;
}

/* ---- SetFileInformationByHandle ------------------------------------------ */

static struct timespec timespec_from_q(LONGLONG q)
{
	/* 100 ns units since 1601 -> since 1970. */
	ULONGLONG t = (ULONGLONG)q - 116444736000000000ull;
	struct timespec ts = { (time_t)(t / 10000000ull), (long)(t % 10000000ull) * 100 };

	return ts;
}

/* FILE_BASIC_INFO: a time of 0 leaves that time alone (-1 too, which on
 * Windows also stops later updates; Linux cannot, so it is a no-change);
 * attributes 0 leave them alone, else only READONLY maps (write bits). */
static BOOL set_basic(struct file *f, const FILE_BASIC_INFO *b)
{
	struct timespec ts[2] = { { .tv_nsec = UTIME_OMIT }, { .tv_nsec = UTIME_OMIT } };
	struct stat st;

	if (b->LastAccessTime.QuadPart > 0)
		ts[0] = timespec_from_q(b->LastAccessTime.QuadPart);
	if (b->LastWriteTime.QuadPart > 0)
		ts[1] = timespec_from_q(b->LastWriteTime.QuadPart);
	if (futimens(f->fd, ts)) {
		SetLastError(win32_error_from_errno(errno));
		return FALSE;
	}
	if (b->FileAttributes && !fstat(f->fd, &st)) {
		mode_t mode = st.st_mode & 07777;

		if (b->FileAttributes & FILE_ATTRIBUTE_READONLY)
			mode &= ~(mode_t)0222;
		else if (!(mode & 0222))
			mode |= S_IWUSR;
		if (mode != (st.st_mode & 07777) && fchmod(f->fd, mode)) {
			SetLastError(win32_error_from_errno(errno));
			return FALSE;
		}
	}
	return TRUE;
}

BOOL WINAPI SetFileInformationByHandle(HANDLE h, FILE_INFO_BY_HANDLE_CLASS cls, LPVOID buf, DWORD size)
{
	struct file *f;
	BOOL ret = TRUE;

	TRACE(file, "%p class %d size %u\n", h, (int)cls, (unsigned)size);
	if (!buf) {
		SetLastError(ERROR_NOACCESS);
		return FALSE;
	}
	if ((cls == FileBasicInfo && size < sizeof(FILE_BASIC_INFO)) ||
	    (cls == FileEndOfFileInfo && size < sizeof(FILE_END_OF_FILE_INFO)) ||
	    (cls == FileAllocationInfo && size < sizeof(FILE_ALLOCATION_INFO)) ||
	    (cls == FileDispositionInfo && size < sizeof(FILE_DISPOSITION_INFO))) {
		SetLastError(ERROR_BAD_LENGTH);
		return FALSE;
	}
	switch (cls) {
	case FileBasicInfo:
	case FileEndOfFileInfo:
	case FileAllocationInfo:
	case FileDispositionInfo:
		break;
	case FileRenameInfo:
	case FileIoPriorityHintInfo:
	case FileDispositionInfoEx:
	case FileRenameInfoEx:
	case FileCaseSensitiveInfo:
		SetLastError(ERROR_NOT_SUPPORTED);
		return FALSE;
	default:
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!(f = file_get(h)))
		return FALSE;
	if (cls == FileBasicInfo) {
		if (f->access & FILE_WRITE_ATTRIBUTES) {
			ret = set_basic(f, buf);
		} else {
			SetLastError(ERROR_ACCESS_DENIED);
			ret = FALSE;
		}
	} else if (cls == FileEndOfFileInfo || cls == FileAllocationInfo) {
		LONGLONG want = cls == FileEndOfFileInfo ? ((FILE_END_OF_FILE_INFO *)buf)->EndOfFile.QuadPart
							  : ((FILE_ALLOCATION_INFO *)buf)->AllocationSize.QuadPart;
		struct stat st;

		if (!(f->access & FILE_WRITE_DATA)) {
			SetLastError(ERROR_ACCESS_DENIED);
			ret = FALSE;
		} else if (want < 0) {
			SetLastError(ERROR_INVALID_PARAMETER);
			ret = FALSE;
		} else if (fstat(f->fd, &st)) {
			SetLastError(win32_error_from_errno(errno));
			ret = FALSE;
		} else if (cls == FileEndOfFileInfo || want < st.st_size) {
			/* An allocation below the end of file cuts the file there. */
			if (ftruncate(f->fd, want)) {
				SetLastError(win32_error_from_errno(errno));
				ret = FALSE;
			}
		} else if (want > st.st_size && fallocate(f->fd, FALLOC_FL_KEEP_SIZE, 0, want) && errno != EOPNOTSUPP) {
			SetLastError(win32_error_from_errno(errno));
			ret = FALSE;
		}
	} else {
		/* Delete on close: the last handle's close unlinks the name
		 * the file has then (core/file.c). */
		char link[64], target[PATH_MAX];
		ssize_t n;

		snprintf(link, sizeof(link), "/proc/self/fd/%d", f->fd);
		if (!(f->access & DELETE)) {
			SetLastError(ERROR_ACCESS_DENIED);
			ret = FALSE;
		} else if (!*(const BOOLEAN *)buf) { /* FILE_DISPOSITION_INFO.DeleteFile (a macro here) */
			free(f->unix_path);
			f->unix_path = NULL;
		} else if ((n = readlink(link, target, sizeof(target) - 1)) <= 0 || target[0] != '/') {
			SetLastError(ERROR_INVALID_HANDLE);
			ret = FALSE;
		} else {
			target[n] = 0;
			free(f->unix_path);
			f->unix_path = strdup(target);
			if (!f->unix_path) {
				SetLastError(ERROR_NOT_ENOUGH_MEMORY);
				ret = FALSE;
			}
		}
	}
	file_release(f);
	return ret;
}

/* ---- GetFileTime / SetFileTime -------------------------------------------- */

BOOL WINAPI GetFileTime(HANDLE h, LPFILETIME creation, LPFILETIME access, LPFILETIME write)
{
	struct stat st;
	struct file *f = file_get(h);
	int r;

	if (!f)
		return FALSE;
	r = fstat(f->fd, &st);
	file_release(f);
	if (r) {
		SetLastError(ERROR_INVALID_HANDLE);
		return FALSE;
	}
	/* Linux keeps no creation time that every file system reports: the
	 * inode change time stands in for it, as in GetFileAttributesEx. */
	if (creation)
		filetime_from_timespec(creation, &st.st_ctim);
	if (access)
		filetime_from_timespec(access, &st.st_atim);
	if (write)
		filetime_from_timespec(write, &st.st_mtim);
	return TRUE;
}

/* NULL, or a time of 0 (and 0xffffffff:0xffffffff), leaves a time alone.
 * A creation time cannot be set on Linux (the stand-in is the change
 * time, which the kernel keeps): it is ignored. */
static struct timespec time_arg(const FILETIME *ft)
{
	ULONGLONG q;

	if (!ft || (!ft->dwLowDateTime && !ft->dwHighDateTime) ||
	    (ft->dwLowDateTime == 0xffffffff && ft->dwHighDateTime == 0xffffffff))
		return (struct timespec){ .tv_nsec = UTIME_OMIT };
	q = ((ULONGLONG)ft->dwHighDateTime << 32) | ft->dwLowDateTime;
	return timespec_from_q((LONGLONG)q);
}

BOOL WINAPI SetFileTime(HANDLE h, const FILETIME *creation, const FILETIME *access, const FILETIME *write)
{
	struct timespec ts[2] = { time_arg(access), time_arg(write) };
	struct file *f = file_get(h);
	BOOL ret = TRUE;

	if (!f)
		return FALSE;
	if (!(f->access & FILE_WRITE_ATTRIBUTES)) {
		SetLastError(ERROR_ACCESS_DENIED);
		ret = FALSE;
	} else if (futimens(f->fd, ts)) {
		SetLastError(win32_error_from_errno(errno));
		ret = FALSE;
	}
	file_release(f);
	return ret;
}

/* fileapi/winbase: GetFileInformationByHandle and
 * GetFileInformationByHandleEx, from fstat on the handle's descriptor.
 *
 * The volume serial number is the device number's low 32 bits and the
 * file index the inode number: together they identify a file, as
 * programs use them.  Creation time is the inode change time, as in
 * GetFileAttributesEx.  FileNameInfo gives the path without its drive
 * ("\dir\file"), from the descriptor's /proc link. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/debug.h"
#include "core/errors.h"
#include "core/file.h"
#include "core/path.h"
#include "core/wstr.h"
#include "kernel32/kernel32_private.h"

/* Windows 8 (winbase.h); not in the Wine headers. */
typedef struct {
	ULONGLONG VolumeSerialNumber;
	BYTE FileId[16];
} ndshim_FILE_ID_INFO;
_Static_assert(sizeof(ndshim_FILE_ID_INFO) == 24, "FILE_ID_INFO is 24 bytes");
_Static_assert(sizeof(FILE_BASIC_INFO) == 40, "FILE_BASIC_INFO is 40 bytes");
_Static_assert(sizeof(FILE_STANDARD_INFO) == 24, "FILE_STANDARD_INFO is 24 bytes");

/* The descriptor behind h, stat'ed; the file stays referenced (release
 * it) so the descriptor stays open.  NULL with the last error set. */
static struct file *stat_handle(HANDLE h, struct stat *st)
{
	struct file *f = file_get(h);

	if (!f)
		return NULL;
	/* Named pipe ends and the ND provider's file have no descriptor:
	 * there is no file system object to describe. */
	if (f->fd < 0) {
		file_release(f);
		SetLastError(ERROR_INVALID_FUNCTION);
		return NULL;
	}
	if (fstat(f->fd, st)) {
		SetLastError(win32_error_from_errno(errno));
		file_release(f);
		return NULL;
	}
	return f;
}

static LARGE_INTEGER li_time(const struct timespec *ts)
{
	FILETIME ft;
	LARGE_INTEGER li;

	filetime_from_timespec(&ft, ts);
	li.LowPart = ft.dwLowDateTime;
	li.HighPart = (LONG)ft.dwHighDateTime;
	return li;
}

BOOL WINAPI GetFileInformationByHandle(HANDLE h, LPBY_HANDLE_FILE_INFORMATION info)
{
	struct stat st;
	struct file *f = stat_handle(h, &st);

	TRACE(file, "%p\n", h);
	if (!f)
		return FALSE;
	file_release(f);
	memset(info, 0, sizeof(*info));
	info->dwFileAttributes = file_attributes_from_stat(&st);
	filetime_from_timespec(&info->ftCreationTime, &st.st_ctim);
	filetime_from_timespec(&info->ftLastAccessTime, &st.st_atim);
	filetime_from_timespec(&info->ftLastWriteTime, &st.st_mtim);
	info->dwVolumeSerialNumber = (DWORD)st.st_dev;
	if (!S_ISDIR(st.st_mode)) {
		info->nFileSizeHigh = (DWORD)((ULONGLONG)st.st_size >> 32);
		info->nFileSizeLow = (DWORD)st.st_size;
	}
	info->nNumberOfLinks = (DWORD)st.st_nlink;
	info->nFileIndexHigh = (DWORD)((ULONGLONG)st.st_ino >> 32);
	info->nFileIndexLow = (DWORD)st.st_ino;
	return TRUE;
}

/* FileNameInfo: as much of the name as fits; ERROR_MORE_DATA when cut
 * (FileNameLength always says the whole length, in bytes). */
static BOOL name_info(struct file *f, FILE_NAME_INFO *info, DWORD size)
{
	char link[64], target[4096];
	ssize_t n;
	WCHAR *w, *name;
	DWORD bytes, room;

	if (size < offsetof(FILE_NAME_INFO, FileName)) {
		SetLastError(ERROR_BAD_LENGTH);
		return FALSE;
	}
	snprintf(link, sizeof(link), "/proc/self/fd/%d", f->fd);
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0 || target[0] != '/') {
		SetLastError(ERROR_INVALID_FUNCTION); /* a pipe, socket or anonymous file */
		return FALSE;
	}
	target[n] = 0;
	w = path_from_unix(target);
	if (!w) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	name = w[0] && w[1] == ':' ? w + 2 : w; /* the drive is not part of it */
	bytes = (DWORD)(wstr_len(name) * sizeof(WCHAR));
	room = size - offsetof(FILE_NAME_INFO, FileName);
	info->FileNameLength = bytes;
	memcpy(info->FileName, name, bytes < room ? bytes : room);
	free(w);
	if (bytes > room) {
		SetLastError(ERROR_MORE_DATA);
		return FALSE;
	}
	return TRUE;
}

BOOL WINAPI GetFileInformationByHandleEx(HANDLE h, FILE_INFO_BY_HANDLE_CLASS cls, LPVOID buf, DWORD size)
{
	static const DWORD fixed[] = {
		[FileBasicInfo] = sizeof(FILE_BASIC_INFO),
		[FileStandardInfo] = sizeof(FILE_STANDARD_INFO),
		[FileAttributeTagInfo] = sizeof(FILE_ATTRIBUTE_TAG_INFO),
		[FileIdInfo] = sizeof(ndshim_FILE_ID_INFO),
	};
	struct stat st;
	struct file *f;
	BOOL ret = TRUE;

	TRACE(file, "%p, class %d, size %u\n", h, cls, size);
	/* The folder listings are NtQueryDirectoryFile's (dirinfo.c). */
	if (dir_info_class(cls))
		return dir_info(h, cls, buf, size);
	if (cls != FileBasicInfo && cls != FileStandardInfo && cls != FileNameInfo &&
	    cls != FileAttributeTagInfo && cls != FileIdInfo) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (cls != FileNameInfo && size < fixed[cls]) {
		SetLastError(ERROR_BAD_LENGTH);
		return FALSE;
	}
	f = stat_handle(h, &st);
	if (!f)
		return FALSE;
	switch (cls) {
	case FileBasicInfo: {
		FILE_BASIC_INFO *b = buf;

		b->CreationTime = li_time(&st.st_ctim);
		b->LastAccessTime = li_time(&st.st_atim);
		b->LastWriteTime = li_time(&st.st_mtim);
		b->ChangeTime = li_time(&st.st_ctim);
		b->FileAttributes = file_attributes_from_stat(&st);
		break;
	}
	case FileStandardInfo: {
		FILE_STANDARD_INFO *s = buf;
		bool dir = S_ISDIR(st.st_mode);

		s->AllocationSize.QuadPart = dir ? 0 : (LONGLONG)st.st_blocks * 512;
		s->EndOfFile.QuadPart = dir ? 0 : st.st_size;
		s->NumberOfLinks = (DWORD)st.st_nlink;
		/* Only a disposition set on an open file is pending, which
		 * ndshim has no call for (DELETE_ON_CLOSE acts at close). */
		s->DeletePending = FALSE;
		s->Directory = dir;
		break;
	}
	case FileAttributeTagInfo: {
		FILE_ATTRIBUTE_TAG_INFO *t = buf;

		t->FileAttributes = file_attributes_from_stat(&st);
		t->ReparseTag = 0;
		break;
	}
	case FileIdInfo: {
		ndshim_FILE_ID_INFO *id = buf;
		ULONGLONG ino = st.st_ino;

		id->VolumeSerialNumber = st.st_dev;
		memset(id->FileId, 0, sizeof(id->FileId));
		memcpy(id->FileId, &ino, sizeof(ino));
		break;
	}
	default: /* FileNameInfo */
		ret = name_info(f, buf, size);
		break;
	}
	file_release(f);
	return ret;
}

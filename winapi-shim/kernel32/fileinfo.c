/* GetFileInformationByHandle(Ex) (fileapi.h, winbase.h): fstat of the
 * handle's descriptor; FileNameInfo through GetFinalPathNameByHandleW
 * (filehandle.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/debug.h"
#include "core/errors.h"
#include "core/file.h"
#include "kernel32/kernel32_private.h"

/* The stat of the file behind h, which must not be a console (Windows
 * has no file information for consoles). */
static struct file *stat_handle(HANDLE h, struct stat *st)
{
	struct file *f = file_get(h);

	if (!f)
		return NULL;
	if (isatty(f->fd)) {
		file_release(f);
		SetLastError(ERROR_INVALID_HANDLE);
		return NULL;
	}
	if (fstat(f->fd, st)) {
		SetLastError(win32_error_from_errno(errno));
		file_release(f);
		return NULL;
	}
	return f;
}

static LONGLONG filetime_q(const struct timespec *ts)
{
	FILETIME ft;

	filetime_from_timespec(&ft, ts);
	return (LONGLONG)(((ULONGLONG)ft.dwHighDateTime << 32) | ft.dwLowDateTime);
}

BOOL WINAPI GetFileInformationByHandle(HANDLE h, LPBY_HANDLE_FILE_INFORMATION info)
{
	struct stat st;
	struct file *f;

	if (!info) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!(f = stat_handle(h, &st)))
		return FALSE;
	file_release(f);
	info->dwFileAttributes = file_attributes_from_stat(&st);
	filetime_from_timespec(&info->ftCreationTime, &st.st_ctim);
	filetime_from_timespec(&info->ftLastAccessTime, &st.st_atim);
	filetime_from_timespec(&info->ftLastWriteTime, &st.st_mtim);
	/* The device number stands for the volume, the inode for the file
	 * index: together they identify the file, as on NTFS. */
	info->dwVolumeSerialNumber = (DWORD)st.st_dev;
	info->nFileSizeHigh = S_ISDIR(st.st_mode) ? 0 : (DWORD)((ULONGLONG)st.st_size >> 32);
	info->nFileSizeLow = S_ISDIR(st.st_mode) ? 0 : (DWORD)st.st_size;
	info->nNumberOfLinks = (DWORD)st.st_nlink;
	info->nFileIndexHigh = (DWORD)((ULONGLONG)st.st_ino >> 32);
	info->nFileIndexLow = (DWORD)st.st_ino;
	return TRUE;
}

/* FileNameInfo: the path without the drive ("\dir\file"), not
 * NUL-terminated; ERROR_MORE_DATA with the length set when it does not
 * fit. */
static BOOL name_info(HANDLE h, FILE_NAME_INFO *info, DWORD size)
{
	DWORD need = GetFinalPathNameByHandleW(h, NULL, 0, VOLUME_NAME_NONE);
	WCHAR *name;
	DWORD len, room;

	if (!need)
		return FALSE;
	name = malloc(need * sizeof(WCHAR));
	if (!name) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	len = GetFinalPathNameByHandleW(h, name, need, VOLUME_NAME_NONE);
	info->FileNameLength = len * sizeof(WCHAR);
	room = (size - offsetof(FILE_NAME_INFO, FileName)) / sizeof(WCHAR);
	memcpy(info->FileName, name, (len < room ? len : room) * sizeof(WCHAR));
	free(name);
	if (len > room) {
		SetLastError(ERROR_MORE_DATA);
		return FALSE;
	}
	return TRUE;
}

BOOL WINAPI GetFileInformationByHandleEx(HANDLE h, FILE_INFO_BY_HANDLE_CLASS cls, LPVOID buf, DWORD size)
{
	struct stat st;
	struct file *f;
	bool dir;

	TRACE(file, "%p class %d size %u\n", h, (int)cls, (unsigned)size);
	switch (cls) {
	case FileBasicInfo:
	case FileStandardInfo:
	case FileAttributeTagInfo:
	case FileNameInfo:
		break;
	case FileStreamInfo:
	case FileCompressionInfo:
	case FileIdBothDirectoryInfo:
	case FileIdBothDirectoryRestartInfo:
	case FileIoPriorityHintInfo:
	case FileRemoteProtocolInfo:
	case FileFullDirectoryInfo:
	case FileFullDirectoryRestartInfo:
	case FileStorageInfo:
	case FileAlignmentInfo:
	case FileIdInfo:
	case FileIdExtdDirectoryInfo:
	case FileIdExtdDirectoryRestartInfo:
	case FileCaseSensitiveInfo:
	case FileNormalizedNameInfo:
		/* Real classes ndrun does not answer yet: say so. */
		SetLastError(ERROR_NOT_SUPPORTED);
		return FALSE;
	default:
		/* Set-only classes (rename, disposition, ...) and unknown ones. */
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!buf) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (cls == FileNameInfo) {
		if (size < sizeof(FILE_NAME_INFO)) {
			SetLastError(ERROR_BAD_LENGTH);
			return FALSE;
		}
		return name_info(h, buf, size);
	}
	if ((cls == FileBasicInfo && size < sizeof(FILE_BASIC_INFO)) ||
	    (cls == FileStandardInfo && size < sizeof(FILE_STANDARD_INFO)) ||
	    (cls == FileAttributeTagInfo && size < sizeof(FILE_ATTRIBUTE_TAG_INFO))) {
		SetLastError(ERROR_BAD_LENGTH);
		return FALSE;
	}
	if (!(f = stat_handle(h, &st)))
		return FALSE;
	file_release(f);
	dir = S_ISDIR(st.st_mode);
	if (cls == FileBasicInfo) {
		FILE_BASIC_INFO *b = buf;

		b->CreationTime.QuadPart = filetime_q(&st.st_ctim);
		b->LastAccessTime.QuadPart = filetime_q(&st.st_atim);
		b->LastWriteTime.QuadPart = filetime_q(&st.st_mtim);
		b->ChangeTime.QuadPart = filetime_q(&st.st_ctim);
		b->FileAttributes = file_attributes_from_stat(&st);
	} else if (cls == FileStandardInfo) {
		FILE_STANDARD_INFO *s = buf;

		s->AllocationSize.QuadPart = dir ? 0 : (LONGLONG)st.st_blocks * 512;
		s->EndOfFile.QuadPart = dir ? 0 : (LONGLONG)st.st_size;
		s->NumberOfLinks = (DWORD)st.st_nlink;
		s->DeletePending = FALSE;
		s->Directory = dir;
	} else {
		FILE_ATTRIBUTE_TAG_INFO *t = buf;

		t->FileAttributes = file_attributes_from_stat(&st);
		t->ReparseTag = 0;
	}
	return TRUE;
}


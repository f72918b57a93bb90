/* GetVolumeInformationByHandleW (fileapi.h): the volume a handle's file
 * is on.  Its serial number is the file system's device number, as
 * GetFileInformationByHandle reports it (Go's os.SameFile compares the
 * two); there is no label; the maximum name length is the file system's;
 * the flags are what Linux file systems do (names kept in their case and
 * told apart by it, Unicode names, hard links); the file system's name is
 * Linux's for the common ones ("ext4" for ext2/3/4, "tmpfs", "xfs", ...),
 * never a Windows one it is not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>

#include "core/codepage.h"
#include "core/file.h"
#include "core/wstr.h"
#include "kernel32/kernel32_private.h"

static const char *fs_name(unsigned long type)
{
	switch (type) {
	case 0xef53: return "ext4"; /* ext2, ext3 and ext4 share the magic */
	case 0x01021994: return "tmpfs";
	case 0x58465342: return "xfs";
	case 0x9123683e: return "btrfs";
	case 0x794c7630: return "overlay";
	case 0x6969: return "nfs";
	case 0x65735546: return "fuse";
	case 0x2fc12fc1: return "zfs";
	case 0x9fa0: return "proc";
	}
	return "unknown";
}

static BOOL put_name(const char *s, WCHAR *buf, DWORD size)
{
	WCHAR *w;
	size_t n;

	if (!buf)
		return TRUE;
	w = utf8_to_utf16_dup(s);
	if (!w) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	n = wstr_len(w);
	if (n + 1 > size) {
		free(w);
		SetLastError(ERROR_BAD_LENGTH);
		return FALSE;
	}
	memcpy(buf, w, (n + 1) * sizeof(WCHAR));
	free(w);
	return TRUE;
}

BOOL WINAPI GetVolumeInformationByHandleW(HANDLE h, WCHAR *label, DWORD label_size, DWORD *serial, DWORD *max_len,
					  DWORD *flags, WCHAR *fs, DWORD fs_size)
{
	struct file *f = file_get(h);
	struct statfs sfs;
	struct stat st;

	if (!f)
		return FALSE;
	if (f->fd < 0 || fstat(f->fd, &st) || fstatfs(f->fd, &sfs)) {
		file_release(f);
		SetLastError(ERROR_INVALID_FUNCTION); /* a pipe or a console: no volume */
		return FALSE;
	}
	file_release(f);
	if (!put_name("", label, label_size) || !put_name(fs_name((unsigned long)sfs.f_type), fs, fs_size))
		return FALSE;
	if (serial)
		*serial = (DWORD)st.st_dev;
	if (max_len)
		*max_len = (DWORD)sfs.f_namelen;
	if (flags)
		*flags = FILE_CASE_SENSITIVE_SEARCH | FILE_CASE_PRESERVED_NAMES | FILE_UNICODE_ON_DISK |
			 FILE_SUPPORTS_HARD_LINKS;
	return TRUE;
}

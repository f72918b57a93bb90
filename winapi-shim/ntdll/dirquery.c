/* NtQueryDirectoryFile: a folder's entries, a buffer at a time, for the
 * classes programs use (libuv's scandir, .NET, Rust's read_dir on newer
 * Windows): FileDirectoryInformation, FileFullDirectoryInformation,
 * FileBothDirectoryInformation, FileNamesInformation,
 * FileIdBothDirectoryInformation and FileIdFullDirectoryInformation.
 *
 * The handle keeps its place (a DIR on its own descriptor, in the file
 * object); RestartScan starts again.  The first query's FileName, a mask
 * with '*' and '?' (and DOS's '<', '>', '"'), is the handle's mask for
 * good: later ones are ignored, RestartScan or not, as documented.  "." and ".." are listed, as Windows lists them.  Entries are
 * 8-byte aligned and chained by NextEntryOffset; ReturnSingleEntry stops
 * after one.  The end is STATUS_NO_MORE_FILES, or STATUS_NO_SUCH_FILE
 * when the first query finds nothing; an entry that does not fit waits
 * for the next call (STATUS_BUFFER_OVERFLOW when not even one fits, with
 * its fixed part filled).  Queries complete at once: an event is set, an
 * APC is refused (STATUS_NOT_SUPPORTED) rather than never run. */
#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define WIN32_NO_STATUS
#include "core/codepage.h"
#include "core/debug.h"
#include "core/file.h"
#include "core/wstr.h"
#include "kernel32/kernel32_private.h"
#include "ntdll/ntdll_private.h"
#undef WIN32_NO_STATUS
#include <ntstatus.h>

enum { C_DIRECTORY = 1, C_FULL = 2, C_BOTH = 3, C_NAMES = 12, C_ID_BOTH = 37, C_ID_FULL = 38 };

struct dir_cursor {
	DIR *dir;
	char *mask;    /* fnmatch pattern (UTF-8), or NULL for every name */
	bool any_yet;  /* an entry was returned since the scan started */
};

static void cursor_free(void *p)
{
	struct dir_cursor *c = p;

	if (c->dir)
		closedir(c->dir);
	free(c->mask);
	free(c);
}

/* Where each class puts the name, and the fields it has. */
static size_t name_offset(int cls)
{
	switch (cls) {
	case C_DIRECTORY: return offsetof(FILE_DIRECTORY_INFORMATION, FileName);
	case C_FULL: return offsetof(FILE_FULL_DIRECTORY_INFORMATION, FileName);
	case C_BOTH: return offsetof(FILE_BOTH_DIRECTORY_INFORMATION, FileName);
	case C_NAMES: return offsetof(FILE_NAMES_INFORMATION, FileName);
	case C_ID_BOTH: return offsetof(FILE_ID_BOTH_DIRECTORY_INFORMATION, FileName);
	case C_ID_FULL: return offsetof(FILE_ID_FULL_DIRECTORY_INFORMATION, FileName);
	}
	return 0;
}

/* A Windows mask as an fnmatch pattern: '<' is '*', '>' is '?', '"' is
 * '.'; fnmatch's own specials are escaped.  NULL for "*" or no mask. */
static char *make_mask(const UNICODE_STRING *u)
{
	WCHAR *w;
	char *a, *p, *out;

	if (!u || !u->Length)
		return NULL;
	w = calloc(u->Length / sizeof(WCHAR) + 1, sizeof(WCHAR));
	if (!w)
		return NULL;
	memcpy(w, u->Buffer, u->Length);
	a = utf16_to_utf8_dup(w);
	free(w);
	if (!a || !strcmp(a, "*") || !strcmp(a, "*.*")) {
		free(a);
		return NULL;
	}
	out = p = malloc(2 * strlen(a) + 1);
	for (const char *c = a; out && *c; c++) {
		switch (*c) {
		case '<': *p++ = '*'; break;
		case '>': *p++ = '?'; break;
		case '"': *p++ = '.'; break;
		case '[': case ']': case '\\': *p++ = '\\'; *p++ = *c; break;
		default: *p++ = *c; break;
		}
	}
	if (out)
		*p = 0;
	free(a);
	return out;
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

/* One entry at out (room bytes); its size, 0 when not even its fixed part
 * fits, or the negative size when only the name was cut. */
static long put_entry(int cls, BYTE *out, size_t room, int dirfd, const char *name)
{
	size_t fixed = name_offset(cls), name_bytes, size;
	WCHAR *w = utf8_to_utf16_dup(name);
	struct stat st;
	bool cut = false;

	if (!w)
		return 0;
	name_bytes = wstr_len(w) * sizeof(WCHAR);
	size = fixed + name_bytes;
	if (room < fixed) {
		free(w);
		return 0;
	}
	memset(out, 0, fixed);
	if (fstatat(dirfd, name, &st, 0) && fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
		memset(&st, 0, sizeof(st)); /* gone meanwhile: the name alone */
	if (cls == C_NAMES) {
		FILE_NAMES_INFORMATION *n = (FILE_NAMES_INFORMATION *)out;

		n->FileNameLength = (ULONG)name_bytes;
	} else {
		/* The classes share FILE_DIRECTORY_INFORMATION's head. */
		FILE_DIRECTORY_INFORMATION *d = (FILE_DIRECTORY_INFORMATION *)out;
		bool dir = S_ISDIR(st.st_mode);

		d->CreationTime = li_time(&st.st_ctim);
		d->LastAccessTime = li_time(&st.st_atim);
		d->LastWriteTime = li_time(&st.st_mtim);
		d->ChangeTime = li_time(&st.st_ctim);
		d->EndOfFile.QuadPart = dir ? 0 : st.st_size;
		d->AllocationSize.QuadPart = dir ? 0 : (LONGLONG)st.st_blocks * 512;
		d->FileAttributes = file_attributes_from_stat(&st);
		d->FileNameLength = (ULONG)name_bytes;
		if (cls == C_ID_BOTH)
			((FILE_ID_BOTH_DIRECTORY_INFORMATION *)out)->FileId.QuadPart = (LONGLONG)st.st_ino;
		else if (cls == C_ID_FULL)
			((FILE_ID_FULL_DIRECTORY_INFORMATION *)out)->FileId.QuadPart = (LONGLONG)st.st_ino;
	}
	if (size > room) {
		name_bytes = room - fixed;
		cut = true;
	}
	memcpy(out + fixed, w, name_bytes);
	free(w);
	return cut ? -(long)room : (long)size;
}

NTSTATUS WINAPI NtQueryDirectoryFile(HANDLE h, HANDLE event, PIO_APC_ROUTINE apc, void *apc_ctx, IO_STATUS_BLOCK *io,
				     void *buf, ULONG len, FILE_INFORMATION_CLASS cls, BOOLEAN single,
				     PUNICODE_STRING mask, BOOLEAN restart)
{
	struct file *f;
	struct dir_cursor *c;
	ULONG used = 0, prev = ~0u;
	NTSTATUS status = STATUS_SUCCESS;
	int fd;

	(void)apc_ctx;
	TRACE(file, "(%p, %p, %lu, class %d, single %d, restart %d)\n", h, buf, (unsigned long)len, (int)cls, single,
	      restart);
	if (apc)
		return STATUS_NOT_SUPPORTED;
	if (!name_offset((int)cls))
		return STATUS_INVALID_INFO_CLASS;
	if (!(f = file_get(h)))
		return STATUS_INVALID_HANDLE;
	pthread_mutex_lock(&f->lock);
	c = f->dir_cursor;
	if (!c || restart) {
		if (!c) {
			c = calloc(1, sizeof(*c));
			if (!c || f->fd < 0 || (fd = openat(f->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
				free(c);
				pthread_mutex_unlock(&f->lock);
				file_release(f);
				return c ? STATUS_INVALID_PARAMETER : STATUS_NO_MEMORY; /* not a folder */
			}
			if (!(c->dir = fdopendir(fd))) {
				close(fd);
				free(c);
				pthread_mutex_unlock(&f->lock);
				file_release(f);
				return STATUS_NO_MEMORY;
			}
			f->dir_cursor = c;
			f->dir_cursor_free = cursor_free;
			c->mask = make_mask(mask);
		} else {
			rewinddir(c->dir);
		}
		c->any_yet = false;
	}
	for (;;) {
		long pos = telldir(c->dir);
		struct dirent *de = readdir(c->dir);
		long n;
		ULONG at = (used + 7) & ~7u;

		if (!de)
			break;
		if (c->mask && fnmatch(c->mask, de->d_name, FNM_CASEFOLD))
			continue;
		n = at <= len ? put_entry((int)cls, (BYTE *)buf + at, len - at, dirfd(c->dir), de->d_name) : 0;
		if (n <= 0 && used) {
			seekdir(c->dir, pos); /* for the next call */
			break;
		}
		if (n == 0) {
			seekdir(c->dir, pos);
			status = STATUS_BUFFER_TOO_SMALL;
			break;
		}
		if (prev != ~0u)
			*(ULONG *)((BYTE *)buf + prev) = at - prev; /* NextEntryOffset */
		prev = at;
		c->any_yet = true;
		if (n < 0) {
			used = at + (ULONG)-n;
			status = STATUS_BUFFER_OVERFLOW;
			break;
		}
		used = at + (ULONG)n;
		if (single)
			break;
	}
	if (!status && !used)
		status = c->any_yet ? STATUS_NO_MORE_FILES : STATUS_NO_SUCH_FILE;
	if (status == STATUS_NO_SUCH_FILE)
		c->any_yet = true; /* the next call says there is no more */
	pthread_mutex_unlock(&f->lock);
	file_release(f);
	io->Status = status;
	io->Information = status == STATUS_SUCCESS || status == STATUS_BUFFER_OVERFLOW ? used : 0;
	if (event)
		SetEvent(event);
	return status;
}

/* Files (fileapi.h): CreateFile, ReadFile/WriteFile, sizes and pointers,
 * attributes, directories, full and temporary paths.  File names follow
 * core/path.h.
 *
 * A handle opened with FILE_FLAG_OVERLAPPED takes overlapped requests;
 * on disk files they complete synchronously, through the one completion
 * path (core/overlapped.h), so FILE_SKIP_COMPLETION_PORT_ON_SUCCESS and
 * the events behave as on Windows.  Names under \\.\pipe\ open named
 * pipes (core/pipe.h).  Share modes are not enforced (Linux has no such
 * thing). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define WIN32_NO_STATUS /* the STATUS_* values come from ntstatus.h */
#include "core/codepage.h"
#include "core/conin.h"
#include "core/debug.h"
#include "core/errors.h"
#include "core/file.h"
#include "core/path.h"
#include "core/pipe.h"
#include "core/syncio.h"
#include "core/wstr.h"
#include "kernel32/kernel32_private.h"
#include "ntdll/seh.h"
#undef WIN32_NO_STATUS
#include <ntstatus.h>

/* ENOENT means ERROR_PATH_NOT_FOUND when a directory on the way is
 * missing, ERROR_FILE_NOT_FOUND when only the last component is. */
DWORD path_error(const char *unix_path, int err)
{
	if (err == ENOENT) {
		char *dir = strdup(unix_path), *slash;
		struct stat st;
		DWORD ret = ERROR_FILE_NOT_FOUND;

		if (dir && (slash = strrchr(dir, '/')) && slash != dir) {
			*slash = 0;
			if (stat(dir, &st) || !S_ISDIR(st.st_mode))
				ret = ERROR_PATH_NOT_FOUND;
		}
		free(dir);
		return ret;
	}
	return win32_error_from_errno(err);
}

/* An A-function's file name converted to a malloc'd W string (the file
 * APIs' code page: ANSI, or OEM after SetFileApisToOEM); NULL with the
 * last error set. */
WCHAR *a_to_w(const char *s)
{
	WCHAR *w;

	if (!s) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	if (!(w = cp_to_utf16_dup(cp_file(), s)))
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
	return w;
}

/* ---- CreateFile ------------------------------------------------------------- */

/* CONIN$ (also as \\.\CONIN$) names the console's input, which opened
 * for reading and writing is still input (core/conin.h). */
static bool is_conin(const WCHAR *name)
{
	if ((name[0] == '\\' || name[0] == '/') && (name[1] == '\\' || name[1] == '/') && name[2] == '.' &&
	    (name[3] == '\\' || name[3] == '/'))
		name += 4;
	return !wstr_icmp(name, u"CONIN$");
}

HANDLE WINAPI CreateFileW(LPCWSTR name, DWORD access, DWORD share, LPSECURITY_ATTRIBUTES sa,
			  DWORD disposition, DWORD attributes, HANDLE template)
{
	DWORD rights = file_map_generic(access), err;
	int flags = O_CLOEXEC, fd = -1, existed = 0;
	mode_t mode = (attributes & FILE_ATTRIBUTE_READONLY) ? 0444 : 0666;
	bool want_read, want_write;
	struct stat st;
	char *u;
	HANDLE h;

	TRACE(file, "%s access %#x share %#x disposition %u attributes %#x\n", debugstr_w(name),
	      (unsigned)access, (unsigned)share, (unsigned)disposition, (unsigned)attributes);
	if (!name || disposition < CREATE_NEW || disposition > TRUNCATE_EXISTING) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return INVALID_HANDLE_VALUE;
	}
	if (pipe_is_name(name)) {
		if (disposition != OPEN_EXISTING) {
			SetLastError(ERROR_INVALID_PARAMETER);
			return INVALID_HANDLE_VALUE;
		}
		return pipe_open_client(name, rights, attributes);
	}
	if (!(u = path_to_unix(name, &err))) {
		SetLastError(err);
		return INVALID_HANDLE_VALUE;
	}
	want_read = rights & (FILE_READ_DATA | FILE_EXECUTE);
	want_write = rights & (FILE_WRITE_DATA | FILE_APPEND_DATA);
	if (disposition == TRUNCATE_EXISTING && !(rights & FILE_WRITE_DATA)) {
		free(u);
		SetLastError(ERROR_INVALID_PARAMETER);
		return INVALID_HANDLE_VALUE;
	}

	if (!stat(u, &st) && S_ISDIR(st.st_mode)) {
		/* Directories open only with backup semantics, and never for data. */
		if (!(attributes & FILE_FLAG_BACKUP_SEMANTICS) || want_write) {
			free(u);
			SetLastError(ERROR_ACCESS_DENIED);
			return INVALID_HANDLE_VALUE;
		}
		if (disposition == CREATE_NEW) {
			free(u);
			SetLastError(ERROR_FILE_EXISTS);
			return INVALID_HANDLE_VALUE;
		}
		flags |= O_RDONLY | O_DIRECTORY;
	} else if (want_write) {
		flags |= want_read ? O_RDWR : O_WRONLY;
		if (!(rights & FILE_WRITE_DATA))
			flags |= O_APPEND;
	} else if (want_read) {
		flags |= O_RDONLY;
	} else {
		flags |= O_PATH; /* attributes only */
	}
	if (flags & O_PATH && disposition != OPEN_EXISTING) {
		/* creating needs a real open; O_PATH cannot create */
		flags = (flags & ~O_PATH) | O_RDONLY;
	}
	if (attributes & FILE_FLAG_WRITE_THROUGH)
		flags |= O_DSYNC;

	switch (disposition) {
	case CREATE_NEW:
		fd = open(u, flags | O_CREAT | O_EXCL, mode);
		break;
	case OPEN_EXISTING:
		fd = open(u, flags);
		break;
	case TRUNCATE_EXISTING:
		fd = open(u, flags | O_TRUNC);
		break;
	case CREATE_ALWAYS:
	case OPEN_ALWAYS:
		/* Try to create first, so we know whether the file existed. */
		for (int tries = 0; tries < 8 && fd < 0; tries++) {
			fd = open(u, flags | O_CREAT | O_EXCL, mode);
			if (fd >= 0 || errno != EEXIST)
				break;
			fd = open(u, flags | (disposition == CREATE_ALWAYS ? O_TRUNC : 0));
			if (fd >= 0)
				existed = 1;
			else if (errno != ENOENT)
				break;
		}
		break;
	}
	if (fd < 0) {
		int e = errno;

		SetLastError(e == EEXIST ? ERROR_FILE_EXISTS : e == EISDIR ? ERROR_ACCESS_DENIED
									 : path_error(u, e));
		TRACE(file, "open %s failed: errno %d\n", u, e);
		free(u);
		return INVALID_HANDLE_VALUE;
	}
	h = file_create_handle(fd, access, attributes & 0xfff80000u, true);
	if (!h) {
		free(u);
		return INVALID_HANDLE_VALUE;
	}
	if (attributes & FILE_FLAG_DELETE_ON_CLOSE) {
		struct file *f = file_get(h);

		f->unix_path = u;
		u = NULL;
		file_release(f);
	}
	if (is_conin(name)) {
		struct file *f = file_get(h);

		f->console_input = true;
		file_release(f);
	}
	free(u);
	/* Windows reports whether OPEN_ALWAYS/CREATE_ALWAYS found a file. */
	SetLastError(existed ? ERROR_ALREADY_EXISTS : ERROR_SUCCESS);
	return h;
}

HANDLE WINAPI CreateFileA(LPCSTR name, DWORD access, DWORD share, LPSECURITY_ATTRIBUTES sa,
			  DWORD disposition, DWORD attributes, HANDLE template)
{
	WCHAR *w = a_to_w(name);
	HANDLE h;

	if (!w)
		return INVALID_HANDLE_VALUE;
	h = CreateFileW(w, access, share, sa, disposition, attributes, template);
	free(w);
	return h;
}

/* ---- ReadFile / WriteFile -------------------------------------------------- */

static LONGLONG overlapped_offset(const OVERLAPPED *ov)
{
	return (LONGLONG)(((ULONGLONG)ov->OffsetHigh << 32) | ov->Offset);
}

/* A synchronous handle given an OVERLAPPED: the transfer happens at its
 * offset and its fields report the result, as on Windows, through the
 * one completion path. */
static void complete_sync_overlapped(struct file *f, OVERLAPPED *ov, NTSTATUS status, DWORD bytes)
{
	io_complete(&f->io, ov, status, bytes, true);
}

/* An overlapped handle on a disk file: the transfer happens now, at the
 * OVERLAPPED's offset, and completes synchronously through the one
 * completion path.  Consumes the reference on f. */
static BOOL overlapped_transfer(struct file *f, void *buf, DWORD len, DWORD *done, OVERLAPPED *ov,
				bool write)
{
	LONGLONG off = overlapped_offset(ov);
	NTSTATUS status = STATUS_SUCCESS;
	DWORD total = 0;

	io_begin(&f->io, ov);
	while (total < len) {
		ssize_t n = write ? pwrite(f->fd, (char *)buf + total, len - total, off + total)
				  : pread(f->fd, (char *)buf + total, len - total, off + total);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			status = status_from_errno(errno);
			break;
		}
		if (!n) {
			if (write)
				status = STATUS_DISK_FULL;
			break;
		}
		total += (DWORD)n;
		if (!write)
			break; /* a short read is a complete read */
	}
	if (!write && !total && len && status == STATUS_SUCCESS)
		status = STATUS_END_OF_FILE;
	io_complete(&f->io, ov, status, total, true);
	file_release(f);
	if (done)
		*done = total;
	if (!NT_SUCCESS(status)) {
		set_last_error_from_status(status);
		return FALSE;
	}
	return TRUE;
}

BOOL WINAPI ReadFile(HANDLE h, LPVOID buf, DWORD len, LPDWORD done, LPOVERLAPPED ov)
{
	struct file *f;
	ssize_t n;

	/* Windows zeroes the count first, in the caller's process: a bad
	 * pointer faults there. */
	if (done && !seh_copy_to_user(done, &(DWORD){ 0 }, sizeof(*done))) {
		SEH_RAISE_AV_ON_RETURN(done, 1);
		return FALSE;
	}
	if (!(f = file_get(h)))
		return FALSE;
	if ((f->options & FILE_FLAG_OVERLAPPED) && !ov) {
		file_release(f);
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!done && !ov) {
		file_release(f);
		SetLastError(ERROR_INVALID_USER_BUFFER);
		return FALSE;
	}
	if (!(f->access & FILE_READ_DATA)) {
		file_release(f);
		SetLastError(ERROR_ACCESS_DENIED);
		return FALSE;
	}
	if (f->pipe) {
		BOOL ok = pipe_read(f, buf, len, done, ov);

		file_release(f);
		return ok;
	}
	if (f->options & FILE_FLAG_OVERLAPPED)
		return overlapped_transfer(f, buf, len, done, ov, false);
	/* Console input that PeekConsoleInput or WriteConsoleInput left in
	 * the buffer is read before the terminal. */
	if (conin_buffered() && conin_is_input(f)) {
		n = conin_read(f->fd, buf, len);
		goto done;
	}
	/* CancelSynchronousIo ends a read that has taken nothing yet. */
	syncio_begin_fd();
	do {
		if (syncio_cancelled()) {
			n = -1;
			errno = ECANCELED;
			break;
		}
		n = ov ? pread(f->fd, buf, len, overlapped_offset(ov)) : read(f->fd, buf, len);
	} while (n < 0 && errno == EINTR);
	syncio_end();
done:
	if (n < 0) {
		file_release(f);
		set_last_error_from_errno(errno);
		return FALSE;
	}
	/* Windows reports the writer's end gone, not an empty read. */
	if (!n && len && f->anon_pipe) {
		file_release(f);
		SetLastError(ERROR_BROKEN_PIPE);
		return FALSE;
	}
	if (done)
		*done = (DWORD)n;
	if (ov) {
		if (!n && len) {
			complete_sync_overlapped(f, ov, STATUS_END_OF_FILE, 0);
			file_release(f);
			SetLastError(ERROR_HANDLE_EOF);
			return FALSE;
		}
		complete_sync_overlapped(f, ov, STATUS_SUCCESS, (DWORD)n);
	}
	file_release(f);
	return TRUE;
}

BOOL WINAPI WriteFile(HANDLE h, LPCVOID buf, DWORD len, LPDWORD done, LPOVERLAPPED ov)
{
	const char *p = buf;
	DWORD total = 0;
	struct file *f;

	/* Windows zeroes the count first, in the caller's process: a bad
	 * pointer faults there. */
	if (done && !seh_copy_to_user(done, &(DWORD){ 0 }, sizeof(*done))) {
		SEH_RAISE_AV_ON_RETURN(done, 1);
		return FALSE;
	}
	if (!(f = file_get(h)))
		return FALSE;
	if ((f->options & FILE_FLAG_OVERLAPPED) && !ov) {
		file_release(f);
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!done && !ov) {
		file_release(f);
		SetLastError(ERROR_INVALID_USER_BUFFER);
		return FALSE;
	}
	if (!(f->access & (FILE_WRITE_DATA | FILE_APPEND_DATA))) {
		file_release(f);
		SetLastError(ERROR_ACCESS_DENIED);
		return FALSE;
	}
	if (f->pipe) {
		BOOL ok = pipe_write(f, buf, len, done, ov);

		file_release(f);
		return ok;
	}
	if (f->options & FILE_FLAG_OVERLAPPED)
		return overlapped_transfer(f, (void *)buf, len, done, ov, true);
	/* Windows writes everything to a blocking handle: loop over short
	 * writes.  CancelSynchronousIo stops it between two of them. */
	syncio_begin_fd();
	while (total < len) {
		ssize_t n = -1;

		if (syncio_cancelled())
			errno = ECANCELED;
		else
			n = ov ? pwrite(f->fd, p + total, len - total, overlapped_offset(ov) + total)
			       : write(f->fd, p + total, len - total);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = n < 0 ? errno : ENOSPC;

			syncio_end();
			file_release(f);
			if (done)
				*done = total;
			/* A source buffer the kernel cannot read is the
			 * caller's: Windows says so with its own code. */
			SetLastError(e == EPIPE ? ERROR_NO_DATA :
				     e == EFAULT ? ERROR_INVALID_USER_BUFFER : win32_error_from_errno(e));
			return FALSE;
		}
		total += (DWORD)n;
	}
	syncio_end();
	if (done)
		*done = total;
	if (ov)
		complete_sync_overlapped(f, ov, STATUS_SUCCESS, total);
	file_release(f);
	return TRUE;
}

BOOL WINAPI FlushFileBuffers(HANDLE h)
{
	struct file *f = file_get(h);
	int r;

	if (!f)
		return FALSE;
	r = fsync(f->fd);
	/* pipes and terminals have nothing to flush */
	if (r && (errno == EINVAL || errno == EROFS))
		r = 0;
	if (r)
		set_last_error_from_errno(errno);
	file_release(f);
	return !r;
}

DWORD WINAPI GetFileType(HANDLE h)
{
	struct file *f = file_get(h);
	struct stat st;
	DWORD type;

	if (!f)
		return FILE_TYPE_UNKNOWN;
	if (fstat(f->fd, &st)) {
		set_last_error_from_errno(errno);
		type = FILE_TYPE_UNKNOWN;
	} else if (S_ISCHR(st.st_mode)) {
		type = FILE_TYPE_CHAR;
	} else if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) {
		type = FILE_TYPE_PIPE;
	} else {
		type = FILE_TYPE_DISK;
	}
	file_release(f);
	if (type != FILE_TYPE_UNKNOWN)
		SetLastError(NO_ERROR);
	return type;
}

/* ---- size and position -------------------------------------------------------- */

BOOL WINAPI GetFileSizeEx(HANDLE h, PLARGE_INTEGER size)
{
	struct file *f = file_get(h);
	struct stat st;
	BOOL ok;

	if (!f)
		return FALSE;
	ok = !fstat(f->fd, &st);
	if (!ok)
		set_last_error_from_errno(errno);
	else if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode)) {
		/* pipes, consoles and directories have no size */
		SetLastError(S_ISDIR(st.st_mode) ? ERROR_INVALID_PARAMETER : ERROR_INVALID_FUNCTION);
		ok = FALSE;
	} else
		size->QuadPart = st.st_size;
	file_release(f);
	return ok;
}

DWORD WINAPI GetFileSize(HANDLE h, LPDWORD high)
{
	LARGE_INTEGER size;

	if (!GetFileSizeEx(h, &size))
		return INVALID_FILE_SIZE;
	if (high)
		*high = (DWORD)size.HighPart;
	if (size.LowPart == INVALID_FILE_SIZE)
		SetLastError(NO_ERROR); /* so the caller can tell it from a failure */
	return size.LowPart;
}

BOOL WINAPI SetFilePointerEx(HANDLE h, LARGE_INTEGER dist, PLARGE_INTEGER newpos, DWORD method)
{
	struct file *f;
	off_t pos;
	int whence;

	switch (method) {
	case FILE_BEGIN:
		whence = SEEK_SET;
		break;
	case FILE_CURRENT:
		whence = SEEK_CUR;
		break;
	case FILE_END:
		whence = SEEK_END;
		break;
	default:
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!(f = file_get(h)))
		return FALSE;
	pos = lseek(f->fd, dist.QuadPart, whence);
	if (pos < 0) {
		int e = errno;

		/* Linux refuses a negative result with EINVAL */
		SetLastError(e == EINVAL ? ERROR_NEGATIVE_SEEK : win32_error_from_errno(e));
		file_release(f);
		return FALSE;
	}
	file_release(f);
	if (newpos)
		newpos->QuadPart = pos;
	return TRUE;
}

DWORD WINAPI SetFilePointer(HANDLE h, LONG dist, PLONG high, DWORD method)
{
	LARGE_INTEGER d, pos;

	/* Without a high part, the distance is a signed 32-bit value. */
	d.QuadPart = high ? (LONGLONG)(((ULONGLONG)(ULONG)*high << 32) | (ULONG)dist) : dist;
	if (!SetFilePointerEx(h, d, &pos, method))
		return INVALID_SET_FILE_POINTER;
	if (high)
		*high = pos.HighPart;
	else if (pos.QuadPart > 0xffffffffll) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return INVALID_SET_FILE_POINTER;
	}
	if (pos.LowPart == INVALID_SET_FILE_POINTER)
		SetLastError(NO_ERROR);
	return pos.LowPart;
}

BOOL WINAPI SetEndOfFile(HANDLE h)
{
	struct file *f = file_get(h);
	off_t pos;
	BOOL ok;

	if (!f)
		return FALSE;
	pos = lseek(f->fd, 0, SEEK_CUR);
	ok = pos >= 0 && !ftruncate(f->fd, pos);
	if (!ok)
		SetLastError(errno == EBADF || errno == EINVAL ? ERROR_ACCESS_DENIED : win32_error_from_errno(errno));
	file_release(f);
	return ok;
}

/* ---- names: delete, attributes, directories ------------------------------------ */

BOOL WINAPI DeleteFileW(LPCWSTR name)
{
	DWORD err;
	char *u = path_to_unix(name, &err);

	if (!u) {
		SetLastError(err);
		return FALSE;
	}
	if (unlink(u)) {
		SetLastError(path_error(u, errno));
		free(u);
		return FALSE;
	}
	free(u);
	return TRUE;
}

BOOL WINAPI DeleteFileA(LPCSTR name)
{
	WCHAR *w = a_to_w(name);
	BOOL ret;

	if (!w)
		return FALSE;
	ret = DeleteFileW(w);
	free(w);
	return ret;
}

DWORD file_attributes_from_stat(const struct stat *st)
{
	DWORD attr = 0;

	if (S_ISDIR(st->st_mode))
		attr |= FILE_ATTRIBUTE_DIRECTORY;
	else
		attr |= FILE_ATTRIBUTE_ARCHIVE;
	if (!(st->st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)))
		attr |= FILE_ATTRIBUTE_READONLY;
	return attr;
}

DWORD WINAPI GetFileAttributesW(LPCWSTR name)
{
	DWORD err;
	struct stat st;
	char *u = path_to_unix(name, &err);

	if (!u) {
		SetLastError(err);
		return INVALID_FILE_ATTRIBUTES;
	}
	if (stat(u, &st)) {
		SetLastError(path_error(u, errno));
		free(u);
		return INVALID_FILE_ATTRIBUTES;
	}
	free(u);
	return file_attributes_from_stat(&st);
}

DWORD WINAPI GetFileAttributesA(LPCSTR name)
{
	WCHAR *w = a_to_w(name);
	DWORD ret;

	if (!w)
		return INVALID_FILE_ATTRIBUTES;
	ret = GetFileAttributesW(w);
	free(w);
	return ret;
}

void filetime_from_timespec(FILETIME *ft, const struct timespec *ts)
{
	ULONGLONG t = ((ULONGLONG)ts->tv_sec + 11644473600ull) * 10000000ull + ts->tv_nsec / 100;

	ft->dwLowDateTime = (DWORD)t;
	ft->dwHighDateTime = (DWORD)(t >> 32);
}

BOOL WINAPI GetFileAttributesExW(LPCWSTR name, GET_FILEEX_INFO_LEVELS level, LPVOID info)
{
	WIN32_FILE_ATTRIBUTE_DATA *data = info;
	DWORD err;
	struct stat st;
	char *u;

	if (level != GetFileExInfoStandard || !info) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!(u = path_to_unix(name, &err))) {
		SetLastError(err);
		return FALSE;
	}
	if (stat(u, &st)) {
		SetLastError(path_error(u, errno));
		free(u);
		return FALSE;
	}
	free(u);
	data->dwFileAttributes = file_attributes_from_stat(&st);
	filetime_from_timespec(&data->ftCreationTime, &st.st_ctim);
	filetime_from_timespec(&data->ftLastAccessTime, &st.st_atim);
	filetime_from_timespec(&data->ftLastWriteTime, &st.st_mtim);
	data->nFileSizeHigh = S_ISDIR(st.st_mode) ? 0 : (DWORD)((ULONGLONG)st.st_size >> 32);
	data->nFileSizeLow = S_ISDIR(st.st_mode) ? 0 : (DWORD)st.st_size;
	return TRUE;
}

BOOL WINAPI GetFileAttributesExA(LPCSTR name, GET_FILEEX_INFO_LEVELS level, LPVOID info)
{
	WCHAR *w = a_to_w(name);
	BOOL ret;

	if (!w)
		return FALSE;
	ret = GetFileAttributesExW(w, level, info);
	free(w);
	return ret;
}

/* Only FILE_ATTRIBUTE_READONLY maps onto Linux (the write bits). */
BOOL WINAPI SetFileAttributesW(LPCWSTR name, DWORD attributes)
{
	DWORD err;
	struct stat st;
	mode_t mode;
	char *u = path_to_unix(name, &err);

	if (!u) {
		SetLastError(err);
		return FALSE;
	}
	if (stat(u, &st)) {
		SetLastError(path_error(u, errno));
		free(u);
		return FALSE;
	}
	mode = st.st_mode & 07777;
	if (attributes & FILE_ATTRIBUTE_READONLY)
		mode &= ~(mode_t)0222;
	else if (!(mode & 0222))
		mode |= S_IWUSR;
	if (mode != (st.st_mode & 07777) && chmod(u, mode)) {
		set_last_error_from_errno(errno);
		free(u);
		return FALSE;
	}
	free(u);
	return TRUE;
}

BOOL WINAPI SetFileAttributesA(LPCSTR name, DWORD attributes)
{
	WCHAR *w = a_to_w(name);
	BOOL ret;

	if (!w)
		return FALSE;
	ret = SetFileAttributesW(w, attributes);
	free(w);
	return ret;
}

BOOL WINAPI CreateDirectoryW(LPCWSTR name, LPSECURITY_ATTRIBUTES sa)
{
	DWORD err;
	char *u = path_to_unix(name, &err);

	if (!u) {
		SetLastError(err);
		return FALSE;
	}
	if (mkdir(u, 0777)) {
		int e = errno;

		SetLastError(e == EEXIST ? ERROR_ALREADY_EXISTS : e == ENOENT ? ERROR_PATH_NOT_FOUND
									     : win32_error_from_errno(e));
		free(u);
		return FALSE;
	}
	free(u);
	return TRUE;
}

BOOL WINAPI CreateDirectoryA(LPCSTR name, LPSECURITY_ATTRIBUTES sa)
{
	WCHAR *w = a_to_w(name);
	BOOL ret;

	if (!w)
		return FALSE;
	ret = CreateDirectoryW(w, sa);
	free(w);
	return ret;
}

BOOL WINAPI RemoveDirectoryW(LPCWSTR name)
{
	DWORD err;
	char *u = path_to_unix(name, &err);

	if (!u) {
		SetLastError(err);
		return FALSE;
	}
	if (rmdir(u)) {
		int e = errno;

		SetLastError(e == ENOTDIR ? ERROR_DIRECTORY : path_error(u, e));
		free(u);
		return FALSE;
	}
	free(u);
	return TRUE;
}

BOOL WINAPI RemoveDirectoryA(LPCSTR name)
{
	WCHAR *w = a_to_w(name);
	BOOL ret;

	if (!w)
		return FALSE;
	ret = RemoveDirectoryW(w);
	free(w);
	return ret;
}

/* ---- full and temporary paths ------------------------------------------------- */

DWORD WINAPI GetFullPathNameW(LPCWSTR name, DWORD size, LPWSTR buf, LPWSTR *file_part)
{
	DWORD err, ret;
	WCHAR *full;

	if (!name || !*name) {
		SetLastError(ERROR_INVALID_NAME);
		return 0;
	}
	if (!(full = path_full(name, &err))) {
		SetLastError(err);
		return 0;
	}
	ret = string_result_w(full, buf, size);
	if (file_part && ret < size && buf) {
		WCHAR *slash = NULL;

		for (WCHAR *p = buf; *p; p++)
			if (*p == '\\')
				slash = p;
		*file_part = slash && slash[1] ? slash + 1 : NULL;
	}
	free(full);
	return ret;
}

DWORD WINAPI GetFullPathNameA(LPCSTR name, DWORD size, LPSTR buf, LPSTR *file_part)
{
	WCHAR *w = a_to_w(name), *full;
	DWORD err, len;

	if (!w)
		return 0;
	full = *w ? path_full(w, &err) : (err = ERROR_INVALID_NAME, NULL);
	free(w);
	if (!full) {
		SetLastError(err);
		return 0;
	}
	len = string_result_cp(cp_file(), full, buf, size);
	free(full);
	if (!len || len >= size || !buf)
		return len;
	if (file_part) {
		char *slash = strrchr(buf, '\\');

		*file_part = slash && slash[1] ? slash + 1 : NULL;
	}
	return len;
}

/* TMP, then TEMP (Windows paths), then (Linux) TMPDIR, else /tmp;
 * always a full path ending with '\\'. */
DWORD WINAPI GetTempPathW(DWORD size, LPWSTR buf)
{
	static const WCHAR *const vars[] = { u"TMP", u"TEMP" };
	WCHAR value[MAX_PATH + 1], *full = NULL, *with_sep;
	DWORD err = ERROR_NOT_ENOUGH_MEMORY, n, ret;
	const char *tmpdir = getenv("TMPDIR");

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]) && !full; i++) {
		n = GetEnvironmentVariableW(vars[i], value, MAX_PATH + 1);
		if (n && n <= MAX_PATH)
			full = path_full(value, &err);
	}
	if (!full)
		full = path_from_unix(tmpdir && tmpdir[0] == '/' ? tmpdir : "/tmp");
	if (!full) {
		SetLastError(err);
		return 0;
	}
	n = (DWORD)wstr_len(full);
	if (!(with_sep = malloc((n + 2) * sizeof(WCHAR)))) {
		free(full);
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return 0;
	}
	memcpy(with_sep, full, n * sizeof(WCHAR));
	if (n && full[n - 1] != '\\')
		with_sep[n++] = '\\';
	with_sep[n] = 0;
	free(full);
	ret = string_result_w(with_sep, buf, size);
	free(with_sep);
	return ret;
}

DWORD WINAPI GetTempPathA(DWORD size, LPSTR buf)
{
	WCHAR w[MAX_PATH + 2];
	DWORD n = GetTempPathW(MAX_PATH + 2, w);

	if (!n)
		return 0;
	if (n > MAX_PATH + 1) {
		SetLastError(ERROR_FILENAME_EXCED_RANGE);
		return 0;
	}
	return string_result_cp(cp_file(), w, buf, size);
}

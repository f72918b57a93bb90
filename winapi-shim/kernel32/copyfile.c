/* Copying files (winbase.h): CopyFile(Ex).  The copy goes through
 * CreateFile/ReadFile/WriteFile, so names, sharing and errors follow the
 * same rules as a program's own copy; the destination gets the source's
 * data, read-only attribute and last-write time, as Windows gives it.
 * The progress routine is called once as the stream starts
 * (CALLBACK_STREAM_SWITCH) and after each chunk; PROGRESS_CANCEL and
 * PROGRESS_STOP (or *cancel turning TRUE) end the copy with
 * ERROR_REQUEST_ABORTED and delete the partial destination. */
#include <stdlib.h>

#include "core/debug.h"
#include "kernel32/kernel32_private.h"
#include "core/pecall.h"

#define CHUNK (1u << 20)

/* The flags understood; the others are rejected.  Restartable copies,
 * unbuffered I/O and the encryption and symbolic-link options change
 * nothing here: the copy is a plain one either way. */
#define KNOWN_FLAGS                                                                                       \
	(COPY_FILE_FAIL_IF_EXISTS | COPY_FILE_RESTARTABLE | COPY_FILE_OPEN_SOURCE_FOR_WRITE |             \
	 COPY_FILE_ALLOW_DECRYPTED_DESTINATION | COPY_FILE_COPY_SYMLINK | COPY_FILE_NO_BUFFERING)

/* Calls the progress routine; false when the copy must end. */
static bool progress(LPPROGRESS_ROUTINE routine, void *data, LONGLONG total, LONGLONG done, DWORD reason,
		     HANDLE in, HANDLE out, bool *quiet, bool *keep)
{
	LARGE_INTEGER t, d;
	DWORD r;

	if (!routine || *quiet)
		return true;
	t.QuadPart = total;
	d.QuadPart = done;
	r = (DWORD)PE_CALL9(routine, t.QuadPart, d.QuadPart, t.QuadPart, d.QuadPart, 1, reason, in, out, data);
	switch (r) {
	case PROGRESS_CONTINUE:
		return true;
	case PROGRESS_QUIET:
		*quiet = true;
		return true;
	case PROGRESS_STOP:
		*keep = false; /* a restartable copy would keep it; ours is not */
		return false;
	default: /* PROGRESS_CANCEL */
		*keep = false;
		return false;
	}
}

BOOL WINAPI CopyFileExW(LPCWSTR from, LPCWSTR to, LPPROGRESS_ROUTINE routine, LPVOID data, LPBOOL cancel,
			DWORD flags)
{
	BY_HANDLE_FILE_INFORMATION info;
	HANDLE in, out;
	LONGLONG total, done = 0;
	bool quiet = false, keep = true, ok = true;
	DWORD err = 0, attrs;
	char *buf;

	TRACE(file, "%s -> %s flags %#x\n", debugstr_w(from), debugstr_w(to), (unsigned)flags);
	if (!from || !to || (flags & ~KNOWN_FLAGS)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	in = CreateFileW(from, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING,
			 FILE_FLAG_SEQUENTIAL_SCAN, NULL);
	if (in == INVALID_HANDLE_VALUE)
		return FALSE;
	if (!GetFileInformationByHandle(in, &info)) {
		CloseHandle(in);
		return FALSE;
	}
	if (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) {
		CloseHandle(in);
		SetLastError(ERROR_ACCESS_DENIED);
		return FALSE;
	}
	/* an existing read-only destination is not replaced */
	attrs = GetFileAttributesW(to);
	if (attrs != INVALID_FILE_ATTRIBUTES && !(flags & COPY_FILE_FAIL_IF_EXISTS) &&
	    (attrs & (FILE_ATTRIBUTE_READONLY | FILE_ATTRIBUTE_DIRECTORY))) {
		CloseHandle(in);
		SetLastError(ERROR_ACCESS_DENIED);
		return FALSE;
	}
	out = CreateFileW(to, GENERIC_WRITE, 0, NULL, (flags & COPY_FILE_FAIL_IF_EXISTS) ? CREATE_NEW : CREATE_ALWAYS,
			  info.dwFileAttributes & ~FILE_ATTRIBUTE_READONLY, NULL);
	if (out == INVALID_HANDLE_VALUE) {
		err = GetLastError();
		CloseHandle(in);
		SetLastError(err == ERROR_ALREADY_EXISTS ? ERROR_FILE_EXISTS : err);
		return FALSE;
	}
	total = ((LONGLONG)info.nFileSizeHigh << 32) | info.nFileSizeLow;
	if (!(buf = malloc(CHUNK))) {
		err = ERROR_NOT_ENOUGH_MEMORY;
		goto fail;
	}
	if (!progress(routine, data, total, 0, CALLBACK_STREAM_SWITCH, in, out, &quiet, &keep)) {
		err = ERROR_REQUEST_ABORTED;
		goto fail;
	}
	for (;;) {
		DWORD n = 0, w = 0;

		if (cancel && *cancel) {
			keep = false;
			err = ERROR_REQUEST_ABORTED;
			break;
		}
		if (!ReadFile(in, buf, CHUNK, &n, NULL)) {
			err = GetLastError();
			break;
		}
		if (!n)
			break;
		if (!WriteFile(out, buf, n, &w, NULL) || w != n) {
			err = w != n && !GetLastError() ? ERROR_WRITE_FAULT : GetLastError();
			break;
		}
		done += n;
		if (!progress(routine, data, total, done, CALLBACK_CHUNK_FINISHED, in, out, &quiet, &keep)) {
			err = ERROR_REQUEST_ABORTED;
			break;
		}
	}
	if (!err)
		SetFileTime(out, NULL, NULL, &info.ftLastWriteTime);
fail:
	free(buf);
	CloseHandle(in);
	CloseHandle(out);
	if (err) {
		if (!keep || err != ERROR_REQUEST_ABORTED)
			DeleteFileW(to);
		SetLastError(err);
		return FALSE;
	}
	if ((info.dwFileAttributes & FILE_ATTRIBUTE_READONLY) && !SetFileAttributesW(to, info.dwFileAttributes))
		ok = false;
	return ok;
}

BOOL WINAPI CopyFileW(LPCWSTR from, LPCWSTR to, BOOL fail_if_exists)
{
	return CopyFileExW(from, to, NULL, NULL, NULL, fail_if_exists ? COPY_FILE_FAIL_IF_EXISTS : 0);
}

BOOL WINAPI CopyFileExA(LPCSTR from, LPCSTR to, LPPROGRESS_ROUTINE routine, LPVOID data, LPBOOL cancel,
			DWORD flags)
{
	WCHAR *wfrom = a_to_w(from), *wto = wfrom ? a_to_w(to) : NULL;
	BOOL ret = FALSE;

	if (wfrom && wto)
		ret = CopyFileExW(wfrom, wto, routine, data, cancel, flags);
	free(wfrom);
	free(wto);
	return ret;
}

BOOL WINAPI CopyFileA(LPCSTR from, LPCSTR to, BOOL fail_if_exists)
{
	return CopyFileExA(from, to, NULL, NULL, NULL, fail_if_exists ? COPY_FILE_FAIL_IF_EXISTS : 0);
}

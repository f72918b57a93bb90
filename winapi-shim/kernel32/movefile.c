/* Renaming (winbase.h): MoveFile(Ex).  Without MOVEFILE_REPLACE_EXISTING
 * an existing target fails with ERROR_ALREADY_EXISTS (renameat2's
 * RENAME_NOREPLACE decides atomically); across file systems a file is
 * copied and the original deleted only with MOVEFILE_COPY_ALLOWED, as on
 * Windows; directories never move across.  Moves delayed until a reboot
 * need the registry ndrun does not have: ERROR_NOT_SUPPORTED. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/debug.h"
#include "core/errors.h"
#include "core/path.h"
#include "kernel32/kernel32_private.h"

/* winbase.h; the Wine headers lack it.  Linux tracks no links, so no
 * file is a link source that could not be tracked: accepted. */
#ifndef MOVEFILE_FAIL_IF_NOT_TRACKABLE
#define MOVEFILE_FAIL_IF_NOT_TRACKABLE 0x20
#endif

/* Copy a regular file's data and mode (MOVEFILE_COPY_ALLOWED). */
static int copy_file(const char *from, const char *to, bool replace)
{
	char buf[65536];
	struct stat st;
	int in, out, err = 0;

	if ((in = open(from, O_RDONLY | O_CLOEXEC)) < 0)
		return errno;
	if (fstat(in, &st)) {
		err = errno;
		close(in);
		return err;
	}
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | (replace ? 0 : O_EXCL), st.st_mode & 07777);
	if (out < 0) {
		err = errno;
		close(in);
		return err;
	}
	for (;;) {
		ssize_t n = read(in, buf, sizeof(buf)), off = 0;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? errno : 0;
			break;
		}
		while (off < n) {
			ssize_t w = write(out, buf + off, (size_t)(n - off));

			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0) {
				err = errno;
				break;
			}
			off += w;
		}
		if (err)
			break;
	}
	if (close(out) && !err)
		err = errno;
	close(in);
	if (err)
		unlink(to);
	return err;
}

BOOL WINAPI MoveFileExW(LPCWSTR from, LPCWSTR to, DWORD flags)
{
	bool replace = flags & MOVEFILE_REPLACE_EXISTING;
	char *src = NULL, *dst = NULL, *case_dst;
	struct stat st, dst_st;
	DWORD err = 0;
	int r;

	TRACE(file, "%s -> %s flags %#x\n", debugstr_w(from), debugstr_w(to), (unsigned)flags);
	if (flags & ~(MOVEFILE_REPLACE_EXISTING | MOVEFILE_COPY_ALLOWED | MOVEFILE_DELAY_UNTIL_REBOOT |
		      MOVEFILE_WRITE_THROUGH | MOVEFILE_FAIL_IF_NOT_TRACKABLE)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (flags & MOVEFILE_DELAY_UNTIL_REBOOT) {
		SetLastError(ERROR_NOT_SUPPORTED);
		return FALSE;
	}
	if (!from || !to) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!(src = path_to_unix(from, &err)) || !(dst = path_to_unix(to, &err)))
		goto out;
	if (lstat(src, &st)) {
		err = path_error(src, errno);
		goto out;
	}
	/* "a.txt" -> "A.txt": the case lookup found the source as the target */
	if ((case_dst = path_case_rename(src, dst, to))) {
		free(dst);
		dst = case_dst;
	}
	/* Replacing never puts anything in place of a directory. */
	if (replace && !stat(dst, &dst_st) && S_ISDIR(dst_st.st_mode)) {
		err = ERROR_ACCESS_DENIED;
		goto out;
	}
	r = renameat2(AT_FDCWD, src, AT_FDCWD, dst, replace ? 0 : RENAME_NOREPLACE);
	if (r && !replace && errno == EINVAL) {
		/* A file system without RENAME_NOREPLACE: check, then rename. */
		r = !lstat(dst, &dst_st) ? (errno = EEXIST, -1) : rename(src, dst);
	}
	if (!r)
		goto out;
	if (errno == EEXIST) {
		err = ERROR_ALREADY_EXISTS;
	} else if (errno == EXDEV) {
		int e;

		if (!(flags & MOVEFILE_COPY_ALLOWED) || S_ISDIR(st.st_mode)) {
			err = ERROR_NOT_SAME_DEVICE;
		} else if ((e = copy_file(src, dst, replace))) {
			err = e == EEXIST ? ERROR_ALREADY_EXISTS : win32_error_from_errno(e);
		} else if (unlink(src)) {
			err = win32_error_from_errno(errno);
		}
	} else if (errno == ENOENT) {
		err = ERROR_PATH_NOT_FOUND; /* the source exists: the target's folder does not */
	} else if (errno == EISDIR || errno == ENOTEMPTY) {
		err = ERROR_ACCESS_DENIED;
	} else {
		err = win32_error_from_errno(errno);
	}
out:
	free(src);
	free(dst);
	if (err) {
		SetLastError(err);
		return FALSE;
	}
	if (flags & MOVEFILE_WRITE_THROUGH)
		sync();
	return TRUE;
}

BOOL WINAPI MoveFileW(LPCWSTR from, LPCWSTR to)
{
	return MoveFileExW(from, to, MOVEFILE_COPY_ALLOWED);
}

BOOL WINAPI MoveFileExA(LPCSTR from, LPCSTR to, DWORD flags)
{
	WCHAR *wf = a_to_w(from), *wt;
	BOOL ret = FALSE;

	if (!wf)
		return FALSE;
	if ((wt = a_to_w(to))) {
		ret = MoveFileExW(wf, wt, flags);
		free(wt);
	}
	free(wf);
	return ret;
}

BOOL WINAPI MoveFileA(LPCSTR from, LPCSTR to)
{
	return MoveFileExA(from, to, MOVEFILE_COPY_ALLOWED);
}

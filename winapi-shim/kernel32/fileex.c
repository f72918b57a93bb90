/* ReadFileEx / WriteFileEx (fileapi.h): overlapped transfers that report
 * through a completion routine, queued as an APC to the issuing thread
 * and run when it next waits alertably (SleepEx, WaitFor...Ex), instead
 * of an event or a completion port.
 *
 * Disk files complete at once (ndrun's disk I/O is synchronous, as for
 * ReadFile on an overlapped handle), so the routine is queued before the
 * call returns.  Pipe ends are not supported yet: the pipe code completes
 * through events and ports only, so ReadFileEx/WriteFileEx on a pipe fail
 * with ERROR_NOT_SUPPORTED rather than lose the completion. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#define WIN32_NO_STATUS
#include "core/debug.h"
#include "core/errors.h"
#include "core/file.h"
#include "core/overlapped.h"
#include "core/thread.h"
#include "kernel32/kernel32_private.h"
#include "core/pecall.h"
#undef WIN32_NO_STATUS
#include <ntstatus.h>

struct file_apc {
	LPOVERLAPPED_COMPLETION_ROUTINE routine;
	DWORD error, bytes;
	OVERLAPPED *ov;
};

static void WINAPI file_apc_run(ULONG_PTR data)
{
	struct file_apc a = *(struct file_apc *)data;

	free((void *)data);
	PE_CALL3(a.routine, a.error, a.bytes, a.ov);
}

static BOOL transfer_ex(HANDLE h, void *buf, DWORD len, OVERLAPPED *ov, LPOVERLAPPED_COMPLETION_ROUTINE routine,
			bool write)
{
	LONGLONG off;
	struct thread *self = thread_current();
	struct file_apc *a;
	struct file *f;
	NTSTATUS status = STATUS_SUCCESS;
	DWORD total = 0, error = 0;

	TRACE(file, "%p %p %u ov %p routine %p%s\n", h, buf, (unsigned)len, ov, routine, write ? " (write)" : "");
	if (!ov || !routine || !self) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!(f = file_get(h)))
		return FALSE;
	if (!(f->access & (write ? (FILE_WRITE_DATA | FILE_APPEND_DATA) : FILE_READ_DATA))) {
		file_release(f);
		SetLastError(ERROR_ACCESS_DENIED);
		return FALSE;
	}
	if (f->pipe || lseek(f->fd, 0, SEEK_CUR) < 0) {
		file_release(f);
		TRACE(file, "%p: ReadFileEx/WriteFileEx on a pipe or device not supported\n", h);
		SetLastError(ERROR_NOT_SUPPORTED);
		return FALSE;
	}
	a = malloc(sizeof(*a));
	if (!a) {
		file_release(f);
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	off = (LONGLONG)(((ULONGLONG)ov->OffsetHigh << 32) | ov->Offset);
	ov->Internal = STATUS_PENDING;
	ov->InternalHigh = 0;
	while (total < len) {
		ssize_t n = write ? pwrite(f->fd, (char *)buf + total, len - total, off + total)
				  : pread(f->fd, (char *)buf + total, len - total, off + total);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			/* Failing at once: no routine, the caller gets the error. */
			file_release(f);
			free(a);
			ov->Internal = status_from_errno(e);
			set_last_error_from_errno(e);
			return FALSE;
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
	file_release(f);
	/* Past the end of file the routine gets ERROR_HANDLE_EOF. */
	if (!write && !total && len && status == STATUS_SUCCESS)
		status = STATUS_END_OF_FILE;
	if (status)
		error = RtlNtStatusToDosError(status);
	io_publish(ov, status, total);
	*a = (struct file_apc){ routine, error, total, ov };
	if (!apc_queue(self, file_apc_run, (ULONG_PTR)a)) {
		free(a);
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	return TRUE;
}

BOOL WINAPI ReadFileEx(HANDLE h, LPVOID buf, DWORD len, LPOVERLAPPED ov, LPOVERLAPPED_COMPLETION_ROUTINE routine)
{
	return transfer_ex(h, buf, len, ov, routine, false);
}

BOOL WINAPI WriteFileEx(HANDLE h, LPCVOID buf, DWORD len, LPOVERLAPPED ov, LPOVERLAPPED_COMPLETION_ROUTINE routine)
{
	return transfer_ex(h, (void *)buf, len, ov, routine, true);
}

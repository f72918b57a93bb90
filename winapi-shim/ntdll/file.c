/* NtReadFile / NtWriteFile on synchronous handles: what Rust's standard
 * library calls for every read and write of a File or standard handle.
 * They go through kernel32's ReadFile/WriteFile (the one file path) and
 * report through the IO_STATUS_BLOCK instead of the last error, which
 * they leave alone.
 *
 * Handles opened for overlapped I/O, events and APC routines are not
 * supported yet: STATUS_NOT_IMPLEMENTED says so (kernel32's ReadFile and
 * ReadFileEx are the overlapped paths). */
#include <stdbool.h>
#include <unistd.h>

#define WIN32_NO_STATUS
#include "core/debug.h"
#include "core/file.h"
#include "ntdll/ntdll_private.h"
#undef WIN32_NO_STATUS
#include <ntstatus.h>

/* ByteOffset values that mean "no explicit offset" (wdm.h). */
#define USE_FILE_POINTER_POSITION (-2ll)
#define WRITE_TO_END_OF_FILE (-1ll)

static NTSTATUS status_from_win32(DWORD err)
{
	switch (err) {
	case ERROR_HANDLE_EOF:
		return STATUS_END_OF_FILE;
	case ERROR_BROKEN_PIPE:
		return STATUS_PIPE_BROKEN;
	case ERROR_NO_DATA:
		return STATUS_PIPE_CLOSING;
	case ERROR_INVALID_HANDLE:
		return STATUS_INVALID_HANDLE;
	case ERROR_ACCESS_DENIED:
		return STATUS_ACCESS_DENIED;
	case ERROR_INVALID_PARAMETER:
		return STATUS_INVALID_PARAMETER;
	case ERROR_DISK_FULL:
		return STATUS_DISK_FULL;
	}
	/* NTSTATUS_FROM_WIN32: RtlNtStatusToDosError gives err back. */
	return (NTSTATUS)(0xc0070000u | (err & 0xffff));
}

/* Which handles NtReadFile/NtWriteFile serve: synchronous files and
 * pipes, without event or APC.  *is_pipe: no offsets there. */
static NTSTATUS check_sync(HANDLE h, HANDLE event, PIO_APC_ROUTINE apc, bool *is_pipe, bool *seekable)
{
	struct file *f;
	bool overlapped;

	if (!(f = file_get(h)))
		return STATUS_INVALID_HANDLE;
	overlapped = f->options & FILE_FLAG_OVERLAPPED;
	*is_pipe = f->pipe != NULL;
	*seekable = lseek(f->fd, 0, SEEK_CUR) >= 0;
	file_release(f);
	if (overlapped || event || apc) {
		TRACE(file, "%p: asynchronous NtReadFile/NtWriteFile not implemented\n", h);
		return STATUS_NOT_IMPLEMENTED;
	}
	return STATUS_SUCCESS;
}

static NTSTATUS transfer(HANDLE h, HANDLE event, PIO_APC_ROUTINE apc, IO_STATUS_BLOCK *io, void *buf, ULONG len,
			 LARGE_INTEGER *offset, bool write)
{
	DWORD saved = GetLastError(), done = 0;
	OVERLAPPED ov = { 0 };
	bool is_pipe, seekable, at_offset;
	NTSTATUS status;
	BOOL ok;

	if (!io)
		return STATUS_ACCESS_VIOLATION;
	status = check_sync(h, event, apc, &is_pipe, &seekable);
	if (status)
		return status;
	at_offset = offset && seekable && !is_pipe && offset->QuadPart != USE_FILE_POINTER_POSITION;
	if (at_offset && write && offset->QuadPart == WRITE_TO_END_OF_FILE) {
		LARGE_INTEGER end;

		if (!SetFilePointerEx(h, (LARGE_INTEGER){ .QuadPart = 0 }, &end, FILE_END)) {
			status = status_from_win32(GetLastError());
			SetLastError(saved);
			return status;
		}
		at_offset = false;
	} else if (at_offset && offset->QuadPart < 0) {
		return STATUS_INVALID_PARAMETER;
	}
	if (at_offset) {
		ov.Offset = (DWORD)offset->QuadPart;
		ov.OffsetHigh = (DWORD)(offset->QuadPart >> 32);
	}
	ok = write ? WriteFile(h, buf, len, &done, at_offset ? &ov : NULL)
		   : ReadFile(h, buf, len, &done, at_offset ? &ov : NULL);
	if (ok)
		status = (!write && !done && len && !is_pipe && seekable) ? STATUS_END_OF_FILE : STATUS_SUCCESS;
	else
		status = status_from_win32(GetLastError());
	SetLastError(saved);
	io->Status = status;
	io->Information = done;
	return status;
}

NTSTATUS WINAPI NtReadFile(HANDLE h, HANDLE event, PIO_APC_ROUTINE apc, PVOID apc_ctx, PIO_STATUS_BLOCK io,
			   PVOID buf, ULONG len, PLARGE_INTEGER offset, PULONG key)
{
	return transfer(h, event, apc, io, buf, len, offset, false);
}

NTSTATUS WINAPI NtWriteFile(HANDLE h, HANDLE event, PIO_APC_ROUTINE apc, PVOID apc_ctx, PIO_STATUS_BLOCK io,
			    const void *buf, ULONG len, PLARGE_INTEGER offset, PULONG key)
{
	return transfer(h, event, apc, io, (void *)buf, len, offset, true);
}

/* NtFsControlFile and NtDeviceIoControlFile, and so kernel32's
 * DeviceIoControl, which sends FSCTL_* codes (device type
 * FILE_DEVICE_FILE_SYSTEM) to the first and the rest to the second: the
 * control codes programs send to files and volumes, answered honestly.
 *
 *   FSCTL_GET_REPARSE_POINT  Rust's and Go's standard libraries ask it of
 *     a file opened with FILE_FLAG_OPEN_REPARSE_POINT to read a link.
 *     ndrun opens what a Linux symbolic link points to and reports no
 *     file as a reparse point (no FILE_ATTRIBUTE_REPARSE_POINT), so the
 *     answer is the one Windows gives for an ordinary file:
 *     STATUS_NOT_A_REPARSE_POINT.
 *   Any other code: STATUS_INVALID_DEVICE_REQUEST (ERROR_INVALID_FUNCTION),
 *     what a driver answers for a request it does not handle; the code is
 *     traced on +file so that the next one a program needs is easy to see.
 *
 * Every answer is immediate: nothing is left pending, so no completion
 * is queued and no event set (a request that fails when it is made
 * completes nowhere on Windows either). */
#include <stdbool.h>

#define WIN32_NO_STATUS
#include "core/debug.h"
#include "core/file.h"
#include "ntdll/ntdll_private.h"
#undef WIN32_NO_STATUS
#include <ntstatus.h>
#include <winioctl.h>

/* Both: the handle must be a file; the answer is immediate. */
static NTSTATUS control(HANDLE h, IO_STATUS_BLOCK *io, ULONG code, ULONG in_size, ULONG out_size, bool fs)
{
	struct file *f;
	NTSTATUS status = STATUS_INVALID_DEVICE_REQUEST;

	TRACE(file, "(%p, %s code 0x%08lx, in %lu, out %lu)\n", h, fs ? "FS" : "device", (unsigned long)code,
	      (unsigned long)in_size, (unsigned long)out_size);
	f = file_get(h);
	if (!f)
		return STATUS_INVALID_HANDLE;
	file_release(f);
	if (fs && code == FSCTL_GET_REPARSE_POINT)
		status = STATUS_NOT_A_REPARSE_POINT;
	else
		TRACE(file, "control code 0x%08lx (device 0x%lx, function %lu) not handled\n", (unsigned long)code,
		      (unsigned long)(code >> 16), (unsigned long)((code >> 2) & 0xfff));
	io->Status = status;
	io->Information = 0;
	return status;
}

NTSTATUS WINAPI NtFsControlFile(HANDLE h, HANDLE event, PIO_APC_ROUTINE apc, void *apc_ctx, IO_STATUS_BLOCK *io,
				ULONG code, void *in, ULONG in_size, void *out, ULONG out_size)
{
	(void)event, (void)apc, (void)apc_ctx, (void)in, (void)out;
	return control(h, io, code, in_size, out_size, true);
}

NTSTATUS WINAPI NtDeviceIoControlFile(HANDLE h, HANDLE event, PIO_APC_ROUTINE apc, void *apc_ctx, IO_STATUS_BLOCK *io,
				      ULONG code, void *in, ULONG in_size, void *out, ULONG out_size)
{
	(void)event, (void)apc, (void)apc_ctx, (void)in, (void)out;
	return control(h, io, code, in_size, out_size, false);
}

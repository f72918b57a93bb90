/* DeviceIoControl (ioapiset.h): as on Windows, FSCTL_* codes (device
 * type FILE_DEVICE_FILE_SYSTEM) go to NtFsControlFile, the others to
 * NtDeviceIoControlFile (ntdll/ioctl.c); the status becomes the last error.  Answers are
 * immediate, so an OVERLAPPED is filled as for a request that completed
 * at once and is never left pending. */
#define WIN32_NO_STATUS
#include "core/errors.h"
#include "kernel32/kernel32_private.h"
#undef WIN32_NO_STATUS
#include <ntstatus.h>
#include <winioctl.h>

BOOL WINAPI DeviceIoControl(HANDLE h, DWORD code, LPVOID in, DWORD in_size, LPVOID out, DWORD out_size,
			    LPDWORD returned, LPOVERLAPPED ovl)
{
	IO_STATUS_BLOCK io;
	NTSTATUS status;

	if ((code >> 16) == FILE_DEVICE_FILE_SYSTEM) /* the device type of a CTL_CODE */
		status = NtFsControlFile(h, NULL, NULL, NULL, &io, code, in, in_size, out, out_size);
	else
		status = NtDeviceIoControlFile(h, NULL, NULL, NULL, &io, code, in, in_size, out, out_size);
	if (ovl) {
		ovl->Internal = status;
		ovl->InternalHigh = status ? 0 : io.Information;
	}
	if (returned)
		*returned = status ? 0 : (DWORD)io.Information;
	if (status) {
		set_last_error_from_status(status);
		return FALSE;
	}
	return TRUE;
}

/* A stopgap for what msmpi.dll imports from kernel32 and the "real"
 * engineer's branch implements fully (DeviceIoControl), written so that
 * `ndrun --check` finds nothing missing in MS-MPI before it merges.  The
 * lead reconciles: whichever is kept, the other goes.  No device or
 * file-system control code is known here: ERROR_INVALID_FUNCTION
 * (MS-MPI's MPI-IO issues an invalid FSCTL on purpose and expects it to
 * fail). */

#include "kernel32/kernel32_private.h"

BOOL WINAPI DeviceIoControl(HANDLE h, DWORD code, LPVOID in, DWORD in_size, LPVOID out, DWORD out_size,
			    LPDWORD returned, LPOVERLAPPED ov)
{
	if (returned)
		*returned = 0;
	SetLastError(h == INVALID_HANDLE_VALUE || !h ? ERROR_INVALID_HANDLE : ERROR_INVALID_FUNCTION);
	return FALSE;
}

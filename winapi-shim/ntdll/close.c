/* NtClose: CloseHandle as an NTSTATUS, the last error left alone (Bun
 * and other runtimes close handles through ntdll). */
#define WIN32_NO_STATUS
#include "ntdll/ntdll_private.h"
#undef WIN32_NO_STATUS
#include <ntstatus.h>

NTSTATUS WINAPI NtClose(HANDLE h)
{
	DWORD saved = GetLastError();
	NTSTATUS status = CloseHandle(h) ? STATUS_SUCCESS : ntstatus_from_win32(GetLastError());

	SetLastError(saved);
	return status;
}

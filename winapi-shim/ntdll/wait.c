/* NtWaitForSingleObject: WaitForSingleObjectEx with NT's timeout (NULL:
 * forever; negative: relative, in 100 ns units; positive: an absolute
 * system time) and NT's results (STATUS_WAIT_0, STATUS_ABANDONED_WAIT_0,
 * STATUS_TIMEOUT, STATUS_USER_APC).  Go's runtime before 1.14 loads it
 * and calls it unconditionally. */
#define WIN32_NO_STATUS
#include "ntdll/ntdll_private.h"
#undef WIN32_NO_STATUS
#include <ntstatus.h>

/* An NT timeout in milliseconds for the Win32 wait, rounded up so that a
 * short wait does not become a poll. */
static DWORD timeout_ms(const LARGE_INTEGER *t)
{
	LONGLONG rel;

	if (!t)
		return INFINITE;
	if (t->QuadPart < 0) {
		rel = -t->QuadPart;
	} else {
		FILETIME now;
		LONGLONG n;

		GetSystemTimeAsFileTime(&now);
		n = ((LONGLONG)now.dwHighDateTime << 32) | now.dwLowDateTime;
		rel = t->QuadPart > n ? t->QuadPart - n : 0;
	}
	rel = (rel + 9999) / 10000;
	return rel >= INFINITE ? INFINITE - 1 : (DWORD)rel;
}

NTSTATUS WINAPI NtWaitForSingleObject(HANDLE h, BOOLEAN alertable, const LARGE_INTEGER *timeout)
{
	DWORD saved = GetLastError(), r = WaitForSingleObjectEx(h, timeout_ms(timeout), alertable);
	NTSTATUS status;

	switch (r) {
	case WAIT_OBJECT_0: status = STATUS_WAIT_0; break;
	case WAIT_ABANDONED: status = STATUS_ABANDONED_WAIT_0; break;
	case WAIT_TIMEOUT: status = STATUS_TIMEOUT; break;
	case WAIT_IO_COMPLETION: status = STATUS_USER_APC; break;
	default: status = ntstatus_from_win32(GetLastError()); break;
	}
	SetLastError(saved);
	return status;
}

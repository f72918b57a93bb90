/* Error modes (errhandlingapi.h): recorded and returned.  ndrun never
 * shows the dialogs they suppress, so they change nothing else. */
#include "kernel32/kernel32_private.h"

static UINT process_error_mode;
static __thread DWORD thread_error_mode;

UINT WINAPI GetErrorMode(void)
{
	return __atomic_load_n(&process_error_mode, __ATOMIC_RELAXED);
}

UINT WINAPI SetErrorMode(UINT mode)
{
	return __atomic_exchange_n(&process_error_mode, mode, __ATOMIC_RELAXED);
}

DWORD WINAPI GetThreadErrorMode(void)
{
	return thread_error_mode;
}

BOOL WINAPI SetThreadErrorMode(DWORD mode, LPDWORD old)
{
	if (mode & ~(SEM_FAILCRITICALERRORS | SEM_NOGPFAULTERRORBOX | SEM_NOOPENFILEERRORBOX)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (old)
		*old = thread_error_mode;
	thread_error_mode = mode;
	return TRUE;
}

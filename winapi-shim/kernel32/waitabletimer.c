/* synchapi's waitable timers: the Win32 surface of core/timer.c. */
#include <stdlib.h>

#include "core/debug.h"
#include "core/handle.h"
#include "core/sync.h"
#include "kernel32/kernel32_private.h"

/* Windows 10 1803; the Wine headers do not have it yet. */
#ifndef CREATE_WAITABLE_TIMER_HIGH_RESOLUTION
#define CREATE_WAITABLE_TIMER_HIGH_RESOLUTION 0x00000002
#endif

static const GENERIC_MAPPING timer_mapping = {
	STANDARD_RIGHTS_READ | TIMER_QUERY_STATE, STANDARD_RIGHTS_WRITE | TIMER_MODIFY_STATE,
	STANDARD_RIGHTS_EXECUTE | SYNCHRONIZE, TIMER_ALL_ACCESS,
};

HANDLE WINAPI CreateWaitableTimerExW(SECURITY_ATTRIBUTES *sa, LPCWSTR name, DWORD flags, DWORD access)
{
	TRACE(sync, "%s, flags %#x\n", debugstr_w(name), flags);
	if (flags & ~(CREATE_WAITABLE_TIMER_MANUAL_RESET | CREATE_WAITABLE_TIMER_HIGH_RESOLUTION)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	/* High resolution is what every timer here has already. */
	return sync_create_handle_access(waitable_timer_create(flags & CREATE_WAITABLE_TIMER_MANUAL_RESET),
					 name, sync_map_access(access, &timer_mapping));
}

HANDLE WINAPI CreateWaitableTimerW(LPSECURITY_ATTRIBUTES sa, BOOL manual, LPCWSTR name)
{
	return CreateWaitableTimerExW(sa, name, manual ? CREATE_WAITABLE_TIMER_MANUAL_RESET : 0,
				      TIMER_ALL_ACCESS);
}

HANDLE WINAPI CreateWaitableTimerExA(SECURITY_ATTRIBUTES *sa, LPCSTR name, DWORD flags, DWORD access)
{
	WCHAR *wname = namespace_name_from_a(name);
	HANDLE h;

	if (name && !wname) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	h = CreateWaitableTimerExW(sa, wname, flags, access);
	free(wname);
	return h;
}

HANDLE WINAPI CreateWaitableTimerA(LPSECURITY_ATTRIBUTES sa, BOOL manual, LPCSTR name)
{
	return CreateWaitableTimerExA(sa, name, manual ? CREATE_WAITABLE_TIMER_MANUAL_RESET : 0,
				      TIMER_ALL_ACCESS);
}

HANDLE WINAPI OpenWaitableTimerW(DWORD access, BOOL inherit, LPCWSTR name)
{
	return namespace_open(name, &timer_ops, access, inherit, &timer_mapping);
}

HANDLE WINAPI OpenWaitableTimerA(DWORD access, BOOL inherit, LPCSTR name)
{
	WCHAR *wname = namespace_name_from_a(name);
	HANDLE h;

	if (name && !wname) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	h = namespace_open(wname, &timer_ops, access, inherit, &timer_mapping);
	free(wname);
	return h;
}

/* resume (wake a suspended machine) cannot be honoured: the timer is
 * set all the same and the last error says ERROR_NOT_SUPPORTED, as the
 * docs specify for systems without that support. */
BOOL WINAPI SetWaitableTimer(HANDLE h, const LARGE_INTEGER *due, LONG period,
			     PTIMERAPCROUTINE routine, LPVOID arg, BOOL resume)
{
	struct object *obj;
	BOOL ret;

	TRACE(sync, "%p, due %lld, period %d, apc %p\n", h, due ? (long long)due->QuadPart : 0LL,
	      period, routine);
	if (!due) {
		SetLastError(ERROR_NOACCESS);
		return FALSE;
	}
	obj = handle_get_access(h, &timer_ops, TIMER_MODIFY_STATE);
	if (!obj)
		return FALSE;
	ret = waitable_timer_set(obj, due->QuadPart, period, routine, arg);
	object_unref(obj);
	if (ret)
		SetLastError(resume ? ERROR_NOT_SUPPORTED : ERROR_SUCCESS);
	return ret;
}

/* The wake context and the coalescing tolerance are hints. */
BOOL WINAPI SetWaitableTimerEx(HANDLE h, const LARGE_INTEGER *due, LONG period,
			       PTIMERAPCROUTINE routine, LPVOID arg, PREASON_CONTEXT context,
			       ULONG tolerable_delay)
{
	return SetWaitableTimer(h, due, period, routine, arg, FALSE);
}

BOOL WINAPI CancelWaitableTimer(HANDLE h)
{
	struct object *obj = handle_get_access(h, &timer_ops, TIMER_MODIFY_STATE);

	TRACE(sync, "%p\n", h);
	if (!obj)
		return FALSE;
	waitable_timer_cancel(obj);
	object_unref(obj);
	return TRUE;
}

/* handleapi: CloseHandle, DuplicateHandle, Get/SetHandleInformation. */
#include "core/debug.h"
#include "core/handle.h"
#include "kernel32/kernel32_private.h"

static bool is_pseudo(HANDLE h)
{
	return h == PSEUDO_HANDLE_CURRENT_PROCESS || h == PSEUDO_HANDLE_CURRENT_THREAD;
}

/* Closing a pseudo-handle is a successful no-op on Windows, which is why
 * CloseHandle(INVALID_HANDLE_VALUE) (== GetCurrentProcess()) succeeds. */
BOOL WINAPI CloseHandle(HANDLE h)
{
	TRACE(handle, "%p\n", h);
	if (is_pseudo(h))
		return TRUE;
	return handle_close(h);
}

BOOL WINAPI DuplicateHandle(HANDLE src_process, HANDLE src, HANDLE dst_process, HANDLE *dst,
			    DWORD access, BOOL inherit, DWORD options)
{
	struct object *obj;
	DWORD src_access = GENERIC_ALL;
	HANDLE h;

	TRACE(handle, "%p, access %#x, inherit %d, options %#x\n", src, access, inherit, options);
	/* Another process on either side (or a process handle to this
	 * one, which duphandle.c treats as such). */
	if (src_process != PSEUDO_HANDLE_CURRENT_PROCESS || dst_process != PSEUDO_HANDLE_CURRENT_PROCESS)
		return duphandle_cross_process(src_process, src, dst_process, dst, access, inherit, options);
	obj = handle_get(src, NULL);
	if (!obj)
		return FALSE;
	if (!is_pseudo(src))
		handle_get_info(src, &src_access, NULL);
	else
		src_access = src == PSEUDO_HANDLE_CURRENT_PROCESS ? PROCESS_ALL_ACCESS : THREAD_ALL_ACCESS;
	if (options & DUPLICATE_CLOSE_SOURCE)
		CloseHandle(src);
	if (!dst) {
		/* Windows allows a NULL target only to close the source. */
		object_unref(obj);
		if (options & DUPLICATE_CLOSE_SOURCE)
			return TRUE;
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	h = handle_create(obj, (options & DUPLICATE_SAME_ACCESS) ? src_access : access,
			  inherit ? HANDLE_FLAG_INHERIT : 0);
	object_unref(obj);
	if (!h)
		return FALSE;
	*dst = h;
	return TRUE;
}

BOOL WINAPI GetHandleInformation(HANDLE h, LPDWORD flags)
{
	if (!flags) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	return handle_get_info(h, NULL, flags);
}

BOOL WINAPI SetHandleInformation(HANDLE h, DWORD mask, DWORD flags)
{
	TRACE(handle, "%p, mask %#x, flags %#x\n", h, mask, flags);
	mask &= HANDLE_FLAG_INHERIT | HANDLE_FLAG_PROTECT_FROM_CLOSE;
	return handle_set_flags(h, mask, flags);
}

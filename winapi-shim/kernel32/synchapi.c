/* synchapi: events, semaphores, mutexes, waits, sleeps.  The objects and
 * the wait engine are in core/; this is the Win32 surface. */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/debug.h"
#include "core/futex.h"
#include "core/handle.h"
#include "core/iocp.h"
#include "core/shsync.h"
#include "core/sync.h"
#include "core/wait.h"
#include "kernel32/kernel32_private.h"
#include "ntdll/seh.h"

static const GENERIC_MAPPING event_mapping = {
	STANDARD_RIGHTS_READ | EVENT_QUERY_STATE, STANDARD_RIGHTS_WRITE | EVENT_MODIFY_STATE,
	STANDARD_RIGHTS_EXECUTE | SYNCHRONIZE, EVENT_ALL_ACCESS,
};
static const GENERIC_MAPPING semaphore_mapping = {
	STANDARD_RIGHTS_READ | SEMAPHORE_QUERY_STATE, STANDARD_RIGHTS_WRITE | SEMAPHORE_MODIFY_STATE,
	STANDARD_RIGHTS_EXECUTE | SYNCHRONIZE, SEMAPHORE_ALL_ACCESS,
};
static const GENERIC_MAPPING mutex_mapping = {
	STANDARD_RIGHTS_READ | MUTANT_QUERY_STATE, STANDARD_RIGHTS_WRITE,
	STANDARD_RIGHTS_EXECUTE | SYNCHRONIZE, MUTEX_ALL_ACCESS,
};

/* A Create* call: an unnamed object is an in-process one, which never
 * touches anything shared until it goes to another process; a named one is shared with the user's other
 * ndrun processes (core/shsync.c). */
static HANDLE create_sync(const struct shsync_init *in, const WCHAR *name, DWORD access, SECURITY_ATTRIBUTES *sa)
{
	struct object *obj;
	bool existed;
	DWORD err;
	HANDLE h;

	if (in->type == SHSYNC_SEMAPHORE && (in->maximum <= 0 || in->initial < 0 || in->initial > in->maximum)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	if (!name || !*name) {
		obj = in->type == SHSYNC_EVENT	   ? event_create(in->manual, in->initial)
		      : in->type == SHSYNC_SEMAPHORE ? semaphore_create(in->initial, in->maximum)
						     : mutex_create(in->initial);
		if (!obj)
			return NULL;
		/* Inheritable too: a child gets it as a shared object
		 * (core/promote.c). */
		h = handle_create(obj, access, sa && sa->bInheritHandle ? HANDLE_FLAG_INHERIT : 0);
		object_unref(obj);
		if (h)
			SetLastError(ERROR_SUCCESS);
		return h;
	}
	if ((err = namespace_check_name(name))) {
		SetLastError(err);
		return NULL;
	}
	obj = shsync_create(name, in, &existed);
	if (!obj)
		return NULL;
	h = handle_create(obj, access, sa && sa->bInheritHandle ? HANDLE_FLAG_INHERIT : 0);
	object_unref(obj);
	if (h)
		SetLastError(existed ? ERROR_ALREADY_EXISTS : ERROR_SUCCESS);
	return h;
}

/* Create*A: the ANSI name widened; NULL stays NULL.  Windows widens it
 * into the thread's MAX_PATH buffer, so a longer name fails. */
static HANDLE create_a(const struct shsync_init *in, const char *name, DWORD access, SECURITY_ATTRIBUTES *sa)
{
	WCHAR *wname;
	HANDLE h;

	if (name && strnlen(name, MAX_PATH) >= MAX_PATH) {
		SetLastError(ERROR_FILENAME_EXCED_RANGE);
		return NULL;
	}
	wname = namespace_name_from_a(name);
	if (name && !wname) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	h = create_sync(in, wname, access, sa);
	free(wname);
	return h;
}

HANDLE WINAPI CreateEventA(LPSECURITY_ATTRIBUTES sa, BOOL manual, BOOL initial, LPCSTR name)
{
	struct shsync_init in = { SHSYNC_EVENT, manual, initial, 0 };

	TRACE(sync, "manual %d, initial %d, %s\n", manual, initial, name ? name : "(null)");
	return create_a(&in, name, GENERIC_ALL, sa);
}

HANDLE WINAPI CreateEventW(LPSECURITY_ATTRIBUTES sa, BOOL manual, BOOL initial, LPCWSTR name)
{
	struct shsync_init in = { SHSYNC_EVENT, manual, initial, 0 };

	TRACE(sync, "manual %d, initial %d, %s\n", manual, initial, debugstr_w(name));
	return create_sync(&in, name, GENERIC_ALL, sa);
}

HANDLE WINAPI CreateEventExA(SECURITY_ATTRIBUTES *sa, LPCSTR name, DWORD flags, DWORD access)
{
	WCHAR *wname = namespace_name_from_a(name);
	HANDLE h;

	if (name && !wname) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	h = CreateEventExW(sa, wname, flags, access);
	free(wname);
	return h;
}

HANDLE WINAPI CreateEventExW(SECURITY_ATTRIBUTES *sa, LPCWSTR name, DWORD flags, DWORD access)
{
	struct shsync_init in = { SHSYNC_EVENT, flags & CREATE_EVENT_MANUAL_RESET,
				  (flags & CREATE_EVENT_INITIAL_SET) != 0, 0 };

	TRACE(sync, "%s, flags %#x, access %#x\n", debugstr_w(name), flags, access);
	return create_sync(&in, name, sync_map_access(access, &event_mapping), sa);
}

/* An Open* call.  Every name Open* can find is a shared object's: the
 * unnamed ones cannot be opened. */
static HANDLE open_sync(const WCHAR *name, enum shsync_type type, DWORD access, BOOL inherit,
			const GENERIC_MAPPING *mapping)
{
	struct object *obj;
	HANDLE h;

	if (!name) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	obj = shsync_open(name, type);
	TRACE(sync, "type %d %s, access %#x -> %p\n", type, debugstr_w(name), access, obj);
	if (!obj)
		return NULL;
	h = handle_create(obj, sync_map_access(access, mapping), inherit ? HANDLE_FLAG_INHERIT : 0);
	object_unref(obj);
	return h;
}

/* Open*A: the ANSI name widened. */
static HANDLE open_a(const char *name, enum shsync_type type, DWORD access, BOOL inherit,
		     const GENERIC_MAPPING *mapping)
{
	WCHAR *wname = namespace_name_from_a(name);
	HANDLE h;

	if (name && !wname) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	h = open_sync(wname, type, access, inherit, mapping);
	free(wname);
	return h;
}

HANDLE WINAPI OpenEventA(DWORD access, BOOL inherit, LPCSTR name)
{
	return open_a(name, SHSYNC_EVENT, access, inherit, &event_mapping);
}

HANDLE WINAPI OpenEventW(DWORD access, BOOL inherit, LPCWSTR name)
{
	return open_sync(name, SHSYNC_EVENT, access, inherit, &event_mapping);
}

HANDLE WINAPI OpenSemaphoreA(DWORD access, BOOL inherit, LPCSTR name)
{
	return open_a(name, SHSYNC_SEMAPHORE, access, inherit, &semaphore_mapping);
}

HANDLE WINAPI OpenSemaphoreW(DWORD access, BOOL inherit, LPCWSTR name)
{
	return open_sync(name, SHSYNC_SEMAPHORE, access, inherit, &semaphore_mapping);
}

HANDLE WINAPI OpenMutexA(DWORD access, BOOL inherit, LPCSTR name)
{
	return open_a(name, SHSYNC_MUTEX, access, inherit, &mutex_mapping);
}

HANDLE WINAPI OpenMutexW(DWORD access, BOOL inherit, LPCWSTR name)
{
	return open_sync(name, SHSYNC_MUTEX, access, inherit, &mutex_mapping);
}

/* Set/Reset/Pulse: look the event up, change it. */
static BOOL with_event(HANDLE h, void (*op)(struct object *))
{
	struct object *obj = event_get(h, EVENT_MODIFY_STATE);

	if (!obj)
		return FALSE;
	op(obj);
	object_unref(obj);
	return TRUE;
}

BOOL WINAPI SetEvent(HANDLE h)
{
	TRACE(sync, "%p\n", h);
	return with_event(h, event_set);
}

BOOL WINAPI ResetEvent(HANDLE h)
{
	TRACE(sync, "%p\n", h);
	return with_event(h, event_reset);
}

BOOL WINAPI PulseEvent(HANDLE h)
{
	TRACE(sync, "%p\n", h);
	return with_event(h, event_pulse);
}

HANDLE WINAPI CreateSemaphoreA(LPSECURITY_ATTRIBUTES sa, LONG initial, LONG maximum, LPCSTR name)
{
	struct shsync_init in = { SHSYNC_SEMAPHORE, false, initial, maximum };

	TRACE(sync, "%d/%d, %s\n", initial, maximum, name ? name : "(null)");
	return create_a(&in, name, GENERIC_ALL, sa);
}

HANDLE WINAPI CreateSemaphoreW(LPSECURITY_ATTRIBUTES sa, LONG initial, LONG maximum, LPCWSTR name)
{
	struct shsync_init in = { SHSYNC_SEMAPHORE, false, initial, maximum };

	TRACE(sync, "%d/%d, %s\n", initial, maximum, debugstr_w(name));
	return create_sync(&in, name, GENERIC_ALL, sa);
}

HANDLE WINAPI CreateSemaphoreExW(SECURITY_ATTRIBUTES *sa, LONG initial, LONG maximum, LPCWSTR name,
				 DWORD flags, DWORD access)
{
	struct shsync_init in = { SHSYNC_SEMAPHORE, false, initial, maximum };

	TRACE(sync, "%d/%d, %s, access %#x\n", initial, maximum, debugstr_w(name), access);
	return create_sync(&in, name, sync_map_access(access, &semaphore_mapping), sa);
}

HANDLE WINAPI CreateSemaphoreExA(SECURITY_ATTRIBUTES *sa, LONG initial, LONG maximum, LPCSTR name,
				 DWORD flags, DWORD access)
{
	struct shsync_init in = { SHSYNC_SEMAPHORE, false, initial, maximum };

	TRACE(sync, "%d/%d, %s, access %#x\n", initial, maximum, name ? name : "(null)", access);
	return create_a(&in, name, sync_map_access(access, &semaphore_mapping), sa);
}

BOOL WINAPI ReleaseSemaphore(HANDLE h, LONG count, LPLONG previous)
{
	struct object *obj = handle_get_access(h, NULL, SEMAPHORE_MODIFY_STATE);
	BOOL ret;

	TRACE(sync, "%p, %d\n", h, count);
	if (!obj)
		return FALSE;
	if (!sync_is_semaphore(obj)) {
		object_unref(obj);
		SetLastError(ERROR_INVALID_HANDLE);
		return FALSE;
	}
	ret = semaphore_release(obj, count, previous);
	object_unref(obj);
	return ret;
}

HANDLE WINAPI CreateMutexA(LPSECURITY_ATTRIBUTES sa, BOOL owner, LPCSTR name)
{
	struct shsync_init in = { SHSYNC_MUTEX, false, owner != FALSE, 0 };

	TRACE(sync, "owner %d, %s\n", owner, name ? name : "(null)");
	return create_a(&in, name, GENERIC_ALL, sa);
}

HANDLE WINAPI CreateMutexW(LPSECURITY_ATTRIBUTES sa, BOOL owner, LPCWSTR name)
{
	struct shsync_init in = { SHSYNC_MUTEX, false, owner != FALSE, 0 };

	TRACE(sync, "owner %d, %s\n", owner, debugstr_w(name));
	return create_sync(&in, name, GENERIC_ALL, sa);
}

HANDLE WINAPI CreateMutexExA(SECURITY_ATTRIBUTES *sa, LPCSTR name, DWORD flags, DWORD access)
{
	struct shsync_init in = { SHSYNC_MUTEX, false, (flags & CREATE_MUTEX_INITIAL_OWNER) != 0, 0 };

	TRACE(sync, "flags %#x, %s, access %#x\n", flags, name ? name : "(null)", access);
	return create_a(&in, name, sync_map_access(access, &mutex_mapping), sa);
}

HANDLE WINAPI CreateMutexExW(SECURITY_ATTRIBUTES *sa, LPCWSTR name, DWORD flags, DWORD access)
{
	struct shsync_init in = { SHSYNC_MUTEX, false, (flags & CREATE_MUTEX_INITIAL_OWNER) != 0, 0 };

	TRACE(sync, "flags %#x, %s, access %#x\n", flags, debugstr_w(name), access);
	return create_sync(&in, name, sync_map_access(access, &mutex_mapping), sa);
}

BOOL WINAPI ReleaseMutex(HANDLE h)
{
	struct object *obj = handle_get(h, NULL);
	BOOL ret;

	TRACE(sync, "%p\n", h);
	if (!obj)
		return FALSE;
	if (!sync_is_mutex(obj)) {
		object_unref(obj);
		SetLastError(ERROR_INVALID_HANDLE);
		return FALSE;
	}
	ret = mutex_release(obj);
	object_unref(obj);
	return ret;
}

DWORD WINAPI WaitForSingleObject(HANDLE h, DWORD timeout)
{
	return wait_for_handles(1, &h, false, timeout, false);
}

DWORD WINAPI WaitForSingleObjectEx(HANDLE h, DWORD timeout, BOOL alertable)
{
	return wait_for_handles(1, &h, false, timeout, alertable);
}

/* Windows copies the handle array in the caller's process: an array it
 * cannot read is an access violation there.  An invalid count is
 * rejected before the array is looked at. */
DWORD WINAPI WaitForMultipleObjects(DWORD count, const HANDLE *handles, BOOL wait_all, DWORD timeout)
{
	HANDLE copy[MAXIMUM_WAIT_OBJECTS];

	if (!count || count > MAXIMUM_WAIT_OBJECTS)
		return wait_for_handles(count, handles, wait_all, timeout, false);
	if (!seh_copy_from_user(copy, handles, count * sizeof(*handles))) {
		SEH_RAISE_AV_ON_RETURN(handles, 0);
		return WAIT_FAILED;
	}
	return wait_for_handles(count, copy, wait_all, timeout, false);
}

DWORD WINAPI WaitForMultipleObjectsEx(DWORD count, const HANDLE *handles, BOOL wait_all,
				      DWORD timeout, BOOL alertable)
{
	HANDLE copy[MAXIMUM_WAIT_OBJECTS];

	if (!count || count > MAXIMUM_WAIT_OBJECTS)
		return wait_for_handles(count, handles, wait_all, timeout, alertable);
	if (!seh_copy_from_user(copy, handles, count * sizeof(*handles))) {
		SEH_RAISE_AV_ON_RETURN(handles, 0);
		return WAIT_FAILED;
	}
	return wait_for_handles(count, copy, wait_all, timeout, alertable);
}

/* Not atomic with the wait, as on Windows only "almost": the signal is
 * made before the wait starts. */
DWORD WINAPI SignalObjectAndWait(HANDLE signal, HANDLE wait, DWORD timeout, BOOL alertable)
{
	struct object *obj = handle_get(signal, NULL);
	BOOL ok = FALSE;

	if (!obj)
		return WAIT_FAILED;
	if (sync_is_event(obj)) {
		event_set(obj);
		ok = TRUE;
	} else if (sync_is_semaphore(obj)) {
		ok = semaphore_release(obj, 1, NULL);
	} else if (sync_is_mutex(obj)) {
		ok = mutex_release(obj);
	} else {
		SetLastError(ERROR_INVALID_HANDLE);
	}
	object_unref(obj);
	if (!ok)
		return WAIT_FAILED;
	return wait_for_handles(1, &wait, false, timeout, alertable);
}

DWORD WINAPI SleepEx(DWORD ms, BOOL alertable)
{
	if (alertable)
		return wait_for_objects(0, NULL, false, ms, true) == WAIT_IO_COMPLETION ? WAIT_IO_COMPLETION : 0;
	if (ms == 0) {
		sched_yield();
		return 0;
	}
	/* Like any wait, a sleep takes the thread off its completion
	 * port's concurrency count. */
	iocp_thread_block();
	if (ms == INFINITE) {
		unsigned int never = 0;

		for (;;)
			futex_wait(&never, 0, NULL);
	} else {
		struct timespec deadline;

		deadline_after_ms(&deadline, ms);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, NULL) == EINTR)
			;
	}
	iocp_thread_unblock();
	return 0;
}

void WINAPI Sleep(DWORD ms)
{
	SleepEx(ms, FALSE);
}

/* ioapiset: completion ports (CreateIoCompletionPort,
 * GetQueuedCompletionStatus(Ex), PostQueuedCompletionStatus), overlapped
 * results and cancellation, completion notification modes.  The port is
 * core/iocp.c, the completion rules core/overlapped.c. */
#define WIN32_NO_STATUS
#include "core/debug.h"
#include "core/errors.h"
#include "core/handle.h"
#include "core/iocp.h"
#include "core/iocp_fast.h"
#include "core/iocp_remote.h"
#include "core/overlapped.h"
#include "core/thread.h"
#include "core/wait.h"
#include "kernel32/kernel32_private.h"
#include "ntdll/probe.h"
#include "ntdll/seh.h"
#undef WIN32_NO_STATUS
#include <ntstatus.h>

HANDLE WINAPI CreateIoCompletionPort(HANDLE file, HANDLE existing, ULONG_PTR key, DWORD threads)
{
	struct object *port, *fobj = NULL;
	struct io_target *t = NULL;
	HANDLE h;

	TRACE(iocp, "file %p, port %p, key %#lx, threads %u\n", file, existing, (unsigned long)key,
	      threads);
	if (file == INVALID_HANDLE_VALUE) {
		/* A new port only: there is nothing to associate. */
		if (existing) {
			SetLastError(ERROR_INVALID_PARAMETER);
			return NULL;
		}
		if (!(port = iocp_create(threads)))
			return NULL;
		h = handle_create(port, IO_COMPLETION_ALL_ACCESS, 0);
		object_unref(port);
		return h;
	}
	if (!(t = io_target_get(file, &fobj)))
		return NULL;
	if (existing) {
		if (!(port = handle_get(existing, &iocp_ops))) {
			/* Another process's port takes no file of ours. */
			iocp_remote_refuse(existing, "CreateIoCompletionPort");
			object_unref(fobj);
			return NULL;
		}
		h = existing;
	} else {
		if (!(port = iocp_create(threads)) ||
		    !(h = handle_create(port, IO_COMPLETION_ALL_ACCESS, 0))) {
			if (port)
				object_unref(port);
			object_unref(fobj);
			return NULL;
		}
	}
	if (!io_target_associate(t, port, key)) {
		if (!existing)
			handle_close(h);
		h = NULL;
	}
	object_unref(port);
	object_unref(fobj);
	return h;
}

/* The error for a removal that returned no packet. */
static void set_removal_error(DWORD r)
{
	switch (r) {
	case WAIT_TIMEOUT:
		SetLastError(WAIT_TIMEOUT);
		break;
	case WAIT_IO_COMPLETION:
		SetLastError(WAIT_IO_COMPLETION);
		break;
	case WAIT_ABANDONED_0:
		SetLastError(ERROR_ABANDONED_WAIT_0);
		break;
	}
}

/* The exports below are ms_abi and inline their common case
 * (core/iocp_fast.h): it calls no System V code, so gcc saves none of
 * xmm6-xmm15 for it.  Everything else goes through the ms_abi helpers
 * here, which carry those saves themselves. */
#define COLD_MS_ABI __attribute__((ms_abi, noinline, cold))

/* SEH_RAISE_AV_ON_RETURN for the export whose frame and return address
 * these are (the export keeps a frame pointer for it). */
static void COLD_MS_ABI raise_av_on_return(void **ret_slot, void *ret, const void *addr)
{
	seh_fault_on_return(ret_slot, ret, addr, 1);
}

#define RAISE_AV_ON_RETURN(addr) \
	raise_av_on_return((void **)__builtin_frame_address(0) + 1, __builtin_return_address(0), (addr))

static void COLD_MS_ABI set_error_from_status(NTSTATUS status)
{
	set_last_error_from_status(status);
}

/* GetQueuedCompletionStatus past the checks of *ov and key: the port's
 * general case.  *bad_bytes: the count could not be written (the caller
 * faults). */
static BOOL COLD_MS_ABI gqcs_slow(HANDLE h, LPDWORD bytes, PULONG_PTR key, LPOVERLAPPED *ov,
				  DWORD timeout, bool *bad_bytes)
{
	struct object *port;
	OVERLAPPED_ENTRY e;
	NTSTATUS status;
	bool borrowed;
	ULONG n;
	DWORD r;

	if (!(port = iocp_get(h, &borrowed))) {
		iocp_remote_refuse(h, "GetQueuedCompletionStatus");
		return FALSE;
	}
	r = iocp_remove(port, &e, 1, &n, timeout, false);
	iocp_put(port, borrowed);
	if (r != WAIT_OBJECT_0) {
		set_removal_error(r);
		return FALSE;
	}
	*key = e.lpCompletionKey;
	*ov = e.lpOverlapped;
	if (!seh_copy_to_user(bytes, &e.dwNumberOfBytesTransferred, sizeof(*bytes))) {
		*bad_bytes = true;
		return FALSE;
	}
	status = (NTSTATUS)(ULONG)e.Internal;
	if (!NT_SUCCESS(status)) {
		set_last_error_from_status(status);
		return FALSE;
	}
	return TRUE;
}

BOOL WINAPI GetQueuedCompletionStatus(HANDLE h, LPDWORD bytes, PULONG_PTR key, LPOVERLAPPED *ov,
				      DWORD timeout)
{
	bool bad_bytes = false;
	OVERLAPPED_ENTRY e;
	NTSTATUS status;
	BOOL ok;

	/* Windows writes *lpOverlapped whatever happens, the key and
	 * *lpOverlapped as it removes a packet and the byte count after
	 * that, faulting in the caller on NULL; a NULL key fails the removal
	 * with ERROR_NOACCESS. */
	if (!user_put64(ov, 0)) {
		RAISE_AV_ON_RETURN(ov);
		return FALSE;
	}
	if (!key) {
		SetLastError(ERROR_NOACCESS);
		return FALSE;
	}
	if (__builtin_expect(!iocp_fast_remove(h, &e, 1), 0)) {
		ok = gqcs_slow(h, bytes, key, ov, timeout, &bad_bytes);
		if (bad_bytes)
			RAISE_AV_ON_RETURN(bytes);
		return ok;
	}
	*key = e.lpCompletionKey;
	*ov = e.lpOverlapped;
	if (!user_put32(bytes, e.dwNumberOfBytesTransferred)) {
		RAISE_AV_ON_RETURN(bytes);
		return FALSE;
	}
	/* Clients route on this: an error packet returns FALSE with the
	 * packet's fields filled in. */
	status = (NTSTATUS)(ULONG)e.Internal;
	if (__builtin_expect(!NT_SUCCESS(status), 0)) {
		set_error_from_status(status);
		return FALSE;
	}
	return TRUE;
}

static BOOL COLD_MS_ABI gqcsex_slow(HANDLE h, OVERLAPPED_ENTRY *entries, ULONG count, ULONG *removed,
				    DWORD timeout, BOOL alertable)
{
	struct object *port;
	bool borrowed;
	ULONG n = 0;
	DWORD r;

	if (!entries || !count || !removed) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	*removed = 0;
	if (!(port = iocp_get(h, &borrowed))) {
		iocp_remote_refuse(h, "GetQueuedCompletionStatusEx");
		return FALSE;
	}
	r = iocp_remove(port, entries, count, &n, timeout, alertable);
	iocp_put(port, borrowed);
	if (r != WAIT_OBJECT_0) {
		set_removal_error(r);
		return FALSE;
	}
	*removed = n;
	return TRUE;
}

BOOL WINAPI GetQueuedCompletionStatusEx(HANDLE h, OVERLAPPED_ENTRY *entries, ULONG count,
					ULONG *removed, DWORD timeout, BOOL alertable)
{
	ULONG n;

	/* With packets queued, an alertable call takes them and runs no
	 * APC, as iocp_remove does. */
	if (__builtin_expect(!entries || !count || !removed || !(n = iocp_fast_remove(h, entries, count)), 0))
		return gqcsex_slow(h, entries, count, removed, timeout, alertable);
	*removed = n;
	return TRUE;
}

static BOOL COLD_MS_ABI pqcs_slow(HANDLE h, DWORD bytes, ULONG_PTR key, LPOVERLAPPED ov)
{
	bool borrowed, ok;
	struct object *port = iocp_get(h, &borrowed);

	if (!port) {
		/* A port of another process, duplicated here. */
		if (!(port = handle_get(h, &iocp_remote_ops)))
			return FALSE;
		ok = iocp_remote_post(port, key, ov, bytes);
		object_unref(port);
		return ok;
	}
	ok = iocp_post(port, key, ov, STATUS_SUCCESS, bytes);
	iocp_put(port, borrowed);
	if (!ok)
		SetLastError(ERROR_NO_SYSTEM_RESOURCES);
	return ok;
}

BOOL WINAPI PostQueuedCompletionStatus(HANDLE h, DWORD bytes, ULONG_PTR key, LPOVERLAPPED ov)
{
	if (__builtin_expect(!iocp_fast_post(h, key, ov, STATUS_SUCCESS, bytes), 0))
		return pqcs_slow(h, bytes, key, ov);
	return TRUE;
}

BOOL WINAPI SetFileCompletionNotificationModes(HANDLE h, UCHAR flags)
{
	struct object *obj;
	struct io_target *t;

	TRACE(iocp, "%p, %#x\n", h, flags);
	if (flags & ~(FILE_SKIP_COMPLETION_PORT_ON_SUCCESS | FILE_SKIP_SET_EVENT_ON_HANDLE)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!(t = io_target_get(h, &obj)))
		return FALSE;
	io_target_add_modes(t, flags);
	object_unref(obj);
	return TRUE;
}

/* *bad_bytes: the count could not be written (the caller faults). */
static BOOL overlapped_result(HANDLE file, OVERLAPPED *ov, DWORD *bytes, DWORD timeout, BOOL alertable,
			      bool *bad_bytes)
{
	DWORD n;

	NTSTATUS status = (NTSTATUS)__atomic_load_n(&ov->Internal, __ATOMIC_ACQUIRE);

	if (status == STATUS_PENDING) {
		/* The request's event, else the file's own state. */
		HANDLE h = ov->hEvent ? (HANDLE)((ULONG_PTR)ov->hEvent & ~(ULONG_PTR)1) : file;
		DWORD r;

		if (!timeout) {
			SetLastError(ERROR_IO_INCOMPLETE);
			return FALSE;
		}
		r = wait_for_handles(1, &h, false, timeout, alertable);
		if (r == WAIT_FAILED)
			return FALSE;
		if (r == WAIT_TIMEOUT || r == WAIT_IO_COMPLETION) {
			SetLastError(r);
			return FALSE;
		}
		status = (NTSTATUS)__atomic_load_n(&ov->Internal, __ATOMIC_ACQUIRE);
		if (status == STATUS_PENDING) {
			SetLastError(ERROR_IO_INCOMPLETE);
			return FALSE;
		}
	}
	n = (DWORD)ov->InternalHigh;
	if (!seh_copy_to_user(bytes, &n, sizeof(n))) {
		*bad_bytes = true;
		return FALSE;
	}
	if (!NT_SUCCESS(status)) {
		set_last_error_from_status(status);
		return FALSE;
	}
	return TRUE;
}

/* Windows reads the OVERLAPPED and, once the request is done, writes the
 * count in the caller's process: a NULL or bad pointer is an access
 * violation there. */
BOOL WINAPI GetOverlappedResultEx(HANDLE file, OVERLAPPED *ov, DWORD *bytes, DWORD timeout, BOOL alertable)
{
	OVERLAPPED probe;
	bool bad_bytes = false;
	BOOL r;

	if (!seh_copy_from_user(&probe, ov, sizeof(probe))) {
		SEH_RAISE_AV_ON_RETURN(ov, 0);
		return FALSE;
	}
	r = overlapped_result(file, ov, bytes, timeout, alertable, &bad_bytes);
	if (bad_bytes)
		SEH_RAISE_AV_ON_RETURN(bytes, 1);
	return r;
}

BOOL WINAPI GetOverlappedResult(HANDLE file, LPOVERLAPPED ov, LPDWORD bytes, BOOL wait)
{
	OVERLAPPED probe;
	bool bad_bytes = false;
	BOOL r;

	if (!seh_copy_from_user(&probe, ov, sizeof(probe))) {
		SEH_RAISE_AV_ON_RETURN(ov, 0);
		return FALSE;
	}
	r = overlapped_result(file, ov, bytes, wait ? INFINITE : 0, FALSE, &bad_bytes);
	if (bad_bytes)
		SEH_RAISE_AV_ON_RETURN(bytes, 1);
	return r;
}

static bool match_thread(struct io_request *req, void *ctx)
{
	return req->tid == *(DWORD *)ctx;
}

static bool match_ov(struct io_request *req, void *ctx)
{
	return !ctx || req->ov == ctx;
}

/* The requests this thread issued on h. */
BOOL WINAPI CancelIo(HANDLE h)
{
	DWORD tid = thread_current_id();
	struct object *obj;
	struct io_target *t;

	if (!(t = io_target_get(h, &obj)))
		return FALSE;
	io_cancel(t, match_thread, &tid, STATUS_CANCELLED);
	object_unref(obj);
	return TRUE;
}

/* The request issued with ov on h, or every request on h (ov NULL), by
 * any thread. */
BOOL WINAPI CancelIoEx(HANDLE h, LPOVERLAPPED ov)
{
	struct object *obj;
	struct io_target *t;
	unsigned int n;

	if (!(t = io_target_get(h, &obj)))
		return FALSE;
	n = io_cancel(t, match_ov, ov, STATUS_CANCELLED);
	object_unref(obj);
	TRACE(iocp, "%p, ov %p: %u cancelled\n", h, (void *)ov, n);
	if (!n) {
		SetLastError(ERROR_NOT_FOUND);
		return FALSE;
	}
	return TRUE;
}

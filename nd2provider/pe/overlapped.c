/* IND2Overlapped, shared by the CQ, SRQ, memory region, connector and
 * listener: how a request is issued, cancelled and waited for.
 *
 * Issue order matters: the unix side may complete a request before the
 * call that issued it returns (on this thread or on its event thread), so
 * the request is registered with ndshim (Internal = ND_PENDING) first. */
#include "nd2prov.h"

HRESULT nd_ov_issue(HANDLE file, OVERLAPPED *ov, const void *owner, ULONG code, void *params)
{
	HRESULT st = NdshimBeginOverlapped(file, ov, (ULONG_PTR)owner);

	if (st != ND_SUCCESS)
		return st;
	st = NdshimUnixCall(code, params);
	if (st == ND_PENDING)
		return st;
	/* Unlists it; an error reaches the caller only as our return value
	 * (no event, no packet). */
	NdshimCompleteOverlappedSync(file, ov, st, 0);
	return st;
}

HRESULT nd_ov_call(HANDLE file, const void *owner, uint64_t object, ULONG code, OVERLAPPED *ov)
{
	struct nd_unix_ov_params p;

	if (!ov)
		return ND_INVALID_PARAMETER_1;
	p = (struct nd_unix_ov_params){ object, nd_ov(file, ov) };
	return nd_ov_issue(file, ov, owner, code, &p);
}

HRESULT nd_ov_cancel(HANDLE file, const void *owner, uint64_t object)
{
	struct nd_unix_object_params p = { object };
	HRESULT st = NdshimUnixCall(ND_UNIX_CANCEL, &p);

	/* Anything the unix side no longer knows about (none, normally). */
	NdshimCancelOverlapped(file, (ULONG_PTR)owner, ND_CANCELED);
	return st == ND_SUCCESS ? ND_SUCCESS : ND_UNSUCCESSFUL;
}

static HRESULT status_of(OVERLAPPED *ov)
{
	return (HRESULT)(ULONG)__atomic_load_n(&ov->Internal, __ATOMIC_ACQUIRE);
}

/* The ND status is what Internal holds; any OVERLAPPED issued on any
 * object's file works, as the status lives in the OVERLAPPED itself. */
HRESULT nd_ov_result(OVERLAPPED *ov, BOOL wait)
{
	HANDLE ev;
	HRESULT st;

	if (!ov)
		return ND_INVALID_PARAMETER_1;
	st = status_of(ov);
	if (st != ND_PENDING || !wait)
		return st;
	/* The overlapped file never signals itself (it is created with
	 * FILE_SKIP_SET_EVENT_ON_HANDLE), so the request's event is what
	 * can be waited for; its low bit only means "no port packet".  The
	 * docs require an event for wait = TRUE: without one, or if the
	 * event is gone, ndrun waits on the OVERLAPPED itself. */
	ev = (HANDLE)((ULONG_PTR)ov->hEvent & ~(ULONG_PTR)1);
	while ((st = status_of(ov)) == ND_PENDING) {
		if (!ev || WaitForSingleObject(ev, INFINITE) == WAIT_FAILED)
			return NdshimWaitOverlapped(ov);
	}
	return st;
}

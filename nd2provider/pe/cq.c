/* IND2CompletionQueue.  GetResults is the fast path: one call of the unix
 * side's fast entry with the caller's array (ND2_RESULT ==
 * nd_unix_result), nothing else. */
#include "nd2prov.h"

static inline struct nd_cq *to_cq(IND2CompletionQueue *i)
{
	return (struct nd_cq *)i;
}

static void cq_destroy(struct nd_cq *cq)
{
	struct nd_unix_object_params p = { cq->h };

	/* Completes its pending Notify requests ND_CANCELED. */
	NdshimUnixCall(ND_UNIX_CQ_DESTROY, &p);
	NdshimCancelOverlapped(cq->file, (ULONG_PTR)cq, ND_CANCELED);
	nd_adapter_put(cq->adapter);
	nd_free(cq);
	nd_module_put();
}

void nd_cq_hold(struct nd_cq *cq)
{
	nd_ref_hold(&cq->ref);
}

void nd_cq_put(struct nd_cq *cq)
{
	if (nd_ref_put(&cq->ref))
		cq_destroy(cq);
}

static HRESULT STDMETHODCALLTYPE cq_QueryInterface(IND2CompletionQueue *This, REFIID riid, void **out)
{
	return nd_qi(This, &to_cq(This)->ref, riid, out, &IID_IND2CompletionQueue, TRUE);
}

static ULONG STDMETHODCALLTYPE cq_AddRef(IND2CompletionQueue *This)
{
	return nd_ref_add(&to_cq(This)->ref);
}

static ULONG STDMETHODCALLTYPE cq_Release(IND2CompletionQueue *This)
{
	BOOL dead;
	ULONG n = nd_ref_release(&to_cq(This)->ref, &dead);

	if (dead)
		cq_destroy(to_cq(This));
	return n;
}

static HRESULT STDMETHODCALLTYPE cq_CancelOverlappedRequests(IND2CompletionQueue *This)
{
	struct nd_cq *cq = to_cq(This);

	return nd_ov_cancel(cq->file, cq, cq->h);
}

static HRESULT STDMETHODCALLTYPE cq_GetOverlappedResult(IND2CompletionQueue *This, OVERLAPPED *ov, BOOL wait)
{
	return nd_ov_result(ov, wait);
}

/* Notifications come from the unix side's event thread, which runs
 * wherever the scheduler puts it: report the affinity asked for, else
 * the process's. */
HRESULT nd_notify_affinity(USHORT group, KAFFINITY affinity, USHORT *pgroup, KAFFINITY *paffinity)
{
	DWORD_PTR process, system;

	if (!pgroup || !paffinity)
		return ND_INVALID_PARAMETER;
	if (!affinity) {
		if (GetProcessAffinityMask(GetCurrentProcess(), &process, &system))
			affinity = process;
		else
			affinity = 1;
	}
	*pgroup = group;
	*paffinity = affinity;
	return ND_SUCCESS;
}

static HRESULT STDMETHODCALLTYPE cq_GetNotifyAffinity(IND2CompletionQueue *This, USHORT *group, KAFFINITY *affinity)
{
	struct nd_cq *cq = to_cq(This);

	return nd_notify_affinity(cq->group, cq->affinity, group, affinity);
}

static HRESULT STDMETHODCALLTYPE cq_Resize(IND2CompletionQueue *This, ULONG depth)
{
	struct nd_cq *cq = to_cq(This);
	struct nd_unix_cq_resize_params p = { cq->h, depth, 0 };

	if (!(cq->adapter->info.AdapterFlags & ND_ADAPTER_FLAG_CQ_RESIZE_SUPPORTED))
		return ND_NOT_SUPPORTED;
	if (!depth || depth > cq->adapter->info.MaxCompletionQueueDepth)
		return ND_INVALID_PARAMETER;
	return NdshimUnixCall(ND_UNIX_CQ_RESIZE, &p);
}

static HRESULT STDMETHODCALLTYPE cq_Notify(IND2CompletionQueue *This, ULONG type, OVERLAPPED *ov)
{
	struct nd_cq *cq = to_cq(This);
	struct nd_unix_cq_notify_params p;

	if (type != ND_CQ_NOTIFY_ERRORS && type != ND_CQ_NOTIFY_ANY && type != ND_CQ_NOTIFY_SOLICITED)
		return ND_INVALID_PARAMETER_1;
	if (!ov)
		return ND_INVALID_PARAMETER_2;
	p = (struct nd_unix_cq_notify_params){ cq->h, nd_ov(cq->file, ov), type, 0 };
	return nd_ov_issue(cq->file, ov, cq, ND_UNIX_CQ_NOTIFY, &p);
}

/* The unix side's fast entry (unix_call.h): its System V type makes the
 * compiler save rsi, rdi and xmm6-xmm15 here. */
static ULONG STDMETHODCALLTYPE cq_GetResults(IND2CompletionQueue *This, ND2_RESULT results[], ULONG n)
{
	struct nd_cq *cq = to_cq(This);

	if (__builtin_expect(!results, 0))
		return 0;
	return cq->get_results(cq->h, ND_PTR(results), n);
}

static const IND2CompletionQueueVtbl cq_vtbl = {
	cq_QueryInterface,
	cq_AddRef,
	cq_Release,
	cq_CancelOverlappedRequests,
	cq_GetOverlappedResult,
	cq_GetNotifyAffinity,
	cq_Resize,
	cq_Notify,
	cq_GetResults,
};

_Static_assert(sizeof(ND2_RESULT) == sizeof(struct nd_unix_result), "ND2_RESULT == nd_unix_result");

struct nd_cq *nd_cq_from(IUnknown *u)
{
	return u && ND_VTBL_IS(ND_IFACE_CQ, u->lpVtbl, cq_vtbl) ? (struct nd_cq *)u : NULL;
}

HRESULT nd_cq_create(struct nd_adapter *a, HANDLE file, ULONG depth, USHORT group, KAFFINITY affinity,
		     void **out)
{
	struct nd_unix_cq_create_params p = { a->h, depth, 0, 0 };
	struct nd_cq *cq = nd_alloc(sizeof(*cq));
	HRESULT st;

	if (!cq)
		return ND_NO_MEMORY;
	st = NdshimUnixCall(ND_UNIX_CQ_CREATE, &p);
	if (st != ND_SUCCESS) {
		nd_free(cq);
		return st;
	}
	cq->iface.lpVtbl = ND_VTBL(ND_IFACE_CQ, cq_vtbl);
	nd_ref_init(&cq->ref);
	cq->adapter = a;
	cq->h = p.cq;
	cq->get_results = (nd_unix_get_results_fn)(uintptr_t)a->fast.cq_get_results;
	cq->file = file;
	cq->group = group;
	cq->affinity = affinity;
	nd_adapter_hold(a);
	nd_module_get();
	*out = cq;
	return ND_SUCCESS;
}

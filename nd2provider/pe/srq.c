/* IND2SharedReceiveQueue.  Receive is a fast path, like the QP's. */
#include "nd2prov.h"

static inline struct nd_srq *to_srq(IND2SharedReceiveQueue *i)
{
	return (struct nd_srq *)i;
}

static void srq_destroy(struct nd_srq *srq)
{
	struct nd_unix_object_params p = { srq->h };

	/* Its QPs held it, so none is left: completes its Notify requests. */
	NdshimUnixCall(ND_UNIX_SRQ_DESTROY, &p);
	NdshimCancelOverlapped(srq->file, (ULONG_PTR)srq, ND_CANCELED);
	nd_adapter_put(srq->adapter);
	nd_free(srq);
	nd_module_put();
}

void nd_srq_hold(struct nd_srq *srq)
{
	nd_ref_hold(&srq->ref);
}

void nd_srq_put(struct nd_srq *srq)
{
	if (nd_ref_put(&srq->ref))
		srq_destroy(srq);
}

static HRESULT STDMETHODCALLTYPE srq_QueryInterface(IND2SharedReceiveQueue *This, REFIID riid, void **out)
{
	return nd_qi(This, &to_srq(This)->ref, riid, out, &IID_IND2SharedReceiveQueue, TRUE);
}

static ULONG STDMETHODCALLTYPE srq_AddRef(IND2SharedReceiveQueue *This)
{
	return nd_ref_add(&to_srq(This)->ref);
}

static ULONG STDMETHODCALLTYPE srq_Release(IND2SharedReceiveQueue *This)
{
	BOOL dead;
	ULONG n = nd_ref_release(&to_srq(This)->ref, &dead);

	if (dead)
		srq_destroy(to_srq(This));
	return n;
}

static HRESULT STDMETHODCALLTYPE srq_CancelOverlappedRequests(IND2SharedReceiveQueue *This)
{
	struct nd_srq *srq = to_srq(This);

	return nd_ov_cancel(srq->file, srq, srq->h);
}

static HRESULT STDMETHODCALLTYPE srq_GetOverlappedResult(IND2SharedReceiveQueue *This, OVERLAPPED *ov, BOOL wait)
{
	return nd_ov_result(ov, wait);
}

static HRESULT STDMETHODCALLTYPE srq_GetNotifyAffinity(IND2SharedReceiveQueue *This, USHORT *group,
						       KAFFINITY *affinity)
{
	struct nd_srq *srq = to_srq(This);

	return nd_notify_affinity(srq->group, srq->affinity, group, affinity);
}

static HRESULT STDMETHODCALLTYPE srq_Modify(IND2SharedReceiveQueue *This, ULONG depth, ULONG threshold)
{
	struct nd_srq *srq = to_srq(This);
	struct nd_unix_srq_modify_params p = { srq->h, depth, threshold };

	if (depth > srq->adapter->info.MaxSharedReceiveQueueDepth)
		return ND_INVALID_PARAMETER;
	return NdshimUnixCall(ND_UNIX_SRQ_MODIFY, &p);
}

static HRESULT STDMETHODCALLTYPE srq_Notify(IND2SharedReceiveQueue *This, OVERLAPPED *ov)
{
	struct nd_srq *srq = to_srq(This);

	return nd_ov_call(srq->file, srq, srq->h, ND_UNIX_SRQ_NOTIFY, ov);
}

static HRESULT STDMETHODCALLTYPE srq_Receive(IND2SharedReceiveQueue *This, void *context, const ND2_SGE sge[],
					     ULONG nsge)
{
	struct nd_unix_post_params p = { to_srq(This)->h, ND_PTR(context), ND_PTR(sge), nsge, 0 };

	if (__builtin_expect(nsge && !sge, 0))
		return ND_INVALID_PARAMETER_2;
	return NdshimUnixCall(ND_UNIX_SRQ_RECEIVE, &p);
}

static const IND2SharedReceiveQueueVtbl srq_vtbl = {
	srq_QueryInterface,
	srq_AddRef,
	srq_Release,
	srq_CancelOverlappedRequests,
	srq_GetOverlappedResult,
	srq_GetNotifyAffinity,
	srq_Modify,
	srq_Notify,
	srq_Receive,
};

struct nd_srq *nd_srq_from(IUnknown *u)
{
	return u && ND_VTBL_IS(ND_IFACE_SRQ, u->lpVtbl, srq_vtbl) ? (struct nd_srq *)u : NULL;
}

HRESULT nd_srq_create(struct nd_adapter *a, HANDLE file, ULONG depth, ULONG max_sge, ULONG threshold,
		      USHORT group, KAFFINITY affinity, void **out)
{
	struct nd_unix_srq_create_params p = { a->h, depth, max_sge, threshold, 0, 0 };
	struct nd_srq *srq = nd_alloc(sizeof(*srq));
	HRESULT st;

	if (!srq)
		return ND_NO_MEMORY;
	st = NdshimUnixCall(ND_UNIX_SRQ_CREATE, &p);
	if (st != ND_SUCCESS) {
		nd_free(srq);
		return st;
	}
	srq->iface.lpVtbl = ND_VTBL(ND_IFACE_SRQ, srq_vtbl);
	nd_ref_init(&srq->ref);
	srq->adapter = a;
	srq->h = p.srq;
	srq->file = file;
	srq->group = group;
	srq->affinity = affinity;
	nd_adapter_hold(a);
	nd_module_get();
	*out = srq;
	return ND_SUCCESS;
}

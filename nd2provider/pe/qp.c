/* IND2QueuePair.  Send, Receive, Read and Write are the fast path: Send
 * and Receive call the unix side's fast entries with the arguments in
 * registers, Read and Write make one unix call with a params struct on
 * the stack; the caller's SGE array (ND2_SGE == nd_unix_sge) goes to
 * verbs as it is. */
#include "nd2prov.h"

_Static_assert(sizeof(ND2_SGE) == sizeof(struct nd_unix_sge), "ND2_SGE == nd_unix_sge");

static inline struct nd_qp *to_qp(IND2QueuePair *i)
{
	return (struct nd_qp *)i;
}

static void qp_destroy(struct nd_qp *qp)
{
	struct nd_unix_object_params p = { qp->h };

	NdshimUnixCall(ND_UNIX_QP_DESTROY, &p);
	nd_cq_put(qp->rcq);
	nd_cq_put(qp->icq);
	if (qp->srq)
		nd_srq_put(qp->srq);
	nd_adapter_put(qp->adapter);
	nd_free(qp);
	nd_module_put();
}

void nd_qp_hold(struct nd_qp *qp)
{
	nd_ref_hold(&qp->ref);
}

void nd_qp_put(struct nd_qp *qp)
{
	if (nd_ref_put(&qp->ref))
		qp_destroy(qp);
}

static HRESULT STDMETHODCALLTYPE qp_QueryInterface(IND2QueuePair *This, REFIID riid, void **out)
{
	return nd_qi(This, &to_qp(This)->ref, riid, out, &IID_IND2QueuePair, FALSE);
}

static ULONG STDMETHODCALLTYPE qp_AddRef(IND2QueuePair *This)
{
	return nd_ref_add(&to_qp(This)->ref);
}

static ULONG STDMETHODCALLTYPE qp_Release(IND2QueuePair *This)
{
	BOOL dead;
	ULONG n = nd_ref_release(&to_qp(This)->ref, &dead);

	if (dead)
		qp_destroy(to_qp(This));
	return n;
}

static HRESULT STDMETHODCALLTYPE qp_Flush(IND2QueuePair *This)
{
	struct nd_unix_object_params p = { to_qp(This)->h };

	return NdshimUnixCall(ND_UNIX_QP_FLUSH, &p);
}

/* Send and Receive call the unix side's fast entries (unix_call.h): its
 * System V type makes the compiler save rsi, rdi and xmm6-xmm15 here. */
static HRESULT STDMETHODCALLTYPE qp_Send(IND2QueuePair *This, void *context, const ND2_SGE sge[], ULONG nsge,
					 ULONG flags)
{
	struct nd_qp *qp = to_qp(This);

	if (__builtin_expect(nsge && !sge, 0))
		return ND_INVALID_PARAMETER_2;
	return qp->send(qp->h, ND_PTR(context), ND_PTR(sge), nsge, flags);
}

static HRESULT STDMETHODCALLTYPE qp_Receive(IND2QueuePair *This, void *context, const ND2_SGE sge[], ULONG nsge)
{
	struct nd_qp *qp = to_qp(This);

	if (__builtin_expect(nsge && !sge, 0))
		return ND_INVALID_PARAMETER_2;
	return qp->receive(qp->h, ND_PTR(context), ND_PTR(sge), nsge, 0);
}

static HRESULT STDMETHODCALLTYPE qp_Bind(IND2QueuePair *This, void *context, IUnknown *mr_u, IUnknown *mw_u,
					 const void *buf, SIZE_T cb, ULONG flags)
{
	struct nd_qp *qp = to_qp(This);
	struct nd_mr *mr = nd_mr_from(mr_u);
	struct nd_mw *mw = nd_mw_from(mw_u);
	struct nd_unix_qp_bind_params p;
	HRESULT st;

	if (!mr || mr->adapter != qp->adapter)
		return ND_INVALID_PARAMETER_2;
	if (!mw || mw->adapter != qp->adapter)
		return ND_INVALID_PARAMETER_3;
	if (!buf)
		return ND_INVALID_PARAMETER_4;
	p = (struct nd_unix_qp_bind_params){ qp->h, ND_PTR(context), mr->h, mw->h, ND_PTR(buf), cb, flags, 0 };
	st = NdshimUnixCall(ND_UNIX_QP_BIND, &p);
	/* The token is usable as soon as Bind returns, before its completion. */
	if (st == ND_SUCCESS)
		mw->remote_token = p.remote_token;
	return st;
}

static HRESULT STDMETHODCALLTYPE qp_Invalidate(IND2QueuePair *This, void *context, IUnknown *mw_u, ULONG flags)
{
	struct nd_qp *qp = to_qp(This);
	struct nd_mw *mw = nd_mw_from(mw_u);
	struct nd_unix_qp_invalidate_params p;

	if (!mw || mw->adapter != qp->adapter)
		return ND_INVALID_PARAMETER_2;
	p = (struct nd_unix_qp_invalidate_params){ qp->h, ND_PTR(context), mw->h, flags, 0 };
	return NdshimUnixCall(ND_UNIX_QP_INVALIDATE, &p);
}

static HRESULT STDMETHODCALLTYPE qp_Read(IND2QueuePair *This, void *context, const ND2_SGE sge[], ULONG nsge,
					 UINT64 remote, UINT32 token, ULONG flags)
{
	struct nd_unix_rdma_params p = { to_qp(This)->h, ND_PTR(context), ND_PTR(sge), nsge, flags, remote, token, 0 };

	if (__builtin_expect(nsge && !sge, 0))
		return ND_INVALID_PARAMETER_2;
	return NdshimUnixCall(ND_UNIX_QP_READ, &p);
}

static HRESULT STDMETHODCALLTYPE qp_Write(IND2QueuePair *This, void *context, const ND2_SGE sge[], ULONG nsge,
					  UINT64 remote, UINT32 token, ULONG flags)
{
	struct nd_unix_rdma_params p = { to_qp(This)->h, ND_PTR(context), ND_PTR(sge), nsge, flags, remote, token, 0 };

	if (__builtin_expect(nsge && !sge, 0))
		return ND_INVALID_PARAMETER_2;
	return NdshimUnixCall(ND_UNIX_QP_WRITE, &p);
}

static const IND2QueuePairVtbl qp_vtbl = {
	qp_QueryInterface,
	qp_AddRef,
	qp_Release,
	qp_Flush,
	qp_Send,
	qp_Receive,
	qp_Bind,
	qp_Invalidate,
	qp_Read,
	qp_Write,
};

struct nd_qp *nd_qp_from(IUnknown *u)
{
	return u && ND_VTBL_IS(ND_IFACE_QP, u->lpVtbl, qp_vtbl) ? (struct nd_qp *)u : NULL;
}

HRESULT nd_qp_create(struct nd_adapter *a, struct nd_cq *rcq, struct nd_cq *icq, struct nd_srq *srq,
		     void *context, ULONG recv_depth, ULONG init_depth, ULONG recv_sge, ULONG init_sge,
		     ULONG inline_size, void **out)
{
	struct nd_unix_qp_create_params p = {
		.adapter = a->h,
		.recv_cq = rcq->h,
		.initiator_cq = icq->h,
		.srq = srq ? srq->h : 0,
		.context = ND_PTR(context),
		.recv_depth = recv_depth,
		.initiator_depth = init_depth,
		.recv_sge = recv_sge,
		.initiator_sge = init_sge,
		.inline_size = inline_size,
	};
	struct nd_qp *qp = nd_alloc(sizeof(*qp));
	HRESULT st;

	if (!qp)
		return ND_NO_MEMORY;
	st = NdshimUnixCall(ND_UNIX_QP_CREATE, &p);
	if (st != ND_SUCCESS) {
		nd_free(qp);
		return st;
	}
	qp->iface.lpVtbl = ND_VTBL(ND_IFACE_QP, qp_vtbl);
	nd_ref_init(&qp->ref);
	qp->adapter = a;
	qp->h = p.qp;
	qp->send = (nd_unix_post_fn)(uintptr_t)a->fast.qp_send;
	qp->receive = (nd_unix_post_fn)(uintptr_t)a->fast.qp_receive;
	qp->rcq = rcq;
	qp->icq = icq;
	qp->srq = srq;
	nd_cq_hold(rcq);
	nd_cq_hold(icq);
	if (srq)
		nd_srq_hold(srq);
	nd_adapter_hold(a);
	nd_module_get();
	*out = qp;
	return ND_SUCCESS;
}

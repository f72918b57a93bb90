/* INDEndpoint over IND2QueuePair.  Each request's ND_RESULT is its v2
 * request context (v1_cq.c fills it).
 *
 * Between StartRequestBatch and SubmitRequestBatch the unix side holds
 * the requests back (unix/batch.c) and hands them to the device on
 * Submit, in order, one chain per queue.  They are held there rather
 * than here because each request still gets its slot when it is made:
 * the synchronous ND_NO_MORE_ENTRIES the Receive page requires needs
 * the queue's occupancy, which only the unix side knows.  A batch the
 * unix side cannot start (no memory) leaves requests posted as they are
 * made, which the StartRequestBatch page allows; Submit without Start
 * does nothing.
 *
 * SendAndInvalidate has no v2 counterpart: it is a unix call of its own
 * (a send-with-invalidate work request carrying the peer's token).
 *
 * The synchronous codes are v2's where the two agree (INDEndpoint::
 * Receive's page: ND_NO_MORE_ENTRIES for a full queue, ND_DATA_OVERRUN
 * for too many SGEs, ND_BUFFER_OVERFLOW for more data than the device
 * takes); the SGE count is checked here against the endpoint's own
 * limit, before any conversion. */
#include "v1.h"

static inline struct nd1_endpoint *to_ep(INDEndpoint *i)
{
	return (struct nd1_endpoint *)i;
}

static void ep_destroy(struct nd1_endpoint *ep)
{
	ND_CALL(ep->v2, Release);
	ND_CALL(&ep->in_cq->iface, Release);
	ND_CALL(&ep->out_cq->iface, Release);
	nd1_adapter_put(ep->adapter);
	nd_free(ep);
	nd_module_put();
}

void nd1_endpoint_hold(struct nd1_endpoint *ep)
{
	InterlockedIncrement(&ep->refs);
}

void nd1_endpoint_put(struct nd1_endpoint *ep)
{
	if (!InterlockedDecrement(&ep->refs))
		ep_destroy(ep);
}

static HRESULT STDMETHODCALLTYPE ep_QueryInterface(INDEndpoint *This, REFIID riid, void **out)
{
	return nd1_qi(This, &to_ep(This)->refs, riid, out, &IID_INDEndpoint, FALSE);
}

static ULONG STDMETHODCALLTYPE ep_AddRef(INDEndpoint *This)
{
	return (ULONG)InterlockedIncrement(&to_ep(This)->refs);
}

static ULONG STDMETHODCALLTYPE ep_Release(INDEndpoint *This)
{
	LONG n = InterlockedDecrement(&to_ep(This)->refs);

	if (!n)
		ep_destroy(to_ep(This));
	return (ULONG)n;
}

static HRESULT STDMETHODCALLTYPE ep_Flush(INDEndpoint *This)
{
	return ND_CALL(to_ep(This)->v2, Flush);
}

static uint64_t qp_handle(const struct nd1_endpoint *ep)
{
	return nd_qp_from((IUnknown *)ep->v2)->h;
}

static void STDMETHODCALLTYPE ep_StartRequestBatch(INDEndpoint *This)
{
	struct nd_unix_qp_batch_params p = { qp_handle(to_ep(This)), ND_UNIX_BATCH_START, 0 };

	NdshimUnixCall(ND_UNIX_QP_BATCH, &p);
}

static void STDMETHODCALLTYPE ep_SubmitRequestBatch(INDEndpoint *This)
{
	struct nd_unix_qp_batch_params p = { qp_handle(to_ep(This)), ND_UNIX_BATCH_SUBMIT, 0 };

	NdshimUnixCall(ND_UNIX_QP_BATCH, &p);
}

/* v1's SGEs (SIZE_T lengths, region handles) as v2's (ULONG lengths,
 * local tokens).  ND_DATA_OVERRUN past the endpoint's limit for that
 * direction; ND_BUFFER_OVERFLOW when they add up to more than the
 * device's MaxTransferLength (v1's MaxInbound/OutboundLength);
 * ND_INVALID_PARAMETER_2 for an SGE with data but no valid region.
 * *bytes: what they add up to. */
static HRESULT convert_sges(const struct nd1_endpoint *ep, const ND_SGE *in, SIZE_T n, ULONG limit, ND2_SGE *out,
			    SIZE_T *bytes)
{
	SIZE_T i, total = 0;

	if (n > limit)
		return ND_DATA_OVERRUN;
	if (n && !in)
		return ND_INVALID_PARAMETER_2;
	for (i = 0; i < n; i++) {
		IND2MemoryRegion *mr = nd1_mr_from(in[i].hMr);

		if (in[i].Length > ep->adapter->info.MaxTransferLength ||
		    (total += in[i].Length) > ep->adapter->info.MaxTransferLength)
			return ND_BUFFER_OVERFLOW;
		if (!mr && in[i].Length)
			return ND_INVALID_PARAMETER_2;
		out[i].Buffer = in[i].pAddr;
		out[i].BufferLength = (ULONG)in[i].Length;
		out[i].MemoryRegionToken = mr ? ND_CALL(mr, GetLocalToken) : 0;
	}
	*bytes = total;
	return ND_SUCCESS;
}

/* v1 reports the bytes of a Send, SendAndInvalidate or Write in its
 * ND_RESULT (the ND_RESULT page), which v2 does not: the request's own
 * ND_RESULT keeps them until it completes (v1_cq.c). */
static void note_length(ND_RESULT *res, SIZE_T bytes)
{
	res->BytesTransferred = bytes;
}

static HRESULT STDMETHODCALLTYPE ep_Send(INDEndpoint *This, ND_RESULT *res, const ND_SGE *sgl, SIZE_T n, DWORD flags)
{
	struct nd1_endpoint *ep = to_ep(This);
	ND2_SGE sge[ND1_MAX_SGE];
	SIZE_T bytes;
	HRESULT hr;

	if (!res)
		return ND_INVALID_PARAMETER_1;
	hr = convert_sges(ep, sgl, n, ep->out_sge, sge, &bytes);
	if (hr != ND_SUCCESS)
		return hr;
	note_length(res, bytes);
	return ND_CALL(ep->v2, Send, res, sge, (ULONG)n, flags);
}

/* The descriptor's Token is the peer's window token as its Bind gave it
 * (network order), which is what the unix call takes.  ND_NOT_SUPPORTED
 * from a device without send-with-invalidate, nothing posted. */
static HRESULT STDMETHODCALLTYPE ep_SendAndInvalidate(INDEndpoint *This, ND_RESULT *res, const ND_SGE *sgl,
						      SIZE_T n, const ND_MW_DESCRIPTOR *desc, DWORD flags)
{
	struct nd1_endpoint *ep = to_ep(This);
	ND2_SGE sge[ND1_MAX_SGE];
	struct nd_unix_send_invalidate_params p;
	SIZE_T bytes;
	HRESULT hr;

	if (!res)
		return ND_INVALID_PARAMETER_1;
	if (!desc)
		return ND_INVALID_PARAMETER_4;
	hr = convert_sges(ep, sgl, n, ep->out_sge, sge, &bytes);
	if (hr != ND_SUCCESS)
		return hr;
	note_length(res, bytes);
	p = (struct nd_unix_send_invalidate_params){ qp_handle(ep), ND_PTR(res), ND_PTR(sge), (UINT32)n, flags,
						     desc->Token, 0 };
	return NdshimUnixCall(ND_UNIX_QP_SEND_INVALIDATE, &p);
}

static HRESULT STDMETHODCALLTYPE ep_Receive(INDEndpoint *This, ND_RESULT *res, const ND_SGE *sgl, SIZE_T n)
{
	struct nd1_endpoint *ep = to_ep(This);
	ND2_SGE sge[ND1_MAX_SGE];
	SIZE_T bytes;
	HRESULT hr;

	if (!res)
		return ND_INVALID_PARAMETER_1;
	hr = convert_sges(ep, sgl, n, ep->in_sge, sge, &bytes);
	if (hr != ND_SUCCESS)
		return hr;
	return ND_CALL(ep->v2, Receive, res, sge, (ULONG)n);
}

static HRESULT STDMETHODCALLTYPE ep_Bind(INDEndpoint *This, ND_RESULT *res, ND_MR_HANDLE h, INDMemoryWindow *pmw,
					 const void *buf, SIZE_T size, DWORD flags, ND_MW_DESCRIPTOR *desc)
{
	struct nd1_endpoint *ep = to_ep(This);
	IND2MemoryRegion *mr = nd1_mr_from(h);
	struct nd1_mw *mw = nd1_mw_from(pmw);
	HRESULT hr;

	if (!res)
		return ND_INVALID_PARAMETER_1;
	if (!mr)
		return ND_INVALID_PARAMETER_2;
	if (!mw)
		return ND_INVALID_PARAMETER_3;
	if (!desc)
		return ND_INVALID_PARAMETER_7;
	hr = ND_CALL(ep->v2, Bind, res, (IUnknown *)mr, (IUnknown *)mw->v2, buf, size, flags);
	if (FAILED(hr))
		return hr;
	/* Pending until the peer invalidates the window (v1_mw.c), which it
	 * can do only once it has the descriptor written below. */
	if (mw->invalidate_result) {
		mw->invalidate_result->BytesTransferred = 0;
		mw->invalidate_result->Status = ND_PENDING;
	}
	/* The window's token is known once the bind is posted. */
	desc->Base = nd1_bswap64((UINT64)(ULONG_PTR)buf);
	desc->Length = nd1_bswap64((UINT64)size);
	desc->Token = ND_CALL(mw->v2, GetRemoteToken);
	return hr;
}

static HRESULT STDMETHODCALLTYPE ep_Invalidate(INDEndpoint *This, ND_RESULT *res, INDMemoryWindow *pmw, DWORD flags)
{
	struct nd1_mw *mw = nd1_mw_from(pmw);

	if (!res)
		return ND_INVALID_PARAMETER_1;
	if (!mw)
		return ND_INVALID_PARAMETER_2;
	return ND_CALL(to_ep(This)->v2, Invalidate, res, (IUnknown *)mw->v2, flags);
}

/* The peer's window descriptor is in network order; the offset is ours. */
static HRESULT rdma(struct nd1_endpoint *ep, BOOL read, ND_RESULT *res, const ND_SGE *sgl, SIZE_T n,
		    const ND_MW_DESCRIPTOR *desc, ULONGLONG offset, DWORD flags)
{
	ND2_SGE sge[ND1_MAX_SGE];
	UINT64 base, length;
	SIZE_T bytes;
	HRESULT hr;

	if (!res)
		return ND_INVALID_PARAMETER_1;
	if (!desc)
		return ND_INVALID_PARAMETER_4;
	base = nd1_bswap64(desc->Base);
	length = nd1_bswap64(desc->Length);
	if (offset > length)
		return ND_INVALID_PARAMETER_5;
	hr = convert_sges(ep, sgl, n, ep->out_sge, sge, &bytes);
	if (hr != ND_SUCCESS)
		return hr;
	if (!read)
		note_length(res, bytes);
	if (read)
		return ND_CALL(ep->v2, Read, res, sge, (ULONG)n, base + offset, desc->Token, flags);
	return ND_CALL(ep->v2, Write, res, sge, (ULONG)n, base + offset, desc->Token, flags);
}

static HRESULT STDMETHODCALLTYPE ep_Read(INDEndpoint *This, ND_RESULT *res, const ND_SGE *sgl, SIZE_T n,
					 const ND_MW_DESCRIPTOR *desc, ULONGLONG offset, DWORD flags)
{
	return rdma(to_ep(This), TRUE, res, sgl, n, desc, offset, flags);
}

static HRESULT STDMETHODCALLTYPE ep_Write(INDEndpoint *This, ND_RESULT *res, const ND_SGE *sgl, SIZE_T n,
					  const ND_MW_DESCRIPTOR *desc, ULONGLONG offset, DWORD flags)
{
	return rdma(to_ep(This), FALSE, res, sgl, n, desc, offset, flags);
}

static const INDEndpointVtbl ep_vtbl = {
	ep_QueryInterface,
	ep_AddRef,
	ep_Release,
	ep_Flush,
	ep_StartRequestBatch,
	ep_SubmitRequestBatch,
	ep_Send,
	ep_SendAndInvalidate,
	ep_Receive,
	ep_Bind,
	ep_Invalidate,
	ep_Read,
	ep_Write,
};

struct nd1_endpoint *nd1_endpoint_from(INDEndpoint *i)
{
	return i && i->lpVtbl == &ep_vtbl ? to_ep(i) : NULL;
}

HRESULT nd1_endpoint_create(struct nd1_adapter *a, struct nd1_cq *in_cq, struct nd1_cq *out_cq,
			    SIZE_T in_entries, SIZE_T out_entries, SIZE_T in_sge, SIZE_T out_sge,
			    SIZE_T in_read, SIZE_T out_read, SIZE_T *max_inline, INDEndpoint **out)
{
	struct nd1_endpoint *ep;
	HRESULT hr;

	if (in_entries > MAXULONG)
		return ND_INVALID_PARAMETER_3;
	if (out_entries > MAXULONG)
		return ND_INVALID_PARAMETER_4;
	if (in_sge > ND1_MAX_SGE)
		return ND_INVALID_PARAMETER_5;
	if (out_sge > ND1_MAX_SGE)
		return ND_INVALID_PARAMETER_6;
	if (in_read > a->info.MaxInboundReadLimit)
		return ND_INVALID_PARAMETER_7;
	if (out_read > a->info.MaxOutboundReadLimit)
		return ND_INVALID_PARAMETER_8;
	ep = nd_alloc(sizeof(*ep));
	if (!ep)
		return ND_NO_MEMORY;
	hr = ND_CALL(a->v2, CreateQueuePair, &IID_IND2QueuePair, (IUnknown *)in_cq->v2, (IUnknown *)out_cq->v2, ep,
		     (ULONG)in_entries, (ULONG)out_entries, (ULONG)in_sge, (ULONG)out_sge, a->info.MaxInlineDataSize,
		     (void **)&ep->v2);
	if (hr != ND_SUCCESS) {
		nd_free(ep);
		return hr;
	}
	ep->iface.lpVtbl = (void *)&ep_vtbl;
	ep->refs = 1;
	ep->adapter = a;
	ep->in_cq = in_cq;
	ep->out_cq = out_cq;
	ep->in_sge = (ULONG)in_sge;
	ep->out_sge = (ULONG)out_sge;
	ep->in_read = (ULONG)in_read;
	ep->out_read = (ULONG)out_read;
	ND_CALL(&in_cq->iface, AddRef);
	ND_CALL(&out_cq->iface, AddRef);
	nd1_adapter_hold(a);
	nd_module_get();
	if (max_inline)
		*max_inline = a->info.MaxInlineDataSize;
	*out = &ep->iface;
	return ND_SUCCESS;
}

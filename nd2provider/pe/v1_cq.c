/* INDCompletionQueue over IND2CompletionQueue.  Every v1 request is
 * issued with its ND_RESULT as the v2 request context, so GetResults
 * fills that ND_RESULT and hands its address back. */
#include "v1.h"

#define RESULTS_AT_ONCE 32

static inline struct nd1_cq *to_cq(INDCompletionQueue *i)
{
	return (struct nd1_cq *)i;
}

static HRESULT STDMETHODCALLTYPE cq_QueryInterface(INDCompletionQueue *This, REFIID riid, void **out)
{
	return nd1_qi(This, &to_cq(This)->refs, riid, out, &IID_INDCompletionQueue, TRUE);
}

static ULONG STDMETHODCALLTYPE cq_AddRef(INDCompletionQueue *This)
{
	return (ULONG)InterlockedIncrement(&to_cq(This)->refs);
}

static ULONG STDMETHODCALLTYPE cq_Release(INDCompletionQueue *This)
{
	struct nd1_cq *cq = to_cq(This);
	LONG n = InterlockedDecrement(&cq->refs);

	if (!n) {
		ND_CALL(cq->v2, Release);
		nd1_adapter_put(cq->adapter);
		nd_free(cq);
		nd_module_put();
	}
	return (ULONG)n;
}

static HRESULT STDMETHODCALLTYPE cq_CancelOverlappedRequests(INDCompletionQueue *This)
{
	return ND_CALL(to_cq(This)->v2, CancelOverlappedRequests);
}

static HRESULT STDMETHODCALLTYPE cq_GetOverlappedResult(INDCompletionQueue *This, OVERLAPPED *ov, SIZE_T *bytes,
							BOOL wait)
{
	return nd1_ov_result(ov, bytes, wait);
}

static HRESULT STDMETHODCALLTYPE cq_Resize(INDCompletionQueue *This, SIZE_T entries)
{
	if (!entries || entries > MAXULONG)
		return ND_INVALID_PARAMETER;
	return ND_CALL(to_cq(This)->v2, Resize, (ULONG)entries);
}

static HRESULT STDMETHODCALLTYPE cq_Notify(INDCompletionQueue *This, DWORD type, OVERLAPPED *ov)
{
	return ND_CALL(to_cq(This)->v2, Notify, type, ov);
}

/* v1's receive page: a receive whose buffers were too small for the
 * incoming send completes with ND_BUFFER_OVERFLOW (v2 says
 * ND_DATA_OVERRUN, its local-length error). */
static HRESULT v1_status(const ND2_RESULT *r)
{
	if (r->RequestType == Nd2RequestTypeReceive && r->Status == ND_DATA_OVERRUN)
		return ND_BUFFER_OVERFLOW;
	/* The same page's ND_INVALIDATION_ERROR: the peer's SendAndInvalidate
	 * named a token this side's device could not invalidate.  A Receive
	 * fails with a remote error for nothing else a peer can send on rxe
	 * (docs/nd2-decisions.md). */
	if (r->RequestType == Nd2RequestTypeReceive && r->Status == ND_REMOTE_ERROR)
		return ND_INVALIDATION_ERROR;
	return r->Status;
}

static SIZE_T STDMETHODCALLTYPE cq_GetResults(INDCompletionQueue *This, ND_RESULT *results[], SIZE_T n)
{
	struct nd1_cq *cq = to_cq(This);
	ND2_RESULT r[RESULTS_AT_ONCE];
	SIZE_T done = 0;

	if (!results)
		return 0;
	while (done < n) {
		ULONG want = n - done > RESULTS_AT_ONCE ? RESULTS_AT_ONCE : (ULONG)(n - done);
		ULONG got = ND_CALL(cq->v2, GetResults, r, want), i;

		for (i = 0; i < got; i++) {
			ND_RESULT *res = r[i].RequestContext;

			res->Status = v1_status(&r[i]);
			/* A Send's or Write's length was noted when it was made
			 * (v1_endpoint.c); v2 reports none. */
			if (r[i].RequestType == Nd2RequestTypeSend || r[i].RequestType == Nd2RequestTypeWrite)
				res->BytesTransferred = res->Status == ND_SUCCESS ? res->BytesTransferred : 0;
			else
				res->BytesTransferred = r[i].BytesTransferred;
			results[done++] = res;
		}
		if (got < want)
			break;
	}
	return done;
}

static const INDCompletionQueueVtbl cq_vtbl = {
	cq_QueryInterface,
	cq_AddRef,
	cq_Release,
	cq_CancelOverlappedRequests,
	cq_GetOverlappedResult,
	cq_Resize,
	cq_Notify,
	cq_GetResults,
};

struct nd1_cq *nd1_cq_from(INDCompletionQueue *i)
{
	return i && i->lpVtbl == &cq_vtbl ? to_cq(i) : NULL;
}

HRESULT nd1_cq_create(struct nd1_adapter *a, SIZE_T entries, INDCompletionQueue **out)
{
	struct nd1_cq *cq;
	HRESULT hr;

	if (!entries || entries > MAXULONG)
		return ND_INVALID_PARAMETER_1;
	cq = nd_alloc(sizeof(*cq));
	if (!cq)
		return ND_NO_MEMORY;
	hr = ND_CALL(a->v2, CreateCompletionQueue, &IID_IND2CompletionQueue, a->file, (ULONG)entries, 0, 0,
		     (void **)&cq->v2);
	if (hr != ND_SUCCESS) {
		nd_free(cq);
		return hr;
	}
	cq->iface.lpVtbl = (void *)&cq_vtbl;
	cq->refs = 1;
	cq->adapter = a;
	nd1_adapter_hold(a);
	nd_module_get();
	*out = &cq->iface;
	return ND_SUCCESS;
}

/* INDConnector over IND2Connector.  v1 makes the endpoint through the
 * connector and gives its read limits there; Connect binds to the
 * adapter's address and the requested local port itself.  The protocol
 * argument selects a port space on Windows; rdma_cm has one (TCP's), so
 * any protocol value reaches the same ports. */
#include "v1.h"

static inline struct nd1_connector *to_conn(INDConnector *i)
{
	return (struct nd1_connector *)i;
}

static HRESULT STDMETHODCALLTYPE conn_QueryInterface(INDConnector *This, REFIID riid, void **out)
{
	return nd1_qi(This, &to_conn(This)->refs, riid, out, &IID_INDConnector, TRUE);
}

static ULONG STDMETHODCALLTYPE conn_AddRef(INDConnector *This)
{
	return (ULONG)InterlockedIncrement(&to_conn(This)->refs);
}

static ULONG STDMETHODCALLTYPE conn_Release(INDConnector *This)
{
	struct nd1_connector *c = to_conn(This);
	LONG n = InterlockedDecrement(&c->refs);

	if (!n) {
		ND_CALL(c->v2, Release);
		if (c->endpoint)
			nd1_endpoint_put(c->endpoint);
		nd1_adapter_put(c->adapter);
		nd_free(c);
		nd_module_put();
	}
	return (ULONG)n;
}

static HRESULT STDMETHODCALLTYPE conn_CancelOverlappedRequests(INDConnector *This)
{
	return ND_CALL(to_conn(This)->v2, CancelOverlappedRequests);
}

static HRESULT STDMETHODCALLTYPE conn_GetOverlappedResult(INDConnector *This, OVERLAPPED *ov, SIZE_T *bytes,
							  BOOL wait)
{
	return nd1_ov_result(ov, bytes, wait);
}

static HRESULT STDMETHODCALLTYPE conn_CreateEndpoint(INDConnector *This, INDCompletionQueue *in_cq,
						     INDCompletionQueue *out_cq, SIZE_T in_entries,
						     SIZE_T out_entries, SIZE_T in_sge, SIZE_T out_sge,
						     SIZE_T in_read, SIZE_T out_read, SIZE_T *max_inline,
						     INDEndpoint **out)
{
	struct nd1_cq *icq = nd1_cq_from(in_cq), *ocq = nd1_cq_from(out_cq);

	if (!out)
		return ND_INVALID_PARAMETER_10;
	*out = NULL;
	if (!icq)
		return ND_INVALID_PARAMETER_1;
	if (!ocq)
		return ND_INVALID_PARAMETER_2;
	return nd1_endpoint_create(to_conn(This)->adapter, icq, ocq, in_entries, out_entries, in_sge, out_sge,
				   in_read, out_read, max_inline, out);
}

/* The endpoint a connection uses stays until the connector goes. */
static void conn_keep(struct nd1_connector *c, struct nd1_endpoint *ep)
{
	struct nd1_endpoint *old;

	nd1_endpoint_hold(ep);
	old = InterlockedExchangePointer((void **)&c->endpoint, ep);
	if (old)
		nd1_endpoint_put(old);
}

static HRESULT STDMETHODCALLTYPE conn_Connect(INDConnector *This, INDEndpoint *pep, const struct sockaddr *sa,
					      SIZE_T len, INT protocol, USHORT port, const void *priv,
					      SIZE_T priv_len, OVERLAPPED *ov)
{
	struct nd1_connector *c = to_conn(This);
	struct nd1_endpoint *ep = nd1_endpoint_from(pep);
	struct sockaddr_storage local;
	ULONG local_len;
	HRESULT hr;

	if (!ep)
		return ND_INVALID_PARAMETER_1;
	if (!sa)
		return ND_INVALID_PARAMETER_2;
	if (len > MAXULONG)
		return ND_INVALID_PARAMETER_3;
	if (priv_len > MAXULONG)
		return ND_INVALID_PARAMETER_7;
	if (!ov)
		return ND_INVALID_PARAMETER_8;
	/* A retry after ND_TIMEOUT reuses the binding of the first try. */
	if (!c->bound) {
		local_len = nd1_local_addr(c->adapter, port, &local);
		hr = ND_CALL(c->v2, Bind, (const struct sockaddr *)&local, local_len);
		if (hr != ND_SUCCESS)
			return hr;
		c->bound = TRUE;
	}
	hr = ND_CALL(c->v2, Connect, (IUnknown *)ep->v2, sa, (ULONG)len, ep->in_read, ep->out_read, priv,
		     (ULONG)priv_len, ov);
	if (SUCCEEDED(hr))
		conn_keep(c, ep);
	return hr;
}

static HRESULT STDMETHODCALLTYPE conn_CompleteConnect(INDConnector *This, OVERLAPPED *ov)
{
	return ND_CALL(to_conn(This)->v2, CompleteConnect, ov);
}

static HRESULT STDMETHODCALLTYPE conn_Accept(INDConnector *This, INDEndpoint *pep, const void *priv,
					     SIZE_T priv_len, OVERLAPPED *ov)
{
	struct nd1_connector *c = to_conn(This);
	struct nd1_endpoint *ep = nd1_endpoint_from(pep);
	HRESULT hr;

	if (!ep)
		return ND_INVALID_PARAMETER_1;
	if (priv_len > MAXULONG)
		return ND_INVALID_PARAMETER_3;
	if (!ov)
		return ND_INVALID_PARAMETER_4;
	hr = ND_CALL(c->v2, Accept, (IUnknown *)ep->v2, ep->in_read, ep->out_read, priv, (ULONG)priv_len, ov);
	if (SUCCEEDED(hr))
		conn_keep(c, ep);
	return hr;
}

static HRESULT STDMETHODCALLTYPE conn_Reject(INDConnector *This, const void *priv, SIZE_T priv_len)
{
	if (priv_len > MAXULONG)
		return ND_INVALID_PARAMETER_2;
	return ND_CALL(to_conn(This)->v2, Reject, priv, (ULONG)priv_len);
}

/* v2's GetReadLimits and GetPrivateData in one; the private data follows
 * the sizing protocol (ND_BUFFER_OVERFLOW with the size needed), and the
 * limits are written either way. */
static HRESULT STDMETHODCALLTYPE conn_GetConnectionData(INDConnector *This, SIZE_T *in_read, SIZE_T *out_read,
							void *priv, SIZE_T *priv_len)
{
	struct nd1_connector *c = to_conn(This);
	ULONG in = 0, outr = 0, cb;
	HRESULT hr;

	hr = ND_CALL(c->v2, GetReadLimits, &in, &outr);
	if (hr != ND_SUCCESS)
		return hr;
	if (in_read)
		*in_read = in;
	if (out_read)
		*out_read = outr;
	if (!priv_len)
		return ND_SUCCESS;
	cb = *priv_len > MAXULONG ? MAXULONG : (ULONG)*priv_len;
	hr = ND_CALL(c->v2, GetPrivateData, priv, &cb);
	if (hr == ND_SUCCESS || hr == ND_BUFFER_OVERFLOW)
		*priv_len = cb;
	return hr;
}

static HRESULT address(struct nd1_connector *c, BOOL peer, struct sockaddr *sa, SIZE_T *len)
{
	ULONG cb;
	HRESULT hr;

	if (!len)
		return ND_INVALID_PARAMETER_2;
	cb = *len > MAXULONG ? MAXULONG : (ULONG)*len;
	hr = peer ? ND_CALL(c->v2, GetPeerAddress, sa, &cb) : ND_CALL(c->v2, GetLocalAddress, sa, &cb);
	if (hr == ND_SUCCESS || hr == ND_BUFFER_OVERFLOW)
		*len = cb;
	return hr;
}

static HRESULT STDMETHODCALLTYPE conn_GetLocalAddress(INDConnector *This, struct sockaddr *sa, SIZE_T *len)
{
	return address(to_conn(This), FALSE, sa, len);
}

static HRESULT STDMETHODCALLTYPE conn_GetPeerAddress(INDConnector *This, struct sockaddr *sa, SIZE_T *len)
{
	return address(to_conn(This), TRUE, sa, len);
}

static HRESULT STDMETHODCALLTYPE conn_NotifyDisconnect(INDConnector *This, OVERLAPPED *ov)
{
	return ND_CALL(to_conn(This)->v2, NotifyDisconnect, ov);
}

static HRESULT STDMETHODCALLTYPE conn_Disconnect(INDConnector *This, OVERLAPPED *ov)
{
	return ND_CALL(to_conn(This)->v2, Disconnect, ov);
}

static const INDConnectorVtbl conn_vtbl = {
	conn_QueryInterface,
	conn_AddRef,
	conn_Release,
	conn_CancelOverlappedRequests,
	conn_GetOverlappedResult,
	conn_CreateEndpoint,
	conn_Connect,
	conn_CompleteConnect,
	conn_Accept,
	conn_Reject,
	conn_GetConnectionData,
	conn_GetLocalAddress,
	conn_GetPeerAddress,
	conn_NotifyDisconnect,
	conn_Disconnect,
};

struct nd1_connector *nd1_connector_from(INDConnector *i)
{
	return i && i->lpVtbl == &conn_vtbl ? to_conn(i) : NULL;
}

HRESULT nd1_connector_create(struct nd1_adapter *a, INDConnector **out)
{
	struct nd1_connector *c = nd_alloc(sizeof(*c));
	HRESULT hr;

	if (!c)
		return ND_NO_MEMORY;
	hr = ND_CALL(a->v2, CreateConnector, &IID_IND2Connector, a->file, (void **)&c->v2);
	if (hr != ND_SUCCESS) {
		nd_free(c);
		return hr;
	}
	c->iface.lpVtbl = (void *)&conn_vtbl;
	c->refs = 1;
	c->adapter = a;
	nd1_adapter_hold(a);
	nd_module_get();
	*out = &c->iface;
	return ND_SUCCESS;
}

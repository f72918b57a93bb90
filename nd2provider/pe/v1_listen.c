/* INDListen: a v2 listener bound to the adapter's address and the port
 * asked for (0: one the system picks, reported back), listening at once
 * as v1's Adapter::Listen does in one call. */
#include "v1.h"

struct nd1_listen {
	INDListen iface;
	LONG refs;
	struct nd1_adapter *adapter;
	IND2Listener *v2;
};

static inline struct nd1_listen *to_listen(INDListen *i)
{
	return (struct nd1_listen *)i;
}

static HRESULT STDMETHODCALLTYPE listen_QueryInterface(INDListen *This, REFIID riid, void **out)
{
	return nd1_qi(This, &to_listen(This)->refs, riid, out, &IID_INDListen, TRUE);
}

static ULONG STDMETHODCALLTYPE listen_AddRef(INDListen *This)
{
	return (ULONG)InterlockedIncrement(&to_listen(This)->refs);
}

static ULONG STDMETHODCALLTYPE listen_Release(INDListen *This)
{
	struct nd1_listen *l = to_listen(This);
	LONG n = InterlockedDecrement(&l->refs);

	if (!n) {
		ND_CALL(l->v2, Release);
		nd1_adapter_put(l->adapter);
		nd_free(l);
		nd_module_put();
	}
	return (ULONG)n;
}

static HRESULT STDMETHODCALLTYPE listen_CancelOverlappedRequests(INDListen *This)
{
	return ND_CALL(to_listen(This)->v2, CancelOverlappedRequests);
}

static HRESULT STDMETHODCALLTYPE listen_GetOverlappedResult(INDListen *This, OVERLAPPED *ov, SIZE_T *bytes,
							    BOOL wait)
{
	return nd1_ov_result(ov, bytes, wait);
}

static HRESULT STDMETHODCALLTYPE listen_GetConnectionRequest(INDListen *This, INDConnector *pconn, OVERLAPPED *ov)
{
	struct nd1_connector *c = nd1_connector_from(pconn);

	if (!c)
		return ND_INVALID_PARAMETER_1;
	if (!ov)
		return ND_INVALID_PARAMETER_2;
	return ND_CALL(to_listen(This)->v2, GetConnectionRequest, (IUnknown *)c->v2, ov);
}

static const INDListenVtbl listen_vtbl = {
	listen_QueryInterface,
	listen_AddRef,
	listen_Release,
	listen_CancelOverlappedRequests,
	listen_GetOverlappedResult,
	listen_GetConnectionRequest,
};

HRESULT nd1_listen_create(struct nd1_adapter *a, SIZE_T backlog, INT protocol, USHORT port, USHORT *assigned,
			  INDListen **out)
{
	struct sockaddr_storage addr;
	ULONG len;
	struct nd1_listen *l;
	HRESULT hr;

	if (backlog > MAXULONG)
		return ND_INVALID_PARAMETER_1;
	l = nd_alloc(sizeof(*l));
	if (!l)
		return ND_NO_MEMORY;
	hr = ND_CALL(a->v2, CreateListener, &IID_IND2Listener, a->file, (void **)&l->v2);
	if (hr != ND_SUCCESS) {
		nd_free(l);
		return hr;
	}
	len = nd1_local_addr(a, port, &addr);
	hr = ND_CALL(l->v2, Bind, (const struct sockaddr *)&addr, len);
	if (hr == ND_SUCCESS)
		hr = ND_CALL(l->v2, Listen, (ULONG)backlog);
	if (hr == ND_SUCCESS && assigned) {
		len = sizeof(addr);
		hr = ND_CALL(l->v2, GetLocalAddress, (struct sockaddr *)&addr, &len);
		if (hr == ND_SUCCESS)
			*assigned = __builtin_bswap16(addr.ss_family == AF_INET ? ((struct sockaddr_in *)&addr)->sin_port
								    : ((struct sockaddr_in6 *)&addr)->sin6_port);
	}
	if (hr != ND_SUCCESS) {
		ND_CALL(l->v2, Release);
		nd_free(l);
		return hr;
	}
	l->iface.lpVtbl = (void *)&listen_vtbl;
	l->refs = 1;
	l->adapter = a;
	nd1_adapter_hold(a);
	nd_module_get();
	*out = &l->iface;
	return ND_SUCCESS;
}

/* IND2Connector on rdma_cm (through the unix side).
 *
 * Hidden holds: the unix connector keeps a pointer to the QP it connects
 * (CompleteConnect and Disconnect use it), so we hold every QP passed to
 * Connect or Accept until the connector goes; a listener holds a
 * connector lent to a pending GetConnectionRequest (listener.c).  None of
 * it shows in Release's count: releasing a connector returns 0. */
#include "nd2prov.h"

static inline struct nd_connector *to_connector(IND2Connector *i)
{
	return (struct nd_connector *)i;
}

static void connector_destroy(struct nd_connector *c)
{
	struct nd_unix_object_params p = { c->h };
	struct nd_qp_hold *h, *next;

	/* Disconnects a connected id; completes its pending requests. */
	NdshimUnixCall(ND_UNIX_CONNECTOR_DESTROY, &p);
	NdshimCancelOverlapped(c->file, (ULONG_PTR)c, ND_CANCELED);
	for (h = c->qps; h; h = next) {
		next = h->next;
		nd_qp_put(h->qp);
		nd_free(h);
	}
	nd_adapter_put(c->adapter);
	nd_free(c);
	nd_module_put();
}

void nd_connector_put(struct nd_connector *c)
{
	if (nd_ref_put(&c->ref))
		connector_destroy(c);
}

/* A connector that was handed a request has the peer's private data
 * (on IB/RoCE always: the CM message's whole private-data area); one
 * still waiting has no peer at all. */
BOOL nd_connector_handed(struct nd_connector *c)
{
	struct nd_unix_private_data_params p = { c->h, 0, 0, 0 };

	return NdshimUnixCall(ND_UNIX_CONNECTOR_GET_PRIVATE_DATA, &p) != ND_CONNECTION_INVALID;
}

static HRESULT hold_qp(struct nd_connector *c, struct nd_qp *qp)
{
	struct nd_qp_hold *h;
	HRESULT st = ND_SUCCESS;

	AcquireSRWLockExclusive(&c->lock);
	for (h = c->qps; h; h = h->next)
		if (h->qp == qp)
			break;
	if (!h) {
		h = nd_alloc(sizeof(*h));
		if (h) {
			nd_qp_hold(qp);
			h->qp = qp;
			h->next = c->qps;
			c->qps = h;
		} else {
			st = ND_NO_MEMORY;
		}
	}
	ReleaseSRWLockExclusive(&c->lock);
	return st;
}

static HRESULT STDMETHODCALLTYPE connector_QueryInterface(IND2Connector *This, REFIID riid, void **out)
{
	return nd_qi(This, &to_connector(This)->ref, riid, out, &IID_IND2Connector, TRUE);
}

static ULONG STDMETHODCALLTYPE connector_AddRef(IND2Connector *This)
{
	return nd_ref_add(&to_connector(This)->ref);
}

static ULONG STDMETHODCALLTYPE connector_Release(IND2Connector *This)
{
	struct nd_connector *c = to_connector(This);
	struct nd_listener *l;
	BOOL drop = FALSE;
	ULONG n = (ULONG)InterlockedDecrement(&c->ref.refs);

	if (!n) {
		/* Still lent: if its request was handed over, the listener's
		 * hold can go now; else the listener keeps it (the unix side
		 * still points at it) until the request ends. */
		AcquireSRWLockExclusive(&nd_lend_lock);
		if ((l = c->lent_to) && nd_connector_handed(c)) {
			struct nd_connector **pp;

			for (pp = &l->lent; *pp; pp = &(*pp)->lent_next)
				if (*pp == c) {
					*pp = c->lent_next;
					break;
				}
			c->lent_to = NULL;
			c->lent_next = NULL;
			drop = TRUE;
		}
		ReleaseSRWLockExclusive(&nd_lend_lock);
		if (drop)
			nd_ref_put(&c->ref);	/* never the last: ours follows */
	}
	if (nd_ref_put(&c->ref))
		connector_destroy(c);
	return n;
}

static HRESULT STDMETHODCALLTYPE connector_CancelOverlappedRequests(IND2Connector *This)
{
	struct nd_connector *c = to_connector(This);

	return nd_ov_cancel(c->file, c, c->h);
}

static HRESULT STDMETHODCALLTYPE connector_GetOverlappedResult(IND2Connector *This, OVERLAPPED *ov, BOOL wait)
{
	return nd_ov_result(ov, wait);
}

static HRESULT STDMETHODCALLTYPE connector_Bind(IND2Connector *This, const struct sockaddr *sa, ULONG cb)
{
	struct nd_unix_addr_params p = { .object = to_connector(This)->h };

	if (!sa)
		return ND_INVALID_PARAMETER_1;
	if (!nd_addr_from_sockaddr(sa, cb, &p.addr))
		return ND_INVALID_ADDRESS;
	return NdshimUnixCall(ND_UNIX_CONNECTOR_BIND, &p);
}

/* A QP argument of Connect/Accept: ours, of this adapter, held. */
static HRESULT qp_arg(struct nd_connector *c, IUnknown *u, struct nd_qp **out)
{
	struct nd_qp *qp = nd_qp_from(u);

	if (!qp || qp->adapter != c->adapter)
		return ND_INVALID_PARAMETER_1;
	*out = qp;
	return hold_qp(c, qp);
}

static HRESULT STDMETHODCALLTYPE connector_Connect(IND2Connector *This, IUnknown *qp_u, const struct sockaddr *dest,
						   ULONG cb, ULONG inbound, ULONG outbound, const void *data,
						   ULONG len, OVERLAPPED *ov)
{
	struct nd_connector *c = to_connector(This);
	const ND2_ADAPTER_INFO *info = &c->adapter->info;
	struct nd_unix_connect_params p;
	struct nd_qp *qp;
	HRESULT st;

	if (!nd_qp_from(qp_u))
		return ND_INVALID_PARAMETER_1;
	if (!dest)
		return ND_INVALID_PARAMETER_2;
	memset(&p, 0, sizeof(p));
	if (!nd_addr_from_sockaddr(dest, cb, &p.dest))
		return ND_INVALID_ADDRESS;
	if (len && !data)
		return ND_INVALID_PARAMETER_6;
	/* Synchronously, and the connector stays usable. */
	if (len > info->MaxCallerData)
		return ND_INVALID_BUFFER_SIZE;
	if (!ov)
		return ND_INVALID_PARAMETER_8;
	st = qp_arg(c, qp_u, &qp);
	if (st)
		return st;
	p.connector = c->h;
	p.qp = qp->h;
	/* Callers may ask for more than the adapter has: limit silently. */
	p.inbound_read_limit = inbound < info->MaxInboundReadLimit ? inbound : info->MaxInboundReadLimit;
	p.outbound_read_limit = outbound < info->MaxOutboundReadLimit ? outbound : info->MaxOutboundReadLimit;
	p.private_data = ND_PTR(data);
	p.private_data_len = len;
	p.ov = nd_ov(c->file, ov);
	return nd_ov_issue(c->file, ov, c, ND_UNIX_CONNECTOR_CONNECT, &p);
}

static HRESULT STDMETHODCALLTYPE connector_CompleteConnect(IND2Connector *This, OVERLAPPED *ov)
{
	struct nd_connector *c = to_connector(This);

	return nd_ov_call(c->file, c, c->h, ND_UNIX_CONNECTOR_COMPLETE_CONNECT, ov);
}

static HRESULT STDMETHODCALLTYPE connector_Accept(IND2Connector *This, IUnknown *qp_u, ULONG inbound,
						  ULONG outbound, const void *data, ULONG len, OVERLAPPED *ov)
{
	struct nd_connector *c = to_connector(This);
	const ND2_ADAPTER_INFO *info = &c->adapter->info;
	struct nd_unix_accept_params p;
	struct nd_qp *qp;
	HRESULT st;

	if (!nd_qp_from(qp_u))
		return ND_INVALID_PARAMETER_1;
	if (len && !data)
		return ND_INVALID_PARAMETER_4;
	if (len > info->MaxCalleeData)
		return ND_INVALID_BUFFER_SIZE;
	if (!ov)
		return ND_INVALID_PARAMETER_6;
	st = qp_arg(c, qp_u, &qp);
	if (st)
		return st;
	memset(&p, 0, sizeof(p));
	p.connector = c->h;
	p.qp = qp->h;
	p.inbound_read_limit = inbound < info->MaxInboundReadLimit ? inbound : info->MaxInboundReadLimit;
	p.outbound_read_limit = outbound < info->MaxOutboundReadLimit ? outbound : info->MaxOutboundReadLimit;
	p.private_data = ND_PTR(data);
	p.private_data_len = len;
	p.ov = nd_ov(c->file, ov);
	return nd_ov_issue(c->file, ov, c, ND_UNIX_CONNECTOR_ACCEPT, &p);
}

static HRESULT STDMETHODCALLTYPE connector_Reject(IND2Connector *This, const void *data, ULONG len)
{
	struct nd_connector *c = to_connector(This);
	struct nd_unix_reject_params p = { c->h, ND_PTR(data), len, 0 };

	if (len && !data)
		return ND_INVALID_PARAMETER_1;
	if (len > c->adapter->info.MaxCalleeData)
		return ND_INVALID_BUFFER_SIZE;
	return NdshimUnixCall(ND_UNIX_CONNECTOR_REJECT, &p);
}

static HRESULT STDMETHODCALLTYPE connector_GetReadLimits(IND2Connector *This, ULONG *inbound, ULONG *outbound)
{
	struct nd_unix_read_limits_params p = { to_connector(This)->h, 0, 0 };
	HRESULT st = NdshimUnixCall(ND_UNIX_CONNECTOR_GET_READ_LIMITS, &p);

	if (st != ND_SUCCESS)
		return st;
	if (inbound)
		*inbound = p.inbound;
	if (outbound)
		*outbound = p.outbound;
	return ND_SUCCESS;
}

static HRESULT STDMETHODCALLTYPE connector_GetPrivateData(IND2Connector *This, void *data, ULONG *len)
{
	struct nd_unix_private_data_params p = { .connector = to_connector(This)->h };
	HRESULT st;

	if (!len)
		return ND_INVALID_PARAMETER_2;
	p.buffer = ND_PTR(data);
	p.capacity = data ? *len : 0;
	st = NdshimUnixCall(ND_UNIX_CONNECTOR_GET_PRIVATE_DATA, &p);
	if (st == ND_SUCCESS || st == ND_BUFFER_OVERFLOW)
		*len = p.length;
	return st;
}

static HRESULT STDMETHODCALLTYPE connector_GetLocalAddress(IND2Connector *This, struct sockaddr *sa, ULONG *cb)
{
	struct nd_unix_addr_params p = { .object = to_connector(This)->h };
	HRESULT st;

	if (!cb)
		return ND_INVALID_PARAMETER_2;
	st = NdshimUnixCall(ND_UNIX_CONNECTOR_GET_LOCAL_ADDRESS, &p);
	return st == ND_SUCCESS ? nd_addr_to_caller(&p.addr, sa, cb) : st;
}

static HRESULT STDMETHODCALLTYPE connector_GetPeerAddress(IND2Connector *This, struct sockaddr *sa, ULONG *cb)
{
	struct nd_unix_addr_params p = { .object = to_connector(This)->h };
	HRESULT st;

	if (!cb)
		return ND_INVALID_PARAMETER_2;
	st = NdshimUnixCall(ND_UNIX_CONNECTOR_GET_PEER_ADDRESS, &p);
	return st == ND_SUCCESS ? nd_addr_to_caller(&p.addr, sa, cb) : st;
}

static HRESULT STDMETHODCALLTYPE connector_NotifyDisconnect(IND2Connector *This, OVERLAPPED *ov)
{
	struct nd_connector *c = to_connector(This);

	return nd_ov_call(c->file, c, c->h, ND_UNIX_CONNECTOR_NOTIFY_DISCONNECT, ov);
}

static HRESULT STDMETHODCALLTYPE connector_Disconnect(IND2Connector *This, OVERLAPPED *ov)
{
	struct nd_connector *c = to_connector(This);

	return nd_ov_call(c->file, c, c->h, ND_UNIX_CONNECTOR_DISCONNECT, ov);
}

static const IND2ConnectorVtbl connector_vtbl = {
	connector_QueryInterface,
	connector_AddRef,
	connector_Release,
	connector_CancelOverlappedRequests,
	connector_GetOverlappedResult,
	connector_Bind,
	connector_Connect,
	connector_CompleteConnect,
	connector_Accept,
	connector_Reject,
	connector_GetReadLimits,
	connector_GetPrivateData,
	connector_GetLocalAddress,
	connector_GetPeerAddress,
	connector_NotifyDisconnect,
	connector_Disconnect,
};

struct nd_connector *nd_connector_from(IUnknown *u)
{
	return u && ND_VTBL_IS(ND_IFACE_CONNECTOR, u->lpVtbl, connector_vtbl) ? (struct nd_connector *)u : NULL;
}

HRESULT nd_connector_create(struct nd_adapter *a, HANDLE file, void **out)
{
	struct nd_unix_create_params p = { a->h, 0 };
	struct nd_connector *c = nd_alloc(sizeof(*c));
	HRESULT st;

	if (!c)
		return ND_NO_MEMORY;
	st = NdshimUnixCall(ND_UNIX_CONNECTOR_CREATE, &p);
	if (st != ND_SUCCESS) {
		nd_free(c);
		return st;
	}
	c->iface.lpVtbl = ND_VTBL(ND_IFACE_CONNECTOR, connector_vtbl);
	nd_ref_init(&c->ref);
	InitializeSRWLock(&c->lock);
	c->adapter = a;
	c->h = p.object;
	c->file = file;
	nd_adapter_hold(a);
	nd_module_get();
	*out = c;
	return ND_SUCCESS;
}

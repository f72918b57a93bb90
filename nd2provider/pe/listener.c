/* IND2Listener.  GetConnectionRequest always pends.
 *
 * Lending: the unix side keeps a pointer to the connector of a pending
 * GetConnectionRequest until it hands it a request, so the listener holds
 * the connector (a hidden hold) from GetConnectionRequest until it knows
 * the unix side is done with it: the connector was handed a request, or
 * the listener's requests were cancelled (Cancel, Release).  A connector
 * the caller released meanwhile lives on, invisible, until then. */
#include "nd2prov.h"

SRWLOCK nd_lend_lock = SRWLOCK_INIT;

static inline struct nd_listener *to_listener(IND2Listener *i)
{
	return (struct nd_listener *)i;
}

/* Drops the holds on lent connectors: all of them (every request of the
 * listener has ended), or only those handed a request. */
static void unlend(struct nd_listener *l, BOOL all)
{
	struct nd_connector *c, **pp, *done = NULL;

	AcquireSRWLockExclusive(&nd_lend_lock);
	for (pp = &l->lent; (c = *pp);) {
		if (all || nd_connector_handed(c)) {
			*pp = c->lent_next;
			c->lent_to = NULL;
			c->lent_next = done;
			done = c;
		} else {
			pp = &c->lent_next;
		}
	}
	ReleaseSRWLockExclusive(&nd_lend_lock);
	while ((c = done)) {
		done = c->lent_next;
		c->lent_next = NULL;
		nd_connector_put(c);
	}
}

/* ND_SUCCESS, or ND_INVALID_PARAMETER_1 for a connector already waiting
 * on a GetConnectionRequest. */
static HRESULT lend(struct nd_listener *l, struct nd_connector *c)
{
	struct nd_connector **pp;
	HRESULT st = ND_SUCCESS;

	AcquireSRWLockExclusive(&nd_lend_lock);
	if (c->lent_to && !nd_connector_handed(c)) {
		st = ND_INVALID_PARAMETER_1;
	} else {
		if (c->lent_to) {
			/* Handed its earlier request: the hold moves here. */
			for (pp = &c->lent_to->lent; *pp; pp = &(*pp)->lent_next)
				if (*pp == c) {
					*pp = c->lent_next;
					break;
				}
		} else {
			nd_ref_hold(&c->ref);
		}
		c->lent_to = l;
		c->lent_next = l->lent;
		l->lent = c;
	}
	ReleaseSRWLockExclusive(&nd_lend_lock);
	return st;
}

static void unlend_one(struct nd_listener *l, struct nd_connector *c)
{
	struct nd_connector **pp;
	BOOL found = FALSE;

	AcquireSRWLockExclusive(&nd_lend_lock);
	for (pp = &l->lent; *pp; pp = &(*pp)->lent_next)
		if (*pp == c) {
			*pp = c->lent_next;
			c->lent_to = NULL;
			c->lent_next = NULL;
			found = TRUE;
			break;
		}
	ReleaseSRWLockExclusive(&nd_lend_lock);
	if (found)
		nd_connector_put(c);
}

static void listener_destroy(struct nd_listener *l)
{
	struct nd_unix_object_params p = { l->h };

	/* Completes its pending requests: no connector is lent after this. */
	NdshimUnixCall(ND_UNIX_LISTENER_DESTROY, &p);
	NdshimCancelOverlapped(l->file, (ULONG_PTR)l, ND_CANCELED);
	unlend(l, TRUE);
	nd_adapter_put(l->adapter);
	nd_free(l);
	nd_module_put();
}

static HRESULT STDMETHODCALLTYPE listener_QueryInterface(IND2Listener *This, REFIID riid, void **out)
{
	return nd_qi(This, &to_listener(This)->ref, riid, out, &IID_IND2Listener, TRUE);
}

static ULONG STDMETHODCALLTYPE listener_AddRef(IND2Listener *This)
{
	return nd_ref_add(&to_listener(This)->ref);
}

static ULONG STDMETHODCALLTYPE listener_Release(IND2Listener *This)
{
	BOOL dead;
	ULONG n = nd_ref_release(&to_listener(This)->ref, &dead);

	if (dead)
		listener_destroy(to_listener(This));
	return n;
}

static HRESULT STDMETHODCALLTYPE listener_CancelOverlappedRequests(IND2Listener *This)
{
	struct nd_listener *l = to_listener(This);
	HRESULT st = nd_ov_cancel(l->file, l, l->h);

	unlend(l, TRUE);
	return st;
}

static HRESULT STDMETHODCALLTYPE listener_GetOverlappedResult(IND2Listener *This, OVERLAPPED *ov, BOOL wait)
{
	return nd_ov_result(ov, wait);
}

static HRESULT STDMETHODCALLTYPE listener_Bind(IND2Listener *This, const struct sockaddr *sa, ULONG cb)
{
	struct nd_unix_addr_params p = { .object = to_listener(This)->h };

	if (!sa)
		return ND_INVALID_PARAMETER_1;
	if (!nd_addr_from_sockaddr(sa, cb, &p.addr))
		return ND_INVALID_ADDRESS;
	return NdshimUnixCall(ND_UNIX_LISTENER_BIND, &p);
}

static HRESULT STDMETHODCALLTYPE listener_Listen(IND2Listener *This, ULONG backlog)
{
	struct nd_unix_listen_params p = { to_listener(This)->h, backlog, 0 };

	return NdshimUnixCall(ND_UNIX_LISTENER_LISTEN, &p);
}

static HRESULT STDMETHODCALLTYPE listener_GetLocalAddress(IND2Listener *This, struct sockaddr *sa, ULONG *cb)
{
	struct nd_unix_addr_params p = { .object = to_listener(This)->h };
	HRESULT st;

	if (!cb)
		return ND_INVALID_PARAMETER_2;
	st = NdshimUnixCall(ND_UNIX_LISTENER_GET_LOCAL_ADDRESS, &p);
	return st == ND_SUCCESS ? nd_addr_to_caller(&p.addr, sa, cb) : st;
}

static HRESULT STDMETHODCALLTYPE listener_GetConnectionRequest(IND2Listener *This, IUnknown *conn_u,
							       OVERLAPPED *ov)
{
	struct nd_listener *l = to_listener(This);
	struct nd_connector *c = nd_connector_from(conn_u);
	struct nd_unix_get_request_params p;
	HRESULT st;

	if (!c || c->adapter != l->adapter)
		return ND_INVALID_PARAMETER_1;
	if (!ov)
		return ND_INVALID_PARAMETER_2;
	/* Connectors handed requests since the last call need no hold. */
	unlend(l, FALSE);
	st = lend(l, c);
	if (st)
		return st;
	p = (struct nd_unix_get_request_params){ l->h, c->h, nd_ov(l->file, ov) };
	st = nd_ov_issue(l->file, ov, l, ND_UNIX_LISTENER_GET_CONNECTION_REQUEST, &p);
	if (st != ND_PENDING)
		unlend_one(l, c);	/* the unix side did not keep it */
	return st;
}

static const IND2ListenerVtbl listener_vtbl = {
	listener_QueryInterface,
	listener_AddRef,
	listener_Release,
	listener_CancelOverlappedRequests,
	listener_GetOverlappedResult,
	listener_Bind,
	listener_Listen,
	listener_GetLocalAddress,
	listener_GetConnectionRequest,
};

HRESULT nd_listener_create(struct nd_adapter *a, HANDLE file, void **out)
{
	struct nd_unix_create_params p = { a->h, 0 };
	struct nd_listener *l = nd_alloc(sizeof(*l));
	HRESULT st;

	if (!l)
		return ND_NO_MEMORY;
	st = NdshimUnixCall(ND_UNIX_LISTENER_CREATE, &p);
	if (st != ND_SUCCESS) {
		nd_free(l);
		return st;
	}
	l->iface.lpVtbl = ND_VTBL(ND_IFACE_LISTENER, listener_vtbl);
	nd_ref_init(&l->ref);
	l->adapter = a;
	l->h = p.object;
	l->file = file;
	nd_adapter_hold(a);
	nd_module_get();
	*out = l;
	return ND_SUCCESS;
}

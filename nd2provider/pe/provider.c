/* IND2Provider: discovery (QueryAddressList, ResolveAddress) and
 * OpenAdapter, plus the address conversions every object shares.
 *
 * Without its Linux side (ndrun could not load nd2prov_unix.so, or there
 * is no RDMA device) the provider is simply one with no addresses:
 * QueryAddressList lists none, ResolveAddress and OpenAdapter fail with
 * their documented codes. */
#include "nd2prov.h"

#define MAX_ADDRESSES 64	/* the unix side lists at most this many */

struct nd_provider {
	IND2Provider iface;
	struct nd_ref ref;
};

static inline struct nd_provider *to_provider(IND2Provider *i)
{
	return (struct nd_provider *)i;
}

/* ---- addresses ------------------------------------------------------------------- */
BOOL nd_addr_from_sockaddr(const struct sockaddr *sa, ULONG cb, struct nd_unix_addr *out)
{
	ULONG len;

	if (!sa || cb < sizeof(sa->sa_family))
		return FALSE;
	if (sa->sa_family == AF_INET)
		len = sizeof(struct sockaddr_in);
	else if (sa->sa_family == AF_INET6)
		len = sizeof(struct sockaddr_in6);
	else
		return FALSE;
	if (cb < len)
		return FALSE;
	memset(out, 0, sizeof(*out));
	memcpy(out->bytes, sa, len);
	out->len = len;
	return TRUE;
}

HRESULT nd_addr_to_caller(const struct nd_unix_addr *a, struct sockaddr *sa, ULONG *cb)
{
	if (!cb)
		return ND_INVALID_PARAMETER_2;
	if (!sa || *cb < a->len) {
		*cb = a->len;
		return ND_BUFFER_OVERFLOW;
	}
	memcpy(sa, a->bytes, a->len);
	*cb = a->len;
	return ND_SUCCESS;
}

/* The list is laid out as Windows does: the count, the SOCKET_ADDRESS
 * array, then the sockaddrs it points to. */
HRESULT nd_query_address_list(uint64_t adapter_id, SOCKET_ADDRESS_LIST *list, ULONG *cb)
{
	struct nd_unix_address_entry *ents;
	struct nd_unix_query_addresses_params p;
	ULONG need, i, n = 0;
	char *tail;
	HRESULT st;

	if (!cb)
		return ND_INVALID_PARAMETER_2;
	ents = nd_alloc(MAX_ADDRESSES * sizeof(*ents));
	if (!ents)
		return ND_NO_MEMORY;
	p = (struct nd_unix_query_addresses_params){ adapter_id, ND_PTR(ents), MAX_ADDRESSES, 0 };
	/* No Linux side, no device: no addresses. */
	if (NdshimUnixCall(ND_UNIX_QUERY_ADDRESSES, &p) != ND_SUCCESS)
		p.count = 0;
	need = FIELD_OFFSET(SOCKET_ADDRESS_LIST, Address);
	for (i = 0; i < p.count && i < MAX_ADDRESSES; i++) {
		if (ents[i].addr.len != sizeof(struct sockaddr_in) && ents[i].addr.len != sizeof(struct sockaddr_in6))
			continue;
		ents[n++] = ents[i];
		need += sizeof(SOCKET_ADDRESS) + ents[i].addr.len;
	}
	if (!list || *cb < need) {
		*cb = need;
		nd_free(ents);
		return ND_BUFFER_OVERFLOW;
	}
	list->iAddressCount = (INT)n;
	tail = (char *)list + FIELD_OFFSET(SOCKET_ADDRESS_LIST, Address) + n * sizeof(SOCKET_ADDRESS);
	for (i = 0; i < n; i++) {
		memcpy(tail, ents[i].addr.bytes, ents[i].addr.len);
		list->Address[i].lpSockaddr = (struct sockaddr *)tail;
		list->Address[i].iSockaddrLength = (INT)ents[i].addr.len;
		tail += ents[i].addr.len;
	}
	*cb = need;
	st = ND_SUCCESS;
	nd_free(ents);
	return st;
}

/* ---- IND2Provider ------------------------------------------------------------------ */
static HRESULT STDMETHODCALLTYPE provider_QueryInterface(IND2Provider *This, REFIID riid, void **out)
{
	return nd_qi(This, &to_provider(This)->ref, riid, out, &IID_IND2Provider, FALSE);
}

static ULONG STDMETHODCALLTYPE provider_AddRef(IND2Provider *This)
{
	return nd_ref_add(&to_provider(This)->ref);
}

static ULONG STDMETHODCALLTYPE provider_Release(IND2Provider *This)
{
	struct nd_provider *p = to_provider(This);
	ULONG n = (ULONG)InterlockedDecrement(&p->ref.refs);

	if (nd_ref_put(&p->ref)) {
		nd_free(p);
		nd_module_put();
	}
	return n;
}

static HRESULT STDMETHODCALLTYPE provider_QueryAddressList(IND2Provider *This, SOCKET_ADDRESS_LIST *list,
							   ULONG *cb)
{
	return nd_query_address_list(0, list, cb);
}

static HRESULT STDMETHODCALLTYPE provider_ResolveAddress(IND2Provider *This, const struct sockaddr *sa, ULONG cb,
							 UINT64 *id)
{
	struct nd_unix_resolve_address_params p;
	HRESULT st;

	if (!sa)
		return ND_INVALID_PARAMETER_1;
	if (!id)
		return ND_INVALID_PARAMETER_3;
	if (!nd_addr_from_sockaddr(sa, cb, &p.addr))
		return ND_INVALID_ADDRESS;
	p.adapter_id = 0;
	st = NdshimUnixCall(ND_UNIX_RESOLVE_ADDRESS, &p);
	if (st == ND_SUCCESS) {
		*id = p.adapter_id;
		return ND_SUCCESS;
	}
	return st == ND_NO_MEMORY ? st : ND_INVALID_ADDRESS;
}

static HRESULT STDMETHODCALLTYPE provider_OpenAdapter(IND2Provider *This, REFIID iid, UINT64 id, void **out)
{
	if (!out)
		return ND_INVALID_PARAMETER_3;
	*out = NULL;
	if (!iid || (!IsEqualIID(iid, &IID_IND2Adapter) && !IsEqualIID(iid, &IID_IUnknown)))
		return E_NOINTERFACE;
	if (!id)
		return ND_INVALID_PARAMETER;
	return nd_adapter_open(id, iid, out);
}

static const IND2ProviderVtbl provider_vtbl = {
	provider_QueryInterface,
	provider_AddRef,
	provider_Release,
	provider_QueryAddressList,
	provider_ResolveAddress,
	provider_OpenAdapter,
};

HRESULT nd_provider_create(void **out)
{
	struct nd_provider *p = nd_alloc(sizeof(*p));

	if (!p)
		return E_OUTOFMEMORY;
	p->iface.lpVtbl = ND_VTBL(ND_IFACE_PROVIDER, provider_vtbl);
	nd_ref_init(&p->ref);
	nd_module_get();
	*out = p;
	return S_OK;
}

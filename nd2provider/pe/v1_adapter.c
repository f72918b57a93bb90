/* INDAdapter: one v2 adapter, the overlapped file every v1 object of it
 * issues on, and the memory registrations behind its ND_MR_HANDLEs. */
#include "v1.h"

#define ND1_MAX_CQ_ENTRIES ((SIZE_T)MAXULONG)

static inline struct nd1_adapter *to_adapter(INDAdapter *i)
{
	return (struct nd1_adapter *)i;
}

static void adapter_destroy(struct nd1_adapter *a)
{
	struct nd1_mr *mr, *next;

	/* Registrations the client never deregistered go with the adapter. */
	for (mr = a->mrs; mr; mr = next) {
		next = mr->next;
		mr->magic = 0;
		ND_CALL(mr->v2, Release);
		nd_free(mr);
	}
	CloseHandle(a->file);
	ND_CALL(a->v2, Release);
	nd_free(a);
	nd_module_put();
}

void nd1_adapter_hold(struct nd1_adapter *a)
{
	InterlockedIncrement(&a->refs);
}

void nd1_adapter_put(struct nd1_adapter *a)
{
	if (!InterlockedDecrement(&a->refs))
		adapter_destroy(a);
}

HRESULT nd1_ov_result(OVERLAPPED *ov, SIZE_T *bytes, BOOL wait)
{
	HRESULT hr;

	if (!ov)
		return ND_INVALID_PARAMETER_1;
	hr = nd_ov_result(ov, wait);
	if (bytes)
		*bytes = hr == ND_PENDING ? 0 : (SIZE_T)ov->InternalHigh;
	return hr;
}

ULONG nd1_local_addr(const struct nd1_adapter *a, USHORT port, struct sockaddr_storage *out)
{
	*out = a->addr;
	if (out->ss_family == AF_INET)
		((struct sockaddr_in *)out)->sin_port = __builtin_bswap16(port);
	else
		((struct sockaddr_in6 *)out)->sin6_port = __builtin_bswap16(port);
	return a->addr_len;
}

IND2MemoryRegion *nd1_mr_from(ND_MR_HANDLE h)
{
	struct nd1_mr *mr = (struct nd1_mr *)h;

	/* A handle is a pointer the client got from RegisterMemory; the
	 * magic catches a deregistered one. */
	if (!mr || mr->magic != ND1_MR_MAGIC)
		return NULL;
	return mr->v2;
}

static HRESULT STDMETHODCALLTYPE adapter_QueryInterface(INDAdapter *This, REFIID riid, void **out)
{
	return nd1_qi(This, &to_adapter(This)->refs, riid, out, &IID_INDAdapter, TRUE);
}

static ULONG STDMETHODCALLTYPE adapter_AddRef(INDAdapter *This)
{
	return (ULONG)InterlockedIncrement(&to_adapter(This)->refs);
}

static ULONG STDMETHODCALLTYPE adapter_Release(INDAdapter *This)
{
	LONG n = InterlockedDecrement(&to_adapter(This)->refs);

	if (!n)
		adapter_destroy(to_adapter(This));
	return (ULONG)n;
}

/* The adapter's own requests: registrations (issued by their v2 region)
 * and deregistrations (ours, see DeregisterMemory). */
static HRESULT STDMETHODCALLTYPE adapter_CancelOverlappedRequests(INDAdapter *This)
{
	struct nd1_adapter *a = to_adapter(This);
	struct nd1_mr *mr;

	AcquireSRWLockShared(&a->lock);
	for (mr = a->mrs; mr; mr = mr->next)
		ND_CALL(mr->v2, CancelOverlappedRequests);
	ReleaseSRWLockShared(&a->lock);
	NdshimCancelOverlapped(a->file, (ULONG_PTR)a, ND_CANCELED);
	return ND_SUCCESS;
}

static HRESULT STDMETHODCALLTYPE adapter_GetOverlappedResult(INDAdapter *This, OVERLAPPED *ov, SIZE_T *bytes,
							     BOOL wait)
{
	return nd1_ov_result(ov, bytes, wait);
}

static HANDLE STDMETHODCALLTYPE adapter_GetFileHandle(INDAdapter *This)
{
	return to_adapter(This)->file;
}

static HRESULT STDMETHODCALLTYPE adapter_Query(INDAdapter *This, DWORD version, ND_ADAPTER_INFO *pinfo,
					       SIZE_T *size)
{
	const ND2_ADAPTER_INFO *i = &to_adapter(This)->info;
	ND_ADAPTER_INFO1 *o = pinfo;

	if (version != ND_VERSION_1)
		return ND_NOT_SUPPORTED;
	if (!size)
		return ND_INVALID_PARAMETER_3;
	if (!pinfo || *size < sizeof(*o)) {
		*size = sizeof(*o);
		return ND_BUFFER_OVERFLOW;
	}
	memset(o, 0, sizeof(*o));
	o->VendorId = i->VendorId;
	o->DeviceId = i->DeviceId;
	o->MaxInboundSge = min(i->MaxReceiveSge, ND1_MAX_SGE);
	o->MaxInboundRequests = i->MaxReceiveQueueDepth;
	o->MaxInboundLength = i->MaxTransferLength;
	o->MaxOutboundSge = min(i->MaxInitiatorSge, ND1_MAX_SGE);
	o->MaxOutboundRequests = i->MaxInitiatorQueueDepth;
	o->MaxOutboundLength = i->MaxTransferLength;
	o->MaxInlineData = i->MaxInlineDataSize;
	o->MaxInboundReadLimit = i->MaxInboundReadLimit;
	o->MaxOutboundReadLimit = i->MaxOutboundReadLimit;
	o->MaxCqEntries = i->MaxCompletionQueueDepth;
	o->MaxRegistrationSize = i->MaxRegistrationSize;
	o->MaxWindowSize = i->MaxWindowSize;
	o->LargeRequestThreshold = i->LargeRequestThreshold;
	o->MaxCallerData = i->MaxCallerData;
	o->MaxCalleeData = i->MaxCalleeData;
	*size = sizeof(*o);
	return ND_SUCCESS;
}

/* Control passes vendor I/O control codes to the device; this provider's
 * device (rdma-core through the unix side) defines none, so every code
 * is one it does not know. */
static HRESULT STDMETHODCALLTYPE adapter_Control(INDAdapter *This, DWORD code, const void *in, SIZE_T in_size,
						 void *outbuf, SIZE_T out_size, SIZE_T *returned, OVERLAPPED *ov)
{
	if (!ov)
		return ND_INVALID_PARAMETER_7;
	if (returned)
		*returned = 0;
	return ND_INVALID_DEVICE_REQUEST;
}

static HRESULT STDMETHODCALLTYPE adapter_CreateCompletionQueue(INDAdapter *This, SIZE_T entries,
							       INDCompletionQueue **out)
{
	if (!out)
		return ND_INVALID_PARAMETER_2;
	*out = NULL;
	return nd1_cq_create(to_adapter(This), entries, out);
}

/* v1 registers for every access: remote access is what a memory window
 * bound over the registration grants, per request. */
#define ND1_MR_FLAGS (ND_MR_FLAG_ALLOW_LOCAL_WRITE | ND_MR_FLAG_ALLOW_REMOTE_READ | ND_MR_FLAG_ALLOW_REMOTE_WRITE)

static HRESULT STDMETHODCALLTYPE adapter_RegisterMemory(INDAdapter *This, const void *buf, SIZE_T size,
							OVERLAPPED *ov, ND_MR_HANDLE *out)
{
	struct nd1_adapter *a = to_adapter(This);
	struct nd1_mr *mr;
	HRESULT hr;

	if (!ov)
		return ND_INVALID_PARAMETER_3;
	if (!out)
		return ND_INVALID_PARAMETER_4;
	mr = nd_alloc(sizeof(*mr));
	if (!mr)
		return ND_NO_MEMORY;
	hr = ND_CALL(a->v2, CreateMemoryRegion, &IID_IND2MemoryRegion, a->file, (void **)&mr->v2);
	if (hr != ND_SUCCESS) {
		nd_free(mr);
		return hr;
	}
	mr->magic = ND1_MR_MAGIC;
	/* Handed out before the request starts: it may complete at once. */
	*out = (ND_MR_HANDLE)mr;
	AcquireSRWLockExclusive(&a->lock);
	mr->next = a->mrs;
	a->mrs = mr;
	ReleaseSRWLockExclusive(&a->lock);
	hr = ND_CALL(mr->v2, Register, buf, size, ND1_MR_FLAGS, ov);
	if (FAILED(hr)) {
		struct nd1_mr **pp;

		AcquireSRWLockExclusive(&a->lock);
		for (pp = &a->mrs; *pp != mr; pp = &(*pp)->next)
			;
		*pp = mr->next;
		ReleaseSRWLockExclusive(&a->lock);
		*out = NULL;
		mr->magic = 0;
		ND_CALL(mr->v2, Release);
		nd_free(mr);
	}
	return hr;
}

/* The v2 region must stay until its Deregister has finished (releasing
 * it earlier would cancel that request), and nothing tells us when the
 * client's OVERLAPPED completes.  So the adapter owns the client's
 * request: the v2 Deregister runs on a private OVERLAPPED (an event with
 * the low bit set: no port packet), then the region goes, then the
 * client's request completes with the status and its packet. */
static HRESULT STDMETHODCALLTYPE adapter_DeregisterMemory(INDAdapter *This, ND_MR_HANDLE h, OVERLAPPED *ov)
{
	struct nd1_adapter *a = to_adapter(This);
	struct nd1_mr *mr = (struct nd1_mr *)h, **pp;
	OVERLAPPED own = { 0 };
	BOOL found;
	HANDLE ev;
	HRESULT hr;

	if (!ov)
		return ND_INVALID_PARAMETER_2;
	/* Only a handle on this adapter's list is followed. */
	AcquireSRWLockExclusive(&a->lock);
	for (pp = &a->mrs; *pp && *pp != mr; pp = &(*pp)->next)
		;
	found = *pp != NULL;
	if (found)
		*pp = mr->next;
	ReleaseSRWLockExclusive(&a->lock);
	if (!found)
		return ND_INVALID_PARAMETER_1;
	ev = CreateEventW(NULL, TRUE, FALSE, NULL);
	if (!ev)
		return ND_NO_MEMORY;
	hr = NdshimBeginOverlapped(a->file, ov, (ULONG_PTR)a);
	if (hr != ND_SUCCESS) {
		CloseHandle(ev);
		return hr;
	}
	own.hEvent = (HANDLE)((ULONG_PTR)ev | 1);
	hr = ND_CALL(mr->v2, Deregister, &own);
	if (hr == ND_PENDING)
		hr = nd_ov_result(&own, TRUE);
	CloseHandle(ev);
	if (hr == ND_SUCCESS) {
		mr->magic = 0;
		ND_CALL(mr->v2, Release);
		nd_free(mr);
	} else {
		AcquireSRWLockExclusive(&a->lock);
		mr->next = a->mrs;
		a->mrs = mr;
		ReleaseSRWLockExclusive(&a->lock);
	}
	NdshimCompleteOverlapped(a->file, ov, hr, 0);
	return ND_PENDING;
}

static HRESULT STDMETHODCALLTYPE adapter_CreateMemoryWindow(INDAdapter *This, ND_RESULT *inv, INDMemoryWindow **out)
{
	if (!inv)
		return ND_INVALID_PARAMETER_1;
	if (!out)
		return ND_INVALID_PARAMETER_2;
	*out = NULL;
	return nd1_mw_create(to_adapter(This), inv, out);
}

static HRESULT STDMETHODCALLTYPE adapter_CreateConnector(INDAdapter *This, INDConnector **out)
{
	if (!out)
		return ND_INVALID_PARAMETER_1;
	*out = NULL;
	return nd1_connector_create(to_adapter(This), out);
}

static HRESULT STDMETHODCALLTYPE adapter_Listen(INDAdapter *This, SIZE_T backlog, INT protocol, USHORT port,
						USHORT *assigned, INDListen **out)
{
	if (!out)
		return ND_INVALID_PARAMETER_5;
	*out = NULL;
	return nd1_listen_create(to_adapter(This), backlog, protocol, port, assigned, out);
}

static const INDAdapterVtbl adapter_vtbl = {
	adapter_QueryInterface,
	adapter_AddRef,
	adapter_Release,
	adapter_CancelOverlappedRequests,
	adapter_GetOverlappedResult,
	adapter_GetFileHandle,
	adapter_Query,
	adapter_Control,
	adapter_CreateCompletionQueue,
	adapter_RegisterMemory,
	adapter_DeregisterMemory,
	adapter_CreateMemoryWindow,
	adapter_CreateConnector,
	adapter_Listen,
};

HRESULT nd1_adapter_open(const struct sockaddr *sa, SIZE_T len, INDAdapter **out)
{
	struct nd_unix_addr ua;
	IND2Provider *prov = NULL;
	struct nd1_adapter *a;
	ULONG cb = sizeof(ND2_ADAPTER_INFO);
	UINT64 id;
	HRESULT hr;

	if (!out)
		return ND_INVALID_PARAMETER_3;
	*out = NULL;
	if (len > MAXULONG || !nd_addr_from_sockaddr(sa, (ULONG)len, &ua))
		return ND_INVALID_ADDRESS;
	a = nd_alloc(sizeof(*a));
	if (!a)
		return ND_NO_MEMORY;
	InitializeSRWLock(&a->lock);
	hr = nd_provider_create((void **)&prov);
	if (hr == ND_SUCCESS)
		hr = ND_CALL(prov, ResolveAddress, sa, (ULONG)len, &id);
	if (hr == ND_SUCCESS)
		hr = ND_CALL(prov, OpenAdapter, &IID_IND2Adapter, id, (void **)&a->v2);
	if (prov)
		ND_CALL(prov, Release);
	if (hr == ND_SUCCESS)
		hr = ND_CALL(a->v2, CreateOverlappedFile, &a->file);
	if (hr == ND_SUCCESS) {
		a->info.InfoVersion = ND_VERSION_2;
		hr = ND_CALL(a->v2, Query, &a->info, &cb);
	}
	if (hr != ND_SUCCESS) {
		if (a->file)
			CloseHandle(a->file);
		if (a->v2)
			ND_CALL(a->v2, Release);
		nd_free(a);
		return hr;
	}
	memcpy(&a->addr, ua.bytes, ua.len);
	a->addr_len = ua.len;
	nd1_local_addr(a, 0, &a->addr);
	a->iface.lpVtbl = (void *)&adapter_vtbl;
	a->refs = 1;
	nd_module_get();
	*out = &a->iface;
	return ND_SUCCESS;
}

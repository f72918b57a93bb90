/* IND2Adapter: the device's limits and the factory of every other object.
 * Each constructor's limits are checked here against what Query reports,
 * with the parameter numbers of IND2Adapter.md. */
#include "nd2prov.h"

static inline struct nd_adapter *to_adapter(IND2Adapter *i)
{
	return (struct nd_adapter *)i;
}

static void adapter_destroy(struct nd_adapter *a)
{
	struct nd_unix_object_params p = { a->h };

	/* Every child held us: none is left, so the close cannot be busy. */
	NdshimUnixCall(ND_UNIX_ADAPTER_CLOSE, &p);
	nd_free(a);
	nd_module_put();
}

void nd_adapter_hold(struct nd_adapter *a)
{
	nd_ref_hold(&a->ref);
}

void nd_adapter_put(struct nd_adapter *a)
{
	if (nd_ref_put(&a->ref))
		adapter_destroy(a);
}

static HRESULT STDMETHODCALLTYPE adapter_QueryInterface(IND2Adapter *This, REFIID riid, void **out)
{
	return nd_qi(This, &to_adapter(This)->ref, riid, out, &IID_IND2Adapter, FALSE);
}

static ULONG STDMETHODCALLTYPE adapter_AddRef(IND2Adapter *This)
{
	return nd_ref_add(&to_adapter(This)->ref);
}

static ULONG STDMETHODCALLTYPE adapter_Release(IND2Adapter *This)
{
	BOOL dead;
	ULONG n = nd_ref_release(&to_adapter(This)->ref, &dead);

	if (dead)
		adapter_destroy(to_adapter(This));
	return n;
}

static HRESULT STDMETHODCALLTYPE adapter_CreateOverlappedFile(IND2Adapter *This, HANDLE *file)
{
	HRESULT hr;

	if (!file)
		return ND_INVALID_PARAMETER_1;
	hr = NdshimCreateOverlappedFile(file);
	return hr == S_OK ? ND_SUCCESS : ND_NO_MEMORY;
}

static HRESULT STDMETHODCALLTYPE adapter_Query(IND2Adapter *This, ND2_ADAPTER_INFO *info, ULONG *cb)
{
	struct nd_adapter *a = to_adapter(This);
	ULONG version;

	if (!cb)
		return ND_INVALID_PARAMETER_2;
	if (!info || *cb < sizeof(*info)) {
		*cb = sizeof(*info);
		return ND_BUFFER_OVERFLOW;
	}
	/* The docs say 1; clients set ND_VERSION_2.  Both mean this layout. */
	version = info->InfoVersion;
	if (version != 1 && version != ND_VERSION_2)
		return ND_INVALID_PARAMETER_1;
	*info = a->info;
	info->InfoVersion = version;
	*cb = sizeof(*info);
	return ND_SUCCESS;
}

static HRESULT STDMETHODCALLTYPE adapter_QueryAddressList(IND2Adapter *This, SOCKET_ADDRESS_LIST *list, ULONG *cb)
{
	return nd_query_address_list(to_adapter(This)->info.AdapterId, list, cb);
}

static BOOL iid_is(REFIID iid, const IID *want)
{
	return iid && (IsEqualIID(iid, want) || IsEqualIID(iid, &IID_IUnknown));
}

static HRESULT STDMETHODCALLTYPE adapter_CreateCompletionQueue(IND2Adapter *This, REFIID iid, HANDLE file,
							       ULONG depth, USHORT group, KAFFINITY affinity,
							       void **out)
{
	struct nd_adapter *a = to_adapter(This);

	if (!out)
		return ND_INVALID_PARAMETER_6;
	*out = NULL;
	if (!iid_is(iid, &IID_IND2CompletionQueue))
		return E_NOINTERFACE;
	if (!nd_valid_file(file))
		return ND_INVALID_PARAMETER_2;
	if (!depth || depth > a->info.MaxCompletionQueueDepth)
		return ND_INVALID_PARAMETER_3;
	/* One processor group on Linux: group 0. */
	if (group)
		return ND_INVALID_PARAMETER_4;
	return nd_cq_create(a, file, depth, group, affinity, out);
}

static HRESULT STDMETHODCALLTYPE adapter_CreateMemoryRegion(IND2Adapter *This, REFIID iid, HANDLE file, void **out)
{
	if (!out)
		return ND_INVALID_PARAMETER_3;
	*out = NULL;
	if (!iid_is(iid, &IID_IND2MemoryRegion))
		return E_NOINTERFACE;
	if (!nd_valid_file(file))
		return ND_INVALID_PARAMETER_2;
	return nd_mr_create(to_adapter(This), file, out);
}

static HRESULT STDMETHODCALLTYPE adapter_CreateMemoryWindow(IND2Adapter *This, REFIID iid, void **out)
{
	if (!out)
		return ND_INVALID_PARAMETER_2;
	*out = NULL;
	if (!iid_is(iid, &IID_IND2MemoryWindow))
		return E_NOINTERFACE;
	return nd_mw_create(to_adapter(This), out);
}

static HRESULT STDMETHODCALLTYPE adapter_CreateSharedReceiveQueue(IND2Adapter *This, REFIID iid, HANDLE file,
								  ULONG depth, ULONG max_sge, ULONG threshold,
								  USHORT group, KAFFINITY affinity, void **out)
{
	struct nd_adapter *a = to_adapter(This);

	if (!out)
		return ND_INVALID_PARAMETER_8;
	*out = NULL;
	if (!iid_is(iid, &IID_IND2SharedReceiveQueue))
		return E_NOINTERFACE;
	if (!a->info.MaxSharedReceiveQueueDepth)
		return ND_NOT_SUPPORTED;
	if (!nd_valid_file(file))
		return ND_INVALID_PARAMETER_2;
	if (!depth || depth > a->info.MaxSharedReceiveQueueDepth)
		return ND_INVALID_PARAMETER_3;
	if (max_sge > a->info.MaxReceiveSge)
		return ND_INVALID_PARAMETER_4;
	if (threshold > depth)
		return ND_INVALID_PARAMETER_5;
	if (group)
		return ND_INVALID_PARAMETER_6;
	return nd_srq_create(a, file, depth, max_sge, threshold, group, affinity, out);
}

/* A CQ argument: ours, and of this adapter. */
static struct nd_cq *cq_arg(struct nd_adapter *a, IUnknown *u)
{
	struct nd_cq *cq = nd_cq_from(u);

	return cq && cq->adapter == a ? cq : NULL;
}

/* Depths and SGE counts are checked against the adapter, never against
 * each other or a CQ's depth: clients share a small CQ between deep
 * queue pairs (CLIENT-BEHAVIOR.md). */
static HRESULT STDMETHODCALLTYPE adapter_CreateQueuePair(IND2Adapter *This, REFIID iid, IUnknown *rcq_u,
							 IUnknown *icq_u, void *context, ULONG recv_depth,
							 ULONG init_depth, ULONG recv_sge, ULONG init_sge,
							 ULONG inline_size, void **out)
{
	struct nd_adapter *a = to_adapter(This);
	struct nd_cq *rcq, *icq;

	if (!out)
		return ND_INVALID_PARAMETER_10;
	*out = NULL;
	if (!iid_is(iid, &IID_IND2QueuePair))
		return E_NOINTERFACE;
	if (!(rcq = cq_arg(a, rcq_u)))
		return ND_INVALID_PARAMETER_2;
	if (!(icq = cq_arg(a, icq_u)))
		return ND_INVALID_PARAMETER_3;
	if (!recv_depth || recv_depth > a->info.MaxReceiveQueueDepth)
		return ND_INVALID_PARAMETER_5;
	if (!init_depth || init_depth > a->info.MaxInitiatorQueueDepth)
		return ND_INVALID_PARAMETER_6;
	if (recv_sge > a->info.MaxReceiveSge)
		return ND_INVALID_PARAMETER_7;
	if (init_sge > a->info.MaxInitiatorSge)
		return ND_INVALID_PARAMETER_8;
	if (inline_size > a->info.MaxInlineDataSize)
		return ND_INVALID_PARAMETER_9;
	return nd_qp_create(a, rcq, icq, NULL, context, recv_depth, init_depth, recv_sge, init_sge, inline_size, out);
}

static HRESULT STDMETHODCALLTYPE adapter_CreateQueuePairWithSrq(IND2Adapter *This, REFIID iid, IUnknown *rcq_u,
								IUnknown *icq_u, IUnknown *srq_u, void *context,
								ULONG init_depth, ULONG init_sge, ULONG inline_size,
								void **out)
{
	struct nd_adapter *a = to_adapter(This);
	struct nd_cq *rcq, *icq;
	struct nd_srq *srq;

	if (!out)
		return ND_INVALID_PARAMETER_9;
	*out = NULL;
	if (!iid_is(iid, &IID_IND2QueuePair))
		return E_NOINTERFACE;
	if (!a->info.MaxSharedReceiveQueueDepth)
		return ND_NOT_SUPPORTED;
	if (!(rcq = cq_arg(a, rcq_u)))
		return ND_INVALID_PARAMETER_2;
	if (!(icq = cq_arg(a, icq_u)))
		return ND_INVALID_PARAMETER_3;
	srq = nd_srq_from(srq_u);
	if (!srq || srq->adapter != a)
		return ND_INVALID_PARAMETER_4;
	if (!init_depth || init_depth > a->info.MaxInitiatorQueueDepth)
		return ND_INVALID_PARAMETER_6;
	if (init_sge > a->info.MaxInitiatorSge)
		return ND_INVALID_PARAMETER_7;
	if (inline_size > a->info.MaxInlineDataSize)
		return ND_INVALID_PARAMETER_8;
	return nd_qp_create(a, rcq, icq, srq, context, 0, init_depth, 0, init_sge, inline_size, out);
}

static HRESULT STDMETHODCALLTYPE adapter_CreateConnector(IND2Adapter *This, REFIID iid, HANDLE file, void **out)
{
	if (!out)
		return ND_INVALID_PARAMETER_3;
	*out = NULL;
	if (!iid_is(iid, &IID_IND2Connector))
		return E_NOINTERFACE;
	if (!nd_valid_file(file))
		return ND_INVALID_PARAMETER_2;
	return nd_connector_create(to_adapter(This), file, out);
}

static HRESULT STDMETHODCALLTYPE adapter_CreateListener(IND2Adapter *This, REFIID iid, HANDLE file, void **out)
{
	if (!out)
		return ND_INVALID_PARAMETER_3;
	*out = NULL;
	if (!iid_is(iid, &IID_IND2Listener))
		return E_NOINTERFACE;
	if (!nd_valid_file(file))
		return ND_INVALID_PARAMETER_2;
	return nd_listener_create(to_adapter(This), file, out);
}

static const IND2AdapterVtbl adapter_vtbl = {
	adapter_QueryInterface,
	adapter_AddRef,
	adapter_Release,
	adapter_CreateOverlappedFile,
	adapter_Query,
	adapter_QueryAddressList,
	adapter_CreateCompletionQueue,
	adapter_CreateMemoryRegion,
	adapter_CreateMemoryWindow,
	adapter_CreateSharedReceiveQueue,
	adapter_CreateQueuePair,
	adapter_CreateQueuePairWithSrq,
	adapter_CreateConnector,
	adapter_CreateListener,
};

/* What Query reports: the device's limits as the unix side read them
 * (ibv_query_device), clamped to what this provider can carry. */
static void clamp_info(ND2_ADAPTER_INFO *i)
{
	if (i->MaxReadSge > i->MaxInitiatorSge)
		i->MaxReadSge = i->MaxInitiatorSge;
	if (i->InlineRequestThreshold > i->MaxInlineDataSize)
		i->InlineRequestThreshold = i->MaxInlineDataSize;
	/* The private data an rdma_cm message carries past its own header. */
	if (i->MaxCallerData > 56)
		i->MaxCallerData = 56;
	if (i->MaxCalleeData > 148)
		i->MaxCalleeData = 148;
}

HRESULT nd_adapter_open(uint64_t adapter_id, REFIID iid, void **out)
{
	struct nd_unix_adapter_open_params op = { adapter_id, 0 };
	struct nd_unix_adapter_query_params qp;
	struct nd_unix_object_params cp;
	struct nd_adapter *a;
	HRESULT st;

	st = NdshimUnixCall(ND_UNIX_ADAPTER_OPEN, &op);
	/* No such device (none at all, or no Linux side) is the documented
	 * "adapterId not valid". */
	if (st != ND_SUCCESS)
		return st == ND_NO_MEMORY || st == ND_INSUFFICIENT_RESOURCES ? st : ND_INVALID_PARAMETER;
	qp.adapter = op.adapter;
	st = NdshimUnixCall(ND_UNIX_ADAPTER_QUERY, &qp);
	if (st != ND_SUCCESS)
		goto fail_close;
	a = nd_alloc(sizeof(*a));
	if (!a) {
		st = ND_NO_MEMORY;
		goto fail_close;
	}
	st = NdshimUnixCall(ND_UNIX_FAST_ENTRIES, &a->fast);
	if (st != ND_SUCCESS) {
		nd_free(a);
		goto fail_close;
	}
	_Static_assert(sizeof(qp.info) == sizeof(a->info), "nd_unix_adapter_info == ND2_ADAPTER_INFO");
	memcpy(&a->info, &qp.info, sizeof(a->info));
	a->info.InfoVersion = 0;
	clamp_info(&a->info);
	a->iface.lpVtbl = ND_VTBL(ND_IFACE_ADAPTER, adapter_vtbl);
	nd_ref_init(&a->ref);
	a->h = op.adapter;
	nd_module_get();
	*out = a;
	return ND_SUCCESS;

fail_close:
	cp.object = op.adapter;
	NdshimUnixCall(ND_UNIX_ADAPTER_CLOSE, &cp);
	return st;
}

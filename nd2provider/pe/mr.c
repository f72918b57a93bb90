/* IND2MemoryRegion.  Register and Deregister always pend and complete
 * through the overlapped file (clients wait for that packet); the tokens
 * are written by the unix side before Register completes. */
#include "nd2prov.h"

#define ND_MR_FLAGS (ND_MR_FLAG_ALLOW_LOCAL_WRITE | ND_MR_FLAG_ALLOW_REMOTE_READ | ND_MR_FLAG_ALLOW_REMOTE_WRITE | \
		     ND_MR_FLAG_RDMA_READ_SINK | ND_MR_FLAG_DO_NOT_SECURE_VM)

static inline struct nd_mr *to_mr(IND2MemoryRegion *i)
{
	return (struct nd_mr *)i;
}

static void mr_destroy(struct nd_mr *mr)
{
	struct nd_unix_object_params p = { mr->h };

	/* Released while registered: the registration goes with it. */
	NdshimUnixCall(ND_UNIX_MR_DESTROY, &p);
	NdshimCancelOverlapped(mr->file, (ULONG_PTR)mr, ND_CANCELED);
	nd_adapter_put(mr->adapter);
	nd_free(mr);
	nd_module_put();
}

static HRESULT STDMETHODCALLTYPE mr_QueryInterface(IND2MemoryRegion *This, REFIID riid, void **out)
{
	return nd_qi(This, &to_mr(This)->ref, riid, out, &IID_IND2MemoryRegion, TRUE);
}

static ULONG STDMETHODCALLTYPE mr_AddRef(IND2MemoryRegion *This)
{
	return nd_ref_add(&to_mr(This)->ref);
}

static ULONG STDMETHODCALLTYPE mr_Release(IND2MemoryRegion *This)
{
	BOOL dead;
	ULONG n = nd_ref_release(&to_mr(This)->ref, &dead);

	if (dead)
		mr_destroy(to_mr(This));
	return n;
}

static HRESULT STDMETHODCALLTYPE mr_CancelOverlappedRequests(IND2MemoryRegion *This)
{
	struct nd_mr *mr = to_mr(This);

	return nd_ov_cancel(mr->file, mr, mr->h);
}

static HRESULT STDMETHODCALLTYPE mr_GetOverlappedResult(IND2MemoryRegion *This, OVERLAPPED *ov, BOOL wait)
{
	return nd_ov_result(ov, wait);
}

static HRESULT STDMETHODCALLTYPE mr_Register(IND2MemoryRegion *This, const void *buf, SIZE_T cb, ULONG flags,
					     OVERLAPPED *ov)
{
	struct nd_mr *mr = to_mr(This);
	struct nd_unix_mr_register_params p;

	if (!buf)
		return ND_INVALID_PARAMETER;
	if (!cb)
		return ND_INVALID_BUFFER_SIZE;
	if (cb > mr->adapter->info.MaxRegistrationSize)
		return ND_INVALID_PARAMETER;
	if (flags & ~ND_MR_FLAGS)
		return ND_INVALID_PARAMETER_3;
	if (!ov)
		return ND_INVALID_PARAMETER_4;
	p = (struct nd_unix_mr_register_params){ mr->h, ND_PTR(buf), cb, flags, 0, ND_PTR(&mr->tokens),
						 nd_ov(mr->file, ov) };
	return nd_ov_issue(mr->file, ov, mr, ND_UNIX_MR_REGISTER, &p);
}

static HRESULT STDMETHODCALLTYPE mr_Deregister(IND2MemoryRegion *This, OVERLAPPED *ov)
{
	struct nd_mr *mr = to_mr(This);

	return nd_ov_call(mr->file, mr, mr->h, ND_UNIX_MR_DEREGISTER, ov);
}

static UINT32 STDMETHODCALLTYPE mr_GetLocalToken(IND2MemoryRegion *This)
{
	return __atomic_load_n(&to_mr(This)->tokens.local, __ATOMIC_ACQUIRE);
}

static UINT32 STDMETHODCALLTYPE mr_GetRemoteToken(IND2MemoryRegion *This)
{
	return __atomic_load_n(&to_mr(This)->tokens.remote, __ATOMIC_ACQUIRE);
}

static const IND2MemoryRegionVtbl mr_vtbl = {
	mr_QueryInterface,
	mr_AddRef,
	mr_Release,
	mr_CancelOverlappedRequests,
	mr_GetOverlappedResult,
	mr_Register,
	mr_Deregister,
	mr_GetLocalToken,
	mr_GetRemoteToken,
};

struct nd_mr *nd_mr_from(IUnknown *u)
{
	return u && ND_VTBL_IS(ND_IFACE_MR, u->lpVtbl, mr_vtbl) ? (struct nd_mr *)u : NULL;
}

HRESULT nd_mr_create(struct nd_adapter *a, HANDLE file, void **out)
{
	struct nd_unix_create_params p = { a->h, 0 };
	struct nd_mr *mr = nd_alloc(sizeof(*mr));
	HRESULT st;

	if (!mr)
		return ND_NO_MEMORY;
	st = NdshimUnixCall(ND_UNIX_MR_CREATE, &p);
	if (st != ND_SUCCESS) {
		nd_free(mr);
		return st;
	}
	mr->iface.lpVtbl = ND_VTBL(ND_IFACE_MR, mr_vtbl);
	nd_ref_init(&mr->ref);
	mr->adapter = a;
	mr->h = p.object;
	mr->file = file;
	nd_adapter_hold(a);
	nd_module_get();
	*out = mr;
	return ND_SUCCESS;
}

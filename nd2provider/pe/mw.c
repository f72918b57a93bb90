/* IND2MemoryWindow: a type 2 window, bound and invalidated through a QP
 * (qp.c), which also sets the remote token Bind gives it. */
#include "nd2prov.h"

static inline struct nd_mw *to_mw(IND2MemoryWindow *i)
{
	return (struct nd_mw *)i;
}

static void mw_destroy(struct nd_mw *mw)
{
	struct nd_unix_object_params p = { mw->h };
	HRESULT st = NdshimUnixCall(ND_UNIX_MW_DESTROY, &p);

	if (st != ND_SUCCESS)
		OutputDebugStringA("nd2prov: a memory window the device would not free was leaked\n");
	nd_adapter_put(mw->adapter);
	nd_free(mw);
	nd_module_put();
}

static HRESULT STDMETHODCALLTYPE mw_QueryInterface(IND2MemoryWindow *This, REFIID riid, void **out)
{
	return nd_qi(This, &to_mw(This)->ref, riid, out, &IID_IND2MemoryWindow, FALSE);
}

static ULONG STDMETHODCALLTYPE mw_AddRef(IND2MemoryWindow *This)
{
	return nd_ref_add(&to_mw(This)->ref);
}

static ULONG STDMETHODCALLTYPE mw_Release(IND2MemoryWindow *This)
{
	BOOL dead;
	ULONG n = nd_ref_release(&to_mw(This)->ref, &dead);

	if (dead)
		mw_destroy(to_mw(This));
	return n;
}

static UINT32 STDMETHODCALLTYPE mw_GetRemoteToken(IND2MemoryWindow *This)
{
	return to_mw(This)->remote_token;
}

static const IND2MemoryWindowVtbl mw_vtbl = {
	mw_QueryInterface,
	mw_AddRef,
	mw_Release,
	mw_GetRemoteToken,
};

struct nd_mw *nd_mw_from(IUnknown *u)
{
	return u && ND_VTBL_IS(ND_IFACE_MW, u->lpVtbl, mw_vtbl) ? (struct nd_mw *)u : NULL;
}

HRESULT nd_mw_create(struct nd_adapter *a, void **out)
{
	struct nd_unix_create_params p = { a->h, 0 };
	struct nd_mw *mw = nd_alloc(sizeof(*mw));
	HRESULT st;

	if (!mw)
		return ND_NO_MEMORY;
	st = NdshimUnixCall(ND_UNIX_MW_CREATE, &p);
	if (st != ND_SUCCESS) {
		nd_free(mw);
		return st;	/* ND_NOT_SUPPORTED without type 2 windows */
	}
	mw->iface.lpVtbl = ND_VTBL(ND_IFACE_MW, mw_vtbl);
	nd_ref_init(&mw->ref);
	mw->adapter = a;
	mw->h = p.object;
	nd_adapter_hold(a);
	nd_module_get();
	*out = mw;
	return ND_SUCCESS;
}

/* INDMemoryWindow over IND2MemoryWindow.  The ND_RESULT given at
 * creation is "used when the remote peer sends a SendAndInvalidate"
 * (CreateMemoryWindow's page): Bind sets it to ND_PENDING, and when the
 * Receive that carried the peer's invalidation of the window's token is
 * reaped, the unix side unbinds the window and sets it to ND_SUCCESS
 * (0 bytes) before that Receive's own ND_RESULT is handed out.  It is not
 * handed out by GetResults itself: the peer's Send completes one
 * Receive, and clients count their Receives. */
#include <stddef.h>

#include "v1.h"

/* The unix side writes the invalidate result through this layout. */
_Static_assert(sizeof(ND_RESULT) == sizeof(struct nd_unix_v1_result) &&
		       offsetof(ND_RESULT, Status) == offsetof(struct nd_unix_v1_result, status) &&
		       offsetof(ND_RESULT, BytesTransferred) == offsetof(struct nd_unix_v1_result, bytes),
	       "ND_RESULT == nd_unix_v1_result");

static inline struct nd1_mw *to_mw(INDMemoryWindow *i)
{
	return (struct nd1_mw *)i;
}

static HRESULT STDMETHODCALLTYPE mw_QueryInterface(INDMemoryWindow *This, REFIID riid, void **out)
{
	return nd1_qi(This, &to_mw(This)->refs, riid, out, &IID_INDMemoryWindow, FALSE);
}

static ULONG STDMETHODCALLTYPE mw_AddRef(INDMemoryWindow *This)
{
	return (ULONG)InterlockedIncrement(&to_mw(This)->refs);
}

static ULONG STDMETHODCALLTYPE mw_Release(INDMemoryWindow *This)
{
	struct nd1_mw *mw = to_mw(This);
	LONG n = InterlockedDecrement(&mw->refs);

	if (!n) {
		ND_CALL(mw->v2, Release);
		nd1_adapter_put(mw->adapter);
		nd_free(mw);
		nd_module_put();
	}
	return (ULONG)n;
}

static const INDMemoryWindowVtbl mw_vtbl = {
	mw_QueryInterface,
	mw_AddRef,
	mw_Release,
};

struct nd1_mw *nd1_mw_from(INDMemoryWindow *i)
{
	return i && i->lpVtbl == &mw_vtbl ? to_mw(i) : NULL;
}

HRESULT nd1_mw_create(struct nd1_adapter *a, ND_RESULT *invalidate_result, INDMemoryWindow **out)
{
	struct nd1_mw *mw = nd_alloc(sizeof(*mw));
	struct nd_unix_mw_watch_params p;
	HRESULT hr;

	if (!mw)
		return ND_NO_MEMORY;
	hr = ND_CALL(a->v2, CreateMemoryWindow, &IID_IND2MemoryWindow, (void **)&mw->v2);
	if (hr != ND_SUCCESS) {
		nd_free(mw);
		return hr;
	}
	mw->iface.lpVtbl = (void *)&mw_vtbl;
	mw->refs = 1;
	mw->adapter = a;
	mw->invalidate_result = invalidate_result;
	p = (struct nd_unix_mw_watch_params){ nd_mw_from((IUnknown *)mw->v2)->h, ND_PTR(invalidate_result) };
	hr = NdshimUnixCall(ND_UNIX_MW_WATCH, &p);
	if (hr != ND_SUCCESS) {
		ND_CALL(mw->v2, Release);
		nd_free(mw);
		return hr;
	}
	nd1_adapter_hold(a);
	nd_module_get();
	*out = &mw->iface;
	return ND_SUCCESS;
}

/* ND v1's entry: the class factory DllGetClassObject hands a v1 client
 * (IID_IClassFactory), and the INDProvider it makes: QueryAddressList
 * with SIZE_T sizes, OpenAdapter by local address.  The addresses are
 * the v2 provider's: one device list serves both generations. */
#include "v1.h"

struct nd1_provider {
	INDProvider iface;
	LONG refs;
};

static inline struct nd1_provider *to_provider(INDProvider *i)
{
	return (struct nd1_provider *)i;
}

static HRESULT STDMETHODCALLTYPE provider_QueryInterface(INDProvider *This, REFIID riid, void **out)
{
	return nd1_qi(This, &to_provider(This)->refs, riid, out, &IID_INDProvider, FALSE);
}

static ULONG STDMETHODCALLTYPE provider_AddRef(INDProvider *This)
{
	return (ULONG)InterlockedIncrement(&to_provider(This)->refs);
}

static ULONG STDMETHODCALLTYPE provider_Release(INDProvider *This)
{
	LONG n = InterlockedDecrement(&to_provider(This)->refs);

	if (!n) {
		nd_free(This);
		nd_module_put();
	}
	return (ULONG)n;
}

static HRESULT STDMETHODCALLTYPE provider_QueryAddressList(INDProvider *This, SOCKET_ADDRESS_LIST *list,
							   SIZE_T *size)
{
	ULONG cb;
	HRESULT hr;

	if (!size)
		return ND_INVALID_PARAMETER_2;
	cb = *size > MAXULONG ? MAXULONG : (ULONG)*size;
	hr = nd_query_address_list(0, list, &cb);
	if (hr == ND_SUCCESS || hr == ND_BUFFER_OVERFLOW)
		*size = cb;
	return hr;
}

static HRESULT STDMETHODCALLTYPE provider_OpenAdapter(INDProvider *This, const struct sockaddr *sa, SIZE_T len,
						      INDAdapter **out)
{
	return nd1_adapter_open(sa, len, out);
}

static const INDProviderVtbl provider_vtbl = {
	provider_QueryInterface,
	provider_AddRef,
	provider_Release,
	provider_QueryAddressList,
	provider_OpenAdapter,
};

HRESULT nd1_provider_create(REFIID riid, void **out)
{
	struct nd1_provider *p;
	HRESULT hr;

	if (!out)
		return E_POINTER;
	*out = NULL;
	p = nd_alloc(sizeof(*p));
	if (!p)
		return E_OUTOFMEMORY;
	p->iface.lpVtbl = (void *)&provider_vtbl;
	p->refs = 1;
	nd_module_get();
	hr = provider_QueryInterface(&p->iface, riid, out);
	provider_Release(&p->iface);
	return hr;
}

/* ---- the class factory: one static object, counted while locked ----------- */
static LONG factory_locks;

static ULONG STDMETHODCALLTYPE factory_AddRef(IClassFactory *This);

static HRESULT STDMETHODCALLTYPE factory_QueryInterface(IClassFactory *This, REFIID riid, void **out)
{
	if (!out)
		return E_POINTER;
	if (riid && (IsEqualIID(riid, &IID_IUnknown) || IsEqualIID(riid, &IID_IClassFactory))) {
		factory_AddRef(This);
		*out = This;
		return S_OK;
	}
	*out = NULL;
	return E_NOINTERFACE;
}

/* The factory is static: its references are the module's, so the DLL
 * stays while a client holds it. */
static ULONG STDMETHODCALLTYPE factory_AddRef(IClassFactory *This)
{
	nd_module_get();
	return 2;
}

static ULONG STDMETHODCALLTYPE factory_Release(IClassFactory *This)
{
	nd_module_put();
	return 1;
}

static HRESULT STDMETHODCALLTYPE factory_CreateInstance(IClassFactory *This, IUnknown *outer, REFIID riid,
							void **out)
{
	if (!out)
		return E_POINTER;
	*out = NULL;
	if (outer)
		return CLASS_E_NOAGGREGATION;
	return nd1_provider_create(riid, out);
}

static HRESULT STDMETHODCALLTYPE factory_LockServer(IClassFactory *This, BOOL lock)
{
	if (lock) {
		InterlockedIncrement(&factory_locks);
		nd_module_get();
	} else {
		if (InterlockedDecrement(&factory_locks) < 0) {
			InterlockedIncrement(&factory_locks);
			return E_UNEXPECTED;
		}
		nd_module_put();
	}
	return S_OK;
}

static const IClassFactoryVtbl factory_vtbl = {
	factory_QueryInterface,
	factory_AddRef,
	factory_Release,
	factory_CreateInstance,
	factory_LockServer,
};

static IClassFactory factory = { (IClassFactoryVtbl *)&factory_vtbl };

HRESULT nd1_class_factory(REFIID riid, void **out)
{
	return factory_QueryInterface(&factory, riid, out);
}

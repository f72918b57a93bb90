/* nd2prov.dll's entry points: DllGetClassObject hands out IND2Provider
 * objects (ND v2) or the class factory of INDProvider objects (ND v1,
 * v1_provider.c), DllCanUnloadNow says whether any object is still alive.
 *
 * The provider GUID: the catalog lists this DLL with the GUID of
 * include/ndshim_provider.h, and when several providers are configured,
 * entry i carries that GUID with i added to its last byte.  Clients pass
 * the entry's ProviderId as rclsid; we accept any GUID that matches ours
 * in all but its last byte, so the DLL answers under whichever entry
 * names it, and refuse everything else (CLASS_E_CLASSNOTAVAILABLE). */
#include <initguid.h>
#include "v1.h"
#include "ndshim_provider.h"

HRESULT WINAPI DllGetClassObject(REFCLSID rclsid, REFIID riid, void **out);
HRESULT WINAPI DllCanUnloadNow(void);

/* Objects alive (providers, adapters and everything under them). */
static LONG module_objects;

void nd_module_get(void)
{
	InterlockedIncrement(&module_objects);
}

void nd_module_put(void)
{
	InterlockedDecrement(&module_objects);
}

void *nd_alloc(size_t n)
{
	return HeapAlloc(GetProcessHeap(), HEAP_ZERO_MEMORY, n);
}

void nd_free(void *p)
{
	if (p)
		HeapFree(GetProcessHeap(), 0, p);
}

static BOOL our_clsid(const GUID *g)
{
	static const GUID ours = NDSHIM_PROVIDER_GUID_INIT;

	return g && !memcmp(g, &ours, sizeof(ours) - 1);
}

HRESULT WINAPI DllGetClassObject(REFCLSID rclsid, REFIID riid, void **out)
{
	if (!out)
		return E_POINTER;
	*out = NULL;
	if (!our_clsid(rclsid))
		return CLASS_E_CLASSNOTAVAILABLE;
	/* ND v2 asks for the provider itself, ND v1 for a class factory. */
	if (riid && IsEqualIID(riid, &IID_IClassFactory))
		return nd1_class_factory(riid, out);
	if (!riid || (!IsEqualIID(riid, &IID_IND2Provider) && !IsEqualIID(riid, &IID_IUnknown)))
		return E_NOINTERFACE;
	return nd_provider_create(out);
}

HRESULT WINAPI DllCanUnloadNow(void)
{
	return InterlockedCompareExchange(&module_objects, 0, 0) ? S_FALSE : S_OK;
}

BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, void *reserved);
BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, void *reserved)
{
	if (reason == DLL_PROCESS_ATTACH)
		DisableThreadLibraryCalls(inst);
	return TRUE;
}

/* NdshimTraceVtbl: +nd's view of nd2prov.dll's COM methods, made of the
 * same thunks as +relay (pe-loader/relay.h) so both channels read alike
 * and the provider's PE side needs no formatting code of its own. */
#include <stdio.h>

#include "core/debug.h"
#include "ndshim/ndshim_private.h"
#include "relay.h"

#include <winerror.h>

HRESULT WINAPI NdshimTraceVtbl(const char *iface, const char *const *methods, ULONG count,
			       const void *const *vtbl, void **traced)
{
	HRESULT hr = S_OK;
	char name[128];

	if (!TRACE_ON(nd))
		return S_FALSE;
	if (!iface || !methods || !vtbl || !traced)
		return E_POINTER;
	for (ULONG i = 0; i < count; i++) {
		snprintf(name, sizeof(name), "%s::%s", iface, methods[i]);
		traced[i] = (void *)relay_thunk(DBCH_nd, name, vtbl[i]);
		if (!traced[i]) {
			hr = E_OUTOFMEMORY;
			break;
		}
	}
	return hr;
}

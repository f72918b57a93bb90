/* COM security: CoInitializeSecurity sets the process's defaults for
 * calls through proxies, and CoSetProxyBlanket those of one proxy.  No
 * object here is a proxy (there is no remoting), so the defaults have
 * nothing to apply to: they are accepted once, and a second call is
 * RPC_E_TOO_LATE as documented; a blanket is set through the object's
 * IClientSecurity, which objects that are not proxies lack
 * (E_NOINTERFACE). */
#include "combase/combase_private.h"

static volatile LONG security_set;

HRESULT WINAPI CoInitializeSecurity(PSECURITY_DESCRIPTOR sd, LONG nauth, SOLE_AUTHENTICATION_SERVICE *auth,
				    void *reserved1, DWORD authn_level, DWORD imp_level, void *auth_list,
				    DWORD capabilities, void *reserved3)
{
	if (InterlockedCompareExchange(&security_set, 1, 0))
		return RPC_E_TOO_LATE;
	return S_OK;
}

/* IClientSecurity's interface id (objidl.h). */
static const IID iid_client_security = { 0x0000013d, 0x0000, 0x0000, { 0xc0, 0, 0, 0, 0, 0, 0, 0x46 } };

HRESULT WINAPI CoSetProxyBlanket(IUnknown *proxy, DWORD authn_svc, DWORD authz_svc, OLECHAR *principal,
				 DWORD authn_level, DWORD imp_level, RPC_AUTH_IDENTITY_HANDLE auth_info,
				 DWORD capabilities)
{
	IClientSecurity *cs = NULL;
	HRESULT hr;

	if (!proxy)
		return E_INVALIDARG;
	hr = proxy->lpVtbl->QueryInterface(proxy, &iid_client_security, (void **)&cs);
	if (FAILED(hr) || !cs)
		return E_NOINTERFACE;
	hr = cs->lpVtbl->SetBlanket(cs, proxy, authn_svc, authz_svc, principal, authn_level, imp_level, auth_info,
				    capabilities);
	cs->lpVtbl->Release(cs);
	return hr;
}

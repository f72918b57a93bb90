/* Stands in for the NetworkDirect provider DLL in the discovery test
 * until nd2prov.dll exists: the two exports ND clients require. */
#include <windows.h>

__declspec(dllexport) HRESULT WINAPI DllGetClassObject(REFCLSID clsid, REFIID iid, void **out);
__declspec(dllexport) HRESULT WINAPI DllGetClassObject(REFCLSID clsid, REFIID iid, void **out)
{
	(void)clsid;
	(void)iid;
	if (out)
		*out = NULL;
	return E_NOINTERFACE;
}

__declspec(dllexport) HRESULT WINAPI DllCanUnloadNow(void);
__declspec(dllexport) HRESULT WINAPI DllCanUnloadNow(void)
{
	return S_OK;
}

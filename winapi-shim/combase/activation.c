/* Activation: this COM has no registry of classes, so every class id is
 * one nobody registered (REGDB_E_CLASSNOTREG, what Windows answers for
 * them), once the thread has initialised COM (CO_E_NOTINITIALIZED
 * before). */
#include "core/debug.h"
#include "combase/combase_private.h"

static HRESULT no_class(REFCLSID clsid)
{
	WCHAR s[CHARS_IN_GUID];

	if (!com_thread_initialised())
		return CO_E_NOTINITIALIZED;
	if (TRACE_ON(misc)) {
		com_guid_format(clsid, s);
		char a[CHARS_IN_GUID];
		for (int i = 0; i < CHARS_IN_GUID; i++)
			a[i] = (char)s[i];
		TRACE(misc, "class %s is not registered\n", a);
	}
	return REGDB_E_CLASSNOTREG;
}

HRESULT WINAPI CoGetClassObject(REFCLSID clsid, DWORD context, COSERVERINFO *server, REFIID iid, LPVOID *out)
{
	if (!out)
		return E_INVALIDARG;
	*out = NULL;
	return no_class(clsid);
}

HRESULT WINAPI CoCreateInstance(REFCLSID clsid, LPUNKNOWN outer, DWORD context, REFIID iid, LPVOID *out)
{
	if (!out)
		return E_POINTER;
	*out = NULL;
	return no_class(clsid);
}

/* Each MULTI_QI gets no interface and E_NOINTERFACE (set before the
 * class is looked for, as on Windows); the call answers the class's
 * error. */
HRESULT WINAPI CoCreateInstanceEx(REFCLSID clsid, LPUNKNOWN outer, DWORD context, COSERVERINFO *server,
				  ULONG count, MULTI_QI *results)
{
	if (!count || !results)
		return E_INVALIDARG;
	for (ULONG i = 0; i < count; i++) {
		results[i].pItf = NULL;
		results[i].hr = E_NOINTERFACE;
	}
	return no_class(clsid);
}

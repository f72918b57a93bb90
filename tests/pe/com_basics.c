/* ole32/combase: apartments (S_OK, S_FALSE, RPC_E_CHANGED_MODE and the
 * count CoUninitialize undoes), task memory and the task IMalloc, GUIDs
 * and their strings, activation of a class nobody registered, and
 * PropVariantClear, COM security; the same functions through
 * combase.dll. */
#define COBJMACROS
#include <windows.h>
#include <objbase.h>
#include <propidl.h>
#include <oleauto.h>

#include "test.h"

static const CLSID clsid_nobody = { 0x8d1f1c4e, 0x2b7a, 0x4c55, { 0x9e, 0x31, 0x6a, 0x0b, 0x13, 0x77, 0xd2, 0x90 } };
static const IID iid_unknown = { 0, 0, 0, { 0xc0, 0, 0, 0, 0, 0, 0, 0x46 } };

static DWORD WINAPI other_thread(void *arg)
{
	HRESULT *hr = arg;

	/* A thread's apartment is its own: this one starts uninitialised. */
	hr[0] = CoCreateInstance(&clsid_nobody, NULL, CLSCTX_INPROC_SERVER, &iid_unknown, (void **)&hr[2]);
	hr[1] = CoInitializeEx(NULL, COINIT_MULTITHREADED);
	CoUninitialize();
	return 0;
}

static void test_apartments(void)
{
	HRESULT hr, th[4];
	void *obj = (void *)1;
	HANDLE t;

	hr = CoCreateInstance(&clsid_nobody, NULL, CLSCTX_INPROC_SERVER, &iid_unknown, &obj);
	ok(hr == CO_E_NOTINITIALIZED, "before CoInitialize: %#lx\n", hr);
	ok(obj == NULL, "object %p\n", obj);

	hr = CoInitializeEx(NULL, COINIT_APARTMENTTHREADED);
	ok(hr == S_OK, "first CoInitializeEx: %#lx\n", hr);
	hr = CoInitialize(NULL);
	ok(hr == S_FALSE, "second (same model): %#lx\n", hr);
	hr = CoInitializeEx(NULL, COINIT_MULTITHREADED);
	ok(hr == RPC_E_CHANGED_MODE, "other model: %#lx\n", hr);
	/* OLE counts its own initialisations: the first is S_OK. */
	hr = OleInitialize(NULL);
	ok(hr == S_OK, "first OleInitialize in the STA: %#lx\n", hr);
	hr = OleInitialize(NULL);
	ok(hr == S_FALSE, "second OleInitialize: %#lx\n", hr);
	OleUninitialize();
	OleUninitialize();

	obj = (void *)1;
	hr = CoCreateInstance(&clsid_nobody, NULL, CLSCTX_INPROC_SERVER, &iid_unknown, &obj);
	ok(hr == REGDB_E_CLASSNOTREG, "class nobody registered: %#lx\n", hr);
	ok(obj == NULL, "object %p\n", obj);
	obj = (void *)1;
	hr = CoGetClassObject(&clsid_nobody, CLSCTX_INPROC_SERVER, NULL, &iid_unknown, &obj);
	ok(hr == REGDB_E_CLASSNOTREG, "CoGetClassObject: %#lx\n", hr);
	ok(obj == NULL, "class object %p\n", obj);
	MULTI_QI qi = { &iid_unknown, (IUnknown *)1, 1 };
	hr = CoCreateInstanceEx(&clsid_nobody, NULL, CLSCTX_INPROC_SERVER, NULL, 1, &qi);
	ok(hr == REGDB_E_CLASSNOTREG, "CoCreateInstanceEx: %#lx\n", hr);
	ok(qi.pItf == NULL && qi.hr == E_NOINTERFACE, "MULTI_QI %p %#lx\n", qi.pItf, qi.hr);

	t = CreateThread(NULL, 0, other_thread, th, 0, NULL);
	WaitForSingleObject(t, INFINITE);
	CloseHandle(t);
	ok(th[0] == CO_E_NOTINITIALIZED, "other thread before init: %#lx\n", th[0]);
	ok(th[1] == S_OK, "other thread's MTA: %#lx\n", th[1]);

	/* Two CoInitialize calls counted: two CoUninitialize to leave. */
	CoUninitialize();
	hr = CoInitializeEx(NULL, COINIT_MULTITHREADED);
	ok(hr == RPC_E_CHANGED_MODE, "still in the STA after one CoUninitialize: %#lx\n", hr);
	CoUninitialize();
	hr = CoInitializeEx(NULL, COINIT_MULTITHREADED);
	ok(hr == S_OK, "after the last CoUninitialize, a new model: %#lx\n", hr);
	CoUninitialize();
}

static void test_task_memory(void)
{
	IMalloc *m = NULL;
	char *p, *q;
	HRESULT hr;

	p = CoTaskMemAlloc(16);
	ok(p != NULL, "CoTaskMemAlloc\n");
	memcpy(p, "0123456789abcdef", 16);
	q = CoTaskMemRealloc(p, 100000);
	ok(q != NULL && !memcmp(q, "0123456789abcdef", 16), "CoTaskMemRealloc kept the data\n");
	ok(CoTaskMemRealloc(q, 0) == NULL, "realloc to 0 frees\n");
	q = CoTaskMemRealloc(NULL, 8);
	ok(q != NULL, "realloc of NULL allocates\n");
	CoTaskMemFree(q);
	CoTaskMemFree(NULL);
	p = CoTaskMemAlloc(0);
	ok(p != NULL, "a zero-byte block\n");
	CoTaskMemFree(p);

	hr = CoGetMalloc(MEMCTX_TASK, &m);
	ok(hr == S_OK && m, "CoGetMalloc: %#lx\n", hr);
	if (m) {
		p = IMalloc_Alloc(m, 40);
		ok(p != NULL, "IMalloc_Alloc\n");
		ok(IMalloc_GetSize(m, p) >= 40, "GetSize %llu\n", (unsigned long long)IMalloc_GetSize(m, p));
		/* The task allocator's blocks are CoTaskMem blocks. */
		CoTaskMemFree(p);
		p = CoTaskMemAlloc(8);
		IMalloc_Free(m, p);
		ok(IMalloc_GetSize(m, NULL) == (SIZE_T)-1, "GetSize(NULL) %llu\n", (unsigned long long)IMalloc_GetSize(m, NULL));
		IMalloc_Release(m);
	}
	m = (IMalloc *)1;
	hr = CoGetMalloc(MEMCTX_SHARED, &m);
	ok(hr == E_INVALIDARG, "shared allocator: %#lx\n", hr);
}

static void test_guids(void)
{
	static const GUID g = { 0x01234567, 0x89ab, 0xcdef, { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef } };
	WCHAR buf[40];
	LPOLESTR s = NULL;
	GUID a, b, r;
	HRESULT hr;

	ok(StringFromGUID2(&g, buf, 40) == 39, "StringFromGUID2 length\n");
	ok(!wcscmp(buf, L"{01234567-89AB-CDEF-0123-456789ABCDEF}"), "%ls\n", buf);
	ok(StringFromGUID2(&g, buf, 38) == 0, "a 38-character buffer is too small\n");
	hr = StringFromCLSID(&g, &s);
	ok(hr == S_OK && s && !wcscmp(s, L"{01234567-89AB-CDEF-0123-456789ABCDEF}"), "StringFromCLSID %#lx\n", hr);
	CoTaskMemFree(s);

	hr = CLSIDFromString(L"{01234567-89ab-cdef-0123-456789abcdef}", &r);
	ok(hr == S_OK && IsEqualGUID(&r, &g), "CLSIDFromString lower case: %#lx\n", hr);
	hr = CLSIDFromString(L"{01234567-89AB-CDEF-0123-456789ABCDEF", &r);
	ok(hr == CO_E_CLASSSTRING, "no closing brace: %#lx\n", hr);
	hr = CLSIDFromString(L"NoSuch.ProgId.ndshim", &r);
	ok(hr == CO_E_CLASSSTRING, "unknown ProgID: %#lx\n", hr);
	hr = CLSIDFromString(NULL, &r);
	ok(hr == S_OK && IsEqualGUID(&r, &GUID_NULL), "NULL string: %#lx\n", hr);
	hr = IIDFromString(L"{01234567-89AB-CDEF-0123-456789ABCDEF}", &r);
	ok(hr == S_OK && IsEqualGUID(&r, &g), "IIDFromString: %#lx\n", hr);
	hr = IIDFromString(L"01234567-89AB-CDEF-0123-456789ABCDEF", &r);
	ok(hr == E_INVALIDARG, "IIDFromString without braces: %#lx\n", hr);

	ok(CoCreateGuid(&a) == S_OK && CoCreateGuid(&b) == S_OK, "CoCreateGuid\n");
	ok(!IsEqualGUID(&a, &b), "two GUIDs are equal\n");
	ok((a.Data3 >> 12) == 4 && (a.Data4[0] & 0xc0) == 0x80, "not a version 4 GUID: %04x %02x\n", a.Data3,
	   a.Data4[0]);
}

static void test_propvariant(void)
{
	PROPVARIANT pv;
	HRESULT hr;

	memset(&pv, 0, sizeof(pv));
	pv.vt = VT_LPWSTR;
	pv.pwszVal = CoTaskMemAlloc(8);
	memcpy(pv.pwszVal, L"abc", 8);
	hr = PropVariantClear(&pv);
	ok(hr == S_OK && pv.vt == VT_EMPTY && pv.pwszVal == NULL, "VT_LPWSTR: %#lx vt %u\n", hr, pv.vt);

	pv.vt = VT_BSTR;
	pv.bstrVal = SysAllocString(L"text");
	hr = PropVariantClear(&pv);
	ok(hr == S_OK && pv.vt == VT_EMPTY, "VT_BSTR: %#lx vt %u\n", hr, pv.vt);

	pv.vt = VT_VECTOR | VT_LPSTR;
	pv.calpstr.cElems = 2;
	pv.calpstr.pElems = CoTaskMemAlloc(2 * sizeof(char *));
	pv.calpstr.pElems[0] = CoTaskMemAlloc(4);
	pv.calpstr.pElems[1] = CoTaskMemAlloc(4);
	hr = PropVariantClear(&pv);
	ok(hr == S_OK && pv.vt == VT_EMPTY, "vector of strings: %#lx vt %u\n", hr, pv.vt);

	pv.vt = VT_I4;
	pv.lVal = 5;
	hr = PropVariantClear(&pv);
	ok(hr == S_OK && pv.vt == VT_EMPTY && pv.lVal == 0, "VT_I4: %#lx\n", hr);
	ok(PropVariantClear(NULL) == S_OK, "NULL\n");
}

/* CoInitializeSecurity takes the process's defaults once; a blanket is
 * set through the object's IClientSecurity, which a plain object lacks. */
static HRESULT WINAPI plain_qi(IUnknown *u, REFIID iid, void **out)
{
	if (IsEqualIID(iid, &iid_unknown)) {
		*out = u;
		return S_OK;
	}
	*out = NULL;
	return E_NOINTERFACE;
}
static ULONG WINAPI plain_addref(IUnknown *u)
{
	(void)u;
	return 2;
}
static ULONG WINAPI plain_release(IUnknown *u)
{
	(void)u;
	return 1;
}
static IUnknownVtbl plain_vtbl = { plain_qi, plain_addref, plain_release };
static IUnknown plain = { &plain_vtbl };

static void test_security(void)
{
	HRESULT hr;

	ok(CoInitializeEx(NULL, COINIT_MULTITHREADED) == S_OK, "CoInitializeEx\n");
	hr = CoInitializeSecurity(NULL, -1, NULL, NULL, RPC_C_AUTHN_LEVEL_DEFAULT, RPC_C_IMP_LEVEL_IMPERSONATE, NULL,
				  EOAC_NONE, NULL);
	ok(hr == S_OK, "CoInitializeSecurity: %#lx\n", hr);
	/* The docs: RPC_E_TOO_LATE once it has been called; Wine's accepts
	 * it again. */
	hr = CoInitializeSecurity(NULL, -1, NULL, NULL, RPC_C_AUTHN_LEVEL_DEFAULT, RPC_C_IMP_LEVEL_IMPERSONATE, NULL,
				  EOAC_NONE, NULL);
	ok_todo_wine(hr == RPC_E_TOO_LATE, "second CoInitializeSecurity: %#lx\n", hr);
	hr = CoSetProxyBlanket(&plain, RPC_C_AUTHN_WINNT, RPC_C_AUTHZ_NONE, NULL, RPC_C_AUTHN_LEVEL_CALL,
			       RPC_C_IMP_LEVEL_IMPERSONATE, NULL, EOAC_NONE);
	ok(hr == E_NOINTERFACE, "CoSetProxyBlanket on a plain object: %#lx\n", hr);
	CoUninitialize();
}

/* combase.dll exports the same functions (Windows 8 and later). */
static void test_combase(void)
{
	HMODULE h = LoadLibraryA("combase.dll");
	HRESULT(WINAPI * init)(void *, DWORD);
	void(WINAPI * uninit)(void);
	HRESULT(WINAPI * create)(REFCLSID, IUnknown *, DWORD, REFIID, void **);
	void *obj;

	ok(h != NULL, "combase.dll: %lu\n", GetLastError());
	if (!h)
		return;
	init = (void *)GetProcAddress(h, "CoInitializeEx");
	uninit = (void *)GetProcAddress(h, "CoUninitialize");
	create = (void *)GetProcAddress(h, "CoCreateInstance");
	ok(init && uninit && create, "combase exports\n");
	if (!init || !uninit || !create)
		return;
	ok(init(NULL, COINIT_MULTITHREADED) == S_OK, "combase CoInitializeEx\n");
	/* ole32 and combase share the thread's apartment. */
	ok(CoInitializeEx(NULL, COINIT_MULTITHREADED) == S_FALSE, "ole32 sees combase's apartment\n");
	CoUninitialize();
	ok(create(&clsid_nobody, NULL, CLSCTX_INPROC_SERVER, &iid_unknown, &obj) == REGDB_E_CLASSNOTREG,
	   "combase CoCreateInstance\n");
	uninit();
}

int main(void)
{
	test_apartments();
	test_task_memory();
	test_guids();
	test_propvariant();
	test_combase();
	test_security();
	return test_summary();
}

/* oleaut32's SetErrorInfo/GetErrorInfo: the thread's error object is
 * referenced when set, handed over (and cleared) by GetErrorInfo, which
 * answers S_FALSE when there is none, replaced and released by another
 * SetErrorInfo, and belongs to its thread. */
#define COBJMACROS
#include <windows.h>
#include <oleauto.h>

#include "test.h"

static LONG refs;
static HRESULT WINAPI ei_qi(IErrorInfo *e, REFIID iid, void **out)
{
	(void)iid;
	*out = e;
	return S_OK;
}
static ULONG WINAPI ei_addref(IErrorInfo *e)
{
	(void)e;
	return InterlockedIncrement(&refs);
}
static ULONG WINAPI ei_release(IErrorInfo *e)
{
	(void)e;
	return InterlockedDecrement(&refs);
}
static IErrorInfoVtbl ei_vtbl = { ei_qi, ei_addref, ei_release, NULL, NULL, NULL, NULL, NULL };
static IErrorInfo ei = { &ei_vtbl };

static DWORD WINAPI other_thread(void *arg)
{
	IErrorInfo *got = (IErrorInfo *)1;

	*(HRESULT *)arg = GetErrorInfo(0, &got);
	return got != NULL;
}

int main(void)
{
	IErrorInfo *got = (IErrorInfo *)1;
	HRESULT hr, th = E_FAIL;
	DWORD code = 1;
	HANDLE t;

	hr = GetErrorInfo(0, &got);
	ok(hr == S_FALSE && got == NULL, "none yet: %#lx %p\n", hr, got);

	refs = 1;
	ok(SetErrorInfo(0, &ei) == S_OK && refs == 2, "SetErrorInfo: refs %ld\n", refs);
	t = CreateThread(NULL, 0, other_thread, &th, 0, NULL);
	WaitForSingleObject(t, INFINITE);
	GetExitCodeThread(t, &code);
	CloseHandle(t);
	ok(th == S_FALSE && code == 0, "another thread sees it: %#lx\n", th);

	hr = GetErrorInfo(0, &got);
	ok(hr == S_OK && got == &ei && refs == 2, "GetErrorInfo: %#lx, refs %ld\n", hr, refs);
	if (got)
		IErrorInfo_Release(got);
	hr = GetErrorInfo(0, &got);
	ok(hr == S_FALSE && got == NULL, "taken once: %#lx\n", hr);

	ok(SetErrorInfo(0, &ei) == S_OK && refs == 2, "set again: %ld\n", refs);
	ok(SetErrorInfo(0, NULL) == S_OK && refs == 1, "cleared and released: %ld\n", refs);
	return test_summary();
}

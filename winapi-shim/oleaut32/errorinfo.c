/* Automation's per-thread error object (SetErrorInfo/GetErrorInfo): a
 * COM method that fails may leave an IErrorInfo describing why, which
 * the caller takes once.  GetErrorInfo hands over the thread's reference
 * and clears it; S_FALSE when there is none. */
#include "oleaut32/oleaut32_private.h"

static __thread IErrorInfo *thread_error;

HRESULT WINAPI SetErrorInfo(ULONG reserved, IErrorInfo *info)
{
	IErrorInfo *old = thread_error;

	if (info)
		info->lpVtbl->AddRef(info);
	thread_error = info;
	if (old)
		old->lpVtbl->Release(old);
	return S_OK;
}

HRESULT WINAPI GetErrorInfo(ULONG reserved, IErrorInfo **out)
{
	if (!out)
		return E_INVALIDARG;
	*out = thread_error;
	thread_error = NULL;
	return *out ? S_OK : S_FALSE;
}

/* PropVariantClear: frees what a PROPVARIANT owns, by its type, and
 * leaves it VT_EMPTY.  Types whose clean-up needs SAFEARRAYs (VT_ARRAY),
 * which ndrun does not implement, are refused with DISP_E_BADVARTYPE and
 * left as they are. */
#include <string.h>

#include <oleauto.h>

#include "core/debug.h"
#include "combase/combase_private.h"

static void release(IUnknown *u)
{
	if (u)
		u->lpVtbl->Release(u);
}

/* The elements of a counted vector: strings and nested PROPVARIANTs own
 * memory of their own, the other element types are plain values. */
static HRESULT clear_vector(PROPVARIANT *pv)
{
	ULONG n = pv->cac.cElems;

	switch (pv->vt & VT_TYPEMASK) {
	case VT_BSTR:
		for (ULONG i = 0; i < n; i++)
			SysFreeString(pv->cabstr.pElems[i]);
		break;
	case VT_LPSTR:
		for (ULONG i = 0; i < n; i++)
			CoTaskMemFree(pv->calpstr.pElems[i]);
		break;
	case VT_LPWSTR:
		for (ULONG i = 0; i < n; i++)
			CoTaskMemFree(pv->calpwstr.pElems[i]);
		break;
	case VT_VARIANT:
		for (ULONG i = 0; i < n; i++)
			PropVariantClear(&pv->capropvar.pElems[i]);
		break;
	case VT_CF:
		for (ULONG i = 0; i < n; i++)
			CoTaskMemFree(pv->caclipdata.pElems[i].pClipData);
		break;
	case VT_I1: case VT_UI1: case VT_I2: case VT_UI2: case VT_BOOL: case VT_I4: case VT_UI4:
	case VT_R4: case VT_ERROR: case VT_I8: case VT_UI8: case VT_R8: case VT_CY: case VT_DATE:
	case VT_FILETIME: case VT_CLSID:
		break;
	default:
		return DISP_E_BADVARTYPE;
	}
	CoTaskMemFree(pv->cac.pElems);
	return S_OK;
}

HRESULT WINAPI PropVariantClear(PROPVARIANT *pv)
{
	HRESULT hr = S_OK;

	if (!pv)
		return S_OK;
	if (pv->vt & VT_BYREF)
		goto done; /* the referenced data belongs to someone else */
	if (pv->vt & VT_VECTOR) {
		hr = clear_vector(pv);
		if (FAILED(hr))
			return hr;
		goto done;
	}
	switch (pv->vt) {
	case VT_EMPTY: case VT_NULL: case VT_I1: case VT_UI1: case VT_I2: case VT_UI2: case VT_BOOL:
	case VT_I4: case VT_UI4: case VT_R4: case VT_ERROR: case VT_I8: case VT_UI8: case VT_R8:
	case VT_CY: case VT_DATE: case VT_FILETIME: case VT_INT: case VT_UINT: case VT_DECIMAL:
	case VT_HRESULT:
		break;
	case VT_BSTR:
		SysFreeString(pv->bstrVal);
		break;
	case VT_LPSTR:
		CoTaskMemFree(pv->pszVal);
		break;
	case VT_LPWSTR:
		CoTaskMemFree(pv->pwszVal);
		break;
	case VT_CLSID:
		CoTaskMemFree(pv->puuid);
		break;
	case VT_BLOB: case VT_BLOB_OBJECT:
		CoTaskMemFree(pv->blob.pBlobData);
		break;
	case VT_CF:
		if (pv->pclipdata)
			CoTaskMemFree(pv->pclipdata->pClipData);
		CoTaskMemFree(pv->pclipdata);
		break;
	case VT_UNKNOWN: case VT_DISPATCH:
		release(pv->punkVal);
		break;
	case VT_STREAM: case VT_STREAMED_OBJECT:
		release((IUnknown *)pv->pStream);
		break;
	case VT_STORAGE: case VT_STORED_OBJECT:
		release((IUnknown *)pv->pStorage);
		break;
	default:
		TRACE(misc, "cannot clear type %#x\n", pv->vt);
		return DISP_E_BADVARTYPE;
	}
done:
	memset(pv, 0, sizeof(*pv));
	return hr;
}

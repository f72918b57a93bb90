/* BSTR: a UTF-16 string whose byte length is the 32-bit word just before
 * its first character, followed by a NUL character the length does not
 * count (the docs of BSTR).  The length may be odd (SysAllocStringByteLen)
 * and the string may hold NULs.  The block lives in the COM task heap, so
 * a BSTR freed with SysFreeString may have come from any module. */
#include <string.h>

#include "core/wstr.h"
#include "oleaut32/oleaut32_private.h"

/* The block of a BSTR: its length word, then the characters. */
static DWORD *bstr_header(BSTR s)
{
	return (DWORD *)s - 1;
}

/* bytes of data (copied from src when given) and two NUL bytes after
 * them (three when bytes is odd: the terminator stays a whole WCHAR). */
static BSTR bstr_alloc(const void *src, UINT bytes)
{
	DWORD *block;

	if (bytes > 0x7ffffff0u)
		return NULL;
	block = CoTaskMemAlloc(sizeof(DWORD) + bytes + sizeof(WCHAR) + 1);
	if (!block)
		return NULL;
	block[0] = bytes;
	if (src)
		memcpy(block + 1, src, bytes);
	memset((char *)(block + 1) + bytes, 0, sizeof(WCHAR) + 1);
	return (BSTR)(block + 1);
}

BSTR WINAPI SysAllocString(LPCOLESTR s)
{
	if (!s)
		return NULL;
	return bstr_alloc(s, wstr_len(s) * sizeof(WCHAR));
}

/* len characters from s, or uninitialised ones when s is NULL. */
BSTR WINAPI SysAllocStringLen(const OLECHAR *s, UINT len)
{
	if (len > 0x3ffffff0u)
		return NULL;
	return bstr_alloc(s, len * sizeof(WCHAR));
}

BSTR WINAPI SysAllocStringByteLen(LPCSTR s, UINT len)
{
	return bstr_alloc(s, len);
}

void WINAPI SysFreeString(BSTR s)
{
	if (s)
		CoTaskMemFree(bstr_header(s));
}

UINT WINAPI SysStringLen(BSTR s)
{
	return s ? *bstr_header(s) / sizeof(WCHAR) : 0;
}

UINT WINAPI SysStringByteLen(BSTR s)
{
	return s ? *bstr_header(s) : 0;
}

/* A new copy of len characters of s replaces *old, which is freed: TRUE,
 * or FALSE when out of memory (*old then stays). */
INT WINAPI SysReAllocStringLen(BSTR *old, const OLECHAR *s, UINT len)
{
	BSTR n;

	if (!old)
		return FALSE;
	n = SysAllocStringLen(s, len);
	if (!n)
		return FALSE;
	SysFreeString(*old);
	*old = n;
	return TRUE;
}

INT WINAPI SysReAllocString(BSTR *old, LPCOLESTR s)
{
	BSTR n;

	if (!old)
		return FALSE;
	if (!s) {
		SysFreeString(*old);
		*old = NULL;
		return TRUE;
	}
	n = SysAllocString(s);
	if (!n)
		return FALSE;
	SysFreeString(*old);
	*old = n;
	return TRUE;
}

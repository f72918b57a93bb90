/* GUIDs: new ones (CoCreateGuid) and their registry string form
 * {XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX} both ways. */
#include "core/guidtext.h"
#include "core/random.h"
#include "combase/combase_private.h"

/* A version 4 (random) GUID of the RFC 4122 variant, as Windows makes. */
HRESULT WINAPI CoCreateGuid(GUID *guid)
{
	if (!guid)
		return E_INVALIDARG;
	random_fill(guid, sizeof(*guid));
	guid->Data3 = (guid->Data3 & 0x0fff) | 0x4000;
	guid->Data4[0] = (guid->Data4[0] & 0x3f) | 0x80;
	return S_OK;
}

static WCHAR hex_digit(unsigned int v)
{
	return (WCHAR)(v < 10 ? '0' + v : 'A' + v - 10);
}

static WCHAR *put_hex(WCHAR *p, unsigned long long v, int digits)
{
	for (int i = digits - 1; i >= 0; i--)
		*p++ = hex_digit((v >> (4 * i)) & 0xf);
	return p;
}

void com_guid_format(const GUID *g, WCHAR *buf)
{
	WCHAR *p = buf;

	*p++ = '{';
	p = put_hex(p, g->Data1, 8);
	*p++ = '-';
	p = put_hex(p, g->Data2, 4);
	*p++ = '-';
	p = put_hex(p, g->Data3, 4);
	*p++ = '-';
	for (int i = 0; i < 8; i++) {
		if (i == 2)
			*p++ = '-';
		p = put_hex(p, g->Data4[i], 2);
	}
	*p++ = '}';
	*p = 0;
}

/* The length with the NUL (39), or 0 when the buffer is too small. */
INT WINAPI StringFromGUID2(REFGUID guid, LPOLESTR buf, INT size)
{
	if (!guid || !buf || size < CHARS_IN_GUID)
		return 0;
	com_guid_format(guid, buf);
	return CHARS_IN_GUID;
}

HRESULT WINAPI StringFromCLSID(REFCLSID clsid, LPOLESTR *out)
{
	if (!out)
		return E_INVALIDARG;
	*out = CoTaskMemAlloc(CHARS_IN_GUID * sizeof(WCHAR));
	if (!*out)
		return E_OUTOFMEMORY;
	com_guid_format(clsid, *out);
	return S_OK;
}

HRESULT WINAPI StringFromIID(REFIID iid, LPOLESTR *out)
{
	return StringFromCLSID(iid, out);
}

/* Exactly the 38-character braced form (either case of hex digits). */
static BOOL parse_guid(const WCHAR *s, GUID *g)
{
	GUID t;

	if (s[0] != '{' || !guid_from_text(s + 1, &t) || s[37] != '}' || s[38])
		return FALSE;
	*g = t;
	return TRUE;
}

/* A braced GUID; anything else would be a ProgID, looked up in a
 * registry of classes this COM does not have, so it is not a class
 * string (CO_E_CLASSSTRING).  NULL is CLSID_NULL. */
HRESULT WINAPI CLSIDFromString(LPCOLESTR s, LPCLSID clsid)
{
	GUID g;

	if (!clsid)
		return E_INVALIDARG;
	if (!s) {
		memset(clsid, 0, sizeof(*clsid));
		return S_OK;
	}
	if (!parse_guid(s, &g))
		return CO_E_CLASSSTRING;
	*clsid = g;
	return S_OK;
}

/* The braced form only; NULL is IID_NULL. */
HRESULT WINAPI IIDFromString(LPCOLESTR s, LPIID iid)
{
	GUID g;

	if (!s) {
		memset(iid, 0, sizeof(*iid));
		return S_OK;
	}
	if (!parse_guid(s, &g))
		return E_INVALIDARG;
	*iid = g;
	return S_OK;
}

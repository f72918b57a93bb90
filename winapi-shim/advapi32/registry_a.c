/* winreg's A functions: names through the ANSI code page; string data
 * (REG_SZ, REG_EXPAND_SZ, REG_MULTI_SZ) stored as UTF-16 like the W
 * functions store it, converted on the way in and out. */
#include <stdlib.h>
#include <string.h>

#include "advapi32/advapi32_private.h"
#include "core/codepage.h"
#include "core/debug.h"

static bool is_string(DWORD type)
{
	return type == REG_SZ || type == REG_EXPAND_SZ || type == REG_MULTI_SZ;
}

/* NULL in, NULL out; *bad when out of memory. */
static WCHAR *wide(const char *s, bool *bad)
{
	WCHAR *w;

	if (!s)
		return NULL;
	w = cp_to_utf16_dup(cp_ansi(), s);
	if (!w)
		*bad = true;
	return w;
}

LSTATUS WINAPI RegOpenKeyExA(HKEY hkey, LPCSTR sub, DWORD options, REGSAM sam, PHKEY result)
{
	bool bad = false;
	WCHAR *w = wide(sub, &bad);
	LSTATUS ret = bad ? ERROR_NOT_ENOUGH_MEMORY : RegOpenKeyExW(hkey, w, options, sam, result);

	free(w);
	return ret;
}

LSTATUS WINAPI RegOpenKeyA(HKEY hkey, LPCSTR sub, PHKEY result)
{
	return RegOpenKeyExA(hkey, sub, 0, MAXIMUM_ALLOWED, result);
}

LSTATUS WINAPI RegCreateKeyExA(HKEY hkey, LPCSTR sub, DWORD reserved, LPSTR cls, DWORD options,
			       REGSAM sam, LPSECURITY_ATTRIBUTES sa, PHKEY result, LPDWORD disposition)
{
	bool bad = false;
	WCHAR *w = wide(sub, &bad);
	LSTATUS ret = bad ? ERROR_NOT_ENOUGH_MEMORY
			  : RegCreateKeyExW(hkey, w, reserved, NULL, options, sam, sa, result, disposition);

	free(w);
	return ret;
}

LSTATUS WINAPI RegCreateKeyA(HKEY hkey, LPCSTR sub, PHKEY result)
{
	return RegCreateKeyExA(hkey, sub ? sub : "", 0, NULL, 0, MAXIMUM_ALLOWED, NULL, result, NULL);
}

LSTATUS WINAPI RegDeleteKeyA(HKEY hkey, LPCSTR sub)
{
	bool bad = false;
	WCHAR *w = wide(sub, &bad);
	LSTATUS ret = bad ? ERROR_NOT_ENOUGH_MEMORY : RegDeleteKeyW(hkey, w);

	free(w);
	return ret;
}

LSTATUS WINAPI RegDeleteValueA(HKEY hkey, LPCSTR name)
{
	bool bad = false;
	WCHAR *w = wide(name, &bad);
	LSTATUS ret = bad ? ERROR_NOT_ENOUGH_MEMORY : RegDeleteValueW(hkey, w);

	free(w);
	return ret;
}

/* ANSI string data becomes UTF-16; a buffer without its terminator
 * converts as it is. */
LSTATUS WINAPI RegSetValueExA(HKEY hkey, LPCSTR name, DWORD reserved, DWORD type, const BYTE *data,
			      DWORD size)
{
	bool bad = false;
	WCHAR *wname = wide(name, &bad), *wdata = NULL;
	DWORD wsize = size;
	LSTATUS ret;

	if (bad)
		return ERROR_NOT_ENOUGH_MEMORY;
	if (data && is_string(type) && size) {
		ssize_t n = cp_to_utf16(cp_ansi(), 0, (const char *)data, size, NULL, 0);

		wdata = n >= 0 ? malloc((n ? n : 1) * sizeof(WCHAR)) : NULL;
		if (!wdata) {
			free(wname);
			return ERROR_NOT_ENOUGH_MEMORY;
		}
		cp_to_utf16(cp_ansi(), 0, (const char *)data, size, wdata, n);
		wsize = (DWORD)(n * sizeof(WCHAR));
	}
	ret = RegSetValueExW(hkey, wname, reserved, type, wdata ? (BYTE *)wdata : data, wsize);
	free(wname);
	free(wdata);
	return ret;
}

/* String data comes back converted; sizes are the ANSI byte counts. */
LSTATUS WINAPI RegQueryValueExA(HKEY hkey, LPCSTR name, LPDWORD reserved, LPDWORD type, LPBYTE data,
				LPDWORD size)
{
	bool bad = false;
	WCHAR *wname = wide(name, &bad);
	DWORD t, wsize = 0, need;
	BYTE *buf = NULL;
	LSTATUS ret;

	if (bad)
		return ERROR_NOT_ENOUGH_MEMORY;
	if (data && !size) {
		free(wname);
		return ERROR_INVALID_PARAMETER;
	}
	/* The stored size first, then the data itself. */
	ret = RegQueryValueExW(hkey, wname, NULL, &t, NULL, &wsize);
	if (!ret) {
		buf = malloc(wsize ? wsize : 1);
		ret = buf ? RegQueryValueExW(hkey, wname, NULL, &t, buf, &wsize) : ERROR_NOT_ENOUGH_MEMORY;
	}
	free(wname);
	if (ret) {
		free(buf);
		return ret;
	}
	if (type)
		*type = t;
	if (is_string(t)) {
		ssize_t n = utf16_to_cp(cp_ansi(), 0, (WCHAR *)buf, wsize / sizeof(WCHAR), NULL, 0, '?', NULL);
		char *a = malloc(n > 0 ? n : 1);

		if (!a) {
			free(buf);
			return ERROR_NOT_ENOUGH_MEMORY;
		}
		need = n > 0 ? (DWORD)utf16_to_cp(cp_ansi(), 0, (WCHAR *)buf, wsize / sizeof(WCHAR), a, n,
						  '?', NULL)
			     : 0;
		free(buf);
		buf = (BYTE *)a;
	} else {
		need = wsize;
	}
	if (data && *size < need)
		ret = ERROR_MORE_DATA;
	else if (data)
		memcpy(data, buf, need);
	if (size)
		*size = need;
	free(buf);
	return ret;
}

/* A W name converted into an A buffer of *len characters (in: its size
 * with the terminator; out: the length without it). */
static LSTATUS name_to_a(const WCHAR *w, LPSTR buf, LPDWORD len)
{
	char *a = utf16_to_cp_dup(cp_ansi(), w);
	DWORD n;

	if (!a)
		return ERROR_NOT_ENOUGH_MEMORY;
	n = (DWORD)strlen(a);
	if (*len <= n) {
		free(a);
		return ERROR_MORE_DATA;
	}
	memcpy(buf, a, n + 1);
	*len = n;
	free(a);
	return ERROR_SUCCESS;
}

LSTATUS WINAPI RegEnumKeyExA(HKEY hkey, DWORD index, LPSTR name, LPDWORD name_len, LPDWORD reserved,
			     LPSTR cls, LPDWORD cls_len, PFILETIME last_write)
{
	WCHAR w[256]; /* key names are at most 255 characters */
	DWORD wlen = 256;
	LSTATUS ret;

	if (!name || !name_len)
		return ERROR_INVALID_PARAMETER;
	ret = RegEnumKeyExW(hkey, index, w, &wlen, NULL, NULL, NULL, last_write);
	if (ret)
		return ret;
	if (cls && cls_len && *cls_len)
		cls[0] = 0;
	if (cls_len)
		*cls_len = 0;
	return name_to_a(w, name, name_len);
}

/* Names and string data converted as RegQueryValueExA converts them. */
LSTATUS WINAPI RegEnumValueA(HKEY hkey, DWORD index, LPSTR name, LPDWORD name_len, LPDWORD reserved,
			     LPDWORD type, LPBYTE data, LPDWORD data_len)
{
	WCHAR w[16384]; /* value names are at most 16383 characters */
	DWORD wlen = 16384, t;
	HKEY k;
	LSTATUS ret;

	if (!name || !name_len || (data && !data_len))
		return ERROR_INVALID_PARAMETER;
	ret = RegEnumValueW(hkey, index, w, &wlen, NULL, &t, NULL, NULL);
	if (ret)
		return ret;
	ret = name_to_a(w, name, name_len);
	if (ret)
		return ret;
	if (type)
		*type = t;
	if (!data && !data_len)
		return ERROR_SUCCESS;
	/* The data through the A query on the same key: one conversion rule. */
	ret = RegOpenKeyExW(hkey, NULL, 0, KEY_QUERY_VALUE, &k);
	if (ret)
		return ret;
	ret = RegQueryValueExA(k, name, NULL, NULL, data, data_len);
	RegCloseKey(k);
	return ret;
}

LSTATUS WINAPI RegQueryInfoKeyA(HKEY hkey, LPSTR cls, LPDWORD cls_len, LPDWORD reserved, LPDWORD subkeys,
				LPDWORD max_subkey_len, LPDWORD max_cls_len, LPDWORD values,
				LPDWORD max_value_name_len, LPDWORD max_value_len, LPDWORD sd_len,
				PFILETIME last_write)
{
	if (cls && cls_len && *cls_len)
		cls[0] = 0;
	return RegQueryInfoKeyW(hkey, NULL, cls_len, reserved, subkeys, max_subkey_len, max_cls_len, values,
				max_value_name_len, max_value_len, sd_len, last_write);
}

/* The URL helpers programs use on file names (Dart resolves its script
 * this way): UrlIsW for a URL's scheme, and PathCreateFromUrlW, a
 * "file:" URL as a Windows path ("file:///C:/a%20b/c" is "C:\a b\c",
 * "file://server/share/x" is "\\server\share\x").  Percent escapes are
 * decoded a byte to a character.  The URL kinds that need the shell's
 * knowledge of schemes (URLIS_NOHISTORY, URLIS_APPLIABLE,
 * URLIS_DIRECTORY, URLIS_HASQUERY) stop the program naming the case
 * (core/unimpl.h). */
#include <stdlib.h>
#include <string.h>

#include "core/unimpl.h"
#include "core/wstr.h"
#include "shlwapi/shlwapi_private.h"
#include "core/hexdigit.h"

/* The length of the scheme before ':' (letters, digits, '+', '-', '.',
 * starting with a letter, at least two characters: "C:" is a drive), or
 * 0. */
static size_t scheme_len(const WCHAR *url)
{
	size_t n = 0;

	if (!url || !((url[0] >= 'a' && url[0] <= 'z') || (url[0] >= 'A' && url[0] <= 'Z')))
		return 0;
	while ((url[n] >= 'a' && url[n] <= 'z') || (url[n] >= 'A' && url[n] <= 'Z') || (url[n] >= '0' && url[n] <= '9') ||
	       url[n] == '+' || url[n] == '-' || url[n] == '.')
		n++;
	return url[n] == ':' && n >= 2 ? n : 0;
}

static BOOL is_file_url(const WCHAR *url)
{
	return scheme_len(url) == 4 && !wstr_nicmp(url, u"file", 4);
}

BOOL WINAPI UrlIsW(LPCWSTR url, URLIS kind)
{
	size_t n;

	if (!url)
		return FALSE;
	switch (kind) {
	case URLIS_URL:
		return scheme_len(url) != 0;
	case URLIS_FILEURL:
		return is_file_url(url);
	case URLIS_OPAQUE:
		/* a scheme whose part after ':' is not a hierarchy ("mailto:") */
		n = scheme_len(url);
		return n && !is_file_url(url) && !(url[n + 1] == '/' && url[n + 2] == '/');
	default:
		unimplemented_case("shlwapi.UrlIsW", "URLIS %d", (int)kind);
	}
}

/* Percent escapes decoded one byte to one character, as shlwapi does
 * without UrlUnescape's URL_UNESCAPE_AS_UTF8; '/' becomes '\\'. */
static WCHAR *unescape(const WCHAR *s, size_t len)
{
	WCHAR *out = malloc((len + 1) * sizeof(WCHAR));
	size_t o = 0;

	if (!out)
		return NULL;
	for (size_t i = 0; i < len;) {
		if (i + 2 < len && s[i] == '%' && hex_digit(s[i + 1]) >= 0 && hex_digit(s[i + 2]) >= 0) {
			out[o++] = (WCHAR)(hex_digit(s[i + 1]) << 4 | hex_digit(s[i + 2]));
			i += 3;
			continue;
		}
		out[o++] = s[i] == '/' ? '\\' : s[i];
		i++;
	}
	out[o] = 0;
	return out;
}

static BOOL is_drive(const WCHAR *p)
{
	return ((p[0] >= 'a' && p[0] <= 'z') || (p[0] >= 'A' && p[0] <= 'Z')) && (p[1] == ':' || p[1] == '|') &&
	       (!p[2] || p[2] == '/' || p[2] == '\\');
}

HRESULT WINAPI PathCreateFromUrlW(LPCWSTR url, LPWSTR path, LPDWORD size, DWORD reserved)
{
	const WCHAR *p;
	WCHAR *res, *body;
	size_t n;
	BOOL unc = FALSE;

	if (!url || !path || !size || !*size)
		return E_INVALIDARG;
	if (!is_file_url(url))
		return E_INVALIDARG;
	p = url + 5;
	if (p[0] == '/' && p[1] == '/') {
		const WCHAR *host = p + 2, *end = host;
		while (*end && *end != '/' && *end != '\\')
			end++;
		if (end == host || (end - host == 9 && !wstr_nicmp(host, u"localhost", 9))) {
			p = end; /* "file:///..." or "file://localhost/..." */
		} else if (is_drive(host)) {
			p = host; /* "file://C:/..." */
		} else {
			p = host; /* "file://server/share": a UNC path */
			unc = TRUE;
		}
	}
	/* "/C:/x" -> "C:/x" */
	while (!unc && (p[0] == '/' || p[0] == '\\') && is_drive(p + 1))
		p++;
	body = unescape(p, wstr_len(p));
	if (!body)
		return E_OUTOFMEMORY;
	n = wstr_len(body) + (unc ? 2 : 0);
	res = malloc((n + 1) * sizeof(WCHAR));
	if (!res) {
		free(body);
		return E_OUTOFMEMORY;
	}
	if (unc) {
		res[0] = res[1] = '\\';
		memcpy(res + 2, body, (n - 1) * sizeof(WCHAR));
	} else {
		memcpy(res, body, (n + 1) * sizeof(WCHAR));
		if (is_drive(res) && res[1] == '|')
			res[1] = ':';
	}
	free(body);
	if (n + 1 > *size) {
		*size = (DWORD)n + 1;
		free(res);
		return E_POINTER;
	}
	memcpy(path, res, (n + 1) * sizeof(WCHAR));
	*size = (DWORD)n;
	free(res);
	return S_OK;
}

/* The PathCch* functions (pathcch.h): shlwapi's path rules with sizes
 * in characters, paths up to PATHCCH_MAX_CCH with PATHCCH_ALLOW_LONG_PATHS
 * (MAX_PATH otherwise), the "\\\\?\\" forms among the roots, and HRESULTs:
 * S_OK when the path changed, S_FALSE when there was nothing to do,
 * E_INVALIDARG for bad arguments, and STRSAFE_E_INSUFFICIENT_BUFFER
 * (HRESULT_FROM_WIN32(ERROR_INSUFFICIENT_BUFFER)) when the result does not
 * fit.  PATHCCH_ENSURE_IS_EXTENDED_LENGTH_PATH gives a drive path the
 * "\\?\" form (and, as the docs say it implies
 * PATHCCH_DO_NOT_NORMALIZE_SEGMENTS, leaves trailing dots and spaces,
 * which are never stripped here); with PATHCCH_ALLOW_LONG_PATHS it is
 * E_INVALIDARG, as Windows answers.  Other paths under that flag (UNC,
 * relative, rooted), PATHCCH_ENSURE_TRAILING_SLASH and the other flags
 * are not implemented and stop the program naming them (core/unimpl.h). */
#include <stdlib.h>
#include <string.h>

#include "core/path.h"
#include "core/unimpl.h"
#include "core/wstr.h"
#include "kernelbase/kernelbase_private.h"

#define INSUFFICIENT HRESULT_FROM_WIN32(ERROR_INSUFFICIENT_BUFFER)
#define TOO_LONG HRESULT_FROM_WIN32(ERROR_FILENAME_EXCED_RANGE)

static BOOL prefix_is(const WCHAR *s, const char *p)
{
	for (; *p; s++, p++) {
		WCHAR c = *s >= 'a' && *s <= 'z' ? *s - 32 : *s;
		if (c != (WCHAR)*p)
			return FALSE;
	}
	return TRUE;
}

static BOOL is_drive(const WCHAR *s)
{
	return ((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')) && s[1] == ':';
}

/* The length of the path's root, its last backslash included ("C:\",
 * "C:", "\", "\\server\share\", "\\?\C:\", "\\?\UNC\server\share\",
 * "\\?\Volume{...}\"); 0 for a relative path. */
static size_t root_len(const WCHAR *p)
{
	size_t i, seps;

	if (prefix_is(p, "\\\\?\\UNC\\")) {
		i = 8;
		seps = 0;
		goto unc;
	}
	if (prefix_is(p, "\\\\?\\")) {
		if (is_drive(p + 4))
			return p[6] == '\\' ? 7 : 6;
		for (i = 4; p[i] && p[i] != '\\'; i++)
			;
		return p[i] ? i + 1 : i;
	}
	if (p[0] == '\\' && p[1] == '\\') {
		i = 2;
		seps = 0;
	unc:
		for (; p[i]; i++)
			if (p[i] == '\\' && ++seps == 2)
				return i + 1;
		return i;
	}
	if (is_drive(p))
		return p[2] == '\\' ? 3 : 2;
	if (p[0] == '\\')
		return 1;
	return 0;
}

static HRESULT check_size(SIZE_T size)
{
	return !size || size > PATHCCH_MAX_CCH ? E_INVALIDARG : S_OK;
}

/* in canonicalised into out (cap characters with the NUL): "." goes,
 * ".." drops the component before it but never the root. */
static HRESULT canonicalize(const WCHAR *in, WCHAR *out, size_t cap, DWORD flags)
{
	size_t len = wstr_len(in), root = root_len(in), o;
	size_t limit = (flags & PATHCCH_ALLOW_LONG_PATHS) ? PATHCCH_MAX_CCH : MAX_PATH;
	WCHAR *buf;

	if (flags & ~(PATHCCH_ALLOW_LONG_PATHS | PATHCCH_FORCE_ENABLE_LONG_NAME_PROCESS |
		      PATHCCH_FORCE_DISABLE_LONG_NAME_PROCESS | PATHCCH_ENSURE_IS_EXTENDED_LENGTH_PATH))
		unimplemented_case("kernelbase.PathCchCanonicalizeEx", "flags %#lx", (unsigned long)flags);
	if (flags & PATHCCH_ENSURE_IS_EXTENDED_LENGTH_PATH) {
		if (flags & PATHCCH_ALLOW_LONG_PATHS)
			return E_INVALIDARG;
		if (!(is_drive(in) && in[2] == '\\') && !(prefix_is(in, "\\\\?\\") && is_drive(in + 4)))
			unimplemented_case("kernelbase.PathCchCanonicalizeEx",
					   "PATHCCH_ENSURE_IS_EXTENDED_LENGTH_PATH for a path without a drive");
	}
	buf = malloc((len + 6) * sizeof(WCHAR));
	if (!buf)
		return E_OUTOFMEMORY;
	o = path_fold_dots(in, len, root, buf);
	/* The extended form is kept only where it is needed: a drive path
	 * that fits in MAX_PATH loses its "\\?\\", and a longer one gains
	 * it when long paths are allowed (the docs of PATHCCH_ALLOW_LONG_PATHS);
	 * PATHCCH_ENSURE_IS_EXTENDED_LENGTH_PATH asks for it whatever the length. */
	if ((flags & PATHCCH_ENSURE_IS_EXTENDED_LENGTH_PATH) && is_drive(buf)) {
		memmove(buf + 4, buf, (o + 1) * sizeof(WCHAR));
		memcpy(buf, u"\\\\?\\", 4 * sizeof(WCHAR));
		o += 4;
	} else if (!(flags & PATHCCH_ENSURE_IS_EXTENDED_LENGTH_PATH) && prefix_is(buf, "\\\\?\\") &&
		   is_drive(buf + 4) && o - 4 + 1 <= MAX_PATH) {
		memmove(buf, buf + 4, (o - 4 + 1) * sizeof(WCHAR));
		o -= 4;
	} else if (o + 1 > MAX_PATH && (flags & PATHCCH_ALLOW_LONG_PATHS) && is_drive(buf) && o + 5 <= limit) {
		WCHAR *ext = realloc(buf, (o + 5) * sizeof(WCHAR));
		if (!ext) {
			free(buf);
			return E_OUTOFMEMORY;
		}
		buf = ext;
		memmove(buf + 4, buf, (o + 1) * sizeof(WCHAR));
		memcpy(buf, u"\\\\?\\", 4 * sizeof(WCHAR));
		o += 4;
	}
	if (o + 1 > limit) {
		free(buf);
		return TOO_LONG;
	}
	if (o + 1 > cap) {
		free(buf);
		if (cap)
			out[0] = 0;
		return INSUFFICIENT;
	}
	memcpy(out, buf, (o + 1) * sizeof(WCHAR));
	free(buf);
	return S_OK;
}

HRESULT WINAPI PathCchCanonicalizeEx(WCHAR *out, SIZE_T size, const WCHAR *in, DWORD flags)
{
	if (!out || !in || FAILED(check_size(size))) {
		if (out && size)
			out[0] = 0;
		return E_INVALIDARG;
	}
	return canonicalize(in, out, size, flags);
}

HRESULT WINAPI PathCchCanonicalize(WCHAR *out, SIZE_T size, const WCHAR *in)
{
	return PathCchCanonicalizeEx(out, size, in, PATHCCH_NONE);
}

/* p2 alone when it has a drive or is a UNC or extended path; p2 under
 * p1's root when it starts with one backslash; else p1\p2.  Then
 * canonicalised, into a malloc'd string. */
static HRESULT combine(const WCHAR *p1, const WCHAR *p2, DWORD flags, WCHAR **res)
{
	size_t l1 = p1 ? wstr_len(p1) : 0, l2 = p2 ? wstr_len(p2) : 0, cap = l1 + l2 + 3;
	WCHAR *tmp, *out;
	HRESULT hr;

	if (!p1 && !p2)
		return E_INVALIDARG;
	tmp = malloc(cap * sizeof(WCHAR));
	/* room for a "\\?\" the result may gain */
	out = malloc((cap + 5) * sizeof(WCHAR));
	if (!tmp || !out) {
		free(tmp);
		free(out);
		return E_OUTOFMEMORY;
	}
	if (p2 && (is_drive(p2) || (p2[0] == '\\' && p2[1] == '\\'))) {
		memcpy(tmp, p2, (l2 + 1) * sizeof(WCHAR));
	} else if (p2 && p2[0] == '\\' && p1) {
		size_t r = root_len(p1);
		/* the root of p1 without its backslash, then p2 */
		if (r && p1[r - 1] == '\\')
			r--;
		memcpy(tmp, p1, r * sizeof(WCHAR));
		memcpy(tmp + r, p2, (l2 + 1) * sizeof(WCHAR));
	} else {
		size_t o = l1;
		memcpy(tmp, p1 ? p1 : u"", l1 * sizeof(WCHAR));
		if (o && l2 && tmp[o - 1] != '\\')
			tmp[o++] = '\\';
		memcpy(tmp + o, p2 ? p2 : u"", (l2 + 1) * sizeof(WCHAR));
	}
	hr = canonicalize(tmp, out, cap + 5, flags);
	free(tmp);
	if (FAILED(hr)) {
		free(out);
		return hr;
	}
	*res = out;
	return S_OK;
}

/* The string into out (size characters). */
static HRESULT put(WCHAR *out, SIZE_T size, WCHAR *s)
{
	size_t n = wstr_len(s);

	if (n + 1 > size) {
		out[0] = 0;
		free(s);
		return INSUFFICIENT;
	}
	memcpy(out, s, (n + 1) * sizeof(WCHAR));
	free(s);
	return S_OK;
}

HRESULT WINAPI PathCchCombineEx(WCHAR *out, SIZE_T size, const WCHAR *p1, const WCHAR *p2, DWORD flags)
{
	WCHAR *res;
	HRESULT hr;

	if (!out || FAILED(check_size(size)))
		return E_INVALIDARG;
	hr = combine(p1, p2, flags, &res);
	if (FAILED(hr)) {
		out[0] = 0;
		return hr;
	}
	return put(out, size, res);
}

HRESULT WINAPI PathCchCombine(WCHAR *out, SIZE_T size, const WCHAR *p1, const WCHAR *p2)
{
	return PathCchCombineEx(out, size, p1, p2, PATHCCH_NONE);
}

/* more's leading backslashes go unless it is a UNC or extended path. */
HRESULT WINAPI PathCchAppendEx(WCHAR *path, SIZE_T size, const WCHAR *more, DWORD flags)
{
	WCHAR *res;
	HRESULT hr;

	if (!path || FAILED(check_size(size)))
		return E_INVALIDARG;
	if (more && !(more[0] == '\\' && more[1] == '\\'))
		while (*more == '\\')
			more++;
	hr = combine(path, more, flags, &res);
	if (FAILED(hr))
		return hr;
	return put(path, size, res);
}

HRESULT WINAPI PathCchAppend(WCHAR *path, SIZE_T size, const WCHAR *more)
{
	return PathCchAppendEx(path, size, more, PATHCCH_NONE);
}

HRESULT WINAPI PathAllocCombine(const WCHAR *p1, const WCHAR *p2, DWORD flags, WCHAR **out)
{
	WCHAR *res, *l;
	HRESULT hr;

	if (!out)
		return E_INVALIDARG;
	*out = NULL;
	hr = combine(p1, p2, flags, &res);
	if (FAILED(hr))
		return hr;
	l = LocalAlloc(LMEM_FIXED, (wstr_len(res) + 1) * sizeof(WCHAR));
	if (l)
		memcpy(l, res, (wstr_len(res) + 1) * sizeof(WCHAR));
	free(res);
	*out = l;
	return l ? S_OK : E_OUTOFMEMORY;
}

HRESULT WINAPI PathAllocCanonicalize(const WCHAR *in, DWORD flags, WCHAR **out)
{
	if (!in || !out) {
		if (out)
			*out = NULL;
		return E_INVALIDARG;
	}
	return PathAllocCombine(in, NULL, flags, out);
}

HRESULT WINAPI PathCchAddBackslashEx(WCHAR *path, SIZE_T size, WCHAR **end, SIZE_T *remaining)
{
	size_t len;

	if (end)
		*end = NULL;
	if (remaining)
		*remaining = 0;
	if (!path || FAILED(check_size(size)))
		return E_INVALIDARG;
	len = wstr_len(path);
	if (len >= size)
		return E_INVALIDARG;
	if (len && path[len - 1] == '\\') {
		if (end)
			*end = path + len;
		if (remaining)
			*remaining = size - len;
		return S_FALSE;
	}
	if (len + 2 > size)
		return INSUFFICIENT;
	path[len++] = '\\';
	path[len] = 0;
	if (end)
		*end = path + len;
	if (remaining)
		*remaining = size - len;
	return S_OK;
}

HRESULT WINAPI PathCchAddBackslash(WCHAR *path, SIZE_T size)
{
	return PathCchAddBackslashEx(path, size, NULL, NULL);
}

/* A root keeps its backslash. */
HRESULT WINAPI PathCchRemoveBackslashEx(WCHAR *path, SIZE_T size, WCHAR **end, SIZE_T *remaining)
{
	size_t len;

	if (!path || FAILED(check_size(size))) {
		if (end)
			*end = NULL;
		if (remaining)
			*remaining = 0;
		return E_INVALIDARG;
	}
	len = wstr_len(path);
	if (len >= size)
		return E_INVALIDARG;
	if (len && path[len - 1] == '\\' && root_len(path) != len) {
		path[--len] = 0;
		if (end)
			*end = path + len;
		if (remaining)
			*remaining = size - len;
		return S_OK;
	}
	if (end)
		*end = path + (len && path[len - 1] == '\\' ? len - 1 : len);
	if (remaining)
		*remaining = size - (len && path[len - 1] == '\\' ? len - 1 : len);
	return S_FALSE;
}

HRESULT WINAPI PathCchRemoveBackslash(WCHAR *path, SIZE_T size)
{
	return PathCchRemoveBackslashEx(path, size, NULL, NULL);
}

/* The '.' of the last component's extension, or its end.  An extension
 * holds no space, '.', or separator after the dot. */
HRESULT WINAPI PathCchFindExtension(const WCHAR *path, SIZE_T size, const WCHAR **ext)
{
	const WCHAR *dot = NULL, *p;
	SIZE_T i;

	if (ext)
		*ext = NULL;
	if (!path || !ext || FAILED(check_size(size)))
		return E_INVALIDARG;
	for (i = 0, p = path; i < size && *p; i++, p++) {
		if (*p == '\\' || *p == ' ')
			dot = NULL;
		else if (*p == '.')
			dot = p;
	}
	if (i == size)
		return E_INVALIDARG;
	*ext = dot ? dot : p;
	return S_OK;
}

HRESULT WINAPI PathCchRemoveExtension(WCHAR *path, SIZE_T size)
{
	const WCHAR *ext;
	HRESULT hr = PathCchFindExtension(path, size, &ext);

	if (FAILED(hr))
		return hr;
	if (!*ext)
		return S_FALSE;
	*(WCHAR *)ext = 0;
	return S_OK;
}

/* ext with or without its '.'; it may hold no space, separator or
 * further '.'.  S_FALSE when the path has an extension already. */
static HRESULT valid_ext(const WCHAR *ext, size_t *len)
{
	const WCHAR *e = ext && *ext == '.' ? ext + 1 : ext;

	if (!ext)
		return E_INVALIDARG;
	for (const WCHAR *p = e; *p; p++)
		if (*p == ' ' || *p == '.' || *p == '\\' || *p == '/')
			return E_INVALIDARG;
	*len = wstr_len(e);
	return S_OK;
}

HRESULT WINAPI PathCchAddExtension(WCHAR *path, SIZE_T size, const WCHAR *ext)
{
	const WCHAR *cur, *e;
	size_t elen, plen;
	HRESULT hr;

	if (!path || FAILED(check_size(size)) || FAILED(valid_ext(ext, &elen)))
		return E_INVALIDARG;
	hr = PathCchFindExtension(path, size, &cur);
	if (FAILED(hr))
		return hr;
	if (*cur)
		return S_FALSE;
	if (!elen)
		return S_OK;
	e = *ext == '.' ? ext + 1 : ext;
	plen = wstr_len(path);
	if (plen + 1 + elen + 1 > size)
		return INSUFFICIENT;
	path[plen] = '.';
	memcpy(path + plen + 1, e, (elen + 1) * sizeof(WCHAR));
	return S_OK;
}

HRESULT WINAPI PathCchRenameExtension(WCHAR *path, SIZE_T size, const WCHAR *ext)
{
	size_t elen;
	HRESULT hr;

	if (!path || FAILED(check_size(size)) || FAILED(valid_ext(ext, &elen)))
		return E_INVALIDARG;
	hr = PathCchRemoveExtension(path, size);
	if (FAILED(hr))
		return hr;
	return PathCchAddExtension(path, size, ext);
}

BOOL WINAPI PathCchIsRoot(const WCHAR *path)
{
	size_t r;

	if (!path || !*path)
		return FALSE;
	r = root_len(path);
	return r && r == wstr_len(path) && (path[r - 1] == '\\' || (prefix_is(path, "\\\\") && !prefix_is(path, "\\\\?\\")));
}

HRESULT WINAPI PathCchSkipRoot(const WCHAR *path, const WCHAR **root_end)
{
	size_t r;

	if (!path || !root_end || !*path)
		return E_INVALIDARG;
	r = root_len(path);
	if (!r)
		return E_INVALIDARG;
	*root_end = path + r;
	return S_OK;
}

HRESULT WINAPI PathCchStripToRoot(WCHAR *path, SIZE_T size)
{
	size_t r;

	if (!path || FAILED(check_size(size)))
		return E_INVALIDARG;
	r = root_len(path);
	if (!r)
		return E_INVALIDARG;
	if (!path[r])
		return S_FALSE;
	path[r] = 0;
	return S_OK;
}

/* Removes the last component (and its separator, but a root's). */
HRESULT WINAPI PathCchRemoveFileSpec(WCHAR *path, SIZE_T size)
{
	size_t r, len, cut;

	if (!path || FAILED(check_size(size)))
		return E_INVALIDARG;
	r = root_len(path);
	len = wstr_len(path);
	if (len == r)
		return S_FALSE;
	cut = len;
	while (cut > r && path[cut - 1] != '\\')
		cut--;
	if (cut > r)
		cut--; /* the separator before the component */
	path[cut] = 0;
	return S_OK;
}

/* "\\?\C:\x" -> "C:\x", "\\?\UNC\server\share" -> "\\server\share". */
HRESULT WINAPI PathCchStripPrefix(WCHAR *path, SIZE_T size)
{
	size_t len;

	if (!path || FAILED(check_size(size)))
		return E_INVALIDARG;
	len = wstr_len(path);
	if (prefix_is(path, "\\\\?\\UNC\\")) {
		memmove(path + 2, path + 8, (len - 8 + 1) * sizeof(WCHAR));
		return S_OK;
	}
	if (prefix_is(path, "\\\\?\\") && is_drive(path + 4)) {
		memmove(path, path + 4, (len - 4 + 1) * sizeof(WCHAR));
		return S_OK;
	}
	return S_FALSE;
}

/* "\\server..." and "\\?\UNC\server...": TRUE, and where the server name
 * starts. */
BOOL WINAPI PathIsUNCEx(const WCHAR *path, const WCHAR **server)
{
	const WCHAR *s = NULL;

	if (server)
		*server = NULL;
	if (!path)
		return FALSE;
	if (prefix_is(path, "\\\\?\\UNC\\"))
		s = path + 8;
	else if (path[0] == '\\' && path[1] == '\\' && path[2] != '?')
		s = path + 2;
	if (s && server)
		*server = s;
	return s != NULL;
}

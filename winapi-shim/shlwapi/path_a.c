/* The ANSI forms of shlwapi's path functions.  Those that return a
 * pointer into the caller's string work on its bytes (the separators and
 * '.' are ASCII, which no multi-byte character of a Windows code page
 * contains as a trail byte but in DBCS pages, which ndrun does not use);
 * those that rewrite a buffer go through the W form in the ANSI code
 * page. */
#include <string.h>

#include "shlwapi/shlwapi_private.h"

static BOOL to_w(LPCSTR s, WCHAR *w)
{
	return MultiByteToWideChar(CP_ACP, 0, s, -1, w, MAX_PATH * 2) > 0;
}

static BOOL to_a(const WCHAR *w, LPSTR s)
{
	return WideCharToMultiByte(CP_ACP, 0, w, -1, s, MAX_PATH, NULL, NULL) > 0;
}

LPSTR WINAPI PathFindFileNameA(LPCSTR path)
{
	const char *name = path;

	if (!path)
		return NULL;
	for (const char *p = path; *p; p++)
		if ((*p == '\\' || *p == '/' || *p == ':') && p[1] && p[1] != '\\' && p[1] != '/')
			name = p + 1;
	return (LPSTR)name;
}

LPSTR WINAPI PathFindExtensionA(LPCSTR path)
{
	const char *dot = NULL, *p;

	if (!path)
		return NULL;
	for (p = path; *p; p++) {
		if (*p == '\\' || *p == ' ')
			dot = NULL;
		else if (*p == '.')
			dot = p;
	}
	return (LPSTR)(dot ? dot : p);
}

BOOL WINAPI PathIsRelativeA(LPCSTR path)
{
	if (!path || !*path)
		return TRUE;
	return !(path[0] == '\\' || (path[0] && path[1] == ':'));
}

LPSTR WINAPI PathAddBackslashA(LPSTR path)
{
	size_t len;

	if (!path)
		return NULL;
	len = strlen(path);
	if (len >= MAX_PATH - 1)
		return NULL;
	if (len && path[len - 1] != '\\') {
		path[len++] = '\\';
		path[len] = 0;
	}
	return path + len;
}

void WINAPI PathRemoveExtensionA(LPSTR path)
{
	if (path)
		*PathFindExtensionA(path) = 0;
}

BOOL WINAPI PathFileExistsA(LPCSTR path)
{
	WCHAR w[MAX_PATH * 2];

	return path && to_w(path, w) && PathFileExistsW(w);
}

BOOL WINAPI PathIsDirectoryA(LPCSTR path)
{
	WCHAR w[MAX_PATH * 2];

	return path && to_w(path, w) ? PathIsDirectoryW(w) : FALSE;
}

BOOL WINAPI PathIsRootA(LPCSTR path)
{
	WCHAR w[MAX_PATH * 2];

	return path && to_w(path, w) && PathIsRootW(w);
}

BOOL WINAPI PathRemoveFileSpecA(LPSTR path)
{
	WCHAR w[MAX_PATH * 2];
	BOOL r;

	if (!path || !to_w(path, w))
		return FALSE;
	r = PathRemoveFileSpecW(w);
	to_a(w, path);
	return r;
}

LPSTR WINAPI PathRemoveBackslashA(LPSTR path)
{
	WCHAR w[MAX_PATH * 2];
	size_t len;

	if (!path || !to_w(path, w))
		return NULL;
	PathRemoveBackslashW(w);
	to_a(w, path);
	len = strlen(path);
	return len ? path + len - 1 : path;
}

void WINAPI PathStripPathA(LPSTR path)
{
	char *name;

	if (!path)
		return;
	name = PathFindFileNameA(path);
	if (name != path)
		memmove(path, name, strlen(name) + 1);
}

BOOL WINAPI PathCanonicalizeA(LPSTR out, LPCSTR in)
{
	WCHAR win[MAX_PATH * 2], wout[MAX_PATH];

	if (!out || !in) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!to_w(in, win) || !PathCanonicalizeW(wout, win)) {
		*out = 0;
		return FALSE;
	}
	return to_a(wout, out);
}

LPSTR WINAPI PathCombineA(LPSTR out, LPCSTR dir, LPCSTR file)
{
	WCHAR wdir[MAX_PATH * 2], wfile[MAX_PATH * 2], wout[MAX_PATH];

	if (!out)
		return NULL;
	if ((dir && !to_w(dir, wdir)) || (file && !to_w(file, wfile)) ||
	    !PathCombineW(wout, dir ? wdir : NULL, file ? wfile : NULL) || !to_a(wout, out)) {
		*out = 0;
		return NULL;
	}
	return out;
}

BOOL WINAPI PathAppendA(LPSTR path, LPCSTR more)
{
	WCHAR wpath[MAX_PATH * 2], wmore[MAX_PATH * 2];

	if (!path || !more || !to_w(path, wpath) || !to_w(more, wmore) || !PathAppendW(wpath, wmore))
		return FALSE;
	return to_a(wpath, path);
}

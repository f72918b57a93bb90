/* shlwapi's path functions (Path*W): MAX_PATH buffers, '\\' separators,
 * "X:" drive roots and "\\\\server" UNC roots, as the docs describe them.
 * Only PathFileExists and PathIsDirectory look at the file system. */
#include <string.h>

#include "core/path.h"
#include "core/wstr.h"
#include "shlwapi/shlwapi_private.h"

BOOL WINAPI PathIsRelativeW(LPCWSTR path)
{
	if (!path || !*path)
		return TRUE;
	return !(path[0] == '\\' || (path[0] && path[1] == ':'));
}

BOOL WINAPI PathIsUNCW(LPCWSTR path)
{
	return path && path[0] == '\\' && path[1] == '\\' && path[2] != '?';
}

/* "C:\", "\", "\\server\share", "\\server". */
BOOL WINAPI PathIsRootW(LPCWSTR path)
{
	if (!path || !*path)
		return FALSE;
	if (path[0] == '\\' && !path[1])
		return TRUE;
	if (path[1] == ':' && path[2] == '\\' && !path[3])
		return TRUE;
	if (path[0] == '\\' && path[1] == '\\') {
		/* "\\server" and "\\server\share", nothing deeper */
		int seps = 0;
		for (const WCHAR *p = path + 2; *p; p++)
			if (*p == '\\' && ++seps > 1)
				return FALSE;
		return TRUE;
	}
	return FALSE;
}

LPWSTR WINAPI PathFindFileNameW(LPCWSTR path)
{
	const WCHAR *name = path;

	if (!path)
		return NULL;
	for (const WCHAR *p = path; *p; p++)
		if ((*p == '\\' || *p == '/' || *p == ':') && p[1] && p[1] != '\\' && p[1] != '/')
			name = p + 1;
	return (LPWSTR)name;
}

/* The last '.' of the last component, unless a space follows it; else
 * the terminating NUL. */
LPWSTR WINAPI PathFindExtensionW(LPCWSTR path)
{
	const WCHAR *dot = NULL, *p;

	if (!path)
		return NULL;
	for (p = path; *p; p++) {
		if (*p == '\\' || *p == ' ')
			dot = NULL;
		else if (*p == '.')
			dot = p;
	}
	return (LPWSTR)(dot ? dot : p);
}

/* Removes the last component and its separator ("C:\a\b" -> "C:\a",
 * "C:\a" -> "C:\", "a" -> ""); TRUE when something was removed. */
BOOL WINAPI PathRemoveFileSpecW(LPWSTR path)
{
	WCHAR *cut = NULL, *p = path;

	if (!path || !*path)
		return FALSE;
	if (p[0] && p[1] == ':')
		p += 2;
	if (p[0] == '\\' && p[1] == '\\') {
		p += 2; /* "\\server\share": the server name is kept */
		while (*p && *p != '\\')
			p++;
	}
	WCHAR *start = p;
	for (; *p; p++)
		if (*p == '\\')
			cut = p;
	if (!cut) {
		if (*start && start == path) {
			*start = 0;
			return TRUE;
		}
		if (*start && start[0] != '\\') {
			*start = 0;
			return TRUE;
		}
		return FALSE;
	}
	if (cut == start) {
		/* The root's backslash stays: "C:\a" -> "C:\", "\a" -> "\". */
		if (!cut[1])
			return FALSE;
		cut[1] = 0;
		return TRUE;
	}
	*cut = 0;
	return TRUE;
}

LPWSTR WINAPI PathAddBackslashW(LPWSTR path)
{
	size_t len;

	if (!path)
		return NULL;
	len = wstr_len(path);
	if (len >= MAX_PATH - 1)
		return NULL;
	if (len && path[len - 1] != '\\') {
		path[len++] = '\\';
		path[len] = 0;
	}
	return path + len;
}

/* The trailing backslash goes unless the path is a root; returns where
 * it was (or the end). */
LPWSTR WINAPI PathRemoveBackslashW(LPWSTR path)
{
	size_t len;

	if (!path)
		return NULL;
	len = wstr_len(path);
	if (!len)
		return path;
	if (path[len - 1] == '\\' && !PathIsRootW(path)) {
		path[len - 1] = 0;
		return path + len - 1;
	}
	return path + len - 1;
}

void WINAPI PathRemoveExtensionW(LPWSTR path)
{
	if (path)
		*PathFindExtensionW(path) = 0;
}

void WINAPI PathStripPathW(LPWSTR path)
{
	WCHAR *name;

	if (!path)
		return;
	name = PathFindFileNameW(path);
	if (name != path)
		memmove(path, name, (wstr_len(name) + 1) * sizeof(WCHAR));
}

/* "." components go; ".." removes the component before it (never the
 * root).  in and out may not overlap; out holds MAX_PATH WCHARs. */
BOOL WINAPI PathCanonicalizeW(LPWSTR out, LPCWSTR in)
{
	WCHAR buf[MAX_PATH];
	size_t root = 0, len, o;

	if (!out || !in) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	len = wstr_len(in);
	if (len >= MAX_PATH) {
		*out = 0;
		SetLastError(ERROR_FILENAME_EXCED_RANGE);
		return FALSE;
	}
	if (!len) {
		out[0] = '\\';
		out[1] = 0;
		return TRUE;
	}
	/* The root: "X:\", "X:", "\\server\share\", "\". */
	if (in[0] && in[1] == ':')
		root = in[2] == '\\' ? 3 : 2;
	else if (in[0] == '\\' && in[1] == '\\') {
		int seps = 0;
		for (root = 2; in[root] && seps < 2; root++)
			if (in[root] == '\\')
				seps++;
	} else if (in[0] == '\\')
		root = 1;
	o = path_fold_dots(in, len, root, buf);
	memcpy(out, buf, (o + 1) * sizeof(WCHAR));
	return TRUE;
}

/* file alone when it is absolute, else dir\file; then canonicalised.
 * NULL (and out empty) when both are NULL or the result is too long. */
LPWSTR WINAPI PathCombineW(LPWSTR out, LPCWSTR dir, LPCWSTR file)
{
	WCHAR tmp[MAX_PATH * 2];
	size_t dl, fl;

	if (!out)
		return NULL;
	if (!dir && !file) {
		*out = 0;
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	fl = file ? wstr_len(file) : 0;
	if (!file || !*file || (dir && !PathIsRelativeW(file) && file[0] != '\\')) {
		if (file && *file) {
			memcpy(tmp, file, (fl + 1) * sizeof(WCHAR));
		} else {
			dl = dir ? wstr_len(dir) : 0;
			if (dl >= MAX_PATH) {
				*out = 0;
				return NULL;
			}
			memcpy(tmp, dir ? dir : u"", (dl + 1) * sizeof(WCHAR));
		}
	} else if (!dir || !PathIsRelativeW(file)) {
		/* "\x": the root of dir's drive (or file alone). */
		if (dir && file[0] == '\\' && file[1] != '\\' && dir[0] && dir[1] == ':') {
			tmp[0] = dir[0];
			tmp[1] = ':';
			if (fl + 2 >= MAX_PATH * 2) {
				*out = 0;
				return NULL;
			}
			memcpy(tmp + 2, file, (fl + 1) * sizeof(WCHAR));
		} else {
			if (fl >= MAX_PATH * 2) {
				*out = 0;
				return NULL;
			}
			memcpy(tmp, file, (fl + 1) * sizeof(WCHAR));
		}
	} else {
		dl = wstr_len(dir);
		if (dl + 1 + fl >= MAX_PATH * 2) {
			*out = 0;
			return NULL;
		}
		memcpy(tmp, dir, dl * sizeof(WCHAR));
		if (dl && tmp[dl - 1] != '\\')
			tmp[dl++] = '\\';
		memcpy(tmp + dl, file, (fl + 1) * sizeof(WCHAR));
	}
	if (!PathCanonicalizeW(out, tmp)) {
		*out = 0;
		return NULL;
	}
	return out;
}

/* more joins path after a backslash (more's own leading backslashes
 * are dropped unless it is a UNC path). */
BOOL WINAPI PathAppendW(LPWSTR path, LPCWSTR more)
{
	if (!path || !more)
		return FALSE;
	if (!PathIsUNCW(more))
		while (*more == '\\')
			more++;
	return PathCombineW(path, path, more) != NULL;
}

BOOL WINAPI PathFileExistsW(LPCWSTR path)
{
	UINT mode;
	BOOL r;

	if (!path)
		return FALSE;
	mode = SetErrorMode(SEM_FAILCRITICALERRORS);
	r = GetFileAttributesW(path) != INVALID_FILE_ATTRIBUTES;
	SetErrorMode(mode);
	return r;
}

BOOL WINAPI PathIsDirectoryW(LPCWSTR path)
{
	DWORD attr;

	if (!path)
		return FALSE;
	attr = GetFileAttributesW(path);
	return attr != INVALID_FILE_ATTRIBUTES && (attr & FILE_ATTRIBUTE_DIRECTORY) ? FILE_ATTRIBUTE_DIRECTORY : FALSE;
}

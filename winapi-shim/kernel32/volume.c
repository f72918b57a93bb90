/* Drives (fileapi.h): the letters the dosdevices folder maps (see
 * core/drives.h), each a fixed disk; a UNC share mapped there is a
 * remote one. */
#include <stdlib.h>

#include "core/drives.h"
#include "core/path.h"
#include "core/wstr.h"
#include "kernel32/kernel32_private.h"

static bool is_sep(WCHAR c)
{
	return c == '\\' || c == '/';
}

UINT WINAPI GetDriveTypeW(LPCWSTR root)
{
	WCHAR *cwd = NULL;
	DWORD err;
	UINT type = DRIVE_NO_ROOT_DIR;

	if (!root) {
		/* the drive of the current directory */
		if (!(cwd = path_cwd(&err)))
			return DRIVE_UNKNOWN;
		root = cwd;
		if (root[0] && root[1] == ':')
			type = drive_root(root[0]) ? DRIVE_FIXED : DRIVE_NO_ROOT_DIR;
		free(cwd);
		return type;
	}
	if (root[0] == '\\' && root[1] == '\\' && root[2] == '?' && root[3] == '\\')
		root += 4;
	if (root[0] && root[1] == ':' && (!root[2] || (is_sep(root[2]) && !root[3])))
		return drive_root(root[0]) ? DRIVE_FIXED : DRIVE_NO_ROOT_DIR;
	if (is_sep(root[0]) && is_sep(root[1]) && root[2] != '.' && root[2] != '?') {
		/* \\server\share\ : remote when dosdevices maps it */
		char *u = path_to_unix(root, &err);

		type = u ? DRIVE_REMOTE : DRIVE_NO_ROOT_DIR;
		free(u);
	}
	/* a folder that is not a drive's root, or a drive that does not exist */
	return type;
}

UINT WINAPI GetDriveTypeA(LPCSTR root)
{
	WCHAR *w;
	UINT ret;

	if (!root)
		return GetDriveTypeW(NULL);
	if (!(w = a_to_w(root)))
		return DRIVE_UNKNOWN;
	ret = GetDriveTypeW(w);
	free(w);
	return ret;
}

DWORD WINAPI GetLogicalDrives(void)
{
	return drive_mask();
}

/* "C:\\", "Z:\\", ... each with its NUL, then one more NUL.  The length
 * without the last NUL; when it does not fit, the size needed with it. */
DWORD WINAPI GetLogicalDriveStringsW(DWORD size, LPWSTR buf)
{
	DWORD mask = drive_mask(), need = 1, len = 0;

	for (int i = 0; i < 26; i++)
		if (mask & (1u << i))
			need += 4;
	if (!buf || size < need)
		return need;
	for (int i = 0; i < 26; i++)
		if (mask & (1u << i)) {
			buf[len++] = (WCHAR)('A' + i);
			buf[len++] = ':';
			buf[len++] = '\\';
			buf[len++] = 0;
		}
	buf[len] = 0;
	return len;
}

DWORD WINAPI GetLogicalDriveStringsA(DWORD size, LPSTR buf)
{
	WCHAR w[26 * 4 + 1];
	DWORD n = GetLogicalDriveStringsW(26 * 4 + 1, w);

	if (!buf || size < n + 1)
		return n + 1;
	for (DWORD i = 0; i <= n; i++)
		buf[i] = (char)w[i];
	return n;
}

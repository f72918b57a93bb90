/* Drives (fileapi.h): C: and Z: are the Linux root, a fixed disk (see
 * core/path.h); no other drive letter exists. */
#include <stdlib.h>

#include "core/path.h"
#include "core/wstr.h"
#include "kernel32/kernel32_private.h"

/* Whether root names C:\ or Z:\ ("C:" and "\\?\C:\" too). */
static bool is_our_root(const WCHAR *root)
{
	WCHAR d;

	if (root[0] == '\\' && root[1] == '\\' && root[2] == '?' && root[3] == '\\')
		root += 4;
	d = wch_toupper(root[0]);
	if ((d != 'C' && d != 'Z') || root[1] != ':')
		return false;
	return !root[2] || ((root[2] == '\\' || root[2] == '/') && !root[3]);
}

UINT WINAPI GetDriveTypeW(LPCWSTR root)
{
	/* NULL: the drive of the current folder, always C:. */
	if (!root || is_our_root(root))
		return DRIVE_FIXED;
	/* A folder that is not a drive's root, or another drive. */
	return DRIVE_NO_ROOT_DIR;
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

/* GetUserProfileDirectory: the profile of the token's user.  ndrun runs
 * as one user, whose profile is USERPROFILE; the token is only checked
 * for being given.  A buffer too small (or none) fails with
 * ERROR_INSUFFICIENT_BUFFER and the size needed, NUL included. */
#include <string.h>

#include "userenv/userenv_private.h"

BOOL WINAPI GetUserProfileDirectoryW(HANDLE token, LPWSTR dir, LPDWORD size)
{
	WCHAR path[MAX_PATH];
	DWORD len;

	if (!token || !size) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	len = GetEnvironmentVariableW(u"USERPROFILE", path, MAX_PATH);
	if (!len || len >= MAX_PATH) {
		SetLastError(len ? ERROR_FILENAME_EXCED_RANGE : ERROR_ENVVAR_NOT_FOUND);
		return FALSE;
	}
	if (!dir || *size < len + 1) {
		*size = len + 1;
		SetLastError(ERROR_INSUFFICIENT_BUFFER);
		return FALSE;
	}
	memcpy(dir, path, (len + 1) * sizeof(WCHAR));
	*size = len + 1;
	return TRUE;
}

/* The ANSI form counts bytes of the converted string. */
BOOL WINAPI GetUserProfileDirectoryA(HANDLE token, LPSTR dir, LPDWORD size)
{
	WCHAR w[MAX_PATH];
	DWORD wsize = MAX_PATH;
	int len;

	if (!size) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!GetUserProfileDirectoryW(token, w, &wsize))
		return FALSE;
	len = WideCharToMultiByte(CP_ACP, 0, w, -1, NULL, 0, NULL, NULL);
	if (!dir || *size < (DWORD)len) {
		*size = len;
		SetLastError(ERROR_INSUFFICIENT_BUFFER);
		return FALSE;
	}
	WideCharToMultiByte(CP_ACP, 0, w, -1, dir, *size, NULL, NULL);
	*size = len;
	return TRUE;
}

/* GetUserNameEx on a machine outside any domain: the SAM-compatible name
 * is COMPUTER\user (GetComputerName and GetUserName); the names only a
 * domain gives (fully qualified DN, user principal, canonical, GUID,
 * service principal, DNS domain) fail with ERROR_NONE_MAPPED, as
 * documented for a local account, and so does the display name, which
 * a local account without a full name lacks.  Sizes count characters:
 * on success the string's length, when the buffer is too small
 * ERROR_MORE_DATA and the length with the NUL. */
#include <string.h>

#include "core/wstr.h"
#include "secur32/secur32_private.h"

BOOLEAN WINAPI GetUserNameExW(EXTENDED_NAME_FORMAT format, LPWSTR buf, PULONG size)
{
	WCHAR name[MAX_COMPUTERNAME_LENGTH + 1 + 257];
	DWORD clen = MAX_COMPUTERNAME_LENGTH + 1, ulen;
	size_t len;

	if (!size) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	switch (format) {
	case NameSamCompatible:
		if (!GetComputerNameW(name, &clen))
			return FALSE;
		name[clen] = '\\';
		ulen = 257;
		if (!GetUserNameW(name + clen + 1, &ulen))
			return FALSE;
		break;
	case NameUnknown:
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	default:
		SetLastError(ERROR_NONE_MAPPED);
		return FALSE;
	}
	len = wstr_len(name);
	if (!buf || *size < len + 1) {
		*size = len + 1;
		SetLastError(ERROR_MORE_DATA);
		return FALSE;
	}
	memcpy(buf, name, (len + 1) * sizeof(WCHAR));
	*size = len;
	return TRUE;
}

BOOLEAN WINAPI GetUserNameExA(EXTENDED_NAME_FORMAT format, LPSTR buf, PULONG size)
{
	WCHAR w[MAX_COMPUTERNAME_LENGTH + 1 + 257];
	ULONG wsize = sizeof(w) / sizeof(w[0]);
	int len;

	if (!size) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!GetUserNameExW(format, w, &wsize))
		return FALSE;
	len = WideCharToMultiByte(CP_ACP, 0, w, -1, NULL, 0, NULL, NULL);
	if (!buf || *size < (ULONG)len) {
		*size = len;
		SetLastError(ERROR_MORE_DATA);
		return FALSE;
	}
	WideCharToMultiByte(CP_ACP, 0, w, -1, buf, *size, NULL, NULL);
	*size = len - 1;
	return TRUE;
}

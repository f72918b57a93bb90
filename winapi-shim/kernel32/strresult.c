/* The size protocol of Win32 functions that return a string into a
 * caller's buffer (GetEnvironmentVariable, GetCurrentDirectory,
 * GetFullPathName, GetTempPath, ...): when buf holds the string and its
 * terminator, copy it and return its length; otherwise leave buf alone
 * and return the size needed, terminator included. */
#include <stdlib.h>
#include <string.h>

#include "core/codepage.h"
#include "core/wstr.h"
#include "kernel32/kernel32_private.h"

DWORD string_result_w(const WCHAR *s, WCHAR *buf, DWORD size)
{
	DWORD len = (DWORD)wstr_len(s);

	if (len + 1 > size || !buf)
		return len + 1;
	memcpy(buf, s, (len + 1) * sizeof(WCHAR));
	return len;
}

DWORD string_result_a(const WCHAR *s, char *buf, DWORD size)
{
	return string_result_cp(CP_ACP, s, buf, size);
}

DWORD string_result_cp(UINT cp, const WCHAR *s, char *buf, DWORD size)
{
	char *a = utf16_to_cp_dup(cp, s);
	DWORD len;

	if (!a) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return 0;
	}
	len = (DWORD)strlen(a);
	if (len + 1 > size || !buf) {
		free(a);
		return len + 1;
	}
	memcpy(buf, a, len + 1);
	free(a);
	return len;
}

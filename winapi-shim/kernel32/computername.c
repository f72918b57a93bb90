/* The computer's other names (sysinfoapi.h): GetComputerNameEx and
 * DnsHostnameToComputerName.  The DNS host name is Linux's host name up
 * to its first '.', the DNS domain what follows (empty for a name
 * without one: a computer in no domain); the NetBIOS name is
 * GetComputerName's (the host label, upper case, 15 characters). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/codepage.h"
#include "core/wstr.h"
#include "kernel32/kernel32_private.h"

/* The name of the given kind (malloc'd); NULL with the last error set. */
static WCHAR *name_of(COMPUTER_NAME_FORMAT format)
{
	char host[256] = "localhost", *dot, *out = NULL;
	WCHAR nb[MAX_COMPUTERNAME_LENGTH + 1], *w;
	DWORD n = MAX_COMPUTERNAME_LENGTH + 1;

	gethostname(host, sizeof(host) - 1);
	host[sizeof(host) - 1] = 0;
	dot = strchr(host, '.');
	switch (format) {
	case ComputerNameNetBIOS:
	case ComputerNamePhysicalNetBIOS:
		if (!GetComputerNameW(nb, &n))
			return NULL;
		return wstr_dup(nb);
	case ComputerNameDnsHostname:
	case ComputerNamePhysicalDnsHostname:
		if (dot)
			*dot = 0;
		out = host;
		break;
	case ComputerNameDnsDomain:
	case ComputerNamePhysicalDnsDomain:
		out = dot ? dot + 1 : "";
		break;
	case ComputerNameDnsFullyQualified:
	case ComputerNamePhysicalDnsFullyQualified:
		out = host;
		break;
	default:
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	if (!(w = utf8_to_utf16_dup(out)))
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
	return w;
}

/* *size: in, the buffer's size; out, the characters copied, or when
 * they do not fit the size needed with the terminator (ERROR_MORE_DATA). */
BOOL WINAPI GetComputerNameExW(COMPUTER_NAME_FORMAT format, LPWSTR buf, LPDWORD size)
{
	WCHAR *name;
	DWORD n;

	if (!size) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!(name = name_of(format)))
		return FALSE;
	n = (DWORD)wstr_len(name);
	if (!buf || *size < n + 1) {
		*size = n + 1;
		free(name);
		SetLastError(ERROR_MORE_DATA);
		return FALSE;
	}
	memcpy(buf, name, (n + 1) * sizeof(WCHAR));
	*size = n;
	free(name);
	return TRUE;
}

BOOL WINAPI GetComputerNameExA(COMPUTER_NAME_FORMAT format, LPSTR buf, LPDWORD size)
{
	WCHAR *name;
	char *a;
	DWORD n;

	if (!size) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!(name = name_of(format)))
		return FALSE;
	a = utf16_to_cp_dup(CP_ACP, name);
	free(name);
	if (!a) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	n = (DWORD)strlen(a);
	if (!buf || *size < n + 1) {
		*size = n + 1;
		free(a);
		SetLastError(ERROR_MORE_DATA);
		return FALSE;
	}
	memcpy(buf, a, n + 1);
	*size = n;
	free(a);
	return TRUE;
}

/* The NetBIOS form of a DNS host name: its first label, upper case, at
 * most 15 characters.  *size: in, the buffer's size; out, the characters
 * copied, or the characters needed (ERROR_MORE_DATA). */
BOOL WINAPI DnsHostnameToComputerNameW(LPCWSTR host, LPWSTR buf, LPDWORD size)
{
	WCHAR name[MAX_COMPUTERNAME_LENGTH + 1];
	DWORD n = 0;

	if (!host || !size) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	for (; host[n] && host[n] != '.' && n < MAX_COMPUTERNAME_LENGTH; n++)
		name[n] = wch_toupper(host[n]);
	name[n] = 0;
	if (!buf || *size < n + 1) {
		*size = n;
		SetLastError(ERROR_MORE_DATA);
		return FALSE;
	}
	memcpy(buf, name, (n + 1) * sizeof(WCHAR));
	*size = n;
	return TRUE;
}

BOOL WINAPI DnsHostnameToComputerNameA(LPCSTR host, LPSTR buf, LPDWORD size)
{
	WCHAR *w, out[MAX_COMPUTERNAME_LENGTH + 1];
	DWORD n = MAX_COMPUTERNAME_LENGTH + 1;
	char *a;
	BOOL ret;

	if (!host || !size) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!(w = cp_to_utf16_dup(CP_ACP, host))) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	ret = DnsHostnameToComputerNameW(w, out, &n);
	free(w);
	if (!ret)
		return FALSE;
	if (!(a = utf16_to_cp_dup(CP_ACP, out))) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	n = (DWORD)strlen(a);
	if (!buf || *size < n + 1) {
		*size = n;
		free(a);
		SetLastError(ERROR_MORE_DATA);
		return FALSE;
	}
	memcpy(buf, a, n + 1);
	*size = n;
	free(a);
	return TRUE;
}

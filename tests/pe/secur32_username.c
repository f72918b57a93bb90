/* secur32's GetUserNameExW/A: NameSamCompatible is COMPUTER\user on a
 * machine outside a domain; the domain-only forms fail with
 * ERROR_NONE_MAPPED; the sizes on success and with a small buffer. */
#define SECURITY_WIN32
#include <windows.h>
#include <security.h>

#include "test.h"

int main(void)
{
	WCHAR name[512], computer[MAX_COMPUTERNAME_LENGTH + 1], user[257], want[600];
	char namea[512];
	DWORD clen = MAX_COMPUTERNAME_LENGTH + 1, ulen = 257;
	ULONG size;

	ok(GetComputerNameW(computer, &clen) && GetUserNameW(user, &ulen), "names\n");
	wsprintfW(want, L"%s\\%s", computer, user);

	size = 512;
	ok(GetUserNameExW(NameSamCompatible, name, &size), "NameSamCompatible: %lu\n", GetLastError());
	ok(!lstrcmpiW(name, want), "[%ls], expected [%ls]\n", name, want);
	ok(size == (ULONG)lstrlenW(want), "size %lu, expected %d\n", size, lstrlenW(want));

	size = 3;
	SetLastError(0);
	ok(!GetUserNameExW(NameSamCompatible, name, &size), "3 characters were enough\n");
	ok(GetLastError() == ERROR_MORE_DATA, "error %lu\n", GetLastError());
	ok(size == (ULONG)lstrlenW(want) + 1, "size needed %lu\n", size);

	size = 512;
	SetLastError(0);
	ok(!GetUserNameExW(NameFullyQualifiedDN, name, &size), "a DN outside a domain\n");
	ok(GetLastError() == ERROR_NONE_MAPPED, "NameFullyQualifiedDN: error %lu\n", GetLastError());
	size = 512;
	SetLastError(0);
	ok(!GetUserNameExW(NameUserPrincipal, name, &size), "a UPN outside a domain\n");
	ok(GetLastError() == ERROR_NONE_MAPPED, "NameUserPrincipal: error %lu\n", GetLastError());

	size = 512;
	ok(GetUserNameExA(NameSamCompatible, namea, &size), "GetUserNameExA: %lu\n", GetLastError());
	ok(size == (ULONG)lstrlenA(namea), "A size %lu for [%s]\n", size, namea);
	return test_summary();
}

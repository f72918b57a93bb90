/* userenv's GetUserProfileDirectoryW/A: the profile is USERPROFILE;
 * the sizes on success and when the buffer is too small. */
#include <windows.h>
#include <userenv.h>

#include "test.h"

int main(void)
{
	WCHAR env[MAX_PATH], dir[MAX_PATH];
	char dira[MAX_PATH];
	HANDLE token = NULL;
	DWORD size, len;

	ok(OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token), "OpenProcessToken: %lu\n", GetLastError());
	len = GetEnvironmentVariableW(L"USERPROFILE", env, MAX_PATH);
	ok(len > 0, "USERPROFILE is not set\n");

	size = MAX_PATH;
	ok(GetUserProfileDirectoryW(token, dir, &size), "GetUserProfileDirectoryW: %lu\n", GetLastError());
	ok(!lstrcmpiW(dir, env), "profile [%ls], USERPROFILE [%ls]\n", dir, env);
	ok(size == len + 1, "size %lu, expected %lu\n", size, len + 1);

	size = 2;
	SetLastError(0);
	ok(!GetUserProfileDirectoryW(token, dir, &size), "a 2-character buffer was enough\n");
	ok(GetLastError() == ERROR_INSUFFICIENT_BUFFER, "error %lu\n", GetLastError());
	ok(size == len + 1, "size needed %lu, expected %lu\n", size, len + 1);

	size = 0;
	ok(!GetUserProfileDirectoryW(token, NULL, &size) && size == len + 1, "size query: %lu\n", size);

	size = MAX_PATH;
	ok(GetUserProfileDirectoryA(token, dira, &size), "GetUserProfileDirectoryA: %lu\n", GetLastError());
	ok(size == (DWORD)lstrlenA(dira) + 1, "A size %lu for [%s]\n", size, dira);
	CloseHandle(token);
	return test_summary();
}

/* LookupPrivilegeValue gives each privilege name Windows' LUID
 * (SeCreateSymbolicLinkPrivilege is 35, SeDebugPrivilege 20, names in
 * any case), an unknown name ERROR_NO_SUCH_PRIVILEGE.  AdjustTokenPrivileges
 * on the process token succeeds; for a privilege the token does not hold
 * the last error is ERROR_NOT_ALL_ASSIGNED, and the call needs
 * TOKEN_ADJUST_PRIVILEGES.  What the token holds differs between
 * accounts, so the test asks for one a plain account never holds
 * (SeCreateTokenPrivilege). */
#include "test.h"

int main(void)
{
	TOKEN_PRIVILEGES tp, prev;
	HANDLE token;
	LUID luid = { 0, 0 };
	DWORD len;

	/* Wine 8's table ends before SeCreateSymbolicLinkPrivilege. */
	ok_todo_wine(LookupPrivilegeValueW(NULL, L"SeCreateSymbolicLinkPrivilege", &luid) && luid.LowPart == 35 &&
			     !luid.HighPart,
		     "symbolic links: %lu\n", luid.LowPart);
	ok(LookupPrivilegeValueA(NULL, "sedebugprivilege", &luid) && luid.LowPart == 20, "debug: %lu\n", luid.LowPart);
	ok(LookupPrivilegeValueA("", SE_LOCK_MEMORY_NAME, &luid) && luid.LowPart == 4, "lock memory: %lu\n", luid.LowPart);
	SetLastError(0xdeadbeef);
	ok(!LookupPrivilegeValueW(NULL, L"SeNdshimNoSuchPrivilege", &luid) && GetLastError() == ERROR_NO_SUCH_PRIVILEGE,
	   "unknown: error %lu\n", GetLastError());

	ok(OpenProcessToken(GetCurrentProcess(), TOKEN_ADJUST_PRIVILEGES | TOKEN_QUERY, &token), "OpenProcessToken: %lu\n",
	   GetLastError());
	ok(LookupPrivilegeValueW(NULL, L"SeCreateTokenPrivilege", &tp.Privileges[0].Luid), "lookup failed\n");
	tp.PrivilegeCount = 1;
	tp.Privileges[0].Attributes = SE_PRIVILEGE_ENABLED;
	SetLastError(0xdeadbeef);
	ok(AdjustTokenPrivileges(token, FALSE, &tp, sizeof(prev), &prev, &len), "AdjustTokenPrivileges: %lu\n",
	   GetLastError());
	ok(GetLastError() == ERROR_NOT_ALL_ASSIGNED, "a privilege not held: error %lu\n", GetLastError());
	CloseHandle(token);
	ok(OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token), "OpenProcessToken: %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	ok(!AdjustTokenPrivileges(token, FALSE, &tp, 0, NULL, NULL) && GetLastError() == ERROR_ACCESS_DENIED,
	   "without TOKEN_ADJUST_PRIVILEGES: error %lu\n", GetLastError());
	CloseHandle(token);
	return test_summary();
}

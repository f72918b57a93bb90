/* VerifyVersionInfo and VerSetConditionMask.  Windows answers for
 * programs without a compatibility manifest with the version GetVersionEx
 * reports, so the checks compare against that, not a fixed number:
 * equal holds, one more major version does not (ERROR_OLD_WIN_VERSION),
 * major/minor/service pack compare as one version (the first field that
 * differs decides), the condition mask layout, and bad arguments. */
#include <windows.h>

#include "test.h"

static OSVERSIONINFOEXW cur;

static BOOL verify(DWORD major, DWORD minor, BYTE cond_major, BYTE cond_minor, DWORD type)
{
	OSVERSIONINFOEXW v = { .dwOSVersionInfoSize = sizeof(v) };
	DWORDLONG mask = 0;

	v.dwMajorVersion = major;
	v.dwMinorVersion = minor;
	if (type & VER_MAJORVERSION)
		mask = VerSetConditionMask(mask, VER_MAJORVERSION, cond_major);
	if (type & VER_MINORVERSION)
		mask = VerSetConditionMask(mask, VER_MINORVERSION, cond_minor);
	return VerifyVersionInfoW(&v, type, mask);
}

int main(void)
{
	OSVERSIONINFOEXW v = { .dwOSVersionInfoSize = sizeof(v) };
	OSVERSIONINFOEXA va = { .dwOSVersionInfoSize = sizeof(va) };
	DWORDLONG mask;

	cur.dwOSVersionInfoSize = sizeof(cur);
	ok(GetVersionExW((OSVERSIONINFOW *)&cur), "GetVersionExW\n");

	/* Three bits per field, at the field's bit number times three. */
	mask = VerSetConditionMask(0, VER_MAJORVERSION, VER_GREATER_EQUAL);
	ok(mask == (DWORDLONG)VER_GREATER_EQUAL << 3, "major GE mask %#llx\n", mask);
	mask = VerSetConditionMask(mask, VER_MINORVERSION, VER_EQUAL);
	ok(mask == (((DWORDLONG)VER_GREATER_EQUAL << 3) | VER_EQUAL), "major GE + minor EQ mask %#llx\n", mask);
	mask = VerSetConditionMask(0, VER_SERVICEPACKMAJOR, VER_LESS);
	ok(mask == (DWORDLONG)VER_LESS << 15, "sp major LESS mask %#llx\n", mask);
	ok(VerSetConditionMask(mask, VER_MAJORVERSION, 0) == mask, "condition 0 changed the mask\n");

	ok(verify(cur.dwMajorVersion, cur.dwMinorVersion, VER_EQUAL, VER_EQUAL, VER_MAJORVERSION | VER_MINORVERSION),
	   "the current version is not equal to itself\n");
	ok(verify(cur.dwMajorVersion, 0, VER_GREATER_EQUAL, 0, VER_MAJORVERSION), "major >= current failed\n");
	SetLastError(0xdeadbeef);
	ok(!verify(cur.dwMajorVersion + 1, 0, VER_GREATER_EQUAL, VER_GREATER_EQUAL, VER_MAJORVERSION | VER_MINORVERSION),
	   "major >= current + 1 held\n");
	ok(GetLastError() == ERROR_OLD_WIN_VERSION, "error %lu\n", GetLastError());
	/* One version: major - 1 with a huge minor is still older. */
	ok(verify(cur.dwMajorVersion - 1, 99, VER_GREATER_EQUAL, VER_GREATER_EQUAL, VER_MAJORVERSION | VER_MINORVERSION),
	   "(major-1).99 >= current failed: minor must not decide\n");
	ok(verify(cur.dwMajorVersion + 1, 0, VER_LESS, VER_LESS, VER_MAJORVERSION | VER_MINORVERSION),
	   "current < major+1 failed\n");

	v.dwPlatformId = VER_PLATFORM_WIN32_NT;
	ok(VerifyVersionInfoW(&v, VER_PLATFORMID, VerSetConditionMask(0, VER_PLATFORMID, VER_EQUAL)),
	   "platform is not NT\n");
	v.dwBuildNumber = cur.dwBuildNumber;
	ok(VerifyVersionInfoW(&v, VER_BUILDNUMBER, VerSetConditionMask(0, VER_BUILDNUMBER, VER_GREATER_EQUAL)),
	   "build >= current failed\n");
	v.dwBuildNumber = cur.dwBuildNumber + 1;
	ok(!VerifyVersionInfoW(&v, VER_BUILDNUMBER, VerSetConditionMask(0, VER_BUILDNUMBER, VER_GREATER_EQUAL)),
	   "build >= current + 1 held\n");

	SetLastError(0xdeadbeef);
	ok(!VerifyVersionInfoW(&v, 0, VerSetConditionMask(0, VER_MAJORVERSION, VER_EQUAL)), "no type bits accepted\n");
	ok(GetLastError() == ERROR_BAD_ARGUMENTS, "error %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	ok(!VerifyVersionInfoW(&v, VER_MAJORVERSION, 0), "no conditions accepted\n");
	ok(GetLastError() == ERROR_BAD_ARGUMENTS, "error %lu\n", GetLastError());

	va.dwMajorVersion = cur.dwMajorVersion;
	ok(VerifyVersionInfoA(&va, VER_MAJORVERSION, VerSetConditionMask(0, VER_MAJORVERSION, VER_EQUAL)),
	   "VerifyVersionInfoA: major == current failed\n");
	return test_summary();
}

/* What msmpi.dll imports from kernel32 and msvcrt beyond the common set:
 * CopyFileW (data, bFailIfExists), GetComputerNameExW (NetBIOS, DNS host
 * name and full name, the size protocol), DeviceIoControl with a control
 * code nothing serves (MS-MPI's MPI-IO relies on it failing),
 * _strerror, wcstok_s, sscanf_s with a sized %s, _wfopen_s; with the
 * argument "assert", _assert ends the program as abort does (exit 3). */
#define MINGW_HAS_SECURE_API 1
#include <windows.h>
#include <winioctl.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "test.h"

_CRTIMP void __cdecl _assert(const char *, const char *, unsigned);

static void test_copy(void)
{
	WCHAR dir[MAX_PATH], src[MAX_PATH], dst[MAX_PATH];
	char buf[64];
	DWORD n = 0;
	HANDLE h;

	GetTempPathW(MAX_PATH, dir);
	swprintf(src, MAX_PATH, L"%lsmsmpi_copy_src_%lu.txt", dir, GetCurrentProcessId());
	swprintf(dst, MAX_PATH, L"%lsmsmpi_copy_dst_%lu.txt", dir, GetCurrentProcessId());
	h = CreateFileW(src, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
	ok(h != INVALID_HANDLE_VALUE, "create: %lu\n", GetLastError());
	WriteFile(h, "copied bytes", 12, &n, NULL);
	CloseHandle(h);
	DeleteFileW(dst);
	ok(CopyFileW(src, dst, TRUE), "CopyFileW: %lu\n", GetLastError());
	h = CreateFileW(dst, GENERIC_READ, 0, NULL, OPEN_EXISTING, 0, NULL);
	ok(h != INVALID_HANDLE_VALUE && ReadFile(h, buf, sizeof(buf), &n, NULL) && n == 12 && !memcmp(buf, "copied bytes", 12),
	   "copy holds %lu bytes\n", n);
	CloseHandle(h);
	SetLastError(0xdeadbeef);
	ok(!CopyFileW(src, dst, TRUE) && GetLastError() == ERROR_FILE_EXISTS, "over an existing file: %lu\n",
	   GetLastError());
	ok(CopyFileW(src, dst, FALSE), "replacing: %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	ok(!CopyFileW(L"C:\\no\\such\\file.txt", dst, FALSE) &&
		   (GetLastError() == ERROR_PATH_NOT_FOUND || GetLastError() == ERROR_FILE_NOT_FOUND),
	   "a missing source: %lu\n", GetLastError());
	DeleteFileW(src);
	DeleteFileW(dst);
}

static void test_names(void)
{
	WCHAR nb[64], host[256], full[256], tiny[2];
	DWORD n;

	n = 64;
	ok(GetComputerNameExW(ComputerNameNetBIOS, nb, &n) && n == wcslen(nb) && n > 0, "NetBIOS name\n");
	n = 256;
	ok(GetComputerNameExW(ComputerNameDnsHostname, host, &n) && n == wcslen(host) && n > 0, "DNS host name\n");
	ok(!_wcsicmp(host, nb) || wcslen(host) > 15, "host %ls and NetBIOS %ls differ\n", host, nb);
	n = 256;
	ok(GetComputerNameExW(ComputerNameDnsFullyQualified, full, &n) && !_wcsnicmp(full, host, wcslen(host)),
	   "full name %ls does not start with %ls\n", full, host);
	n = 1;
	SetLastError(0xdeadbeef);
	ok(!GetComputerNameExW(ComputerNameDnsHostname, tiny, &n) && GetLastError() == ERROR_MORE_DATA &&
		   n == wcslen(host) + 1,
	   "short buffer: %lu, size %lu\n", GetLastError(), n);
}

static void test_ioctl(void)
{
	WCHAR path[MAX_PATH];
	DWORD got = 77;
	HANDLE h;

	GetModuleFileNameW(NULL, path, MAX_PATH);
	h = CreateFileW(path, GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING, 0, NULL);
	ok(h != INVALID_HANDLE_VALUE, "open self\n");
	SetLastError(0xdeadbeef);
	ok(!DeviceIoControl(h, FSCTL_WRITE_RAW_ENCRYPTED, NULL, 0, NULL, 0, &got, NULL), "an invalid FSCTL succeeded\n");
	ok(GetLastError() != 0xdeadbeef && GetLastError() != ERROR_SUCCESS, "no error set\n");
	CloseHandle(h);
}

static void test_crt(void)
{
	WCHAR text[] = L"1,2.;3", *ctx = NULL, *t;
	char name[16];
	int a = 0, b = 0, n;
	FILE *f = NULL;
	WCHAR path[MAX_PATH];

	errno = ENOENT;
	ok(!strcmp(_strerror("open"), "open: No such file or directory\n"), "_strerror: '%s'\n", _strerror("open"));
	errno = ENOENT;
	ok(!strcmp(_strerror(NULL), "No such file or directory\n"), "_strerror(NULL): '%s'\n", _strerror(NULL));
	t = wcstok_s(text, L",.:;", &ctx);
	ok(t && !wcscmp(t, L"1"), "first token %ls\n", t);
	t = wcstok_s(NULL, L",.:;", &ctx);
	ok(t && !wcscmp(t, L"2"), "second token %ls\n", t);
	t = wcstok_s(NULL, L",.:;", &ctx);
	ok(t && !wcscmp(t, L"3"), "third token %ls\n", t);
	ok(!wcstok_s(NULL, L",.:;", &ctx), "a fourth token\n");
	n = sscanf_s("12.34 host", "%d.%d %s", &a, &b, name, (unsigned)sizeof(name));
	ok(n == 3 && a == 12 && b == 34 && !strcmp(name, "host"), "sscanf_s: %d %d %d %s\n", n, a, b, name);
	n = sscanf_s("toolongforthebuffer", "%s", name, 4u);
	ok(n == 0 && name[0] == 0, "an overflowing %%s: %d '%s'\n", n, name);
	GetTempPathW(MAX_PATH, path);
	wcscat(path, L"msmpi_wfopen_s.txt");
	ok(_wfopen_s(&f, path, L"w") == 0 && f, "_wfopen_s\n");
	if (f) {
		fputs("x", f);
		fclose(f);
	}
	DeleteFileW(path);
	f = (FILE *)1;
	ok(_wfopen_s(&f, L"C:\\no\\such\\dir\\x.txt", L"r") == ENOENT && f == NULL, "_wfopen_s of nothing\n");
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "assert")) {
		fflush(stdout);
		_assert("1 == 2", "msmpi_imports.c", 42);
		return 0;
	}
	test_copy();
	test_names();
	test_ioctl();
	test_crt();
	return test_summary();
}

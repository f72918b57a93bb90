/* Names programs ask for: the console title (Set/GetConsoleTitleA/W and
 * the size rule), GetConsoleWindow, GetComputerNameExA/W in each format
 * and their size protocol, DnsHostnameToComputerNameW, and
 * GetLongPathName / GetShortPathName (a volume without short names: the
 * name itself; a missing file fails). */
#include <stdio.h>
#include <string.h>
#include <windows.h>

#include "test.h"

static void test_title(int console)
{
	WCHAR w[64];
	char a[64];
	DWORD n;

	if (!console) {
		/* started with no terminal: no console */
		SetLastError(0xdeadbeef);
		ok(!SetConsoleTitleA("x") && GetLastError() == ERROR_INVALID_HANDLE, "no console: %lu\n", GetLastError());
		SetLastError(0xdeadbeef);
		ok(!GetConsoleTitleW(w, 64) && GetLastError() == ERROR_INVALID_HANDLE, "no console: %lu\n",
		   GetLastError());
		return;
	}
	ok(SetConsoleTitleW(L"ndshim title \x00e9"), "SetConsoleTitleW: %lu\n", GetLastError());
	n = GetConsoleTitleW(w, 64);
	ok(n == 14 && !wcscmp(w, L"ndshim title \x00e9"), "GetConsoleTitleW: %lu [%ls]\n", n, w);
	ok(SetConsoleTitleA("plain title"), "SetConsoleTitleA: %lu\n", GetLastError());
	n = GetConsoleTitleA(a, sizeof(a));
	ok(n == 11 && !strcmp(a, "plain title"), "GetConsoleTitleA: %lu [%s]\n", n, a);
	n = GetConsoleTitleW(w, 64);
	ok(n == 11 && !wcscmp(w, L"plain title"), "W after A: %lu [%ls]\n", n, w);
	/* a short buffer: as much as fits */
	memset(w, 0xcc, sizeof(w));
	n = GetConsoleTitleW(w, 6);
	ok(!wcsncmp(w, L"plain", 5) && w[5] == 0, "short buffer: %lu [%ls]\n", n, w);
}

static void test_window(void)
{
	HWND h = GetConsoleWindow();

	/* ndrun: the terminal is no window of the program; Wine makes none
	 * for a console it did not start in a window either */
	printf("GetConsoleWindow: %p\n", (void *)h);
	ok(h == NULL || IsWindow(h), "GetConsoleWindow %p is not a window\n", (void *)h);
}

static void test_computer_names(void)
{
	WCHAR nb[MAX_COMPUTERNAME_LENGTH + 1], w[256], host[256], dom[256], out[64];
	char a[256];
	DWORD n = MAX_COMPUTERNAME_LENGTH + 1, size;

	ok(GetComputerNameW(nb, &n), "GetComputerNameW: %lu\n", GetLastError());

	size = 256;
	ok(GetComputerNameExW(ComputerNameNetBIOS, w, &size) && size == wcslen(nb) && !wcscmp(w, nb),
	   "NetBIOS: %lu [%ls], GetComputerName [%ls]\n", size, w, nb);
	size = 256;
	ok(GetComputerNameExW(ComputerNameDnsHostname, host, &size) && size == wcslen(host) && size > 0,
	   "DnsHostname: %lu\n", size);
	ok(!_wcsnicmp(host, nb, wcslen(nb)), "host %ls, NetBIOS %ls\n", host, nb);
	size = 256;
	ok(GetComputerNameExW(ComputerNameDnsDomain, dom, &size) && size == wcslen(dom), "DnsDomain: %lu\n", size);
	size = 256;
	ok(GetComputerNameExW(ComputerNameDnsFullyQualified, w, &size), "DnsFullyQualified: %lu\n", GetLastError());
	{
		WCHAR want[512];

		swprintf(want, 512, *dom ? L"%ls.%ls" : L"%ls", host, dom);
		ok(!wcscmp(w, want), "fully qualified [%ls], want [%ls]\n", w, want);
	}
	size = 256;
	ok(GetComputerNameExW(ComputerNamePhysicalDnsHostname, w, &size) && !wcscmp(w, host), "physical [%ls]\n", w);

	/* too small: ERROR_MORE_DATA and the size with the terminator */
	size = 1;
	SetLastError(0xdeadbeef);
	ok(!GetComputerNameExW(ComputerNameDnsHostname, w, &size) && GetLastError() == ERROR_MORE_DATA &&
		   size == wcslen(host) + 1,
	   "short: %lu, error %lu\n", size, GetLastError());
	size = 0;
	ok(!GetComputerNameExW(ComputerNameDnsHostname, NULL, &size) && size == wcslen(host) + 1, "NULL: %lu\n",
	   size);
	size = 256;
	SetLastError(0xdeadbeef);
	ok(!GetComputerNameExW(ComputerNameMax, w, &size) && GetLastError() == ERROR_INVALID_PARAMETER,
	   "bad format: %lu\n", GetLastError());
	size = sizeof(a);
	ok(GetComputerNameExA(ComputerNameDnsHostname, a, &size) && size == strlen(a), "A: %lu [%s]\n", size, a);

	/* the NetBIOS form of a DNS name: upper case, 15 characters */
	size = 64;
	ok(DnsHostnameToComputerNameW(L"build-host", out, &size) && size == 10 && !wcscmp(out, L"BUILD-HOST"),
	   "DnsHostnameToComputerName: %lu [%ls]\n", size, out);
	size = 64;
	ok(DnsHostnameToComputerNameW(L"averyveryverylonghostname", out, &size) && size == 15 &&
		   !wcscmp(out, L"AVERYVERYVERYLO"),
	   "long name: %lu [%ls]\n", size, out);
	size = 3;
	SetLastError(0xdeadbeef);
	ok(!DnsHostnameToComputerNameW(L"build-host", out, &size) && GetLastError() == ERROR_MORE_DATA,
	   "short: %lu, error %lu\n", size, GetLastError());
}

static void test_long_short(void)
{
	char full[MAX_PATH], buf[MAX_PATH];
	WCHAR wbuf[MAX_PATH];
	HANDLE h;
	DWORD n;

	h = CreateFileA("sys_names Long Name.txt", GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
	CloseHandle(h);
	GetFullPathNameA("sys_names Long Name.txt", sizeof(full), full, NULL);

	n = GetLongPathNameA(full, buf, sizeof(buf));
	ok(n == strlen(full) && !strcmp(buf, full), "GetLongPathNameA: %lu [%s]\n", n, buf);
	n = GetLongPathNameA(full, buf, 4);
	ok(n == strlen(full) + 1, "short buffer: %lu\n", n);
	n = GetLongPathNameA(full, NULL, 0);
	ok(n == strlen(full) + 1, "NULL: %lu\n", n);
	n = GetLongPathNameW(L"sys_names Long Name.txt", wbuf, MAX_PATH);
	ok(n == 23 && !wcscmp(wbuf, L"sys_names Long Name.txt"), "relative: %lu [%ls]\n", n, wbuf);
	/* in place */
	strcpy(buf, full);
	ok(GetLongPathNameA(buf, buf, sizeof(buf)) == strlen(full) && !strcmp(buf, full), "in place [%s]\n", buf);
	SetLastError(0xdeadbeef);
	ok(!GetLongPathNameA("sys_names no such file.txt", buf, sizeof(buf)) && GetLastError() == ERROR_FILE_NOT_FOUND,
	   "missing: %lu\n", GetLastError());

	/* a name with spaces and a long extension has a short form on
	 * volumes that keep them; where none exists, the long name */
	n = GetShortPathNameA(full, buf, sizeof(buf));
	ok(n > 0 && n < sizeof(buf), "GetShortPathNameA: %lu\n", n);
	if (strchr(buf, '~'))
		printf("this volume has short names: %s\n", buf);
	else
		ok(!strcmp(buf, full), "short name [%s]\n", buf);
	ok(GetShortPathNameW(L"sys_names Long Name.txt", wbuf, MAX_PATH) > 0, "GetShortPathNameW: %lu\n",
	   GetLastError());
	SetLastError(0xdeadbeef);
	ok(!GetShortPathNameA("sys_names no such file.txt", buf, sizeof(buf)) && GetLastError() == ERROR_FILE_NOT_FOUND,
	   "missing: %lu\n", GetLastError());
	DeleteFileA(full);
}

int main(int argc, char **argv)
{
	test_title(!(argc > 1 && !strcmp(argv[1], "noconsole")));
	test_window();
	test_computer_names();
	test_long_short();
	return test_summary();
}

/* FindFirstFile(Ex)/FindNextFile/FindClose: a folder's entries matched
 * against a wildcard pattern, case-insensitively ('*', '?', "*.*" also
 * matching names without a dot), with "." and ".." in a folder that is
 * not the root, each entry's attributes and size; the errors for a
 * missing folder, no match and the end of the search. */
#include <windows.h>

#include "test.h"

static char dir[MAX_PATH];

static void make_file(const char *name, DWORD size)
{
	char path[MAX_PATH];
	HANDLE h;
	DWORD done;
	char buf[64] = { 0 };

	snprintf(path, sizeof(path), "%s\\%s", dir, name);
	h = CreateFileA(path, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
	ok(h != INVALID_HANDLE_VALUE, "create %s: %lu\n", path, GetLastError());
	if (size)
		WriteFile(h, buf, size, &done, NULL);
	CloseHandle(h);
}

/* Names a pattern finds, as "|a|b|" in the order found; count returned. */
static int find_all(const char *pattern, char *names, size_t len, WIN32_FIND_DATAA *last)
{
	char path[MAX_PATH];
	WIN32_FIND_DATAA fd;
	HANDLE h;
	int n = 0;

	snprintf(path, sizeof(path), "%s\\%s", dir, pattern);
	snprintf(names, len, "|");
	h = FindFirstFileA(path, &fd);
	if (h == INVALID_HANDLE_VALUE)
		return -(int)GetLastError();
	do {
		n++;
		strncat(names, fd.cFileName, len - strlen(names) - 2);
		strcat(names, "|");
		if (last)
			*last = fd;
	} while (FindNextFileA(h, &fd));
	ok(GetLastError() == ERROR_NO_MORE_FILES, "%s: end with error %lu\n", pattern, GetLastError());
	ok(FindClose(h), "FindClose\n");
	return n;
}

static void test_patterns(void)
{
	char names[512];
	WIN32_FIND_DATAA fd;
	int n;

	n = find_all("*", names, sizeof(names), NULL);
	ok(n == 6, "*: %d entries %s\n", n, names);
	ok(strstr(names, "|.|") && strstr(names, "|..|"), "*: no . and .. in %s\n", names);
	n = find_all("*.txt", names, sizeof(names), NULL);
	ok(n == 2 && strstr(names, "|a.txt|") && strstr(names, "|B.TXT|"), "*.txt: %s\n", names);
	n = find_all("*.*", names, sizeof(names), NULL);
	ok(n == 6 && strstr(names, "|noext|"), "*.*: %d %s\n", n, names);
	n = find_all("?.txt", names, sizeof(names), NULL);
	ok(n == 2, "?.txt: %d %s\n", n, names);
	n = find_all("NOEXT", names, sizeof(names), NULL);
	ok(n == 1 && !strcmp(names, "|noext|"), "NOEXT: %s\n", names);
	n = find_all("a.tx?", names, sizeof(names), &fd);
	ok(n == 1 && fd.nFileSizeLow == 10 && fd.nFileSizeHigh == 0, "a.tx?: %d, size %lu\n", n, fd.nFileSizeLow);
	ok(!(fd.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY), "a.txt attributes %#lx\n", fd.dwFileAttributes);
	n = find_all("su*", names, sizeof(names), &fd);
	ok(n == 1 && (fd.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY), "sub: %d attributes %#lx\n", n,
	   fd.dwFileAttributes);
	n = find_all("nothing*", names, sizeof(names), NULL);
	ok(n == -ERROR_FILE_NOT_FOUND, "no match: %d\n", n);
	n = find_all("missing\\*", names, sizeof(names), NULL);
	ok(n == -ERROR_PATH_NOT_FOUND, "missing folder: %d\n", n);
}

static void test_ex_and_w(void)
{
	WCHAR wpath[MAX_PATH];
	WIN32_FIND_DATAW fd;
	HANDLE h;

	MultiByteToWideChar(CP_ACP, 0, dir, -1, wpath, MAX_PATH);
	lstrcatW(wpath, L"\\b.*");
	h = FindFirstFileExW(wpath, FindExInfoBasic, &fd, FindExSearchNameMatch, NULL, FIND_FIRST_EX_LARGE_FETCH);
	ok(h != INVALID_HANDLE_VALUE, "FindFirstFileExW: %lu\n", GetLastError());
	if (h != INVALID_HANDLE_VALUE) {
		ok(!lstrcmpW(fd.cFileName, L"B.TXT"), "found %ls\n", fd.cFileName);
		/* FindExInfoBasic: no short name. */
		ok(!fd.cAlternateFileName[0], "short name %ls\n", fd.cAlternateFileName);
		ok(!FindNextFileW(h, &fd) && GetLastError() == ERROR_NO_MORE_FILES, "a second B.TXT?\n");
		ok(FindClose(h), "FindClose\n");
	}
	SetLastError(0xdeadbeef);
	h = FindFirstFileExW(wpath, FindExInfoMaxInfoLevel, &fd, FindExSearchNameMatch, NULL, 0);
	ok(h == INVALID_HANDLE_VALUE && GetLastError() == ERROR_INVALID_PARAMETER, "bad level: %lu\n",
	   GetLastError());
	SetLastError(0xdeadbeef);
	ok(!FindClose(INVALID_HANDLE_VALUE), "FindClose(INVALID_HANDLE_VALUE) succeeded\n");
	ok(GetLastError() == ERROR_INVALID_HANDLE, "error %lu\n", GetLastError());
}

int main(void)
{
	char tmp[MAX_PATH], sub[MAX_PATH];

	GetTempPathA(sizeof(tmp), tmp);
	snprintf(dir, sizeof(dir), "%sndshim-find-%lu", tmp, GetCurrentProcessId());
	ok(CreateDirectoryA(dir, NULL), "CreateDirectory %s: %lu\n", dir, GetLastError());
	make_file("a.txt", 10);
	make_file("B.TXT", 0);
	make_file("noext", 1);
	snprintf(sub, sizeof(sub), "%s\\sub", dir);
	ok(CreateDirectoryA(sub, NULL), "CreateDirectory sub\n");

	test_patterns();
	test_ex_and_w();

	RemoveDirectoryA(sub);
	for (const char *const *n = (const char *const[]){ "a.txt", "B.TXT", "noext", NULL }; *n; n++) {
		char path[MAX_PATH];
		snprintf(path, sizeof(path), "%s\\%s", dir, *n);
		DeleteFileA(path);
	}
	ok(RemoveDirectoryA(dir), "RemoveDirectory: %lu\n", GetLastError());
	return test_summary();
}

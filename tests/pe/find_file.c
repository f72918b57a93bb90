/* FindFirstFile(Ex)/FindNextFile/FindClose: Windows' wildcard rules,
 * order, the data of each entry, the errors. */
#include <wchar.h>

#include "test.h"

static const char *const names[] = { "a.txt", "ab.txt", "abc.TXT", "noext", "file1", "x.html",
				     "b.tar.gz", "Zed", "_u" };

static void setup(void)
{
	char path[MAX_PATH];
	DWORD written;

	CreateDirectoryA("find_dir", NULL);
	CreateDirectoryA("find_dir\\sub", NULL);
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		HANDLE h;

		snprintf(path, sizeof(path), "find_dir\\%s", names[i]);
		h = CreateFileA(path, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
		ok(h != INVALID_HANDLE_VALUE, "create %s: %lu\n", path, GetLastError());
		WriteFile(h, "0123456789", i, &written, NULL);
		CloseHandle(h);
	}
}

static void cleanup(void)
{
	char path[MAX_PATH];

	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "find_dir\\%s", names[i]);
		DeleteFileA(path);
	}
	DeleteFileW(L"find_dir\\caf\u00e9.txt");
	RemoveDirectoryA("find_dir\\sub");
	RemoveDirectoryA("find_dir");
}

/* The names found, space-separated, "/" after directories; "ERR n" when
 * FindFirstFile fails. */
static const char *list(const char *pattern)
{
	static char out[1024];
	WIN32_FIND_DATAA d;
	HANDLE h;
	size_t len = 0;

	SetLastError(0xdeadbeef);
	h = FindFirstFileA(pattern, &d);
	if (h == INVALID_HANDLE_VALUE) {
		snprintf(out, sizeof(out), "ERR %lu", GetLastError());
		return out;
	}
	out[0] = 0;
	do
		len += snprintf(out + len, sizeof(out) - len, "%s%s%s", len ? " " : "", d.cFileName,
				(d.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) ? "/" : "");
	while (FindNextFileA(h, &d));
	ok(GetLastError() == ERROR_NO_MORE_FILES, "%s: ended with error %lu\n", pattern, GetLastError());
	ok(FindClose(h), "FindClose: %lu\n", GetLastError());
	return out;
}

#define check(pattern, expected)                                                                \
	do {                                                                                    \
		const char *got_ = list(pattern);                                               \
		ok(!strcmp(got_, expected), "%s: got \"%s\", expected \"%s\"\n", pattern, got_, \
		   expected);                                                                   \
	} while (0)

/* Windows turns '?' into DOS_QM (none before a dot or at the end), a
 * '*' before a dot into DOS_STAR and a '.' before a wildcard or the end
 * into DOS_DOT; Wine matches '?' as exactly one character and "*." like
 * "*". */
#define check_todo_wine(pattern, expected)                                                      \
	do {                                                                                    \
		const char *got_ = list(pattern);                                               \
		ok_todo_wine(!strcmp(got_, expected), "%s: got \"%s\", expected \"%s\"\n", pattern, \
			     got_, expected);                                                   \
	} while (0)

static void test_patterns(void)
{
	check("find_dir\\*", "./ ../ a.txt ab.txt abc.TXT b.tar.gz file1 noext sub/ x.html Zed _u");
	check("find_dir\\*.*", "./ ../ a.txt ab.txt abc.TXT b.tar.gz file1 noext sub/ x.html Zed _u");
	check("find_dir\\*.txt", "a.txt ab.txt abc.TXT");
	check("find_dir\\?.txt", "a.txt");
	check("find_dir\\file?", "file1");
	check("find_dir\\A.TXT", "a.txt");
	check("find_dir\\*.t*", "a.txt ab.txt abc.TXT b.tar.gz");
	check("find_dir\\b.*", "b.tar.gz");
	check("find_dir\\*.gz", "b.tar.gz");
	check("find_dir\\noext.*", "noext");
	check("find_dir\\noext.", "noext");
	check("find_dir\\*x*", "a.txt ab.txt abc.TXT noext x.html");
	check("find_dir/sub/*", "./ ../");
	check("find_dir", "find_dir/");
	check("find_dir\\sub", "sub/");
	check_todo_wine("find_dir\\a?.txt", "a.txt ab.txt");
	check_todo_wine("find_dir\\a??.txt", "a.txt ab.txt abc.TXT");
	check_todo_wine("find_dir\\file??", "file1");
	check_todo_wine("find_dir\\*.", "./ ../ file1 noext sub/ Zed _u");
	check_todo_wine("find_dir\\*.?", "./ ../ file1 noext sub/ Zed _u");

	check("find_dir\\nothing*", "ERR 2");
	check("find_dir\\nothing", "ERR 2");
	check("no_such_dir\\*", "ERR 3");
	check("find_dir\\", "ERR 2");
	check("", "ERR 3");
}

static void test_data(void)
{
	WIN32_FIND_DATAW d;
	HANDLE h;
	FILETIME now;
	ULONGLONG t, n;

	h = FindFirstFileW(L"find_dir\\b.tar.gz", &d);
	ok(h != INVALID_HANDLE_VALUE, "FindFirstFileW: %lu\n", GetLastError());
	ok(!wcscmp(d.cFileName, L"b.tar.gz"), "name %ls\n", d.cFileName);
	ok(d.nFileSizeLow == 6 && d.nFileSizeHigh == 0, "size %lu\n", d.nFileSizeLow);
	ok(!(d.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY), "attributes %#lx\n", d.dwFileAttributes);
	GetSystemTimeAsFileTime(&now);
	t = ((ULONGLONG)d.ftLastWriteTime.dwHighDateTime << 32) | d.ftLastWriteTime.dwLowDateTime;
	n = ((ULONGLONG)now.dwHighDateTime << 32) | now.dwLowDateTime;
	ok(t <= n && n - t < 600ull * 10000000, "last write %llu, now %llu\n", t, n);
	ok(!FindNextFileW(h, &d) && GetLastError() == ERROR_NO_MORE_FILES, "FindNextFileW: %lu\n",
	   GetLastError());
	ok(FindClose(h), "FindClose\n");
	SetLastError(0xdeadbeef);
	ok(!FindClose(INVALID_HANDLE_VALUE) && GetLastError() == ERROR_INVALID_HANDLE,
	   "FindClose(INVALID_HANDLE_VALUE): %lu\n", GetLastError());

	h = FindFirstFileW(L"find_dir\\SUB", &d);
	ok(h != INVALID_HANDLE_VALUE && (d.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) &&
	   !wcscmp(d.cFileName, L"sub"), "directory: %ls %#lx\n", d.cFileName, d.dwFileAttributes);
	FindClose(h);

	/* A name outside ASCII, through the W and A forms (1252: 0xe9). */
	CloseHandle(CreateFileW(L"find_dir\\caf\u00e9.txt", GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0,
				NULL));
	h = FindFirstFileW(L"find_dir\\CAF\u00c9.*", &d);
	ok(h != INVALID_HANDLE_VALUE && !wcscmp(d.cFileName, L"caf\u00e9.txt"), "W: %ls\n",
	   h != INVALID_HANDLE_VALUE ? d.cFileName : L"(none)");
	FindClose(h);
	{
		WIN32_FIND_DATAA a;

		h = FindFirstFileA("find_dir\\caf\xe9.txt", &a);
		ok(h != INVALID_HANDLE_VALUE && !strcmp(a.cFileName, "caf\xe9.txt"), "A: error %lu\n",
		   GetLastError());
		FindClose(h);
	}
}

static void test_ex(void)
{
	WIN32_FIND_DATAW d;
	HANDLE h;
	int count = 0, dirs = 0;

	h = FindFirstFileExW(L"find_dir\\*", FindExInfoBasic, &d, FindExSearchLimitToDirectories, NULL,
			     FIND_FIRST_EX_LARGE_FETCH);
	ok(h != INVALID_HANDLE_VALUE, "FindFirstFileExW: %lu\n", GetLastError());
	if (h != INVALID_HANDLE_VALUE) {
		do {
			count++;
			if (!wcscmp(d.cFileName, L"sub"))
				dirs++;
			ok(!d.cAlternateFileName[0], "FindExInfoBasic gave a short name\n");
		} while (FindNextFileW(h, &d));
		FindClose(h);
	}
	/* Limiting to directories is advisory: the directories are there. */
	ok(dirs == 1 && count >= 3, "%d entries, sub %d\n", count, dirs);

	SetLastError(0xdeadbeef);
	h = FindFirstFileExW(L"find_dir\\*", FindExInfoMaxInfoLevel, &d, FindExSearchNameMatch, NULL, 0);
	ok(h == INVALID_HANDLE_VALUE && GetLastError() == ERROR_INVALID_PARAMETER,
	   "bad info level: %lu\n", GetLastError());
}

int main(void)
{
	setup();
	test_patterns();
	test_data();
	test_ex();
	cleanup();
	return test_summary();
}

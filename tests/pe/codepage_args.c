/* Non-ASCII file names given on the command line: the narrow command
 * line is the wide one in the ANSI code page, a name taken from it opens
 * with CreateFileA and fopen, FindFirstFileA returns the same bytes and
 * FindFirstFileW the same characters; the environment likewise.  Under
 * ndrun the code pages follow the Linux locale (docs/codepage.md):
 * PE_EXPECT_ACP / PE_EXPECT_OEMCP name the pages tests.list expects for
 * the locale it sets.  Arguments have no blanks or quotes. */
#define __USE_MINGW_ANSI_STDIO 0

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "test.h"

/* s in the ANSI code page (malloc'd); *lossy when it cannot hold all. */
static char *to_acp(const WCHAR *s, BOOL *lossy)
{
	int n = WideCharToMultiByte(CP_ACP, 0, s, -1, NULL, 0, NULL, NULL);
	char *a = malloc(n);
	BOOL used = FALSE;

	WideCharToMultiByte(CP_ACP, 0, s, -1, a, n, NULL, GetACP() == CP_UTF8 ? NULL : &used);
	if (lossy)
		*lossy = used;
	return a;
}

/* Whether the C runtime's narrow strings are in the ANSI code page (as
 * on Windows): ndrun's are UTF-8 whatever the page is. */
static int crt_is_acp(void)
{
	return test_on_wine() || GetACP() == CP_UTF8;
}

static void check_pages(void)
{
	const char *acp = getenv("PE_EXPECT_ACP"), *oem = getenv("PE_EXPECT_OEMCP");

	printf("ANSI code page %u, OEM code page %u\n", GetACP(), GetOEMCP());
	if (acp)
		ok(GetACP() == strtoul(acp, NULL, 10), "ACP %u, expected %s\n", GetACP(), acp);
	if (oem)
		ok(GetOEMCP() == strtoul(oem, NULL, 10), "OEMCP %u, expected %s\n", GetOEMCP(), oem);
}

static void check_file(int i, const WCHAR *warg, const char *aarg, char **argv)
{
	char dir[64], path[MAX_PATH], pattern[80];
	WCHAR wpattern[80];
	WIN32_FIND_DATAA fa;
	WIN32_FIND_DATAW fw;
	HANDLE h;
	FILE *f;

	snprintf(dir, sizeof(dir), "cpdir.%lu", GetCurrentProcessId());
	CreateDirectoryA(dir, NULL);
	snprintf(path, sizeof(path), "%s\\%s", dir, aarg);
	h = CreateFileA(path, GENERIC_WRITE, 0, NULL, CREATE_NEW, 0, NULL);
	ok(h != INVALID_HANDLE_VALUE, "arg %d: CreateFileA: %lu\n", i, GetLastError());
	CloseHandle(h);

	snprintf(pattern, sizeof(pattern), "%s\\*.txt", dir);
	h = FindFirstFileA(pattern, &fa);
	ok(h != INVALID_HANDLE_VALUE && !strcmp(fa.cFileName, aarg), "arg %d: FindFirstFileA [%s]\n", i,
	   h != INVALID_HANDLE_VALUE ? fa.cFileName : "none");
	FindClose(h);
	MultiByteToWideChar(CP_ACP, 0, pattern, -1, wpattern, 80);
	h = FindFirstFileW(wpattern, &fw);
	ok(h != INVALID_HANDLE_VALUE && !wcscmp(fw.cFileName, warg), "arg %d: FindFirstFileW\n", i);
	FindClose(h);

	if (crt_is_acp()) {
		ok(!strcmp(argv[i], aarg), "arg %d: main's argv [%s], command line [%s]\n", i, argv[i], aarg);
		snprintf(path, sizeof(path), "%s\\%s", dir, argv[i]);
		f = fopen(path, "r");
		ok(f != NULL, "arg %d: fopen(%s)\n", i, path);
		if (f)
			fclose(f);
	} else {
		printf("arg %d: ndrun's C runtime keeps UTF-8 strings under code page %u: main's argv "
		       "not compared (docs/codepage.md)\n",
		       i, GetACP());
	}
	snprintf(path, sizeof(path), "%s\\%s", dir, aarg);
	ok(DeleteFileA(path), "arg %d: DeleteFileA: %lu\n", i, GetLastError());
	ok(RemoveDirectoryA(dir), "RemoveDirectory: %lu\n", GetLastError());
}

static void check_environment(void)
{
	WCHAR w[64];
	char a[64], *want;
	const char *crt;
	BOOL lossy;

	if (!GetEnvironmentVariableW(L"PE_CP_VAR", w, 64)) {
		printf("PE_CP_VAR not set: the environment is not checked\n");
		return;
	}
	ok(!wcscmp(w, L"caf\x00e9.\x4e2d"), "PE_CP_VAR (W) is not caf\\xe9.\\x4e2d\n");
	want = to_acp(w, &lossy);
	ok(GetEnvironmentVariableA("PE_CP_VAR", a, sizeof(a)) == strlen(want) && !strcmp(a, want),
	   "PE_CP_VAR (A) [%s], want [%s]\n", a, want);
	crt = getenv("PE_CP_VAR");
	if (crt_is_acp())
		ok(crt && !strcmp(crt, want), "getenv [%s], want [%s]\n", crt ? crt : "(null)", want);
	free(want);
}

/* The A page's conversions take what a single-byte page takes, whatever
 * the page (C runtimes pass MB_PRECOMPOSED and a used-default flag);
 * UTF-8 named as such takes no such flag. */
static void check_acp_flags(void)
{
	WCHAR w[8];
	char a[8];
	BOOL used = TRUE;
	int n;

	n = MultiByteToWideChar(CP_ACP, MB_PRECOMPOSED | MB_ERR_INVALID_CHARS, "abc", -1, w, 8);
	ok(n == 4 && !wcscmp(w, L"abc"), "CP_ACP with MB_PRECOMPOSED: %d, error %lu\n", n, GetLastError());
	n = WideCharToMultiByte(CP_ACP, 0, L"abc", -1, a, 8, NULL, &used);
	ok(n == 4 && !strcmp(a, "abc") && !used, "CP_ACP with a used flag: %d %d, error %lu\n", n, used,
	   GetLastError());
	/* documented for CP_UTF8; Wine accepts both */
	SetLastError(0xdeadbeef);
	ok_todo_wine(!MultiByteToWideChar(CP_UTF8, MB_PRECOMPOSED, "abc", -1, w, 8) &&
			     GetLastError() == ERROR_INVALID_FLAGS,
		     "CP_UTF8 with MB_PRECOMPOSED: error %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	ok_todo_wine(!WideCharToMultiByte(CP_UTF8, 0, L"abc", -1, a, 8, NULL, &used) &&
			     GetLastError() == ERROR_INVALID_PARAMETER,
		     "CP_UTF8 with a used flag: error %lu\n", GetLastError());
}

int main(int argc, char **argv)
{
	const WCHAR *p = GetCommandLineW();
	char *a = to_acp(p, NULL);
	int i = 0;

	check_pages();
	check_acp_flags();
	ok(!strcmp(GetCommandLineA(), a), "GetCommandLineA [%s], want [%s]\n", GetCommandLineA(), a);
	free(a);

	/* the program's name, then the arguments */
	while (*p) {
		WCHAR arg[MAX_PATH];
		size_t n = 0;
		BOOL lossy;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		if (*p == '"') {
			for (p++; *p && *p != '"'; p++)
				;
			if (*p)
				p++;
		}
		while (*p && *p != ' ' && *p != '\t' && n < MAX_PATH - 1)
			arg[n++] = *p++;
		arg[n] = 0;
		if (i++ == 0)
			continue;
		a = to_acp(arg, &lossy);
		if (lossy)
			printf("arg %d cannot be written in code page %u: not checked\n", i - 1, GetACP());
		else if (i - 1 < argc)
			check_file(i - 1, arg, a, argv);
		free(a);
	}
	ok(i - 1 == argc - 1, "%d arguments on the command line, argc %d\n", i - 1, argc);
	check_environment();
	return test_summary();
}

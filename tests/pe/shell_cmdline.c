/* shell32's CommandLineToArgvW: Windows' splitting rules (the program
 * name taken as it is, backslashes before quotes, quotes inside quotes),
 * the empty command line, and the single LocalFree'd block. */
#include <windows.h>
#include <shellapi.h>

#include "test.h"

static void check(int line, const WCHAR *cmd, int want_argc, const WCHAR *const *want)
{
	int argc = -1;
	WCHAR **argv = CommandLineToArgvW(cmd, &argc);

	test_ok(argv != NULL, __FILE__, line, "[%ls]: NULL (%lu)\n", cmd, GetLastError());
	if (!argv)
		return;
	test_ok(argc == want_argc, __FILE__, line, "[%ls]: argc %d, expected %d\n", cmd, argc, want_argc);
	for (int i = 0; i < argc && i < want_argc; i++)
		test_ok(!wcscmp(argv[i], want[i]), __FILE__, line, "[%ls]: argv[%d] [%ls], expected [%ls]\n", cmd, i,
			argv[i], want[i]);
	test_ok(argv[argc] == NULL, __FILE__, line, "[%ls]: argv[argc] not NULL\n", cmd);
	/* One block: LocalFree releases all of it. */
	test_ok(LocalFree(argv) == NULL, __FILE__, line, "LocalFree failed\n");
}

#define CHECK(cmd, n, ...)                                         \
	do {                                                       \
		static const WCHAR *const w_[] = { __VA_ARGS__ }; \
		check(__LINE__, cmd, n, w_);                       \
	} while (0)

int main(void)
{
	WCHAR self[MAX_PATH];
	WCHAR **argv;
	int argc;

	CHECK(L"prog a b", 3, L"prog", L"a", L"b");
	CHECK(L"prog  \t a\t\tb  ", 3, L"prog", L"a", L"b");
	CHECK(L"\"C:\\Program Files\\x.exe\" arg", 2, L"C:\\Program Files\\x.exe", L"arg");
	/* The program name keeps its backslashes and ends at a quote. */
	CHECK(L"C:\\dir\\\"x y", 2, L"C:\\dir\\\"x", L"y");
	CHECK(L"\"a\"b c", 3, L"a", L"b", L"c");
	/* Backslashes: literal unless before a quote. */
	CHECK(L"p a\\\\b", 2, L"p", L"a\\\\b");
	CHECK(L"p a\\\\\\\"b", 2, L"p", L"a\\\"b");
	CHECK(L"p \"a\\\\\" b", 3, L"p", L"a\\", L"b");
	CHECK(L"p \"a\\\\\\\" b\"", 2, L"p", L"a\\\" b");
	CHECK(L"p \\\"x\\\"", 2, L"p", L"\"x\"");
	/* Quotes. */
	CHECK(L"p \"a b\" c", 3, L"p", L"a b", L"c");
	CHECK(L"p \"\"", 2, L"p", L"");
	CHECK(L"p \"\" \"\"", 3, L"p", L"", L"");
	CHECK(L"p a\"b c\"d e", 3, L"p", L"ab cd", L"e");
	CHECK(L"p \"a\"\"b\"", 2, L"p", L"a\"b");
	CHECK(L"p \"a\"\"\"b\"", 2, L"p", L"a\"b");
	CHECK(L"p \"\"\"a\"\"\"", 2, L"p", L"\"a\"");
	CHECK(L"p \"a b", 2, L"p", L"a b");
	CHECK(L"p \"\"\"\"\"\" x", 3, L"p", L"\"\"", L"x");

	/* Only blanks: one empty program name. */
	CHECK(L" a", 2, L"", L"a");

	/* The empty command line is the program's own path. */
	GetModuleFileNameW(NULL, self, MAX_PATH);
	argv = CommandLineToArgvW(L"", &argc);
	ok(argv && argc == 1 && !wcscmp(argv[0], self), "empty command line: %d [%ls]\n", argc,
	   argv ? argv[0] : L"(null)");
	LocalFree(argv);

	SetLastError(0);
	argv = CommandLineToArgvW(L"p a", NULL);
	ok(argv == NULL && GetLastError() == ERROR_INVALID_PARAMETER, "no count: %p %lu\n", argv, GetLastError());

	/* The process's own command line splits the same way. */
	argv = CommandLineToArgvW(GetCommandLineW(), &argc);
	ok(argv && argc == 3 && !wcscmp(argv[1], L"one two") && !wcscmp(argv[2], L"a\"b"), "own line: %d\n",
	   argc);
	LocalFree(argv);
	return test_summary();
}

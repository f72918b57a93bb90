/* A -municode program: wmain receives the arguments as UTF-16.  The runner
 * passes them as UTF-8 on the Linux command line (see tests.list); they must
 * arrive decoded, non-ASCII characters included.  Also GetCommandLineW and
 * the wide environment (_wgetenv, GetEnvironmentVariableW). */
#include <stdlib.h>
#include <wchar.h>
#include <windows.h>

#include "test.h"

static const wchar_t *const expected_args[] = {
	L"caf\x00e9",           /* é: two UTF-8 bytes */
	L"\x00fc" L"ber",       /* ü */
	L"\x4e2d",              /* 中: a CJK character, three UTF-8 bytes */
	L"mixed \x00e9\x00fc\x4e2d words",
	L"plain",
};
#define NARGS (sizeof(expected_args) / sizeof(expected_args[0]))

/* The documented msvcrt rules for splitting a command line ("Parsing C
 * command-line arguments"): whitespace separates arguments outside quotes;
 * 2n backslashes before a quote give n backslashes and the quote toggles
 * quoting; 2n+1 backslashes before a quote give n backslashes and a literal
 * quote; other backslashes are literal.  The program name (first word) ends
 * at the next whitespace or, if quoted, at the closing quote. */
static int split_args(const wchar_t *cmd, wchar_t out[][64], int max)
{
	int n = 0, quoted = 0;
	const wchar_t *p = cmd;

	if (*p == '"') {
		p++;
		while (*p && *p != '"')
			p++;
		if (*p)
			p++;
	} else {
		while (*p && *p != ' ' && *p != '\t')
			p++;
	}
	for (;;) {
		unsigned len = 0;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || n == max)
			return n;
		while (*p && (quoted || (*p != ' ' && *p != '\t'))) {
			unsigned bs = 0;

			while (*p == '\\') {
				bs++;
				p++;
			}
			if (*p == '"') {
				for (; bs >= 2; bs -= 2)
					if (len < 63)
						out[n][len++] = '\\';
				if (bs) {
					if (len < 63)
						out[n][len++] = '"';
				} else if (quoted && p[1] == '"') {
					/* msvcrt: "" inside quotes is a literal quote */
					if (len < 63)
						out[n][len++] = '"';
					p++;
				} else {
					quoted = !quoted;
				}
				p++;
				continue;
			}
			for (; bs; bs--)
				if (len < 63)
					out[n][len++] = '\\';
			if (!*p)
				break;
			if (len < 63)
				out[n][len++] = *p;
			p++;
		}
		out[n][len] = 0;
		n++;
	}
}

static void test_argv(int argc, wchar_t **argv)
{
	unsigned i;

	ok(argc == NARGS + 1, "argc %d\n", argc);
	ok(argv[argc] == NULL, "argv[argc] %p\n", argv[argc]);
	ok(wcsstr(argv[0], L"unicode_wmain") != NULL, "argv[0] [%ls]\n", argv[0]);
	for (i = 0; i < NARGS && i + 1 < (unsigned)argc; i++) {
		ok(!wcscmp(argv[i + 1], expected_args[i]), "argv[%u] %u chars, first U+%04x\n",
		   i + 1, (unsigned)wcslen(argv[i + 1]), argv[i + 1][0]);
	}
}

static void test_command_line(int argc, wchar_t **argv)
{
	static wchar_t split[16][64];
	const wchar_t *cmd = GetCommandLineW();
	int n, i;

	ok(cmd != NULL, "GetCommandLineW returned NULL\n");
	if (!cmd)
		return;
	/* Rule: GetCommandLineW returns the same pointer every time. */
	ok(GetCommandLineW() == cmd, "GetCommandLineW changed\n");
	/* Rule: wmain's argv is the command line split by the msvcrt rules. */
	n = split_args(cmd, split, 16);
	ok(n == argc - 1, "command line splits into %d arguments, argc %d\n", n, argc);
	for (i = 0; i < n && i + 1 < argc; i++)
		ok(!wcscmp(split[i], argv[i + 1]), "command line argument %d differs from argv\n",
		   i + 1);
	/* Rule: the ANSI command line holds the same text, converted to the
	 * ANSI code page (non-ASCII may become '?'): compare the length. */
	ok(strlen(GetCommandLineA()) >= wcslen(cmd) - 2 * NARGS,
	   "GetCommandLineA %u chars, W %u\n", (unsigned)strlen(GetCommandLineA()),
	   (unsigned)wcslen(cmd));
}

static void test_wide_env(void)
{
	/* The runner sets PE_WIDE_VAR to "é中" in UTF-8. */
	static const wchar_t want[] = L"\x00e9\x4e2d";
	const wchar_t *v;
	WCHAR buf[16];
	DWORD n;

	v = _wgetenv(L"PE_WIDE_VAR");
	ok(v && !wcscmp(v, want), "_wgetenv: %u chars\n", v ? (unsigned)wcslen(v) : 0);
	n = GetEnvironmentVariableW(L"PE_WIDE_VAR", buf, 16);
	ok(n == 2 && !wcscmp(buf, want), "GetEnvironmentVariableW: %lu\n", n);
	/* Rule: _wgetenv of an unset variable is NULL. */
	ok(_wgetenv(L"PE_WIDE_NOT_SET") == NULL, "_wgetenv found an unset variable\n");
}

int wmain(int argc, wchar_t **argv)
{
	test_argv(argc, argv);
	test_command_line(argc, argv);
	test_wide_env();
	return test_summary();
}

/* Finding a program's file as CreateProcess does (core/progfile.c): each
 * component matched whatever its case, an exact match first, ".exe"
 * added when the name has none, Windows paths. */
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "core/codepage.h"
#include "core/progfile.h"
#include "core/wstr.h"

static char root[PATH_MAX];

static void touch(const char *rel)
{
	char path[PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
}

static int setup(void **state)
{
	char canon[PATH_MAX], dir[PATH_MAX + 16];

	snprintf(root, sizeof(root), "/tmp/ndshim-progfile-XXXXXX");
	assert_non_null(mkdtemp(root));
	assert_non_null(realpath(root, canon));
	snprintf(root, sizeof(root), "%s", canon);
	snprintf(dir, sizeof(dir), "%s/Tools", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	touch("Tools/Hello.EXE");
	touch("Tools/both.exe");
	touch("Tools/BOTH.EXE");
	touch("Tools/script");
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

static char *rel(const char *r)
{
	static char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", root, r);
	return path;
}

static void test_match_case(void **state)
{
	char *got;

	got = path_match_case(rel("tools/hello.exe"));
	assert_non_null(got);
	assert_string_equal(got, rel("Tools/Hello.EXE"));
	free(got);
	/* An exact match wins over another case. */
	got = path_match_case(rel("Tools/BOTH.EXE"));
	assert_string_equal(got, rel("Tools/BOTH.EXE"));
	free(got);
	got = path_match_case(rel("Tools/both.exe"));
	assert_string_equal(got, rel("Tools/both.exe"));
	free(got);
	assert_null(path_match_case(rel("tools/nothing.exe")));
	assert_null(path_match_case(rel("nowhere/hello.exe")));
}

static char *find(const char *name)
{
	WCHAR *w = utf8_to_utf16_dup(name);
	size_t len = wstr_len(w);
	char *got = progfile_find(NULL, w, len, !progfile_has_ext(w, len));

	free(w);
	return got;
}

static void test_find(void **state)
{
	char win[PATH_MAX + 64], *got;

	got = find(rel("TOOLS/HELLO"));
	assert_non_null(got);
	assert_string_equal(got, rel("Tools/Hello.EXE"));
	free(got);
	/* A Windows path: Z:\ is the Linux root (docs/paths.md). */
	snprintf(win, sizeof(win), "Z:%s\\tools\\hello", root);
	for (char *p = win; *p; p++)
		if (*p == '/')
			*p = '\\';
	got = find(win);
	assert_non_null(got);
	assert_string_equal(got, rel("Tools/Hello.EXE"));
	free(got);
	/* No extension and no .exe file: the name as it is (Linux programs). */
	got = find(rel("tools/SCRIPT"));
	assert_non_null(got);
	assert_string_equal(got, rel("Tools/script"));
	free(got);
	/* A folder is not a program. */
	assert_null(find(rel("tools")));
	assert_null(find(rel("Tools/none")));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_match_case),
		cmocka_unit_test(test_find),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}

/* ndrun's own files: beside it (build tree), else in ../lib/ndshim
 * (installed), else the build-tree place for the message. */
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

#include "core/selfpath.h"

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

static void test_lookup_order(void **state)
{
	char bin[PATH_MAX + 8], want[PATH_MAX + 64], canon[PATH_MAX], *got;

	snprintf(root, sizeof(root), "/tmp/ndshim-selfpath-XXXXXX");
	assert_non_null(mkdtemp(root));
	assert_non_null(realpath(root, canon));
	snprintf(root, sizeof(root), "%s", canon);
	snprintf(bin, sizeof(bin), "%s/bin", root);
	assert_int_equal(mkdir(bin, 0755), 0);
	snprintf(want, sizeof(want), "%s/lib", root);
	assert_int_equal(mkdir(want, 0755), 0);
	snprintf(want, sizeof(want), "%s/lib/ndshim", root);
	assert_int_equal(mkdir(want, 0755), 0);

	/* Nowhere: the place beside ndrun, for the message. */
	got = ndrun_own_file_in(bin, "nd2prov.dll");
	snprintf(want, sizeof(want), "%s/bin/nd2prov.dll", root);
	assert_string_equal(got, want);
	free(got);

	/* Installed: PREFIX/lib/ndshim, canonical (no ".."). */
	touch("lib/ndshim/nd2prov.dll");
	got = ndrun_own_file_in(bin, "nd2prov.dll");
	snprintf(want, sizeof(want), "%s/lib/ndshim/nd2prov.dll", root);
	assert_string_equal(got, want);
	free(got);

	/* Beside ndrun wins (the build tree). */
	touch("bin/nd2prov.dll");
	got = ndrun_own_file_in(bin, "nd2prov.dll");
	snprintf(want, sizeof(want), "%s/bin/nd2prov.dll", root);
	assert_string_equal(got, want);
	free(got);

	snprintf(want, sizeof(want), "rm -rf '%s'", root);
	assert_int_equal(system(want), 0);
}

static void test_exe_dir(void **state)
{
	char exe[PATH_MAX], *dir = ndrun_exe_dir(), *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	assert_true(n > 0);
	exe[n] = 0;
	slash = strrchr(exe, '/');
	*slash = 0;
	assert_non_null(dir);
	assert_string_equal(dir, exe);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookup_order),
		cmocka_unit_test(test_exe_dir),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* docs/CRT-COVERAGE.md is what scripts/crt-coverage makes of the .spec
 * files now: a change to msvcrt.spec or ucrtbase.spec that leaves the
 * table behind fails here.  Without mingw-w64's nm and import libraries
 * (the real export lists) the check is skipped, and says so. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <cmocka.h>

static void test_doc_is_current(void **state)
{
	char cmd[4096], *slash;
	int status;

	(void)state;
	/* the script beside this file's tests/ folder */
	snprintf(cmd, sizeof(cmd), "%s", __FILE__);
	slash = strstr(cmd, "tests/unit/");
	if (slash)
		strcpy(slash, "scripts/crt-coverage --check 2>&1");
	else
		snprintf(cmd, sizeof(cmd), "scripts/crt-coverage --check 2>&1");
	status = system(cmd);
	assert_true(status != -1 && WIFEXITED(status));
	if (WEXITSTATUS(status) == 77) {
		printf("test_crt_coverage: skipped: mingw-w64's nm or import libraries are not installed\n");
		skip();
	}
	assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_doc_is_current),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

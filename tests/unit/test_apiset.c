/* The API-set rule (winapi-shim/apiset.h) and its table
 * (winapi-shim/apisets.list): prefix, case, the dropped revision, and a
 * table that is sorted, lower case and points at builtin DLLs only. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "apiset.h"
#include "builtin.h"

static void test_table(void **state)
{
	for (unsigned int i = 0; i < apiset_count; i++) {
		const char *c = apisets[i].contract;
		if (i && strcmp(apisets[i - 1].contract, c) >= 0)
			fail_msg("'%s' then '%s': not sorted or duplicate", apisets[i - 1].contract, c);
		for (const char *p = c; *p; p++)
			if (*p >= 'A' && *p <= 'Z')
				fail_msg("%s: not lower case", c);
		if (!apiset_is_name(c))
			fail_msg("%s: not an API-set name", c);
		if (!builtin_find(apisets[i].host))
			fail_msg("%s: host %s is not a builtin DLL", c, apisets[i].host);
	}
}

static void test_rule(void **state)
{
	assert_string_equal(apiset_resolve("api-ms-win-core-synch-l1-2-0.dll"), "kernel32");
	assert_string_equal(apiset_resolve("api-ms-win-core-synch-l1-2-0"), "kernel32");
	/* case-insensitive, ".dll" too */
	assert_string_equal(apiset_resolve("API-MS-Win-Core-Synch-L1-2-0.DLL"), "kernel32");
	/* the revision after the last hyphen is ignored ... */
	assert_string_equal(apiset_resolve("api-ms-win-core-synch-l1-2-7.dll"), "kernel32");
	/* ... but the rest must match whole */
	assert_null(apiset_resolve("api-ms-win-core-synch-l1-3-0.dll"));
	assert_null(apiset_resolve("api-ms-win-core-synch-l1-2.dll"));
	assert_null(apiset_resolve("api-ms-win-core-synch-l1-2-0-0.dll"));
	assert_null(apiset_resolve("api-ms-win-core-syn-l1-2-0.dll"));
	assert_string_equal(apiset_resolve("api-ms-win-core-rtlsupport-l1-1-0.dll"), "ntdll");
	assert_string_equal(apiset_resolve("api-ms-win-crt-stdio-l1-1-0.dll"), "ucrtbase");
	assert_string_equal(apiset_resolve("api-ms-win-crt-math-l1-1-0.dll"), "ucrtbase");
	/* every set the table lists, at revision 0 */
	for (unsigned int i = 0; i < apiset_count; i++) {
		char name[128];
		snprintf(name, sizeof(name), "%s-0.dll", apisets[i].contract);
		assert_string_equal(apiset_resolve(name), apisets[i].host);
	}
}

static void test_not_api_sets(void **state)
{
	assert_false(apiset_is_name("kernel32.dll"));
	assert_false(apiset_is_name("apims.dll"));
	assert_true(apiset_is_name("API-ms-win-core-file-l1-1-0.dll"));
	assert_true(apiset_is_name("ext-ms-win-ntuser-window-l1-1-0.dll"));
	assert_null(apiset_resolve("kernel32.dll"));
	assert_null(apiset_resolve("ext-ms-win-ntuser-window-l1-1-0.dll"));
	assert_null(apiset_resolve("api-"));
	assert_null(apiset_resolve("api-.dll"));
	assert_null(apiset_resolve("api-x"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_rule),
		cmocka_unit_test(test_not_api_sets),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

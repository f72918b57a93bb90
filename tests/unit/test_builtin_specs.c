/* Every builtin DLL's export table is sorted (lookup is a binary search),
 * has no duplicate names or ordinals, and resolves each of its names. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "builtin.h"

static void test_sorted_and_unique(void **state)
{
	for (unsigned int d = 0; d < builtin_dll_count; d++) {
		const struct builtin_dll *dll = builtin_dlls[d];
		for (unsigned int i = 1; i < dll->count; i++) {
			if (strcmp(dll->exports[i - 1].name, dll->exports[i].name) >= 0)
				fail_msg("%s: '%s' then '%s': not sorted or duplicate", dll->name,
					 dll->exports[i - 1].name, dll->exports[i].name);
		}
		for (unsigned int i = 0; i < dll->count; i++)
			for (unsigned int j = i + 1; j < dll->count; j++)
				if (dll->exports[i].ordinal && dll->exports[i].ordinal == dll->exports[j].ordinal)
					fail_msg("%s: ordinal %u twice", dll->name, dll->exports[i].ordinal);
	}
}

static void test_every_name_resolves(void **state)
{
	for (unsigned int d = 0; d < builtin_dll_count; d++) {
		const struct builtin_dll *dll = builtin_dlls[d];
		for (unsigned int i = 0; i < dll->count; i++) {
			assert_non_null(dll->exports[i].addr);
			assert_ptr_equal(builtin_lookup_name(dll, dll->exports[i].name), dll->exports[i].addr);
		}
		assert_null(builtin_lookup_name(dll, "NoSuchFunctionAnywhere"));
	}
}

static void test_find_dll_by_name(void **state)
{
	assert_non_null(builtin_find("KERNEL32.dll"));
	assert_ptr_equal(builtin_find("kernel32"), builtin_find("Kernel32.DLL"));
	assert_null(builtin_find("kernel3"));
	assert_null(builtin_find("nosuch.dll"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sorted_and_unique),
		cmocka_unit_test(test_every_name_resolves),
		cmocka_unit_test(test_find_dll_by_name),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

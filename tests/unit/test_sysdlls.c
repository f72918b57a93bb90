/* The list of Windows' own DLLs (winapi-shim/sysdlls.list) and the
 * stand-ins built from it: sorted, lower case, whole file names; a
 * builtin wins over its stand-in; a stand-in has no exports; names that
 * are not Windows' own (a program's DLL, a redistributable, an API set)
 * get nothing. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "builtin.h"

static void test_list(void **state)
{
	(void)state;
	assert_true(system_dll_count > 100);
	for (unsigned int i = 0; i < system_dll_count; i++) {
		const char *n = system_dll_names[i];
		const char *dot = strrchr(n, '.');

		if (i && strcmp(system_dll_names[i - 1], n) >= 0)
			fail_msg("'%s' then '%s': not sorted or duplicate", system_dll_names[i - 1], n);
		for (const char *p = n; *p; p++)
			if (*p >= 'A' && *p <= 'Z')
				fail_msg("%s: not lower case", n);
		if (!dot || (strcmp(dot, ".dll") && strcmp(dot, ".drv")))
			fail_msg("%s: not a DLL file name", n);
		assert_true(builtin_is_system_dll(n));
		assert_non_null(builtin_find_system(n));
	}
}

static void test_stand_ins(void **state)
{
	const struct builtin_dll *b;

	(void)state;
	/* a DLL ndrun has no builtin for: a stand-in without exports */
	b = builtin_find_system("AVICAP32.DLL");
	assert_non_null(b);
	assert_true(b->stand_in);
	assert_string_equal(b->name, "avicap32.dll");
	assert_int_equal(b->count, 0);
	assert_null(builtin_lookup_name(b, "capCreateCaptureWindowW"));
	assert_null(builtin_lookup_ordinal(b, 1));
	/* ".dll" is optional, as for builtin_find */
	assert_ptr_equal(builtin_find_system("avicap32"), b);
	/* the builtin itself where there is one, partial .spec or not */
	assert_ptr_equal(builtin_find_system("kernel32.dll"), builtin_find("kernel32"));
	assert_false(builtin_find_system("KERNEL32")->stand_in);
	assert_non_null(builtin_find_system("kernelbase.dll"));
	assert_false(builtin_find_system("kernelbase.dll")->stand_in);
	/* another extension than .dll */
	assert_non_null(builtin_find_system("winspool.drv"));
	assert_null(builtin_find_system("winspool.dll"));
	/* not Windows' own: a program's DLL, a redistributable, MS-MPI */
	assert_null(builtin_find_system("avicap33.dll"));
	assert_null(builtin_find_system("msvcp140.dll"));
	assert_null(builtin_find_system("msmpi.dll"));
	assert_null(builtin_find_system("api-ms-win-core-path-l1-1-0.dll"));
	assert_false(builtin_is_system_dll("msmpi"));
	assert_null(builtin_find_system(""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_stand_ins),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

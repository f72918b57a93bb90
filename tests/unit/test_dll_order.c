/* Which DLL a bare name means (pe-loader/module.c): Windows' KnownDLLs
 * list as data (every entry found, so the list is sorted for bsearch;
 * DLLs programs carry themselves are not on it), and the parsing of
 * NDSHIM_DLL_OVERRIDES, WINEDLLOVERRIDES' syntax. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdlib.h>
#include <cmocka.h>

#include "module.h"

static const char *const listed[] = {
#define KNOWNDLL(name) name,
#include "knowndlls.list"
#undef KNOWNDLL
};

static void test_known(void **state)
{
	for (size_t i = 0; i < sizeof(listed) / sizeof(listed[0]); i++)
		assert_true(module_is_known_dll(listed[i]));
	assert_true(module_is_known_dll("KERNEL32.DLL"));
	assert_true(module_is_known_dll("Ws2_32.dll"));
	assert_true(module_is_known_dll("ntdll.dll"));
	/* App-local runtimes and MPI: a program's own copy is loaded. */
	assert_false(module_is_known_dll("ucrtbase.dll"));
	assert_false(module_is_known_dll("vcruntime140.dll"));
	assert_false(module_is_known_dll("msmpi.dll"));
	assert_false(module_is_known_dll("bcrypt.dll"));
	assert_false(module_is_known_dll("kernel32"));
}

static void test_overrides(void **state)
{
	unsetenv("NDSHIM_DLL_OVERRIDES");
	assert_int_equal(module_dll_override("msvcrt.dll"), DLL_ORDER_DEFAULT);
	setenv("NDSHIM_DLL_OVERRIDES", "dbghelp=n;msvcrt=b", 1);
	assert_int_equal(module_dll_override("dbghelp.dll"), DLL_ORDER_NATIVE);
	assert_int_equal(module_dll_override("MSVCRT.DLL"), DLL_ORDER_BUILTIN);
	assert_int_equal(module_dll_override("kernel32.dll"), DLL_ORDER_DEFAULT);
	setenv("NDSHIM_DLL_OVERRIDES", "a,b.dll=n,b;c=b,n", 1);
	assert_int_equal(module_dll_override("a.dll"), DLL_ORDER_NATIVE_BUILTIN);
	assert_int_equal(module_dll_override("b.dll"), DLL_ORDER_NATIVE_BUILTIN);
	assert_int_equal(module_dll_override("c.dll"), DLL_ORDER_BUILTIN_NATIVE);
	/* The last entry naming a DLL wins; malformed ones are ignored. */
	setenv("NDSHIM_DLL_OVERRIDES", "x=n;;junk;y=q;=b;x=b", 1);
	assert_int_equal(module_dll_override("x.dll"), DLL_ORDER_BUILTIN);
	assert_int_equal(module_dll_override("y.dll"), DLL_ORDER_DEFAULT);
	assert_int_equal(module_dll_override("junk.dll"), DLL_ORDER_DEFAULT);
	unsetenv("NDSHIM_DLL_OVERRIDES");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known),
		cmocka_unit_test(test_overrides),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

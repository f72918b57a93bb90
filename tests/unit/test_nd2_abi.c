/* include/ndspi.h compiled by the host compiler against the Wine headers
 * matches the ND2 ABI facts (the mingw-w64 side: tests/pe/nd2_abi.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <cmocka.h>

#define INITGUID
#include <winsock2.h>
#include <windows.h>

static void report(const char *what, long long got, long long want)
{
	print_error("%s: got %lld (0x%llx), want %lld (0x%llx)\n", what, got, (unsigned long long)got, want,
		    (unsigned long long)want);
}

#include "tests/abi/nd2_abi_checks.h"

static void test_nd2_abi_host(void **state)
{
	assert_int_equal(nd2_abi_check(), 0);
	/* Every CHECK line of nd2_abi_checks.h ran: 255 of them (v2 and v1), one per
	 * layout fact, value, IID and vtable slot. */
	assert_int_equal(nd2_abi_checked, 255);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nd2_abi_host),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

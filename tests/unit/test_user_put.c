/* ntdll/probe.h: user_put64/user_put32, the inline stores through a PE
 * caller's pointer.  A good pointer gets the value; the NULL page is
 * refused without a fault; a read-only or unmapped page faults and the
 * fault handler resumes the store's fix-up (false, nothing written),
 * again and again; a store straddling into a read-only page writes
 * neither half; the resume slot is clear after every kind of return. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "ntdll/probe.h"
#include "ntdll/seh.h"
#include "guard_pages.h"

static void test_good(void **state)
{
	uint64_t q = 0;
	uint32_t d = 0;

	assert_true(user_put64(&q, 0x1122334455667788ull));
	assert_true(q == 0x1122334455667788ull);
	assert_true(user_put32(&d, 0xdeadbeef));
	assert_int_equal(d, 0xdeadbeef);
	/* Unaligned, within a page. */
	assert_true(user_put64(pages + 3, 0x0102030405060708ull));
	assert_int_equal(pages[3], 0x08);
	assert_int_equal(pages[10], 0x01);
	assert_null(seh_probe_resume);
}

static void test_null_page(void **state)
{
	assert_false(user_put64(NULL, 1));
	assert_false(user_put32((void *)8, 1));
	assert_false(user_put64((void *)0xfff8, 1));
	assert_null(seh_probe_resume);
}

static void test_faults_recover(void **state)
{
	seh_init(); /* cmocka installs its own fault handlers around each test */
	for (int i = 0; i < 3; i++) {
		assert_false(user_put64(pages + ps, 1));
		assert_null(seh_probe_resume);
		assert_false(user_put32(pages + ps + 8, 1));
		assert_false(user_put64(pages + 2 * ps, 1));
		assert_false(user_put32(pages + 2 * ps + 100, 1));
		assert_null(seh_probe_resume);
	}
	assert_int_equal(pages[ps], 0x5a);
	assert_int_equal(pages[ps + 8], 0x5a);
	/* Half in the writable page, half in the read-only one: the store
	 * faults as a whole. */
	memset(pages + ps - 4, 0x33, 4);
	assert_false(user_put64(pages + ps - 4, 0));
	assert_int_equal(pages[ps - 4], 0x33);
	assert_int_equal(pages[ps - 1], 0x33);
	assert_int_equal(pages[ps], 0x5a);
	/* And good stores after the faults. */
	assert_true(user_put32(pages + 16, 7));
	assert_int_equal(pages[16], 7);
	assert_null(seh_probe_resume);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_null_page),
		cmocka_unit_test(test_faults_recover),
	};

	return cmocka_run_group_tests(tests, guard_pages_setup, guard_pages_teardown);
}

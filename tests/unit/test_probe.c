/* seh_copy_from_user / seh_copy_to_user: a builtin's copy through a
 * pointer PE code passed reports a bad pointer instead of crashing ndrun:
 * NULL-page addresses, an unmapped page, a read-only page; a copy that
 * straddles into a bad page fails; faults one after another all recover
 * (the fault signal is not left blocked); good copies move the bytes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "ntdll/seh.h"
#include "guard_pages.h"

static void test_good_copies(void **state)
{
	uint8_t buf[16] = { 0 };

	assert_true(seh_copy_from_user(buf, pages + ps, sizeof(buf)));
	assert_int_equal(buf[0], 0x5a);
	assert_int_equal(buf[15], 0x5a);
	memset(buf, 0x11, sizeof(buf));
	assert_true(seh_copy_to_user(pages, buf, sizeof(buf)));
	assert_int_equal(pages[15], 0x11);
	assert_true(seh_copy_from_user(buf, NULL, 0));
}

static void test_null_page(void **state)
{
	uint8_t buf[8] = { 0 };

	assert_false(seh_copy_from_user(buf, NULL, 8));
	assert_false(seh_copy_from_user(buf, (void *)8, 8));
	assert_false(seh_copy_to_user((void *)0xfff0, buf, 8));
	/* A range that wraps around the address space. */
	assert_false(seh_copy_from_user(buf, (void *)UINTPTR_MAX - 3, 8));
}

static void test_faults_recover(void **state)
{
	uint8_t buf[32] = { 0 };

	seh_init(); /* cmocka installs its own fault handlers around each test */
	for (int i = 0; i < 3; i++) {
		assert_false(seh_copy_from_user(buf, pages + 2 * ps, 8));
		assert_false(seh_copy_to_user(pages + ps, buf, 8));
		assert_false(seh_copy_to_user(pages + 2 * ps, buf, 8));
	}
	assert_int_equal(pages[ps], 0x5a);
	/* The readable part of a straddling copy does not make it good. */
	assert_false(seh_copy_from_user(buf, pages + 2 * ps - 16, sizeof(buf)));
	assert_false(seh_copy_to_user(pages + ps - 16, buf, sizeof(buf)));
	assert_true(seh_copy_from_user(buf, pages + ps - 16, 16));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_copies),
		cmocka_unit_test(test_null_page),
		cmocka_unit_test(test_faults_recover),
	};

	return cmocka_run_group_tests(tests, guard_pages_setup, guard_pages_teardown);
}

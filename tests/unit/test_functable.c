/* The function-table registry without a fixed limit (ntdll/functable.c):
 * thousands of dynamic tables found by bisection, overlapping ranges, an
 * image winning over a table inside it, deletion in any order, growable
 * tables, and the lock-free "is this PE code?" of the fault handler. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ntdll/ntdll_private.h"
#include "ntdll/seh_private.h"

#define NTABLES 5000
#define SLOT 32

/* Addresses only: nothing is executed or read at them. */
static const ULONG64 region = 0x7f0000000000ull;

static void test_many_tables(void **state)
{
	static RUNTIME_FUNCTION rf[NTABLES];
	DWORD64 base = 0;
	int found = 0;

	for (int i = 0; i < NTABLES; i++) {
		rf[i] = (RUNTIME_FUNCTION){ (DWORD)(i * SLOT), (DWORD)(i * SLOT + 20), 0x100000 };
		assert_true(RtlAddFunctionTable(&rf[i], 1, region));
	}
	for (int i = 0; i < NTABLES; i++)
		found += RtlLookupFunctionEntry(region + i * SLOT + 5, &base, NULL) == &rf[i];
	assert_int_equal(found, NTABLES);
	assert_int_equal(base, region);
	/* Between two functions: a range of none. */
	assert_null(RtlLookupFunctionEntry(region + 7 * SLOT + 25, &base, NULL));
	assert_false(seh_pc_in_pe(region + 7 * SLOT + 25));
	assert_true(seh_pc_in_pe(region + 4999 * SLOT));
	assert_false(seh_pc_in_pe(region + NTABLES * SLOT));

	/* Every other one deleted, then the rest, out of order. */
	for (int i = 0; i < NTABLES; i += 2)
		assert_true(RtlDeleteFunctionTable(&rf[i]));
	assert_null(RtlLookupFunctionEntry(region + 10 * SLOT + 5, &base, NULL));
	assert_ptr_equal(RtlLookupFunctionEntry(region + 11 * SLOT + 5, &base, NULL), &rf[11]);
	for (int i = NTABLES - 1; i > 0; i -= 2)
		assert_true(RtlDeleteFunctionTable(&rf[i]));
	assert_false(RtlDeleteFunctionTable(&rf[1]));
	assert_false(seh_pc_in_pe(region + 11 * SLOT + 5));
}

static void test_overlapping_tables(void **state)
{
	/* A long one first, then short ones inside it: a pc in the long one
	 * past the short ones is still found (the running maximum of ends). */
	static RUNTIME_FUNCTION outer[1] = { { 0x0, 0x10000, 0x200000 } };
	static RUNTIME_FUNCTION inner[3] = { { 0x100, 0x120, 0x200000 },
					     { 0x200, 0x220, 0x200000 },
					     { 0x300, 0x320, 0x200000 } };
	DWORD64 base = 0;

	assert_true(RtlAddFunctionTable(outer, 1, region));
	for (int i = 0; i < 3; i++)
		assert_true(RtlAddFunctionTable(&inner[i], 1, region));
	assert_ptr_equal(RtlLookupFunctionEntry(region + 0x8000, &base, NULL), &outer[0]);
	/* The table that starts last holds pc: the inner one. */
	assert_ptr_equal(RtlLookupFunctionEntry(region + 0x210, &base, NULL), &inner[1]);
	assert_true(seh_pc_in_pe(region + 0x9000));
	for (int i = 0; i < 3; i++)
		assert_true(RtlDeleteFunctionTable(&inner[i]));
	assert_true(RtlDeleteFunctionTable(outer));
	assert_false(seh_pc_in_pe(region + 0x9000));
}

static void test_unsorted_table(void **state)
{
	/* Windows does not ask dynamic tables to be sorted. */
	static RUNTIME_FUNCTION t[3] = { { 0x300, 0x320, 0x200000 },
					 { 0x100, 0x120, 0x200000 },
					 { 0x200, 0x220, 0x200000 } };
	DWORD64 base = 0;

	assert_true(RtlAddFunctionTable(t, 3, region));
	assert_ptr_equal(RtlLookupFunctionEntry(region + 0x110, &base, NULL), &t[1]);
	assert_ptr_equal(RtlLookupFunctionEntry(region + 0x310, &base, NULL), &t[0]);
	assert_true(RtlDeleteFunctionTable(t));
}

static void test_growable(void **state)
{
	static RUNTIME_FUNCTION t[8];
	DWORD64 base = 0;
	void *h = NULL;

	for (int i = 0; i < 8; i++)
		t[i] = (RUNTIME_FUNCTION){ (DWORD)(i * 0x100), (DWORD)(i * 0x100 + 0x80), 0x200000 };
	assert_int_equal(RtlAddGrowableFunctionTable(&h, t, 2, 8, region, region + 0x800), 0);
	assert_non_null(h);
	assert_ptr_equal(RtlLookupFunctionEntry(region + 0x110, &base, NULL), &t[1]);
	assert_null(RtlLookupFunctionEntry(region + 0x510, &base, NULL));
	/* The range is the table's from the start: it is PE code. */
	assert_true(seh_pc_in_pe(region + 0x510));
	RtlGrowFunctionTable(h, 6);
	assert_ptr_equal(RtlLookupFunctionEntry(region + 0x510, &base, NULL), &t[5]);
	RtlGrowFunctionTable(h, 9); /* past the maximum: ignored */
	assert_null(RtlLookupFunctionEntry(region + 0x710, &base, NULL));
	/* Not through RtlDeleteFunctionTable. */
	assert_false(RtlDeleteFunctionTable(t));
	RtlDeleteGrowableFunctionTable(h);
	assert_null(RtlLookupFunctionEntry(region + 0x110, &base, NULL));
	assert_false(seh_pc_in_pe(region + 0x110));
	assert_int_not_equal(RtlAddGrowableFunctionTable(&h, t, 9, 8, region, region + 0x800), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_many_tables),
		cmocka_unit_test(test_overlapping_tables),
		cmocka_unit_test(test_unsorted_table),
		cmocka_unit_test(test_growable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

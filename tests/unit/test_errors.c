/* RtlNtStatusToDosError's table (core/errors.c) is searched by halves,
 * so an entry out of order is never found: STATUS_DISK_FULL sat after
 * STATUS_DEVICE_NOT_READY and mapped to ERROR_MR_MID_NOT_FOUND.  Statuses
 * from across the table, and the ones the ntdll file and control calls
 * return, map to their Win32 errors. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#define WIN32_NO_STATUS
#include "core/errors.h"
#undef WIN32_NO_STATUS
#include <ntstatus.h>

static void test_map(void **state)
{
	static const struct {
		NTSTATUS status;
		ULONG win32;
	} cases[] = {
		{ STATUS_SUCCESS, ERROR_SUCCESS },
		{ STATUS_PENDING, ERROR_IO_PENDING },
		{ STATUS_BUFFER_OVERFLOW, ERROR_MORE_DATA },
		{ STATUS_INVALID_INFO_CLASS, ERROR_INVALID_PARAMETER },
		{ STATUS_INFO_LENGTH_MISMATCH, ERROR_BAD_LENGTH },
		{ STATUS_INVALID_HANDLE, ERROR_INVALID_HANDLE },
		{ STATUS_INVALID_DEVICE_REQUEST, ERROR_INVALID_FUNCTION },
		{ STATUS_DISK_FULL, ERROR_DISK_FULL },
		{ STATUS_DEVICE_NOT_READY, ERROR_NOT_READY },
		{ STATUS_SHARING_VIOLATION, ERROR_SHARING_VIOLATION },
		{ STATUS_PIPE_BROKEN, ERROR_BROKEN_PIPE },
		{ STATUS_NOT_FOUND, ERROR_NOT_FOUND },
		{ STATUS_CONNECTION_ABORTED, ERROR_CONNECTION_ABORTED },
		{ STATUS_NOT_A_REPARSE_POINT, ERROR_NOT_A_REPARSE_POINT },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (RtlNtStatusToDosError(cases[i].status) != cases[i].win32)
			fail_msg("status %#x: %lu, not %lu", (unsigned)cases[i].status,
				 (unsigned long)RtlNtStatusToDosError(cases[i].status), (unsigned long)cases[i].win32);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_map),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Shared by the kernel32 unit tests (test_heap, test_virtual, ...): the
 * cmocka prerequisites and the Win32 headers.  The tests call the Win32
 * functions directly (they are ms_abi, which gcc calls fine from sysv
 * code).  SetLastError/GetLastError work without a TEB: kernel32 keeps
 * the value per thread for threads that never ran PE code. */
#ifndef K32_TEST_H
#define K32_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <windef.h>
#include <winbase.h>
#include <winnls.h>
#include <wincon.h>
#include <winternl.h>

#include "core/debug.h"
#include "core/wstr.h"

/* A value no Win32 function sets, to see whether a call touched the
 * last error. */
#define SENTINEL_ERROR 0xdeadbeefu

#define assert_last_error(e) assert_int_equal(GetLastError(), (e))

static inline void assert_wstr_equal(const WCHAR *got, const WCHAR *want)
{
	if (wstr_cmp(got, want))
		fail_msg("got %s, want %s", debugstr_w(got), debugstr_w(want));
}

#endif

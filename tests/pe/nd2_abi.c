/* include/ndspi.h compiled by mingw-w64 matches the ND2 ABI facts
 * (docs/nd2/ABI-facts.md, measured with x86_64-w64-mingw32): structure
 * sizes and offsets, constants, interface IDs and the vtable slot of every
 * method.  The host-compiler side of the same checks is
 * tests/unit/test_nd2_abi.c; both include tests/abi/nd2_abi_checks.h. */
#define INITGUID
#include <winsock2.h>
#include <windows.h>

#include "test.h"

static void report(const char *what, long long got, long long want)
{
	ok(0, "%s: got %lld (0x%llx), want %lld (0x%llx)\n", what, got, (unsigned long long)got, want,
	   (unsigned long long)want);
}

#include "../abi/nd2_abi_checks.h"

int main(void)
{
	int bad = nd2_abi_check();

	ok(bad == 0, "%d ABI mismatches\n", bad);
	/* every CHECK line ran */
	ok(nd2_abi_checked == 255, "ran %d checks, want 255\n", nd2_abi_checked);
	return test_summary();
}

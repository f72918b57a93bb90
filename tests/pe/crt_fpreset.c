/* _fpreset (msvcrt.dll, or ucrtbase.dll in ucrt_fpreset), taken with
 * GetProcAddress: mingw-w64 links an _fpreset of its own into programs.
 *
 * Windows rules checked (Microsoft's _fpreset doc: it "reinitializes the
 * floating-point math package"; the x64 calling convention's start-up
 * state of the floating-point control registers):
 *  - MXCSR becomes 0x1F80: rounding to nearest, every exception masked
 *    again, the raised flags cleared;
 *  - the x87 control word becomes 0x027F (53-bit precision, round to
 *    nearest, exceptions masked).  Wine 8's _fpreset leaves the x87
 *    control word as it was (seen under wine64): ok_todo_wine. */
#include <xmmintrin.h>

#include "test.h"

#ifdef _UCRT
#define CRT_DLL "ucrtbase.dll"
#else
#define CRT_DLL "msvcrt.dll"
#endif

static unsigned short x87_cw(void)
{
	unsigned short cw;

	__asm__ volatile("fnstcw %0" : "=m"(cw));
	return cw;
}

int main(void)
{
	void(__cdecl * fpreset)(void) = (void *)GetProcAddress(LoadLibraryA(CRT_DLL), "_fpreset");
	const unsigned short odd_cw = 0x0f72; /* 64-bit precision, toward zero, two exceptions unmasked */
	volatile double third = 1.0;

	ok(fpreset != NULL, "%s has no _fpreset\n", CRT_DLL);
	if (!fpreset)
		return test_summary();
	/* round up, divide-by-zero unmasked, inexact raised */
	_mm_setcsr((_mm_getcsr() & ~0x6000u & ~0x200u) | 0x4000);
	third = third / 3.0;
	__asm__ volatile("fldcw %0" : : "m"(odd_cw));
	ok(_mm_getcsr() != 0x1f80 && x87_cw() == odd_cw, "changed: mxcsr %#x x87 %#x\n", _mm_getcsr(), x87_cw());

	fpreset();
	ok(_mm_getcsr() == 0x1f80, "mxcsr after _fpreset: %#x\n", _mm_getcsr());
	ok_todo_wine(x87_cw() == 0x027f, "x87 control word after _fpreset: %#x\n", x87_cw());
	/* the default x87 state again, whatever the test left */
	__asm__ volatile("fninit");
	return test_summary();
}

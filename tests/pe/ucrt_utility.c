/* ucrtbase's utility and math sets as MSVC programs import them: byte
 * swaps and rotations, div/lldiv, llabs, Windows' floating-point
 * classification codes, C99 math (float variants included), lround's
 * 32-bit long, asctime/ctime, rand_s and _getpid.  Inputs are volatile so that gcc calls
 * the DLL instead of folding constants. */
#define __USE_MINGW_ANSI_STDIO 0
#define _CRT_RAND_S

#include <float.h>
#include <math.h>
#include <process.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <windows.h>

#include "test.h"

/* The UCRT's classification functions and codes (corecrt_math.h); mingw's
 * math.h gives FP_* other values for its own fpclassify. */
short __cdecl _dclass(double x);
short __cdecl _fdclass(float x);
#define WIN_FP_INFINITE 1
#define WIN_FP_NAN 2
#define WIN_FP_NORMAL (-1)
#define WIN_FP_SUBNORMAL (-2)
#define WIN_FP_ZERO 0

static volatile double one_and_half = 1.5, minus_two_and_half = -2.5, eight = 8.0, tiny = 1e-310, zero = 0.0;
static volatile float quarter = 0.25f, two_f = 2.0f;
static volatile unsigned int pattern = 0x12345678;
static volatile int seven = 7, minus_seven = -7, two = 2;

static void test_bits(void)
{
	ok(_byteswap_ulong(pattern) == 0x78563412, "_byteswap_ulong\n");
	ok(_byteswap_ushort((unsigned short)pattern) == 0x7856, "_byteswap_ushort\n");
	ok(_byteswap_uint64(((uint64_t)pattern << 32) | pattern) == 0x7856341278563412ULL, "_byteswap_uint64\n");
	ok(_rotl(pattern, seven + 1) == 0x34567812, "_rotl %#x\n", _rotl(pattern, 8));
	ok(_rotr(pattern, seven + 1) == 0x78123456, "_rotr\n");
	ok(_rotl64(1, 63 + two - 2) == 0x8000000000000000ULL, "_rotl64\n");
}

static void test_div(void)
{
	div_t d = div(minus_seven, two);
	lldiv_t ld = lldiv(-7000000000LL * seven / 7, 2);

	/* Rule: C99 truncates toward zero */
	ok(d.quot == -3 && d.rem == -1, "div %d %d\n", d.quot, d.rem);
	ok(ld.quot == -3500000000LL && ld.rem == 0, "lldiv\n");
	ok(llabs(-5000000000LL * seven / 7) == 5000000000LL, "llabs\n");
}

static void test_classify(void)
{
	/* Rule: _dclass answers with Windows' FP_* codes */
	ok(_dclass(one_and_half) == WIN_FP_NORMAL, "normal %d\n", _dclass(one_and_half));
	ok(_dclass(tiny) == WIN_FP_SUBNORMAL, "subnormal %d\n", _dclass(tiny));
	ok(_dclass(zero) == WIN_FP_ZERO, "zero\n");
	ok(_dclass(one_and_half / zero) == WIN_FP_INFINITE, "infinite\n");
	ok(_dclass(zero / zero) == WIN_FP_NAN, "nan\n");
	ok(_fdclass(quarter) == WIN_FP_NORMAL, "float normal\n");
	ok(_finite(one_and_half) && !_finite(one_and_half / zero), "_finite\n");
	ok(_isnan(zero / zero) && !_isnan(one_and_half), "_isnan\n");
}

static void test_math(void)
{
	ok(cbrt(eight) == 2.0, "cbrt %g\n", cbrt(eight));
	ok(log2(eight) == 3.0, "log2\n");
	ok(round(minus_two_and_half) == -3.0 && trunc(minus_two_and_half) == -2.0, "round/trunc\n");
	ok(fmax(one_and_half, eight) == 8.0 && fmin(one_and_half, eight) == 1.5, "fmax/fmin\n");
	ok(sqrtf(quarter) == 0.5f && powf(two_f, 3.0f) == 8.0f, "sqrtf/powf\n");
	ok(copysign(one_and_half, minus_two_and_half) == -1.5, "copysign\n");
	/* Rule: long is 32 bits on Windows */
	ok(sizeof(long) == 4 && lround(minus_two_and_half) == -3 && llround(eight) == 8, "lround\n");
	ok(isnan(nan("")), "nan()\n");
}

static void test_asctime(void)
{
	time_t t = 1000000000; /* 2001-09-09 01:46:40 UTC, a Sunday */
	struct tm *tm = gmtime(&t);

	/* Rule: asctime's day of the month has two digits, zero-padded
	 * ("Wed Jan 02 02:03:55 1980" in Microsoft's docs); Wine pads with a
	 * space as glibc does. */
	ok_todo_wine(tm && !strcmp(asctime(tm), "Sun Sep 09 01:46:40 2001\n"), "asctime [%s]\n",
		     tm ? asctime(tm) : "");
	ok(ctime(&t) && strlen(ctime(&t)) == 25 && ctime(&t)[24] == '\n', "ctime [%s]\n", ctime(&t));
}

static void test_misc(void)
{
	unsigned int a = 0, b = 0;

	ok(rand_s(&a) == 0 && rand_s(&b) == 0, "rand_s failed\n");
	ok(a != b || (rand_s(&b) == 0 && a != b), "rand_s repeats %#x\n", a);
	ok(_getpid() == (int)GetCurrentProcessId(), "_getpid %d\n", _getpid());
}

int main(void)
{
	test_bits();
	test_div();
	test_classify();
	test_math();
	test_asctime();
	test_misc();
	return test_summary();
}

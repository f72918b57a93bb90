/* The printf a mingw-w64 C program gets by default: in C99 mode _mingw.h
 * turns on __USE_MINGW_ANSI_STDIO, so printf is mingw's own C99 printf
 * (linked into the program) writing through msvcrt's stdio.  Output is
 * compared with crt_ansi_stdio.expected: C99 rules, not msvcrt's. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "test.h"

int main(void)
{
	char buf[64];
	int n;

	ok(__USE_MINGW_ANSI_STDIO == 1, "__USE_MINGW_ANSI_STDIO is %d\n", __USE_MINGW_ANSI_STDIO);
	/* Rule (C99): ll, z, j and hh length modifiers; the PRI macros. */
	printf("lld %lld llu %llu zu %zu zd %zd\n", -1234567890123456789LL,
	       18446744073709551615ULL, (size_t)4000000000u, (ptrdiff_t)-5);
	printf("jd %jd hhd %hhd PRId64 %" PRId64 " PRIx64 %" PRIx64 "\n", (intmax_t)-77,
	       (signed char)300, INT64_MIN, UINT64_C(0xdeadbeefcafe));
	/* Rule (C99): two exponent digits at least, %a in hex. */
	printf("e %e g %g a %a\n", 12345.678, 1e20, 1.0);
	printf("str [%5s] [%-5s] [%ls] wide char [%lc]\n", "ab", "cd", L"wide", (wint_t)L'w');
	/* Rule (C99): snprintf returns the untruncated length and terminates. */
	n = snprintf(buf, 4, "%d", 123456);
	ok(n == 6 && !strcmp(buf, "123"), "snprintf %d [%s]\n", n, buf);
	n = sprintf(buf, "%zu|%llx", (size_t)1 << 40, 0xabcULL);
	ok(n == 17 && !strcmp(buf, "1099511627776|abc"), "sprintf %d [%s]\n", n, buf);
	fprintf(stderr, "stderr %zu\n", (size_t)3);
	return test_summary();
}

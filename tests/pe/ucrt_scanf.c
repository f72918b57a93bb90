/* UCRT scanf through __stdio_common_vsscanf/vswscanf/vfscanf: integer
 * sizes and bases, floating point (C99 forms included), strings, scansets,
 * %c, %n, suppression, widths, matching and input failures, the _s forms'
 * buffer sizes, and reading from a stream. */
#define __USE_MINGW_ANSI_STDIO 0

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>
#include <windows.h>

#include "test.h"

/* gcc checks these formats against msvcrt's old grammar, which lacks
 * %hhd and reads %I64d wrongly; the UCRT has both. */
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-extra-args"

static void test_integers(void)
{
	int a = 0, b = 0, c = 0, n = 0, r;
	long long big = 0;
	unsigned int u = 0;
	short s = 0;
	char hh = 0;
	void *p = NULL;

	ok(sscanf("  42 -17 0x1f", "%d %i %i", &a, &b, &c) == 3 && a == 42 && b == -17 && c == 31, "%d %d %d\n", a,
	   b, c);
	ok(sscanf("017 ff 777", "%i %x %o", &a, &u, &c) == 3 && a == 15 && u == 255 && c == 511, "bases\n");
	ok(sscanf("-9223372036854775807", "%lld", &big) == 1 && big == -9223372036854775807LL, "%%lld\n");
	ok(sscanf("123456789012", "%I64d", &big) == 1 && big == 123456789012LL, "%%I64d\n");
	ok(sscanf("70000 300", "%hd %hhd", &s, &hh) == 2 && s == (short)70000 && hh == (char)300, "%%hd %%hhd\n");
	ok(sscanf("12345", "%3d%d", &a, &b) == 2 && a == 123 && b == 45, "widths %d %d\n", a, b);
	ok(sscanf("7 8 9", "%d %*d %d%n", &a, &b, &n) == 2 && a == 7 && b == 9 && n == 5, "%%* and %%n: %d %d %d\n",
	   a, b, n);
	ok(sscanf("00000000DEADBEEF", "%p", &p) == 1 && p == (void *)0xdeadbeef, "%%p\n");
	/* Rule: a matching failure stops the scan; the count is what was
	 * assigned before it. */
	ok(sscanf("5 x", "%d %d", &a, &b) == 1, "matching failure\n");
	ok(sscanf("abc", "%d", &a) == 0, "no digits\n");
	/* Rule: EOF when the input ends before the first conversion */
	ok(sscanf("", "%d", &a) == EOF, "empty input\n");
	/* (Wine returns 0 when only blanks precede the end) */
	r = sscanf("   ", "%d", &a);
	ok_todo_wine(r == EOF, "blank input gave %d\n", r);
	ok(sscanf("1", "%d %d", &a, &b) == 1, "input ends after one conversion\n");
}

static void test_floats(void)
{
	float f = 0;
	double d = 0, e = 0;

	ok(sscanf("3.25 -1.5e3", "%f %lf", &f, &d) == 2 && f == 3.25f && d == -1500.0, "%g %g\n", f, d);
	ok(sscanf("0x1.8p1 .5", "%lf %lf", &d, &e) == 2 && d == 3.0 && e == 0.5, "hex float %g %g\n", d, e);
	ok(sscanf("inf nan", "%lf %lf", &d, &e) == 2 && isinf(d) && isnan(e), "inf/nan\n");
	ok(sscanf("1.5x", "%lf", &d) == 1 && d == 1.5, "trailing text\n");
	ok(sscanf("2.5e2", "%3lf", &d) == 1 && d == 2.5, "width on a float %g\n", d);
}

static void test_strings(void)
{
	char w1[16] = "", w2[16] = "", set[16] = "", c3[4] = "xyz";
	wchar_t ws[16] = L"";
	int n = 0;

	ok(sscanf("  hello world", "%s %s", w1, w2) == 2 && !strcmp(w1, "hello") && !strcmp(w2, "world"), "%%s\n");
	ok(sscanf("abc123def", "%[a-z]%n", set, &n) == 1 && !strcmp(set, "abc") && n == 3, "scanset [%s]\n", set);
	ok(sscanf("key=value", "%[^=]=%s", w1, w2) == 2 && !strcmp(w1, "key") && !strcmp(w2, "value"), "negated set\n");
	ok(sscanf("]x", "%[]x]", set) == 1 && !strcmp(set, "]x"), "] first in a set\n");
	ok(sscanf("ab", "%3c", c3) == 1 && !memcmp(c3, "abz", 3), "%%3c at the end of input [%.3s]\n", c3);
	ok(sscanf(" q", "%c", c3) == 1 && c3[0] == ' ', "%%c does not skip blanks\n");
	ok(sscanf("toolongword", "%4s", w1) == 1 && !strcmp(w1, "tool"), "width on %%s\n");
	ok(sscanf("wide", "%ls", ws) == 1 && !wcscmp(ws, L"wide"), "%%ls from narrow input\n");
	ok(swscanf(L"12 mixed", L"%d %ls", &n, ws) == 2 && n == 12 && !wcscmp(ws, L"mixed"), "swscanf\n");
	ok(swscanf(L"narrow", L"%hs", w1) == 1 && !strcmp(w1, "narrow"), "%%hs in swscanf\n");
}

static void test_secure(void)
{
	char buf[4] = "zz";
	int r;

	/* Rule: the _s forms take each string's size after its pointer; a
	 * string that does not fit leaves an empty buffer and stops. */
	r = sscanf_s("abc", "%s", buf, (unsigned int)sizeof(buf));
	ok(r == 1 && !strcmp(buf, "abc"), "sscanf_s fits: %d [%s]\n", r, buf);
	r = sscanf_s("abcd", "%s", buf, (unsigned int)sizeof(buf));
	ok(r == 0 && buf[0] == 0, "sscanf_s too long: %d [%s]\n", r, buf);
}

static void test_stream(void)
{
	char path[MAX_PATH], word[16] = "";
	int a = 0, b = 0, c = 0;
	FILE *f;

	GetTempPathA(sizeof(path), path);
	strcat(path, "ndshim_ucrt_scanf.txt");
	f = fopen(path, "w+");
	ok(f != NULL, "fopen errno %d\n", errno);
	if (!f)
		return;
	fputs("10 20 name\n30", f);
	rewind(f);
	ok(fscanf(f, "%d %d %s", &a, &b, word) == 3 && a == 10 && b == 20 && !strcmp(word, "name"), "fscanf\n");
	/* the stream is left just after the field */
	ok(fgetc(f) == '\n', "the newline was consumed\n");
	ok(fscanf(f, "%d", &c) == 1 && c == 30, "second fscanf\n");
	ok(fscanf(f, "%d", &c) == EOF, "fscanf at end of file\n");
	fclose(f);
	remove(path);
}

int main(void)
{
	test_integers();
	test_floats();
	test_strings();
	test_secure();
	test_stream();
	return test_summary();
}

/* The CRT's narrow encoding under ndrun is UTF-8 whatever the locale (a
 * documented ndshim rule, see winapi-shim/msvcrt/conv.c; Windows' "C"
 * locale maps bytes one to one), so this runs under ndrun only: mbrtowc
 * and wcrtomb as restartable UTF-8 conversions, sequences split across
 * calls and characters beyond the BMP as surrogate pairs. */
#define __USE_MINGW_ANSI_STDIO 0

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <windows.h>

#include "test.h"

static void test_mbconv(void)
{
	/* é (2 bytes), 中 (3 bytes), U+1F600 (4 bytes, a surrogate pair) */
	const char *s = "\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80";
	mbstate_t st;
	wchar_t wc = 0;
	char out[8];
	size_t r;

	memset(&st, 0, sizeof(st));
	ok(mbrtowc(&wc, s, 9, &st) == 2 && wc == 0xe9, "é: wc %#x\n", wc);
	/* Rule: a sequence split across calls is completed from the state */
	ok(mbrtowc(&wc, s + 2, 1, &st) == (size_t)-2, "first byte of 中 not pending\n");
	r = mbrtowc(&wc, s + 3, 2, &st);
	ok(r == 2 && wc == 0x4e2d, "中: %zu %#x\n", r, wc);
	r = mbrtowc(&wc, s + 5, 4, &st);
	ok(r == 4 && wc == 0xd83d, "high surrogate: %zu %#x\n", r, wc);
	r = mbrtowc(&wc, s + 9, 0, &st);
	ok(r == (size_t)-3 && wc == 0xde00, "low surrogate: %zu %#x\n", r, wc);
	errno = 0;
	ok(mbrtowc(&wc, "\xff", 1, &st) == (size_t)-1 && errno == EILSEQ, "invalid byte\n");

	/* Rule: only the bytes the character needs are read, whatever n says
	 * (the ASan build of ndrun checks this one) */
	{
		char *one = malloc(2);
		strcpy(one, "a");
		ok(mbrtowc(&wc, one, 16, &st) == 1 && wc == 'a', "n beyond the string\n");
		free(one);
	}

	memset(&st, 0, sizeof(st));
	ok(wcrtomb(out, 0xe9, &st) == 2 && !memcmp(out, "\xc3\xa9", 2), "wcrtomb é\n");
	ok(wcrtomb(out, 0xd83d, &st) == 0, "wcrtomb keeps the high surrogate\n");
	ok(wcrtomb(out, 0xde00, &st) == 4 && !memcmp(out, "\xf0\x9f\x98\x80", 4), "wcrtomb pair\n");
}

int main(void)
{
	test_mbconv();
	return test_summary();
}

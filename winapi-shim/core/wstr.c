#include <locale.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <wctype.h>

#include "core/wstr.h"

#include <winbase.h>
#include <winnls.h>

size_t wstr_len(const WCHAR *s)
{
	const WCHAR *p = s;

	while (*p)
		p++;
	return (size_t)(p - s);
}

WCHAR *wstr_dup(const WCHAR *s)
{
	size_t n = (wstr_len(s) + 1) * sizeof(WCHAR);
	WCHAR *d = malloc(n);

	if (d)
		memcpy(d, s, n);
	return d;
}

int wstr_cmp(const WCHAR *a, const WCHAR *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (int)*a - (int)*b;
}

static locale_t utf8_locale;
static pthread_once_t locale_once = PTHREAD_ONCE_INIT;

static void locale_init(void)
{
	utf8_locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
}

WCHAR wch_toupper(WCHAR c)
{
	wint_t u;

	if (c < 0x80)
		return (c >= 'a' && c <= 'z') ? c - 0x20 : c;
	pthread_once(&locale_once, locale_init);
	if (!utf8_locale || (c >= 0xd800 && c <= 0xdfff))
		return c;
	u = towupper_l(c, utf8_locale);
	return u <= 0xffff ? (WCHAR)u : c;
}

WCHAR wch_tolower(WCHAR c)
{
	wint_t u;

	if (c < 0x80)
		return (c >= 'A' && c <= 'Z') ? c + 0x20 : c;
	pthread_once(&locale_once, locale_init);
	if (!utf8_locale || (c >= 0xd800 && c <= 0xdfff))
		return c;
	u = towlower_l(c, utf8_locale);
	return u <= 0xffff ? (WCHAR)u : c;
}

int wstr_nicmp(const WCHAR *a, const WCHAR *b, size_t n)
{
	for (; n; n--, a++, b++) {
		WCHAR ca = wch_toupper(*a), cb = wch_toupper(*b);

		if (ca != cb || !ca)
			return (int)ca - (int)cb;
	}
	return 0;
}

int wstr_icmp(const WCHAR *a, const WCHAR *b)
{
	return wstr_nicmp(a, b, (size_t)-1);
}

WORD wch_ctype1(WCHAR c)
{
	WORD t = 0;

	pthread_once(&locale_once, locale_init);
	if (!utf8_locale || (c >= 0xd800 && c <= 0xdfff)) {
		/* surrogates: defined, nothing else (and the ASCII fallback) */
		if (c < 0x80 || (c >= 0xd800 && c <= 0xdfff))
			t = C1_DEFINED;
		if (c >= 0x80)
			return t;
	}
	if (c == 0xa0) /* glibc does not count NO-BREAK SPACE as a space */
		return C1_SPACE | C1_BLANK | C1_DEFINED;
	if (utf8_locale) {
		if (iswupper_l(c, utf8_locale))
			t |= C1_UPPER;
		if (iswlower_l(c, utf8_locale))
			t |= C1_LOWER;
		if (iswdigit_l(c, utf8_locale))
			t |= C1_DIGIT;
		if (iswspace_l(c, utf8_locale))
			t |= C1_SPACE;
		if (iswpunct_l(c, utf8_locale))
			t |= C1_PUNCT;
		if (iswcntrl_l(c, utf8_locale))
			t |= C1_CNTRL;
		if (iswblank_l(c, utf8_locale))
			t |= C1_BLANK;
		if (iswxdigit_l(c, utf8_locale))
			t |= C1_XDIGIT;
		if (iswalpha_l(c, utf8_locale))
			t |= C1_ALPHA;
		if (t || iswprint_l(c, utf8_locale))
			t |= C1_DEFINED;
	} else {
		if (c >= 'A' && c <= 'Z')
			t |= C1_UPPER | C1_ALPHA;
		if (c >= 'a' && c <= 'z')
			t |= C1_LOWER | C1_ALPHA;
		if (c >= '0' && c <= '9')
			t |= C1_DIGIT;
		if ((c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f'))
			t |= C1_XDIGIT;
		if (c == ' ' || (c >= 9 && c <= 13))
			t |= C1_SPACE;
		if (c == ' ' || c == 9)
			t |= C1_BLANK;
		if (c < 0x20 || c == 0x7f)
			t |= C1_CNTRL;
		if (c > 0x20 && c < 0x7f && !(t & (C1_ALPHA | C1_DIGIT)))
			t |= C1_PUNCT;
	}
	return t;
}

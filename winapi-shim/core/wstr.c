#include <locale.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <wctype.h>

#include "core/wstr.h"

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

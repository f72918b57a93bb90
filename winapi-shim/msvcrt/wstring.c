/* 16-bit wide strings (Windows wchar_t).  Character classes and case
 * mapping follow Unicode (through glibc's C.UTF-8 tables), as msvcrt's
 * do; ASCII works even where that locale is missing. */
#include <locale.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <wctype.h>

#include "msvcrt/msvcrt_private.h"

static locale_t utf8_locale;
static pthread_once_t locale_once = PTHREAD_ONCE_INIT;

static void init_locale(void)
{
	utf8_locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
}

static locale_t uloc(void)
{
	pthread_once(&locale_once, init_locale);
	return utf8_locale;
}

size_t __cdecl crt_wcslen(const WCHAR *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}

size_t __cdecl crt_wcsnlen(const WCHAR *s, size_t max)
{
	size_t n = 0;
	while (n < max && s[n])
		n++;
	return n;
}

int __cdecl crt_wcsncmp(const WCHAR *a, const WCHAR *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
		if (!a[i])
			break;
	}
	return 0;
}

int __cdecl crt_wcscmp(const WCHAR *a, const WCHAR *b)
{
	return crt_wcsncmp(a, b, SIZE_MAX);
}

WCHAR *__cdecl crt_wcscpy(WCHAR *d, const WCHAR *s)
{
	memcpy(d, s, (crt_wcslen(s) + 1) * sizeof(WCHAR));
	return d;
}

WCHAR *__cdecl crt_wcsncpy(WCHAR *d, const WCHAR *s, size_t n)
{
	size_t i = 0;
	for (; i < n && s[i]; i++)
		d[i] = s[i];
	for (; i < n; i++)
		d[i] = 0;
	return d;
}

WCHAR *__cdecl crt_wcscat(WCHAR *d, const WCHAR *s)
{
	crt_wcscpy(d + crt_wcslen(d), s);
	return d;
}

WCHAR *__cdecl crt_wcsncat(WCHAR *d, const WCHAR *s, size_t n)
{
	WCHAR *p = d + crt_wcslen(d);
	size_t i = 0;
	for (; i < n && s[i]; i++)
		p[i] = s[i];
	p[i] = 0;
	return d;
}

WCHAR *__cdecl crt_wcschr(const WCHAR *s, WCHAR c)
{
	for (;; s++) {
		if (*s == c)
			return (WCHAR *)s;
		if (!*s)
			return NULL;
	}
}

WCHAR *__cdecl crt_wcsrchr(const WCHAR *s, WCHAR c)
{
	const WCHAR *last = NULL;
	for (;; s++) {
		if (*s == c)
			last = s;
		if (!*s)
			return (WCHAR *)last;
	}
}

WCHAR *__cdecl crt_wcsstr(const WCHAR *h, const WCHAR *n)
{
	size_t len = crt_wcslen(n);
	for (; *h; h++)
		if (!memcmp(h, n, len * sizeof(WCHAR)))
			return (WCHAR *)h;
	return len ? NULL : (WCHAR *)h;
}

size_t __cdecl crt_wcsspn(const WCHAR *s, const WCHAR *a)
{
	size_t n = 0;
	while (s[n] && crt_wcschr(a, s[n]))
		n++;
	return n;
}

size_t __cdecl crt_wcscspn(const WCHAR *s, const WCHAR *a)
{
	size_t n = 0;
	while (s[n] && !crt_wcschr(a, s[n]))
		n++;
	return n;
}

WCHAR *__cdecl crt_wcspbrk(const WCHAR *s, const WCHAR *a)
{
	s += crt_wcscspn(s, a);
	return *s ? (WCHAR *)s : NULL;
}

WCHAR __cdecl crt_towlower(WCHAR c)
{
	if (c < 0x80)
		return c >= 'A' && c <= 'Z' ? c + 32 : c;
	if (!uloc() || (c >= 0xd800 && c < 0xe000))
		return c;
	wint_t r = towlower_l(c, uloc());
	return r <= 0xffff ? r : c;
}

WCHAR __cdecl crt_towupper(WCHAR c)
{
	if (c < 0x80)
		return c >= 'a' && c <= 'z' ? c - 32 : c;
	if (!uloc() || (c >= 0xd800 && c < 0xe000))
		return c;
	wint_t r = towupper_l(c, uloc());
	return r <= 0xffff ? r : c;
}

/* The _pctype bits (string.c) for any UTF-16 unit. */
int __cdecl crt_iswctype(WCHAR c, unsigned short mask)
{
	if (c < 0x80)
		return crt__isctype(c, mask);
	locale_t l = uloc();
	if (!l || (c >= 0xd800 && c < 0xe000))
		return 0;
	unsigned short m = 0;
	if (iswupper_l(c, l))
		m |= 0x01;
	if (iswlower_l(c, l))
		m |= 0x02;
	if (iswdigit_l(c, l))
		m |= 0x04;
	if (iswspace_l(c, l))
		m |= 0x08;
	if (iswpunct_l(c, l))
		m |= 0x10;
	if (iswcntrl_l(c, l))
		m |= 0x20;
	if (iswblank_l(c, l))
		m |= 0x40;
	if (iswalpha_l(c, l))
		m |= 0x100;
	return m & mask;
}

int __cdecl crt_iswalpha(WCHAR c) { return crt_iswctype(c, 0x100); }
int __cdecl crt_iswdigit(WCHAR c) { return crt_iswctype(c, 0x04); }
int __cdecl crt_iswspace(WCHAR c) { return crt_iswctype(c, 0x08); }
int __cdecl crt_iswupper(WCHAR c) { return crt_iswctype(c, 0x01); }
int __cdecl crt_iswlower(WCHAR c) { return crt_iswctype(c, 0x02); }
int __cdecl crt_iswalnum(WCHAR c) { return crt_iswctype(c, 0x104); }
int __cdecl crt_iswxdigit(WCHAR c) { return crt_iswctype(c, 0x80); }
int __cdecl crt_iswpunct(WCHAR c) { return crt_iswctype(c, 0x10); }
int __cdecl crt_iswcntrl(WCHAR c) { return crt_iswctype(c, 0x20); }
int __cdecl crt_iswprint(WCHAR c) { return c == ' ' || crt_iswctype(c, 0x115); }

int __cdecl crt__wcsnicmp(const WCHAR *a, const WCHAR *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		WCHAR ca = crt_towlower(a[i]), cb = crt_towlower(b[i]);
		if (ca != cb)
			return ca - cb;
		if (!ca)
			break;
	}
	return 0;
}

int __cdecl crt__wcsicmp(const WCHAR *a, const WCHAR *b)
{
	return crt__wcsnicmp(a, b, SIZE_MAX);
}

/* "C" locale: code unit order. */
int __cdecl crt_wcscoll(const WCHAR *a, const WCHAR *b)
{
	return crt_wcscmp(a, b);
}

size_t __cdecl crt_wcsxfrm(WCHAR *d, const WCHAR *s, size_t n)
{
	size_t len = crt_wcslen(s);
	if (len < n)
		memcpy(d, s, (len + 1) * sizeof(WCHAR));
	return len;
}

WCHAR *__cdecl crt__wcslwr(WCHAR *s)
{
	for (WCHAR *p = s; *p; p++)
		*p = crt_towlower(*p);
	return s;
}

WCHAR *__cdecl crt__wcsupr(WCHAR *s)
{
	for (WCHAR *p = s; *p; p++)
		*p = crt_towupper(*p);
	return s;
}

/* Multibyte here is UTF-8 (see conv.c); n counts output units. */
size_t __cdecl crt_wcstombs(char *d, const WCHAR *s, size_t n)
{
	size_t len = crt_wcslen(s);
	size_t need = crt_wide_to_utf8(s, len, NULL, 0);
	if (!d)
		return need;
	if (need < n) {
		crt_wide_to_utf8(s, len, d, need);
		d[need] = 0;
		return need;
	}
	/* whole characters only */
	size_t out = 0;
	for (size_t i = 0; i < len; i++) {
		size_t k = (s[i] >= 0xd800 && s[i] < 0xdc00 && i + 1 < len) ? 2 : 1;
		size_t m = crt_wide_to_utf8(s + i, k, NULL, 0);
		if (out + m > n)
			break;
		crt_wide_to_utf8(s + i, k, d + out, m);
		out += m;
		i += k - 1;
	}
	return out;
}

size_t __cdecl crt_mbstowcs(WCHAR *d, const char *s, size_t n)
{
	size_t len = strlen(s);
	size_t need = crt_utf8_to_wide(s, len, NULL, 0);
	if (!d)
		return need;
	WCHAR *tmp = malloc((need + 1) * sizeof(WCHAR));
	if (!tmp)
		return (size_t)-1;
	crt_utf8_to_wide(s, len, tmp, need);
	tmp[need] = 0;
	size_t copy = need < n ? need + 1 : n;
	memcpy(d, tmp, copy * sizeof(WCHAR));
	free(tmp);
	return need < n ? need : n;
}

/* Number conversions, sorting and rand.  long is 32-bit on Windows:
 * strtol/strtoul clamp to 32 bits and report ERANGE as msvcrt does. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "msvcrt/msvcrt_private.h"
#include "core/pecall.h"

/* Parses with glibc's 64-bit strtoull on the digits after an optional
 * sign, so the magnitude and the sign are seen separately. */
static uint64_t parse_unsigned(const char *s, char **end, int base, int *neg, int *overflow)
{
	const char *p = s;
	*neg = 0;
	*overflow = 0;
	while (crt_isspace((unsigned char)*p))
		p++;
	if (*p == '+' || *p == '-')
		*neg = *p++ == '-';
	if (*p == '+' || *p == '-' || crt_isspace((unsigned char)*p)) {
		if (end)
			*end = (char *)s;
		return 0;
	}
	char *e;
	int saved = errno;
	errno = 0;
	uint64_t v = strtoull(p, &e, base);
	if (errno == ERANGE)
		*overflow = 1;
	errno = saved;
	if (e == p)
		e = (char *)s;
	if (end)
		*end = e;
	return v;
}

int64_t __cdecl crt__strtoi64(const char *s, char **end, int base)
{
	int neg, of;
	uint64_t m = parse_unsigned(s, end, base, &neg, &of);
	if (of || m > (neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX)) {
		crt_set_errno(ERANGE);
		return neg ? INT64_MIN : INT64_MAX;
	}
	return neg ? (int64_t)(0 - m) : (int64_t)m;
}

uint64_t __cdecl crt__strtoui64(const char *s, char **end, int base)
{
	int neg, of;
	uint64_t m = parse_unsigned(s, end, base, &neg, &of);
	if (of) {
		crt_set_errno(ERANGE);
		return UINT64_MAX;
	}
	return neg ? 0 - m : m;
}

int __cdecl crt_strtol(const char *s, char **end, int base)
{
	int neg, of;
	uint64_t m = parse_unsigned(s, end, base, &neg, &of);
	if (of || m > (neg ? (uint64_t)INT32_MAX + 1 : (uint64_t)INT32_MAX)) {
		crt_set_errno(ERANGE);
		return neg ? INT32_MIN : INT32_MAX;
	}
	return neg ? (int)(0 - (uint32_t)m) : (int)m;
}

unsigned int __cdecl crt_strtoul(const char *s, char **end, int base)
{
	int neg, of;
	uint64_t m = parse_unsigned(s, end, base, &neg, &of);
	if (of || m > UINT32_MAX) {
		crt_set_errno(ERANGE);
		return UINT32_MAX;
	}
	return neg ? 0 - (uint32_t)m : (uint32_t)m;
}

/* atoi/atol: no errno, the value wraps like msvcrt's */
int __cdecl crt_atoi(const char *s)
{
	int neg, of;
	uint64_t m = parse_unsigned(s, NULL, 10, &neg, &of);
	return neg ? (int)(0 - (uint32_t)m) : (int)(uint32_t)m;
}

int __cdecl crt_atol(const char *s)
{
	return crt_atoi(s);
}

int64_t __cdecl crt__atoi64(const char *s)
{
	int neg, of;
	uint64_t m = parse_unsigned(s, NULL, 10, &neg, &of);
	return neg ? (int64_t)(0 - m) : (int64_t)m;
}

double __cdecl crt_strtod(const char *s, char **end)
{
	int saved = errno;
	errno = 0;
	double v = strtod(s, end);
	if (errno == ERANGE)
		crt_set_errno(ERANGE);
	errno = saved;
	return v;
}

double __cdecl crt_atof(const char *s)
{
	return strtod(s, NULL);
}

/* Wide versions: digits and signs are ASCII, so narrow the prefix that
 * can matter and map the end pointer back. */
static char *narrow_number(const WCHAR *s)
{
	size_t n = 0;
	while (s[n] && s[n] < 0x80)
		n++;
	char *a = malloc(n + 1);
	if (!a)
		return NULL;
	for (size_t i = 0; i < n; i++)
		a[i] = s[i];
	a[n] = 0;
	return a;
}

int __cdecl crt_wcstol(const WCHAR *s, WCHAR **end, int base)
{
	char *a = narrow_number(s), *e;
	if (!a)
		return 0;
	int v = crt_strtol(a, &e, base);
	if (end)
		*end = (WCHAR *)s + (e - a);
	free(a);
	return v;
}

unsigned int __cdecl crt_wcstoul(const WCHAR *s, WCHAR **end, int base)
{
	char *a = narrow_number(s), *e;
	if (!a)
		return 0;
	unsigned int v = crt_strtoul(a, &e, base);
	if (end)
		*end = (WCHAR *)s + (e - a);
	free(a);
	return v;
}

double __cdecl crt_wcstod(const WCHAR *s, WCHAR **end)
{
	char *a = narrow_number(s), *e;
	if (!a)
		return 0;
	double v = crt_strtod(a, &e);
	if (end)
		*end = (WCHAR *)s + (e - a);
	free(a);
	return v;
}

int __cdecl crt__wtoi(const WCHAR *s)
{
	return crt_wcstol(s, NULL, 10);
}

/* long is 32 bits on Windows: the same as _wtoi. */
int __cdecl crt__wtol(const WCHAR *s)
{
	return crt_wcstol(s, NULL, 10);
}

int __cdecl crt_labs(int x)
{
	return x < 0 ? -x : x;
}

int64_t __cdecl crt__abs64(int64_t x)
{
	return x < 0 ? -x : x;
}

/* Radix 2..36, lower-case digits; only radix 10 shows a minus sign. */
static char *to_ascii(uint64_t v, int neg, char *buf, int radix)
{
	char tmp[72];
	int n = 0;
	if (radix < 2 || radix > 36) {
		crt_set_errno(EINVAL);
		if (buf)
			buf[0] = 0;
		return buf;
	}
	do {
		int d = v % radix;
		tmp[n++] = d < 10 ? '0' + d : 'a' + d - 10;
		v /= radix;
	} while (v);
	char *p = buf;
	if (neg)
		*p++ = '-';
	while (n)
		*p++ = tmp[--n];
	*p = 0;
	return buf;
}

char *__cdecl crt__itoa(int v, char *buf, int radix)
{
	if (radix == 10 && v < 0)
		return to_ascii(0 - (uint64_t)(int64_t)v, 1, buf, radix);
	return to_ascii((uint32_t)v, 0, buf, radix);
}

char *__cdecl crt__ltoa(int v, char *buf, int radix)
{
	return crt__itoa(v, buf, radix);
}

char *__cdecl crt__ultoa(unsigned int v, char *buf, int radix)
{
	return to_ascii(v, 0, buf, radix);
}

char *__cdecl crt__i64toa(int64_t v, char *buf, int radix)
{
	if (radix == 10 && v < 0)
		return to_ascii(0 - (uint64_t)v, 1, buf, radix);
	return to_ascii((uint64_t)v, 0, buf, radix);
}

char *__cdecl crt__ui64toa(uint64_t v, char *buf, int radix)
{
	return to_ascii(v, 0, buf, radix);
}

WCHAR *__cdecl crt__itow(int v, WCHAR *buf, int radix)
{
	char tmp[40];
	crt__itoa(v, tmp, radix);
	size_t i = 0;
	do
		buf[i] = (unsigned char)tmp[i];
	while (tmp[i++]);
	return buf;
}

/* The comparator is PE code (ms_abi): glibc's qsort_r gets a sysv
 * trampoline that calls it through its proper type. */
static int call_cmp(const void *a, const void *b, void *ctx)
{
	crt_cmp_fn cmp = *(crt_cmp_fn *)ctx;
	return (int)PE_CALL2(cmp, a, b);
}

/* A NULL comparator, a NULL array with elements or a zero size is an
 * invalid parameter (the handler, errno EINVAL), as msvcrt checks. */
void __cdecl crt_qsort(void *base, size_t n, size_t size, crt_cmp_fn cmp)
{
	if ((!base && n) || !size || !cmp) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return;
	}
	if (n < 2)
		return;
	qsort_r(base, n, size, call_cmp, &cmp);
}

void *__cdecl crt_bsearch(const void *key, const void *base, size_t n, size_t size, crt_cmp_fn cmp)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *p = (const char *)base + mid * size;
		int r = (int)PE_CALL2(cmp, key, p);
		if (!r)
			return (void *)p;
		if (r < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* msvcrt's generator (documented constants), seeded per thread. */
static __thread uint32_t rand_seed = 1;

void __cdecl crt_srand(unsigned int seed)
{
	rand_seed = seed;
}

int __cdecl crt_rand(void)
{
	rand_seed = rand_seed * 214013 + 2531011;
	return (rand_seed >> 16) & 0x7fff;
}

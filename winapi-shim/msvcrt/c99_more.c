/* C99's smaller additions the DLLs export: isblank/iswblank (and
 * iswgraph), the one-character conversions of wchar.h and stdlib.h
 * (btowc, wctob, mblen, mbtowc, wctomb: the C runtime's narrow encoding
 * is UTF-8 here, mbconv.c), inttypes.h's strtoimax family and imaxdiv
 * (intmax_t is 64 bits), and C11's timespec_get. */
#include <errno.h>
#include <string.h>

#include "msvcrt/msvcrt_private.h"

int __cdecl crt_isblank(int c)
{
	return c == ' ' || c == '\t' ? 0x40 : 0; /* _BLANK, as _isctype reports it */
}

int __cdecl crt_iswblank(WCHAR c)
{
	return c == ' ' || c == '\t' || c == 0x3000 || c == 0xa0 ? 0x40 : 0;
}

/* printable and not a space */
int __cdecl crt_iswgraph(WCHAR c)
{
	return c != ' ' && crt_iswctype(c, 0x115);
}

/* -1 (WEOF) for EOF or a byte that is not a whole character: the bytes
 * from 0x80 on start or continue UTF-8 sequences. */
WCHAR __cdecl crt_btowc(int c)
{
	return c < 0 || c >= 0x80 ? 0xffff : (WCHAR)c;
}

int __cdecl crt_wctob(WCHAR c)
{
	return c < 0x80 ? c : -1;
}

int __cdecl crt_mblen(const char *s, size_t n)
{
	crt_mbstate_t st;
	size_t r;

	if (!s)
		return 0; /* UTF-8 has no shift states */
	memset(&st, 0, sizeof(st));
	r = crt_mbrtowc(NULL, s, n, &st);
	return r >= (size_t)-2 ? -1 : (int)r;
}

int __cdecl crt_mbtowc(WCHAR *out, const char *s, size_t n)
{
	crt_mbstate_t st;
	size_t r;

	if (!s)
		return 0;
	memset(&st, 0, sizeof(st));
	r = crt_mbrtowc(out, s, n, &st);
	return r >= (size_t)-2 ? -1 : (int)r;
}

/* One UTF-16 unit: a surrogate half alone has no UTF-8 form. */
int __cdecl crt_wctomb(char *out, WCHAR wc)
{
	if (!out)
		return 0;
	if (wc >= 0xd800 && wc < 0xe000) {
		crt_set_errno(CRT_EILSEQ);
		return -1;
	}
	return (int)crt_encode_wchar(wc, out);
}

int64_t __cdecl crt_strtoimax(const char *s, char **end, int base)
{
	return crt__strtoi64(s, end, base);
}

uint64_t __cdecl crt_strtoumax(const char *s, char **end, int base)
{
	return crt__strtoui64(s, end, base);
}

int64_t __cdecl crt_wcstoimax(const WCHAR *s, WCHAR **end, int base)
{
	return crt__wcstoi64(s, end, base);
}

uint64_t __cdecl crt_wcstoumax(const WCHAR *s, WCHAR **end, int base)
{
	return crt__wcstoui64(s, end, base);
}

struct crt_lldiv_t __cdecl crt_imaxdiv(int64_t num, int64_t den)
{
	return crt_lldiv(num, den);
}

/* C11: TIME_UTC (1) only; the base given back, 0 for any other. */
int __cdecl crt_timespec_get(struct crt_timespec64 *ts, int base)
{
	return crt__timespec64_get(ts, base);
}

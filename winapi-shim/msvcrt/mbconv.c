/* Restartable multibyte conversions (mbrtowc, wcrtomb, mbrlen) in the
 * CRT's narrow encoding, UTF-8 (conv.c).  WCHAR is UTF-16, so a
 * character beyond the BMP is a surrogate pair: mbrtowc returns the high
 * half first and keeps the low half in the state for the next call
 * (returning (size_t)-3, as C11 says for such "extra" units); wcrtomb
 * keeps a high half in the state until its low half comes. */
#include <errno.h>
#include <string.h>

#include "msvcrt/msvcrt_private.h"

#define MB_INVALID ((size_t)-1)
#define MB_INCOMPLETE ((size_t)-2)
#define MB_EXTRA ((size_t)-3)

/* mbrtowc: up to three bytes of an unfinished sequence, or a pending low
 * surrogate.  kind 0: empty, 1: partial bytes, 2: pending low half. */
static size_t decode(crt_mbstate_t *st, const unsigned char *s, size_t n, unsigned int *cp)
{
	unsigned char seq[4];
	size_t have = st->kind == 1 ? st->count : 0, need, total = 0;
	unsigned int c;

	/* only as many bytes as the character needs are read: the caller's n
	 * may reach past the end of its string */
	memcpy(seq, st->bytes, have);
	if (!have)
		seq[have + total++] = s[0];
	c = seq[0];
	if (c < 0x80)
		need = 1;
	else if (c >= 0xc2 && c < 0xe0)
		need = 2;
	else if (c >= 0xe0 && c < 0xf0)
		need = 3;
	else if (c >= 0xf0 && c < 0xf5)
		need = 4;
	else
		return MB_INVALID;
	while (have + total < need && total < n) {
		seq[have + total] = s[total];
		if ((seq[have + total] & 0xc0) != 0x80)
			return MB_INVALID;
		total++;
	}
	if (have + total < need) {
		memcpy(st->bytes, seq, have + total);
		st->count = have + total;
		st->kind = 1;
		return MB_INCOMPLETE;
	}
	unsigned int v = need == 1 ? c : need == 2 ? c & 0x1f : need == 3 ? c & 0x0f : c & 0x07;
	for (size_t i = 1; i < need; i++)
		v = (v << 6) | (seq[i] & 0x3f);
	static const unsigned int min[] = { 0, 0, 0x80, 0x800, 0x10000 };
	if (v < min[need] || v > 0x10ffff || (v >= 0xd800 && v < 0xe000))
		return MB_INVALID;
	*cp = v;
	st->kind = 0;
	return total; /* bytes consumed from this call's input */
}

size_t __cdecl crt_mbrtowc(WCHAR *out, const char *s, size_t n, crt_mbstate_t *state)
{
	static crt_mbstate_t internal;
	crt_mbstate_t *st = state ? state : &internal;
	unsigned int cp;
	size_t r;

	if (!s)
		return crt_mbrtowc(NULL, "", 1, st);
	if (st->kind == 2) {
		if (out)
			*out = st->low;
		st->kind = 0;
		return MB_EXTRA;
	}
	if (!n)
		return MB_INCOMPLETE;
	r = decode(st, (const unsigned char *)s, n, &cp);
	if (r == MB_INVALID) {
		memset(st, 0, sizeof(*st));
		crt_set_errno(CRT_EILSEQ);
		return r;
	}
	if (r == MB_INCOMPLETE)
		return r;
	if (cp >= 0x10000) {
		cp -= 0x10000;
		if (out)
			*out = 0xd800 | (cp >> 10);
		st->low = 0xdc00 | (cp & 0x3ff);
		st->kind = 2;
	} else if (out) {
		*out = cp;
	}
	return cp ? r : 0;
}

size_t __cdecl crt_mbrlen(const char *s, size_t n, crt_mbstate_t *state)
{
	static crt_mbstate_t internal;
	return crt_mbrtowc(NULL, s, n, state ? state : &internal);
}

size_t __cdecl crt_wcrtomb(char *out, WCHAR wc, crt_mbstate_t *state)
{
	static crt_mbstate_t internal;
	crt_mbstate_t *st = state ? state : &internal;
	char buf[4];
	unsigned int cp = wc;

	if (!out) {
		/* resets the state: one byte, the terminator */
		memset(st, 0, sizeof(*st));
		return 1;
	}
	if (st->kind == 2) {
		/* a high surrogate is waiting for its low half */
		if (wc < 0xdc00 || wc >= 0xe000)
			goto invalid;
		cp = 0x10000 + ((st->low - 0xd800) << 10) + (wc - 0xdc00);
		st->kind = 0;
	} else if (wc >= 0xd800 && wc < 0xdc00) {
		st->low = wc;
		st->kind = 2;
		return 0;
	} else if (wc >= 0xdc00 && wc < 0xe000) {
		goto invalid;
	}
	size_t n = crt_encode_wchar(cp, buf);
	memcpy(out, buf, n);
	return n;
invalid:
	memset(st, 0, sizeof(*st));
	crt_set_errno(CRT_EILSEQ);
	return MB_INVALID;
}

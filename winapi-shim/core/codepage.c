#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/codepage.h"
#include "core/wstr.h"

/* Windows 1252, 0x80-0x9f (the rest is ISO 8859-1).  The five bytes
 * Windows leaves undefined map to the C1 control of the same value, as
 * Windows' own table does. */
static const WCHAR cp1252_80[32] = {
	0x20ac, 0x0081, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021,
	0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008d, 0x017d, 0x008f,
	0x0090, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014,
	0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x009d, 0x017e, 0x0178,
};

/* OEM 437, 0x80-0xff. */
static const WCHAR cp437_80[128] = {
	0x00c7, 0x00fc, 0x00e9, 0x00e2, 0x00e4, 0x00e0, 0x00e5, 0x00e7,
	0x00ea, 0x00eb, 0x00e8, 0x00ef, 0x00ee, 0x00ec, 0x00c4, 0x00c5,
	0x00c9, 0x00e6, 0x00c6, 0x00f4, 0x00f6, 0x00f2, 0x00fb, 0x00f9,
	0x00ff, 0x00d6, 0x00dc, 0x00a2, 0x00a3, 0x00a5, 0x20a7, 0x0192,
	0x00e1, 0x00ed, 0x00f3, 0x00fa, 0x00f1, 0x00d1, 0x00aa, 0x00ba,
	0x00bf, 0x2310, 0x00ac, 0x00bd, 0x00bc, 0x00a1, 0x00ab, 0x00bb,
	0x2591, 0x2592, 0x2593, 0x2502, 0x2524, 0x2561, 0x2562, 0x2556,
	0x2555, 0x2563, 0x2551, 0x2557, 0x255d, 0x255c, 0x255b, 0x2510,
	0x2514, 0x2534, 0x252c, 0x251c, 0x2500, 0x253c, 0x255e, 0x255f,
	0x255a, 0x2554, 0x2569, 0x2566, 0x2560, 0x2550, 0x256c, 0x2567,
	0x2568, 0x2564, 0x2565, 0x2559, 0x2558, 0x2552, 0x2553, 0x256b,
	0x256a, 0x2518, 0x250c, 0x2588, 0x2584, 0x258c, 0x2590, 0x2580,
	0x03b1, 0x00df, 0x0393, 0x03c0, 0x03a3, 0x03c3, 0x00b5, 0x03c4,
	0x03a6, 0x0398, 0x03a9, 0x03b4, 0x221e, 0x03c6, 0x03b5, 0x2229,
	0x2261, 0x00b1, 0x2265, 0x2264, 0x2320, 0x2321, 0x00f7, 0x2248,
	0x00b0, 0x2219, 0x00b7, 0x221a, 0x207f, 0x00b2, 0x25a0, 0x00a0,
};

/* 437 with MB_USEGLYPHCHARS: the pictures the IBM PC showed for the
 * control characters 0x00-0x1f (0x00 stays NUL) and 0x7f. */
static const WCHAR cp437_glyphs[32] = {
	0x0000, 0x263a, 0x263b, 0x2665, 0x2666, 0x2663, 0x2660, 0x2022,
	0x25d8, 0x25cb, 0x25d9, 0x2642, 0x2640, 0x266a, 0x266b, 0x263c,
	0x25ba, 0x25c4, 0x2195, 0x203c, 0x00b6, 0x00a7, 0x25ac, 0x21a8,
	0x2191, 0x2193, 0x2192, 0x2190, 0x221f, 0x2194, 0x25b2, 0x25bc,
};
#define CP437_GLYPH_7F 0x2302

static UINT acp = 1252, oemcp = 437;
static pthread_once_t cp_once = PTHREAD_ONCE_INIT;

static bool supported(UINT cp)
{
	return cp == CP_UTF8 || cp == 1252 || cp == 437 || cp == 28591;
}

bool cp_locale_is_utf8(const char *lc_all, const char *lc_ctype, const char *lang)
{
	const char *s = lc_all && *lc_all ? lc_all : lc_ctype && *lc_ctype ? lc_ctype : lang;

	/* no locale, C or POSIX: no character set declared; Linux names
	 * are UTF-8 bytes and so are the C runtime's narrow strings */
	if (!s || !*s || !strcmp(s, "C") || !strcmp(s, "POSIX"))
		return true;
	if (!(s = strchr(s, '.')))
		return false; /* "en_US": glibc's ISO 8859-1 */
	s++;
	return (!strncasecmp(s, "utf-8", 5) && (!s[5] || s[5] == '@')) ||
	       (!strncasecmp(s, "utf8", 4) && (!s[4] || s[4] == '@'));
}

static void cp_init(void)
{
	const char *s;
	unsigned long v;

	if (cp_locale_is_utf8(getenv("LC_ALL"), getenv("LC_CTYPE"), getenv("LANG")))
		acp = oemcp = CP_UTF8;

	if ((s = getenv("NDSHIM_ACP")) && (v = strtoul(s, NULL, 10)) && supported((UINT)v))
		acp = (UINT)v;
	if ((s = getenv("NDSHIM_OEMCP")) && (v = strtoul(s, NULL, 10)) && supported((UINT)v))
		oemcp = (UINT)v;
}

UINT cp_ansi(void)
{
	pthread_once(&cp_once, cp_init);
	return acp;
}

UINT cp_oem(void)
{
	pthread_once(&cp_once, cp_init);
	return oemcp;
}

static int file_apis_oem; /* atomic: SetFileApisToOEM's setting */

bool cp_file_is_oem(void)
{
	return __atomic_load_n(&file_apis_oem, __ATOMIC_RELAXED) != 0;
}

UINT cp_file(void)
{
	return cp_file_is_oem() ? cp_oem() : cp_ansi();
}

void cp_set_file_oem(bool oem)
{
	__atomic_store_n(&file_apis_oem, oem ? 1 : 0, __ATOMIC_RELAXED);
}

UINT cp_resolve(UINT cp)
{
	switch (cp) {
	case CP_ACP:
	case CP_THREAD_ACP:
		return cp_ansi();
	case CP_OEMCP:
		return cp_oem();
	case CP_MACCP:
		return 0; /* 10000 (Mac Roman) is not supported */
	}
	return supported(cp) ? cp : 0;
}

unsigned int cp_max_char_size(UINT cp)
{
	cp = cp_resolve(cp);
	return !cp ? 0 : cp == CP_UTF8 ? 4 : 1;
}

/* ---- UTF-8 ----------------------------------------------------------- */

/* Length of the valid sequence starting at s (1-4), or 0 when invalid;
 * *bad gets the length of the maximal invalid subpart then (>= 1). */
static size_t utf8_decode(const unsigned char *s, size_t n, unsigned int *cp, size_t *bad)
{
	unsigned int c = s[0], need, lo = 0x80, hi = 0xbf;
	size_t i;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		need = 1;
		c &= 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		need = 2;
		if (c == 0xe0)
			lo = 0xa0; /* overlong */
		else if (c == 0xed)
			hi = 0x9f; /* surrogates */
		c &= 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		need = 3;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f; /* above U+10FFFF */
		c &= 0x07;
	} else {
		*bad = 1;
		return 0;
	}
	for (i = 1; i <= need; i++) {
		unsigned int b;

		if (i >= n) {
			*bad = i;
			return 0;
		}
		b = s[i];
		if (b < lo || b > hi) {
			*bad = i;
			return 0;
		}
		lo = 0x80;
		hi = 0xbf;
		c = (c << 6) | (b & 0x3f);
	}
	*cp = c;
	return need + 1;
}

ssize_t utf8_to_utf16(const char *src, size_t src_len, WCHAR *dst, size_t dst_len, bool strict)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t i = 0, out = 0;

	while (i < src_len) {
		unsigned int c;
		size_t bad = 0, n = utf8_decode(s + i, src_len - i, &c, &bad);

		if (!n) {
			if (strict)
				return CONV_INVALID;
			c = 0xfffd;
			n = bad;
		}
		if (c >= 0x10000) {
			if (dst_len) {
				if (out + 2 > dst_len)
					return CONV_OVERFLOW;
				c -= 0x10000;
				dst[out] = (WCHAR)(0xd800 | (c >> 10));
				dst[out + 1] = (WCHAR)(0xdc00 | (c & 0x3ff));
			}
			out += 2;
		} else {
			if (dst_len) {
				if (out + 1 > dst_len)
					return CONV_OVERFLOW;
				dst[out] = (WCHAR)c;
			}
			out++;
		}
		i += n;
	}
	return (ssize_t)out;
}

ssize_t utf16_to_utf8(const WCHAR *src, size_t src_len, char *dst, size_t dst_len, bool strict)
{
	size_t i, out = 0;

	for (i = 0; i < src_len; i++) {
		unsigned int c = src[i];
		unsigned char buf[4];
		size_t n;

		if (c >= 0xd800 && c <= 0xdfff) {
			if (c <= 0xdbff && i + 1 < src_len && src[i + 1] >= 0xdc00 && src[i + 1] <= 0xdfff) {
				c = 0x10000 + ((c - 0xd800) << 10) + (src[i + 1] - 0xdc00);
				i++;
			} else if (strict) {
				return CONV_INVALID;
			} else {
				c = 0xfffd;
			}
		}
		if (c < 0x80) {
			buf[0] = (unsigned char)c;
			n = 1;
		} else if (c < 0x800) {
			buf[0] = (unsigned char)(0xc0 | (c >> 6));
			buf[1] = (unsigned char)(0x80 | (c & 0x3f));
			n = 2;
		} else if (c < 0x10000) {
			buf[0] = (unsigned char)(0xe0 | (c >> 12));
			buf[1] = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
			buf[2] = (unsigned char)(0x80 | (c & 0x3f));
			n = 3;
		} else {
			buf[0] = (unsigned char)(0xf0 | (c >> 18));
			buf[1] = (unsigned char)(0x80 | ((c >> 12) & 0x3f));
			buf[2] = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
			buf[3] = (unsigned char)(0x80 | (c & 0x3f));
			n = 4;
		}
		if (dst_len) {
			if (out + n > dst_len)
				return CONV_OVERFLOW;
			memcpy(dst + out, buf, n);
		}
		out += n;
	}
	return (ssize_t)out;
}

/* ---- single-byte pages ------------------------------------------------ */

static WCHAR sb_to_unicode(UINT cp, unsigned char b, DWORD mb_flags)
{
	if (cp == 437 && (mb_flags & MB_USEGLYPHCHARS)) {
		if (b < 0x20)
			return cp437_glyphs[b];
		if (b == 0x7f)
			return CP437_GLYPH_7F;
	}
	if (b < 0x80)
		return b;
	if (cp == 1252)
		return b < 0xa0 ? cp1252_80[b - 0x80] : b;
	if (cp == 437)
		return cp437_80[b - 0x80];
	return b; /* 28591 */
}

/* Unicode -> byte for the upper halves, built once: 0 means unmapped. */
static unsigned char rev1252[0x10000], rev437[0x10000];
static pthread_once_t rev_once = PTHREAD_ONCE_INIT;

static void rev_init(void)
{
	for (unsigned int b = 0x80; b < 0x100; b++) {
		rev1252[sb_to_unicode(1252, (unsigned char)b, 0)] = (unsigned char)b;
		rev437[sb_to_unicode(437, (unsigned char)b, 0)] = (unsigned char)b;
	}
}

/* The byte for c, or -1 when the page cannot hold it. */
static int unicode_to_sb(UINT cp, WCHAR c)
{
	if (c < 0x80)
		return c;
	if (cp == 28591)
		return c < 0x100 ? c : -1;
	pthread_once(&rev_once, rev_init);
	if (cp == 1252)
		return rev1252[c] ? rev1252[c] : -1;
	return rev437[c] ? rev437[c] : -1;
}

ssize_t cp_to_utf16(UINT cp, DWORD mb_flags, const char *src, size_t src_len, WCHAR *dst,
		    size_t dst_len)
{
	if (cp == CP_UTF8)
		return utf8_to_utf16(src, src_len, dst, dst_len, mb_flags & MB_ERR_INVALID_CHARS);
	if (!dst_len)
		return (ssize_t)src_len;
	if (src_len > dst_len)
		return CONV_OVERFLOW;
	for (size_t i = 0; i < src_len; i++)
		dst[i] = sb_to_unicode(cp, (unsigned char)src[i], mb_flags);
	return (ssize_t)src_len;
}

ssize_t utf16_to_cp(UINT cp, DWORD wc_flags, const WCHAR *src, size_t src_len, char *dst,
		    size_t dst_len, char default_char, BOOL *used_default)
{
	size_t i;

	if (cp == CP_UTF8)
		return utf16_to_utf8(src, src_len, dst, dst_len, wc_flags & WC_ERR_INVALID_CHARS);
	if (dst_len && src_len > dst_len)
		return CONV_OVERFLOW;
	for (i = 0; i < src_len; i++) {
		int b = unicode_to_sb(cp, src[i]);

		if (b < 0) {
			b = (unsigned char)default_char;
			if (used_default)
				*used_default = TRUE;
		}
		if (dst_len)
			dst[i] = (char)b;
	}
	return (ssize_t)src_len;
}

/* ---- allocating helpers ----------------------------------------------- */

WCHAR *utf8_to_utf16_dup(const char *s)
{
	size_t len;
	ssize_t n;
	WCHAR *w;

	if (!s)
		return NULL;
	len = strlen(s) + 1;
	n = utf8_to_utf16(s, len, NULL, 0, false);
	if (!(w = malloc(n * sizeof(WCHAR))))
		return NULL;
	utf8_to_utf16(s, len, w, n, false);
	return w;
}

char *utf16_to_utf8_dup(const WCHAR *s)
{
	size_t len;
	ssize_t n;
	char *a;

	if (!s)
		return NULL;
	len = wstr_len(s) + 1;
	n = utf16_to_utf8(s, len, NULL, 0, false);
	if (!(a = malloc(n)))
		return NULL;
	utf16_to_utf8(s, len, a, n, false);
	return a;
}

WCHAR *cp_to_utf16_dup(UINT cp, const char *s)
{
	size_t len;
	ssize_t n;
	WCHAR *w;

	if (!s || !(cp = cp_resolve(cp)))
		return NULL;
	len = strlen(s) + 1;
	n = cp_to_utf16(cp, 0, s, len, NULL, 0);
	if (!(w = malloc(n * sizeof(WCHAR))))
		return NULL;
	cp_to_utf16(cp, 0, s, len, w, n);
	return w;
}

char *utf16_to_cp_dup(UINT cp, const WCHAR *s)
{
	size_t len;
	ssize_t n;
	char *a;

	if (!s || !(cp = cp_resolve(cp)))
		return NULL;
	len = wstr_len(s) + 1;
	n = utf16_to_cp(cp, 0, s, len, NULL, 0, '?', NULL);
	if (!(a = malloc(n)))
		return NULL;
	utf16_to_cp(cp, 0, s, len, a, n, '?', NULL);
	return a;
}

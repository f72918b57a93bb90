/* wsprintfA/W, wvsprintfA/W: user32's own small printf, not the C
 * runtime's.  Its rules (Microsoft's wsprintf documentation):
 *   %[-][#][0][width][.precision]type
 *   type c C d i u x X s S p, with the size prefixes h (narrow/short),
 *   l and w (wide/long), I64 and I32; no floating point, no '*' width.
 *   A conversion it does not know prints its character and consumes no
 *   argument ("%f" gives "f").  Precision bounds the characters of a
 *   string and is the minimum digit count of a number; '0' pads numbers
 *   only.  At most 1024 characters including the terminator are stored;
 *   the result is the count stored, the terminator excluded.
 * Narrow strings in wide output (and the reverse) go through the ANSI
 * code page. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/codepage.h"
#include "core/debug.h"
#include "user32/user32_private.h"

#define WSPRINTF_MAX 1024

/* The destination: bytes (A) or WCHARs (W), never more than
 * WSPRINTF_MAX - 1 units plus the terminator. */
struct out {
	bool wide;
	void *buf;
	size_t len;
};

static void put(struct out *o, unsigned int c)
{
	if (o->len >= WSPRINTF_MAX - 1)
		return;
	if (o->wide)
		((WCHAR *)o->buf)[o->len++] = (WCHAR)c;
	else
		((char *)o->buf)[o->len++] = (char)c;
}

static void pad(struct out *o, unsigned int c, int n)
{
	while (n-- > 0)
		put(o, c);
}

struct spec {
	bool left, alt, zero;
	int width, prec; /* prec -1: none */
	enum { SZ_DEFAULT, SZ_SHORT, SZ_LONG, SZ_64 } size;
};

/* A string of the output's width: s points at len units of it. */
static void put_units(struct out *o, const struct spec *sp, const void *s, size_t len, bool s_wide)
{
	int fill;

	if (sp->prec >= 0 && len > (size_t)sp->prec)
		len = sp->prec;
	fill = sp->width - (int)len;
	if (!sp->left)
		pad(o, ' ', fill);
	for (size_t i = 0; i < len; i++)
		put(o, s_wide ? ((const WCHAR *)s)[i] : ((const unsigned char *)s)[i]);
	if (sp->left)
		pad(o, ' ', fill);
}

static size_t wlen(const WCHAR *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

/* s is wide when arg_wide; converted to the output's width when they
 * differ. */
static void put_string(struct out *o, const struct spec *sp, const void *s, bool arg_wide)
{
	UINT cp = cp_resolve(CP_ACP);
	void *conv = NULL;

	if (!s) {
		put_units(o, sp, "(null)", 6, false);
		return;
	}
	if (arg_wide && !o->wide) {
		conv = utf16_to_cp_dup(cp, s);
		s = conv;
		arg_wide = false;
	} else if (!arg_wide && o->wide) {
		conv = cp_to_utf16_dup(cp, s);
		s = conv;
		arg_wide = true;
	}
	if (s)
		put_units(o, sp, s, arg_wide ? wlen(s) : strlen(s), arg_wide);
	free(conv);
}

static void put_char(struct out *o, const struct spec *sp, unsigned int c, bool arg_wide)
{
	UINT cp = cp_resolve(CP_ACP);
	WCHAR wc = (WCHAR)c;
	char mb[4];
	ssize_t n;

	if (arg_wide && !o->wide) {
		n = utf16_to_cp(cp, 0, &wc, 1, mb, sizeof(mb), '?', NULL);
		if (n <= 0)
			n = 0;
		put_units(o, sp, mb, n, false);
	} else if (!arg_wide && o->wide) {
		mb[0] = (char)c;
		n = cp_to_utf16(cp, 0, mb, 1, &wc, 1);
		put_units(o, sp, &wc, n > 0 ? 1 : 0, true);
	} else if (arg_wide) {
		put_units(o, sp, &wc, 1, true);
	} else {
		mb[0] = (char)c;
		put_units(o, sp, mb, 1, false);
	}
}

static void put_number(struct out *o, const struct spec *sp, uint64_t v, bool negative,
		       unsigned int base, bool upper, const char *prefix)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int n = 0, zeros, fill, plen = prefix ? (int)strlen(prefix) : 0;

	do {
		tmp[n++] = digits[v % base];
		v /= base;
	} while (v);
	zeros = sp->prec > n ? sp->prec - n : 0;
	/* The 0x of '#' is outside the width ("%-#8x" of 255 is ten wide). */
	fill = sp->width - n - zeros - (negative ? 1 : 0);
	if (sp->zero && !sp->left && sp->prec < 0) {
		zeros += fill > 0 ? fill : 0;
		fill = 0;
	}
	if (!sp->left)
		pad(o, ' ', fill);
	if (negative)
		put(o, '-');
	for (int i = 0; i < plen; i++)
		put(o, (unsigned char)prefix[i]);
	pad(o, '0', zeros);
	while (n)
		put(o, (unsigned char)tmp[--n]);
	if (sp->left)
		pad(o, ' ', fill);
}

static unsigned int fmt_at(const void *fmt, bool wide, size_t i)
{
	return wide ? ((const WCHAR *)fmt)[i] : ((const unsigned char *)fmt)[i];
}

static int format(struct out *o, const void *fmt, __ms_va_list *ap)
{
	size_t i = 0;
	unsigned int c;

	while ((c = fmt_at(fmt, o->wide, i++))) {
		struct spec sp = { .prec = -1 };

		if (c != '%') {
			put(o, c);
			continue;
		}
		if (fmt_at(fmt, o->wide, i) == '%') {
			put(o, '%');
			i++;
			continue;
		}
		for (;; i++) {
			c = fmt_at(fmt, o->wide, i);
			if (c == '-')
				sp.left = true;
			else if (c == '#')
				sp.alt = true;
			else if (c == '0')
				sp.zero = true;
			else
				break;
		}
		while ((c = fmt_at(fmt, o->wide, i)) >= '0' && c <= '9') {
			if (sp.width < WSPRINTF_MAX)
				sp.width = sp.width * 10 + (c - '0');
			i++;
		}
		if (fmt_at(fmt, o->wide, i) == '.') {
			sp.prec = 0;
			while ((c = fmt_at(fmt, o->wide, ++i)) >= '0' && c <= '9')
				if (sp.prec < WSPRINTF_MAX)
					sp.prec = sp.prec * 10 + (c - '0');
		}
		c = fmt_at(fmt, o->wide, i);
		if (c == 'h') {
			sp.size = SZ_SHORT;
			i++;
		} else if (c == 'l' || c == 'w') {
			sp.size = SZ_LONG;
			i++;
		} else if (c == 'I' && fmt_at(fmt, o->wide, i + 1) == '6' &&
			   fmt_at(fmt, o->wide, i + 2) == '4') {
			sp.size = SZ_64;
			i += 3;
		} else if (c == 'I' && fmt_at(fmt, o->wide, i + 1) == '3' &&
			   fmt_at(fmt, o->wide, i + 2) == '2') {
			i += 3;
		}
		c = fmt_at(fmt, o->wide, i);
		if (!c)
			break;
		i++;
		switch (c) {
		case 'c':
		case 'C': {
			/* c: the output's own width, C: the other one; h and l
			 * force narrow and wide. */
			bool w = sp.size == SZ_SHORT ? false : sp.size == SZ_LONG ? true : (c == 'C') != o->wide;
			put_char(o, &sp, __builtin_va_arg(*ap, int), w);
			break;
		}
		case 's':
		case 'S': {
			bool w = sp.size == SZ_SHORT ? false : sp.size == SZ_LONG ? true : (c == 'S') != o->wide;
			put_string(o, &sp, __builtin_va_arg(*ap, const void *), w);
			break;
		}
		case 'd':
		case 'i': {
			int64_t v = sp.size == SZ_64 ? __builtin_va_arg(*ap, int64_t) : __builtin_va_arg(*ap, int);

			put_number(o, &sp, v < 0 ? -(uint64_t)v : (uint64_t)v, v < 0, 10, false, NULL);
			break;
		}
		case 'u':
		case 'x':
		case 'X': {
			uint64_t v = sp.size == SZ_64 ? __builtin_va_arg(*ap, uint64_t)
						      : __builtin_va_arg(*ap, unsigned int);
			const char *prefix = NULL;

			if (c != 'u' && sp.alt && v)
				prefix = c == 'x' ? "0x" : "0X";
			put_number(o, &sp, v, false, c == 'u' ? 10 : 16, c == 'X', prefix);
			break;
		}
		case 'p': {
			/* All the pointer's digits, upper case. */
			struct spec p = sp;

			p.prec = 2 * (int)sizeof(void *);
			put_number(o, &p, (uintptr_t)__builtin_va_arg(*ap, void *), false, 16, true, NULL);
			break;
		}
		default:
			put(o, c);
			break;
		}
	}
	if (o->wide)
		((WCHAR *)o->buf)[o->len] = 0;
	else
		((char *)o->buf)[o->len] = 0;
	return (int)o->len;
}

int WINAPI wvsprintfA(LPSTR buf, LPCSTR fmt, __ms_va_list ap)
{
	struct out o = { false, buf, 0 };
	__ms_va_list copy;
	int n;

	__ms_va_copy(copy, ap);
	n = format(&o, fmt, &copy);
	__ms_va_end(copy);
	TRACE(misc, "%s -> %d\n", fmt, n);
	return n;
}

int WINAPI wvsprintfW(LPWSTR buf, LPCWSTR fmt, __ms_va_list ap)
{
	struct out o = { true, buf, 0 };
	__ms_va_list copy;
	int n;

	__ms_va_copy(copy, ap);
	n = format(&o, fmt, &copy);
	__ms_va_end(copy);
	TRACE(misc, "%s -> %d\n", debugstr_w(fmt), n);
	return n;
}

int WINAPIV wsprintfA(LPSTR buf, LPCSTR fmt, ...)
{
	struct out o = { false, buf, 0 };
	__ms_va_list ap;
	int n;

	__ms_va_start(ap, fmt);
	n = format(&o, fmt, &ap);
	__ms_va_end(ap);
	return n;
}

int WINAPIV wsprintfW(LPWSTR buf, LPCWSTR fmt, ...)
{
	struct out o = { true, buf, 0 };
	__ms_va_list ap;
	int n;

	__ms_va_start(ap, fmt);
	n = format(&o, fmt, &ap);
	__ms_va_end(ap);
	return n;
}

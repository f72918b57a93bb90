/* The printf engine: one formatter for the narrow and the wide family,
 * implementing msvcrt.dll's grammar (checked against msvcrt under wine by
 * tests/unit/msvcrt/printf_oracle.c):
 *   flags - + space # 0; width and precision, '*' included;
 *   sizes h l w L I I32 I64 ll z t j (hh prints like int, F and N are
 *   accepted and ignored, as msvcrt's old far/near sizes);
 *   conversions d i u o x X c C s S p n e E f g G a A and "%%".
 * In the narrow family %s/%hs/%c are narrow and %ls/%ws/%S/%lc/%C wide; in
 * the wide family it is the other way round (%hs/%S narrow).  Finite
 * floating-point numbers are printed by glibc, then the exponent gets
 * msvcrt's three digits ("1.000000e+000"); infinities and NaNs take
 * msvcrt's "1.#INF00" spellings, computed below.
 *
 * ucrtbase formats with the same engine in its own flavour (opts, see
 * CRT_PF_* in msvcrt_private.h): two exponent digits, "inf"/"nan", %F as a
 * conversion, %n refused unless enabled, and %s/%c in the wide family
 * following the caller's legacy-wide-specifiers bit.
 *
 * The _p family (CRT_PF_POSITIONAL) also takes positional arguments:
 * "%2$d" and "*3$" name the argument by number, as many times as wanted;
 * a format that numbers any must number all, each of 1..n at least once,
 * n at most _ARGMAX (100); else it is an invalid parameter. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msvcrt/msvcrt_private.h"

/* ---- output buffer ------------------------------------------------------- */

/* Units are chars or WCHARs; the buffer grows on the heap past its
 * inline part.  A failed allocation marks it broken and drops output. */
struct obuf {
	int wide;
	int failed;
	int refused; /* a conversion the runtime refuses (the UCRT's %n) */
	unsigned int opts; /* CRT_PF_*: which runtime's rules */
	size_t len, cap;
	void *data;
	union {
		char n[512];
		WCHAR w[512];
	} inl;
};

static void ob_init(struct obuf *o, int wide)
{
	o->wide = wide;
	o->failed = 0;
	o->refused = 0;
	o->opts = 0;
	o->len = 0;
	o->cap = 512;
	o->data = &o->inl;
}

static void ob_free(struct obuf *o)
{
	if (o->data != &o->inl)
		free(o->data);
}

static int ob_reserve(struct obuf *o, size_t n)
{
	if (o->failed)
		return 0;
	if (o->len + n <= o->cap)
		return 1;
	size_t unit = o->wide ? sizeof(WCHAR) : 1;
	size_t cap = o->cap;
	while (cap < o->len + n)
		cap *= 2;
	void *d = malloc(cap * unit);
	if (!d) {
		o->failed = 1;
		return 0;
	}
	memcpy(d, o->data, o->len * unit);
	ob_free(o);
	o->data = d;
	o->cap = cap;
	return 1;
}

static void put_unit(struct obuf *o, unsigned int u)
{
	if (!ob_reserve(o, 1))
		return;
	if (o->wide)
		((WCHAR *)o->data)[o->len++] = u;
	else
		((char *)o->data)[o->len++] = u;
}

static void pad(struct obuf *o, unsigned int ch, long n)
{
	while (n-- > 0)
		put_unit(o, ch);
}

/* ASCII text (numbers, fixed spellings): the same in both families. */
static void put_ascii(struct obuf *o, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		put_unit(o, (unsigned char)s[i]);
}

/* Output length, in units, of a narrow or wide string. */
static size_t narrow_units(const struct obuf *o, const char *s, size_t n)
{
	return o->wide ? crt_utf8_to_wide(s, n, NULL, 0) : n;
}

static size_t wide_units(const struct obuf *o, const WCHAR *s, size_t n)
{
	return o->wide ? n : crt_wide_to_utf8(s, n, NULL, 0);
}

static void put_narrow(struct obuf *o, const char *s, size_t n)
{
	if (!o->wide) {
		put_ascii(o, s, n);
		return;
	}
	size_t need = crt_utf8_to_wide(s, n, NULL, 0);
	if (!ob_reserve(o, need))
		return;
	crt_utf8_to_wide(s, n, (WCHAR *)o->data + o->len, need);
	o->len += need;
}

static void put_wide(struct obuf *o, const WCHAR *s, size_t n)
{
	if (o->wide) {
		if (!ob_reserve(o, n))
			return;
		memcpy((WCHAR *)o->data + o->len, s, n * sizeof(WCHAR));
		o->len += n;
		return;
	}
	size_t need = crt_wide_to_utf8(s, n, NULL, 0);
	if (!ob_reserve(o, need))
		return;
	crt_wide_to_utf8(s, n, (char *)o->data + o->len, need);
	o->len += need;
}

/* ---- one conversion ------------------------------------------------------ */

enum { F_LEFT = 1, F_PLUS = 2, F_SPACE = 4, F_ALT = 8, F_ZERO = 16 };
enum size { SZ_DEFAULT, SZ_SHORT, SZ_LONG, SZ_64, SZ_WIDE_CHAR, SZ_NARROW_CHAR };

struct spec {
	int flags;
	int width;
	int prec; /* -1: none */
	enum size size;
	int is_wide_size; /* l or w given: the wide string/char */
	int is_short_size; /* h given: the narrow string/char */
	unsigned int conv;
};

/* Pads a string of `units` output units to the field width. */
static void field_start(struct obuf *o, const struct spec *s, size_t units)
{
	if (!(s->flags & F_LEFT) && s->width > (long)units)
		pad(o, s->flags & F_ZERO ? '0' : ' ', s->width - units);
}

static void field_end(struct obuf *o, const struct spec *s, size_t units)
{
	if ((s->flags & F_LEFT) && s->width > (long)units)
		pad(o, ' ', s->width - units);
}

static void fmt_string(struct obuf *o, const struct spec *s, const void *str, int wide_str)
{
	static const char null_n[] = "(null)";
	static const WCHAR null_w[] = { '(', 'n', 'u', 'l', 'l', ')', 0 };
	size_t n, units;
	if (!str)
		str = wide_str ? (const void *)null_w : (const void *)null_n;
	if (wide_str) {
		const WCHAR *w = str;
		for (n = 0; (s->prec < 0 || n < (size_t)s->prec) && w[n]; n++)
			;
		units = wide_units(o, w, n);
	} else {
		const char *c = str;
		for (n = 0; (s->prec < 0 || n < (size_t)s->prec) && c[n]; n++)
			;
		units = narrow_units(o, c, n);
	}
	field_start(o, s, units);
	if (wide_str)
		put_wide(o, str, n);
	else
		put_narrow(o, str, n);
	field_end(o, s, units);
}

static void fmt_char(struct obuf *o, const struct spec *s, unsigned int c, int wide_char)
{
	if (wide_char) {
		WCHAR w = c;
		size_t units = wide_units(o, &w, 1);
		field_start(o, s, units);
		put_wide(o, &w, 1);
		field_end(o, s, units);
	} else {
		/* a single byte goes through unchanged (msvcrt's "C" locale) */
		field_start(o, s, 1);
		put_unit(o, c & 0xff);
		field_end(o, s, 1);
	}
}

static void fmt_integer(struct obuf *o, const struct spec *s, uint64_t mag, int neg)
{
	char digits[72], prefix[3] = { 0 };
	int nd = 0, np = 0;
	unsigned int base = 10;
	const char *xd = "0123456789abcdef";

	switch (s->conv) {
	case 'o': base = 8; break;
	case 'x': base = 16; break;
	case 'X': base = 16; xd = "0123456789ABCDEF"; break;
	case 'p': base = 16; xd = "0123456789ABCDEF"; break;
	}
	for (uint64_t v = mag; v; v /= base)
		digits[nd++] = xd[v % base];
	int prec = s->prec < 0 ? 1 : s->prec;
	if (s->conv == 'p')
		prec = 16;
	int zeros = prec > nd ? prec - nd : 0;

	if (s->conv == 'd' || s->conv == 'i') {
		if (neg)
			prefix[np++] = '-';
		else if (s->flags & F_PLUS)
			prefix[np++] = '+';
		else if (s->flags & F_SPACE)
			prefix[np++] = ' ';
	} else if ((s->flags & F_ALT) && mag) {
		if (s->conv == 'o') {
			if (!zeros)
				zeros = 1;
		} else if (s->conv == 'x' || s->conv == 'p') {
			prefix[np++] = '0';
			prefix[np++] = s->conv == 'x' ? 'x' : 'X';
		} else if (s->conv == 'X') {
			prefix[np++] = '0';
			prefix[np++] = 'X';
		}
	}

	long len = np + zeros + nd;
	if (!(s->flags & F_LEFT) && s->width > len) {
		if ((s->flags & F_ZERO) && s->prec < 0)
			zeros += s->width - len;
		else
			pad(o, ' ', s->width - len);
	}
	put_ascii(o, prefix, np);
	pad(o, '0', zeros);
	while (nd)
		put_unit(o, digits[--nd]);
	field_end(o, s, len);
}

/* The UCRT spells them as C99 does: "inf", "nan", and "nan(ind)" for the
 * negative quiet NaN that invalid operations produce (with its sign), in
 * capitals for the capital conversions; no exponent, no padding zeros. */
static void fmt_nonfinite_ucrt(struct obuf *o, const struct spec *s, double v)
{
	int upper = s->conv == 'E' || s->conv == 'F' || s->conv == 'G' || s->conv == 'A';
	char text[16];
	int n = 0;

	if (signbit(v))
		text[n++] = '-';
	else if (s->flags & F_PLUS)
		text[n++] = '+';
	else if (s->flags & F_SPACE)
		text[n++] = ' ';
	n += sprintf(text + n, "%s", isinf(v) ? "inf" : signbit(v) ? "nan(ind)" : "nan");
	if (upper)
		for (int i = 0; i < n; i++)
			text[i] = text[i] >= 'a' && text[i] <= 'z' ? text[i] - 'a' + 'A' : text[i];
	if (!(s->flags & F_LEFT) && s->width > n)
		pad(o, ' ', s->width - n);
	put_ascii(o, text, n);
	field_end(o, s, n);
}

/* "1.#INF00": msvcrt treats the spelling as the digits "1#INF" (or "1#QNAN",
 * "1#IND" for negative NaNs) and rounds or pads them to the precision as
 * if they were digits, so "%.2f" gives "1.#J".  Padding zeros are written
 * after the field padding (as spaces after the suffix when left-aligned). */
static void fmt_nonfinite(struct obuf *o, const struct spec *s, double v)
{
	/* the UCRT's own spellings, unless it asks for msvcrt's */
	if ((o->opts & CRT_PF_UCRT) && !(o->opts & CRT_PF_LEGACY_MSVCRT_COMPATIBILITY)) {
		fmt_nonfinite_ucrt(o, s, v);
		return;
	}

	int neg = signbit(v);
	const char *txt = isinf(v) ? "1#INF" : neg ? "1#IND" : "1#QNAN";
	unsigned int lower = s->conv | 0x20;
	int tlen = strlen(txt), prec = s->prec;
	char body[16], head[24], suffix[8] = "";
	int nb = 0, zeros = 0, keep;

	if (prec < 0)
		prec = lower == 'a' ? 13 : 6;
	if (lower == 'g')
		keep = prec == 0 || prec >= tlen ? tlen : prec;
	else
		keep = prec + 1 >= tlen ? tlen : prec + 1;
	if (lower != 'g' && prec + 1 > tlen)
		zeros = prec + 1 - tlen;

	char digits[8];
	memcpy(digits, txt, keep);
	if (keep < tlen && txt[keep] >= '5')
		digits[keep - 1]++;
	body[nb++] = digits[0];
	if (keep > 1) {
		body[nb++] = '.';
		memcpy(body + nb, digits + 1, keep - 1);
		nb += keep - 1;
	}

	int nh = 0;
	if (neg)
		head[nh++] = '-';
	else if (s->flags & F_PLUS)
		head[nh++] = '+';
	else if (s->flags & F_SPACE)
		head[nh++] = ' ';
	if (lower == 'a') {
		head[nh++] = '0';
		head[nh++] = s->conv == 'A' ? 'X' : 'x';
		strcpy(suffix, s->conv == 'A' ? "P+0" : "p+0");
	} else if (lower == 'e') {
		strcpy(suffix, s->conv == 'E' ? "E+000" : "e+000");
	}
	int prefix_len = nh;
	memcpy(head + nh, body, nb);
	nh += nb;

	long field = (long)s->width - zeros - (long)strlen(suffix);
	if (s->flags & F_LEFT) {
		put_ascii(o, head, nh);
		pad(o, ' ', field - nh);
		put_ascii(o, suffix, strlen(suffix));
		pad(o, ' ', zeros);
		return;
	}
	if (s->flags & F_ZERO) {
		put_ascii(o, head, prefix_len);
		pad(o, '0', field - nh);
		put_ascii(o, head + prefix_len, nh - prefix_len);
	} else {
		pad(o, ' ', field - nh);
		put_ascii(o, head, nh);
	}
	pad(o, '0', zeros);
	put_ascii(o, suffix, strlen(suffix));
}

/* A finite double as decimal digits: value = 0.d0d1d2... * 10^(exp + 1).
 * glibc's "%.800e" is exact (a double needs at most 767 significant
 * digits), so rounding here sees the true value: msvcrt rounds halves
 * away from zero ("%.0f" of 2.5 is "3"), where glibc rounds to even. */
struct decimal {
	char d[808];
	int n; /* significant digits kept */
	int exp;
};

static void to_decimal(double v, struct decimal *dec)
{
	char tmp[832];
	snprintf(tmp, sizeof(tmp), "%.800e", fabs(v));
	dec->n = 0;
	char *p = tmp;
	for (; *p && *p != 'e'; p++)
		if (*p != '.')
			dec->d[dec->n++] = *p;
	dec->exp = atoi(p + 1);
}

/* Keeps `keep` significant digits, rounding half away from zero. */
static void round_decimal(struct decimal *dec, int keep)
{
	if (keep >= dec->n)
		return;
	if (keep < 0) {
		dec->n = 0;
		return;
	}
	int up = dec->d[keep] >= '5';
	dec->n = keep;
	if (!up)
		return;
	int i = keep - 1;
	while (i >= 0 && dec->d[i] == '9')
		dec->d[i--] = '0';
	if (i >= 0) {
		dec->d[i]++;
	} else {
		/* 9.99 -> 10.0: one more leading digit */
		memmove(dec->d + 1, dec->d, dec->n);
		dec->d[0] = '1';
		dec->n++;
		dec->exp++;
		if (dec->n > keep && keep > 0)
			dec->n = keep;
	}
}

/* Digit k of the number (k = 0 is the first significant one). */
static char digit_at(const struct decimal *dec, int k)
{
	return k >= 0 && k < dec->n ? dec->d[k] : '0';
}

static size_t render_fixed(char *out, const struct decimal *dec, int prec, int alt)
{
	size_t n = 0;
	if (dec->exp < 0)
		out[n++] = '0';
	for (int k = 0; k <= dec->exp; k++)
		out[n++] = digit_at(dec, k);
	if (prec > 0 || alt)
		out[n++] = '.';
	for (int i = 1; i <= prec; i++)
		out[n++] = digit_at(dec, dec->exp + i);
	return n;
}

static size_t render_exp(char *out, const struct decimal *dec, int prec, int alt, char e, int exp_digits)
{
	size_t n = 0;
	out[n++] = digit_at(dec, 0);
	if (prec > 0 || alt)
		out[n++] = '.';
	for (int i = 1; i <= prec; i++)
		out[n++] = digit_at(dec, i);
	int x = dec->n && dec->d[0] != '0' ? dec->exp : 0;
	n += sprintf(out + n, "%c%c%0*d", e, x < 0 ? '-' : '+', exp_digits, x < 0 ? -x : x);
	return n;
}

static int is_zero(const struct decimal *dec)
{
	for (int i = 0; i < dec->n; i++)
		if (dec->d[i] != '0')
			return 0;
	return 1;
}

/* msvcrt prints three exponent digits; the UCRT two unless told
 * otherwise (_CRT_INTERNAL_PRINTF_LEGACY_THREE_DIGIT_EXPONENTS). */
static size_t format_decimal(char *out, double v, const struct spec *s, unsigned int opts)
{
	int exp_digits = (opts & CRT_PF_UCRT) && !(opts & CRT_PF_THREE_DIGIT_EXPONENTS) ? 2 : 3;
	struct decimal dec;
	int prec = s->prec < 0 ? 6 : s->prec, alt = s->flags & F_ALT;
	to_decimal(v, &dec);
	int zero = is_zero(&dec);
	if (zero)
		dec.exp = 0;

	switch (s->conv) {
	case 'f':
	case 'F':
		if (!zero)
			round_decimal(&dec, dec.exp + 1 + prec);
		if (!dec.n) /* rounded away entirely */
			dec.exp = 0;
		return render_fixed(out, &dec, prec, alt);
	case 'e':
	case 'E':
		round_decimal(&dec, prec + 1);
		return render_exp(out, &dec, prec, alt, s->conv, exp_digits);
	default: { /* g G */
		if (!prec)
			prec = 1;
		round_decimal(&dec, prec);
		int x = zero ? 0 : dec.exp;
		size_t n;
		if (x < -4 || x >= prec)
			n = render_exp(out, &dec, prec - 1, alt, s->conv == 'G' ? 'E' : 'e', exp_digits);
		else
			n = render_fixed(out, &dec, prec - 1 - x, alt);
		if (!alt) {
			char *e = memchr(out, s->conv == 'G' ? 'E' : 'e', n);
			size_t mant = e ? (size_t)(e - out) : n, cut = mant;
			if (memchr(out, '.', mant)) {
				while (out[cut - 1] == '0')
					cut--;
				if (out[cut - 1] == '.')
					cut--;
			}
			memmove(out + cut, out + mant, n - mant);
			n -= mant - cut;
		}
		return n;
	}
	}
}

static void fmt_float(struct obuf *o, const struct spec *s, double v)
{
	if (!isfinite(v)) {
		fmt_nonfinite(o, s, v);
		return;
	}
	char small[128], *text = small;
	int len, prefix_len = 0;

	if ((s->conv | 0x20) == 'a') {
		char fmt[32];
		int n = 0;
		fmt[n++] = '%';
		if (s->flags & F_PLUS)
			fmt[n++] = '+';
		if (s->flags & F_SPACE)
			fmt[n++] = ' ';
		if (s->flags & F_ALT)
			fmt[n++] = '#';
		/* msvcrt prints all 13 hex digits when no precision is given */
		n += sprintf(fmt + n, ".%d%c", s->prec < 0 ? 13 : s->prec, s->conv);
		len = snprintf(small, sizeof(small), fmt, v);
		if (len < 0 || (size_t)len >= sizeof(small))
			return;
		prefix_len = 2 + (small[0] == '-' || small[0] == '+' || small[0] == ' ');
	} else {
		/* sign, up to 309 integer digits, point, precision, exponent */
		size_t need = 1 + 310 + 1 + (s->prec < 0 ? 6 : s->prec) + 8;
		if (need > sizeof(small)) {
			text = malloc(need);
			if (!text)
				return;
		}
		len = 0;
		if (signbit(v))
			text[len++] = '-';
		else if (s->flags & F_PLUS)
			text[len++] = '+';
		else if (s->flags & F_SPACE)
			text[len++] = ' ';
		prefix_len = len;
		len += format_decimal(text + len, v, s, o->opts);
	}

	if (!(s->flags & F_LEFT) && s->width > len) {
		if (s->flags & F_ZERO) {
			put_ascii(o, text, prefix_len);
			pad(o, '0', s->width - len);
			put_ascii(o, text + prefix_len, len - prefix_len);
		} else {
			pad(o, ' ', s->width - len);
			put_ascii(o, text, len);
		}
	} else {
		put_ascii(o, text, len);
		field_end(o, s, len);
	}
	if (text != small)
		free(text);
}

/* ---- the format string --------------------------------------------------- */

#define FC(i) (wide ? ((const WCHAR *)fmt)[i] : ((const unsigned char *)fmt)[i])

#define CRT_ARGMAX 100

/* Where conversions take their arguments: the va_list in order, or, for a
 * positional format, the argument slots fetched up front.  Every x64
 * variadic argument fills one 8-byte slot (a double its bits), so a slot
 * read whole serves any conversion. */
struct args {
	__ms_va_list *ap;
	const uint64_t *slot; /* slot[1..n], or NULL */
	int n;
};

/* "digits$" at i: the number (0 when not there), with *i past it. */
static int position_at(const void *fmt, int wide, size_t *i)
{
	size_t j = *i;
	int n = 0;

	while (FC(j) >= '0' && FC(j) <= '9') {
		if (n < 1000)
			n = n * 10 + (int)(FC(j) - '0');
		j++;
	}
	if (j == *i || FC(j) != '$')
		return 0;
	*i = j + 1;
	return n ? n : -1;
}

/* The positional arguments of fmt: 0 when it numbers none, the highest
 * number when it numbers every argument correctly, -1 when it is invalid. */
static int scan_positions(const void *fmt, int wide, int ucrt)
{
	unsigned char used[CRT_ARGMAX + 1] = { 0 };
	int max = 0, numbered = 0, unnumbered = 0;
	size_t i = 0;

	while (FC(i)) {
		int n;

		if (FC(i++) != '%')
			continue;
		if (FC(i) == '%') {
			i++;
			continue;
		}
		n = position_at(fmt, wide, &i);
		while (FC(i) && strchr("-+ #0", (int)FC(i)))
			i++;
		/* the field, then width and precision, each maybe '*' */
		for (int part = 0; part < 3; part++) {
			if (part == 2 && FC(i) != '.')
				break;
			if (part == 2)
				i++;
			if (part == 0) {
				if (n) {
					numbered++;
					if (n < 0 || n > CRT_ARGMAX)
						return -1;
					used[n] = 1;
					max = n > max ? n : max;
				} else {
					unnumbered++;
				}
				continue;
			}
			if (FC(i) == '*') {
				int m;

				i++;
				m = position_at(fmt, wide, &i);
				if (!m) {
					unnumbered++;
					continue;
				}
				numbered++;
				if (m < 0 || m > CRT_ARGMAX)
					return -1;
				used[m] = 1;
				max = m > max ? m : max;
			} else {
				while (FC(i) >= '0' && FC(i) <= '9')
					i++;
			}
		}
		/* sizes, then the conversion */
		while (FC(i) && strchr(ucrt ? "hlwLNztjI0123456789" : "hlwLFNztjI0123456789", (int)FC(i)))
			i++;
		if (FC(i))
			i++;
	}
	if (!numbered)
		return 0;
	if (unnumbered)
		return -1;
	for (int k = 1; k <= max; k++)
		if (!used[k])
			return -1;
	return max;
}

/* The next argument's number in a positional format (0 otherwise); -1
 * when it is not one of the numbers the format was checked for. */
static int next_position(const struct args *a, const void *fmt, int wide, size_t *i)
{
	int n;

	if (!a->slot)
		return 0;
	n = position_at(fmt, wide, i);
	return n >= 1 && n <= a->n ? n : -1;
}

static uint64_t arg_slot(struct args *a, int n)
{
	return a->slot ? a->slot[n] : __builtin_va_arg(*a->ap, uint64_t);
}

static int arg_int(struct args *a, int n)
{
	return a->slot ? (int)a->slot[n] : __builtin_va_arg(*a->ap, int);
}

static double arg_double(struct args *a, int n)
{
	double d;
	uint64_t bits;

	if (!a->slot)
		return __builtin_va_arg(*a->ap, double);
	bits = a->slot[n];
	memcpy(&d, &bits, sizeof(d));
	return d;
}

static void *arg_ptr(struct args *a, int n)
{
	return a->slot ? (void *)(uintptr_t)a->slot[n] : __builtin_va_arg(*a->ap, void *);
}

static void format(struct obuf *o, const void *fmt, __ms_va_list *ap)
{
	const int wide = o->wide;
	const int ucrt = o->opts & CRT_PF_UCRT;
	/* Whether %s and %c take the family's own width: always in msvcrt, in
	 * the UCRT only with the legacy wide specifiers (else ISO C: narrow). */
	const int native = ucrt && !(o->opts & CRT_PF_LEGACY_WIDE_SPECIFIERS) ? 0 : wide;
	uint64_t slots[CRT_ARGMAX + 1];
	struct args a = { ap, NULL, 0 };
	size_t i = 0;

	if (o->opts & CRT_PF_POSITIONAL) {
		int n = scan_positions(fmt, wide, ucrt);

		if (n < 0) {
			o->refused = 1;
			return;
		}
		for (int k = 1; k <= n; k++)
			slots[k] = __builtin_va_arg(*ap, uint64_t);
		if (n)
			a.slot = slots;
		a.n = n;
	}

	while (FC(i)) {
		if (FC(i) != '%') {
			size_t start = i;
			while (FC(i) && FC(i) != '%')
				i++;
			if (wide)
				put_wide(o, (const WCHAR *)fmt + start, i - start);
			else
				put_ascii(o, (const char *)fmt + start, i - start);
			continue;
		}
		i++;
		if (FC(i) == '%') {
			put_unit(o, '%');
			i++;
			continue;
		}

		struct spec s = { .prec = -1 };
		int pos = next_position(&a, fmt, wide, &i), wpos = 0, ppos = 0;

		for (;; i++) {
			unsigned int c = FC(i);
			if (c == '-')
				s.flags |= F_LEFT;
			else if (c == '+')
				s.flags |= F_PLUS;
			else if (c == ' ')
				s.flags |= F_SPACE;
			else if (c == '#')
				s.flags |= F_ALT;
			else if (c == '0')
				s.flags |= F_ZERO;
			else
				break;
		}
		if (FC(i) == '*') {
			i++;
			wpos = next_position(&a, fmt, wide, &i);
			s.width = wpos < 0 ? 0 : arg_int(&a, wpos);
			if (s.width < 0) {
				s.flags |= F_LEFT;
				s.width = -s.width;
			}
		} else {
			while (FC(i) >= '0' && FC(i) <= '9')
				s.width = s.width * 10 + (FC(i++) - '0');
		}
		if (FC(i) == '.') {
			i++;
			s.prec = 0;
			if (FC(i) == '*') {
				i++;
				ppos = next_position(&a, fmt, wide, &i);
				s.prec = ppos < 0 ? 0 : arg_int(&a, ppos);
				if (s.prec < 0)
					s.prec = -1;
			} else {
				while (FC(i) >= '0' && FC(i) <= '9')
					s.prec = s.prec * 10 + (FC(i++) - '0');
			}
		}

		/* sizes: several may be given; the last integer size wins */
		for (;;) {
			unsigned int c = FC(i);
			if (c == 'h') {
				s.size = FC(i + 1) == 'h' ? SZ_DEFAULT : SZ_SHORT;
				s.is_short_size = 1;
				s.is_wide_size = 0;
				i += FC(i + 1) == 'h' ? 2 : 1;
			} else if (c == 'l') {
				if (FC(i + 1) == 'l') {
					s.size = SZ_64;
					i += 2;
				} else {
					s.size = SZ_LONG;
					i++;
				}
				s.is_wide_size = 1;
				s.is_short_size = 0;
			} else if (c == 'w') {
				s.is_wide_size = 1;
				s.is_short_size = 0;
				i++;
			} else if (c == 'L' || (c == 'F' && !ucrt) || c == 'N') {
				i++;
			} else if (c == 'z' || c == 't' || c == 'j') {
				s.size = SZ_64;
				i++;
			} else if (c == 'I') {
				if (FC(i + 1) == '6' && FC(i + 2) == '4') {
					s.size = SZ_64;
					i += 3;
				} else if (FC(i + 1) == '3' && FC(i + 2) == '2') {
					s.size = SZ_LONG;
					i += 3;
				} else if (FC(i + 1) && strchr("diouxX", FC(i + 1))) {
					s.size = SZ_64;
					i++;
				} else {
					break; /* a lone I is the conversion */
				}
			} else {
				break;
			}
		}

		s.conv = FC(i);
		if (!s.conv)
			break;
		i++;
		if (pos < 0 || wpos < 0 || ppos < 0 || (a.slot && !pos && s.conv != '%')) {
			/* a number the check did not see (a format it read
			 * differently): refused rather than read past the slots */
			o->refused = 1;
			return;
		}
		switch (s.conv) {
		case 'd':
		case 'i': {
			int64_t v;
			if (s.size == SZ_64)
				v = (int64_t)arg_slot(&a, pos);
			else if (s.size == SZ_SHORT)
				v = (short)arg_int(&a, pos);
			else
				v = arg_int(&a, pos);
			fmt_integer(o, &s, v < 0 ? -(uint64_t)v : (uint64_t)v, v < 0);
			break;
		}
		case 'u':
		case 'o':
		case 'x':
		case 'X': {
			uint64_t v;
			if (s.size == SZ_64)
				v = arg_slot(&a, pos);
			else if (s.size == SZ_SHORT)
				v = (unsigned short)arg_int(&a, pos);
			else
				v = (unsigned int)arg_int(&a, pos);
			fmt_integer(o, &s, v, 0);
			break;
		}
		case 'p':
			fmt_integer(o, &s, (uintptr_t)arg_ptr(&a, pos), 0);
			break;
		case 'c':
		case 'C': {
			int wide_char = s.conv == 'C' ? !native : native;
			if (s.is_wide_size)
				wide_char = 1;
			if (s.is_short_size)
				wide_char = 0;
			fmt_char(o, &s, arg_int(&a, pos), wide_char);
			break;
		}
		case 's':
		case 'S': {
			int wide_str = s.conv == 'S' ? !native : native;
			if (s.is_wide_size)
				wide_str = 1;
			if (s.is_short_size)
				wide_str = 0;
			fmt_string(o, &s, arg_ptr(&a, pos), wide_str);
			break;
		}
		case 'n': {
			void *p = arg_ptr(&a, pos);
			if ((ucrt && !(o->opts & CRT_PF_COUNT_OUTPUT)) || (o->opts & CRT_PF_SECURE)) {
				/* the UCRT refuses %n unless _set_printf_count_output,
				 * the _s family always */
				o->refused = 1;
				return;
			}
			if (s.size == SZ_SHORT)
				*(short *)p = o->len;
			else if (s.size == SZ_64)
				*(int64_t *)p = o->len;
			else
				*(int *)p = o->len;
			break;
		}
		case 'F': /* only the UCRT gets here (msvcrt reads F as a size) */
		case 'e':
		case 'E':
		case 'f':
		case 'g':
		case 'G':
		case 'a':
		case 'A':
			/* msvcrt's long double is double: every size reads a double */
			fmt_float(o, &s, arg_double(&a, pos));
			break;
		case '%':
			/* msvcrt prints nothing for "%5%" and the like */
			break;
		default:
			/* an unknown conversion prints itself */
			put_unit(o, s.conv);
			break;
		}
	}
}

/* ---- front ends ----------------------------------------------------------- */

/* Formats into o; returns the length in units, or -1 when memory ran out. */
static int run(struct obuf *o, const void *fmt, __ms_va_list ap)
{
	__ms_va_list copy;
	__ms_va_copy(copy, ap);
	format(o, fmt, &copy);
	__ms_va_end(copy);
	if (o->refused)
		return crt_invalid_arg();
	if (o->failed || o->len > INT32_MAX)
		return -1;
	return (int)o->len;
}

/* msvcrt's _vsnprintf: fills at most count units; a terminator only if
 * there is room; -1 when the output did not fit. */
static int to_buffer_ms(void *buf, size_t count, int wide, const void *fmt, __ms_va_list ap)
{
	struct obuf o;
	ob_init(&o, wide);
	int len = run(&o, fmt, ap);
	size_t unit = wide ? sizeof(WCHAR) : 1;
	if (len >= 0) {
		size_t n = (size_t)len < count ? (size_t)len : count;
		memcpy(buf, o.data, n * unit);
		if ((size_t)len < count)
			memset((char *)buf + n * unit, 0, unit);
		else if ((size_t)len > count)
			len = -1;
	}
	ob_free(&o);
	return len;
}

/* C99 vsnprintf: always terminated, returns the full length. */
static int to_buffer_c99(void *buf, size_t count, int wide, const void *fmt, __ms_va_list ap)
{
	struct obuf o;
	ob_init(&o, wide);
	int len = run(&o, fmt, ap);
	size_t unit = wide ? sizeof(WCHAR) : 1;
	if (len >= 0 && count) {
		size_t n = (size_t)len < count - 1 ? (size_t)len : count - 1;
		memcpy(buf, o.data, n * unit);
		memset((char *)buf + n * unit, 0, unit);
	}
	ob_free(&o);
	return len;
}

static int count_only(int wide, const void *fmt, __ms_va_list ap)
{
	struct obuf o;
	ob_init(&o, wide);
	int len = run(&o, fmt, ap);
	ob_free(&o);
	return len;
}

static int to_stream_opts(unsigned int opts, struct crt_file *f, int wide, const void *fmt, __ms_va_list ap)
{
	struct obuf o;
	ob_init(&o, wide);
	o.opts = opts;
	int len = run(&o, fmt, ap);
	if (len >= 0) {
		crt__lock_file(f);
		int ok;
		if (wide) {
			/* as fputwc writes them: the stream's mode decides */
			ok = crt_stream_put_wide(f, o.data, len) == (size_t)len;
		} else {
			ok = crt_fwrite(o.data, 1, len, f) == (size_t)len;
		}
		crt__unlock_file(f);
		if (!ok)
			len = -1;
	}
	ob_free(&o);
	return len;
}

static int to_stream(struct crt_file *f, int wide, const void *fmt, __ms_va_list ap)
{
	return to_stream_opts(0, f, wide, fmt, ap);
}

int crt_pf_stream(unsigned int opts, struct crt_file *f, int wide, const void *fmt, __ms_va_list ap)
{
	return to_stream_opts(opts, f, wide, fmt, ap);
}

int crt_pf_format(unsigned int opts, int wide, const void *fmt, __ms_va_list ap, void **text)
{
	struct obuf o;
	size_t unit = wide ? sizeof(WCHAR) : 1;
	int len;

	*text = NULL;
	ob_init(&o, wide);
	o.opts = opts;
	len = run(&o, fmt, ap);
	if (len >= 0) {
		*text = malloc(((size_t)len + 1) * unit);
		if (*text) {
			memcpy(*text, o.data, (size_t)len * unit);
			memset((char *)*text + (size_t)len * unit, 0, unit);
		} else {
			len = -1;
		}
	}
	ob_free(&o);
	return len;
}

int __cdecl crt_vfprintf(struct crt_file *f, const char *fmt, __ms_va_list ap)
{
	return to_stream(f, 0, fmt, ap);
}

int __cdecl crt_vprintf(const char *fmt, __ms_va_list ap)
{
	return to_stream(crt_stdout(), 0, fmt, ap);
}

int __cdecl crt_fprintf(struct crt_file *f, const char *fmt, ...)
{
	__ms_va_list ap;
	__ms_va_start(ap, fmt);
	int r = to_stream(f, 0, fmt, ap);
	__ms_va_end(ap);
	return r;
}

int __cdecl crt_printf(const char *fmt, ...)
{
	__ms_va_list ap;
	__ms_va_start(ap, fmt);
	int r = to_stream(crt_stdout(), 0, fmt, ap);
	__ms_va_end(ap);
	return r;
}

int __cdecl crt_vsprintf(char *buf, const char *fmt, __ms_va_list ap)
{
	return to_buffer_ms(buf, SIZE_MAX, 0, fmt, ap);
}

int __cdecl crt_sprintf(char *buf, const char *fmt, ...)
{
	__ms_va_list ap;
	__ms_va_start(ap, fmt);
	int r = to_buffer_ms(buf, SIZE_MAX, 0, fmt, ap);
	__ms_va_end(ap);
	return r;
}

int __cdecl crt__vsnprintf(char *buf, size_t count, const char *fmt, __ms_va_list ap)
{
	return to_buffer_ms(buf, count, 0, fmt, ap);
}

int __cdecl crt__snprintf(char *buf, size_t count, const char *fmt, ...)
{
	__ms_va_list ap;
	__ms_va_start(ap, fmt);
	int r = to_buffer_ms(buf, count, 0, fmt, ap);
	__ms_va_end(ap);
	return r;
}

int __cdecl crt_vsnprintf(char *buf, size_t count, const char *fmt, __ms_va_list ap)
{
	return to_buffer_c99(buf, count, 0, fmt, ap);
}

int __cdecl crt_snprintf(char *buf, size_t count, const char *fmt, ...)
{
	__ms_va_list ap;
	__ms_va_start(ap, fmt);
	int r = to_buffer_c99(buf, count, 0, fmt, ap);
	__ms_va_end(ap);
	return r;
}

int __cdecl crt__vscprintf(const char *fmt, __ms_va_list ap)
{
	return count_only(0, fmt, ap);
}

int __cdecl crt__scprintf(const char *fmt, ...)
{
	__ms_va_list ap;
	__ms_va_start(ap, fmt);
	int r = count_only(0, fmt, ap);
	__ms_va_end(ap);
	return r;
}

int __cdecl crt_vfwprintf(struct crt_file *f, const WCHAR *fmt, __ms_va_list ap)
{
	return to_stream(f, 1, fmt, ap);
}

int __cdecl crt_vwprintf(const WCHAR *fmt, __ms_va_list ap)
{
	return to_stream(crt_stdout(), 1, fmt, ap);
}

int __cdecl crt_fwprintf(struct crt_file *f, const WCHAR *fmt, ...)
{
	__ms_va_list ap;
	__ms_va_start(ap, fmt);
	int r = to_stream(f, 1, fmt, ap);
	__ms_va_end(ap);
	return r;
}

int __cdecl crt_wprintf(const WCHAR *fmt, ...)
{
	__ms_va_list ap;
	__ms_va_start(ap, fmt);
	int r = to_stream(crt_stdout(), 1, fmt, ap);
	__ms_va_end(ap);
	return r;
}

/* msvcrt's swprintf/vswprintf predate ISO C: (buffer, format, ...). */
int __cdecl crt_vswprintf(WCHAR *buf, const WCHAR *fmt, __ms_va_list ap)
{
	return to_buffer_ms(buf, SIZE_MAX / sizeof(WCHAR), 1, fmt, ap);
}

int __cdecl crt_swprintf(WCHAR *buf, const WCHAR *fmt, ...)
{
	__ms_va_list ap;
	__ms_va_start(ap, fmt);
	int r = to_buffer_ms(buf, SIZE_MAX / sizeof(WCHAR), 1, fmt, ap);
	__ms_va_end(ap);
	return r;
}

int __cdecl crt__vsnwprintf(WCHAR *buf, size_t count, const WCHAR *fmt, __ms_va_list ap)
{
	return to_buffer_ms(buf, count, 1, fmt, ap);
}

int __cdecl crt__snwprintf(WCHAR *buf, size_t count, const WCHAR *fmt, ...)
{
	__ms_va_list ap;
	__ms_va_start(ap, fmt);
	int r = to_buffer_ms(buf, count, 1, fmt, ap);
	__ms_va_end(ap);
	return r;
}

int __cdecl crt__vscwprintf(const WCHAR *fmt, __ms_va_list ap)
{
	return count_only(1, fmt, ap);
}

int __cdecl crt__scwprintf(const WCHAR *fmt, ...)
{
	__ms_va_list ap;
	__ms_va_start(ap, fmt);
	int r = count_only(1, fmt, ap);
	__ms_va_end(ap);
	return r;
}

/* The scanf engine: one reader for narrow and wide input, from a string
 * or a stream, behind the UCRT's __stdio_common_v*scanf entry points
 * (ucrt_stdio.c).  Grammar: whitespace in the format skips any run of
 * input whitespace; '*' suppresses assignment; a width limits the field;
 * sizes hh h l ll L I I32 I64 z t j w; conversions d i u o x X p n c s [
 * e E f F g G a A and "%%".  long is 32-bit and long double is double, as
 * on Windows.  With SECURECRT (the _s family) every %c %s %[ takes the
 * destination's size in elements after its pointer. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "msvcrt/msvcrt_private.h"

#define EOF_ (-1)

/* ---- input ------------------------------------------------------------ */

struct scan_in {
	int wide;              /* units are WCHARs */
	const void *str;       /* string input, or NULL for a stream */
	size_t len, pos;
	struct crt_file *file;
	size_t consumed;       /* units read and kept, for %n */
};

static int in_get(struct scan_in *in)
{
	int c;

	if (in->str) {
		if (in->pos >= in->len)
			return EOF_;
		c = in->wide ? ((const WCHAR *)in->str)[in->pos] : ((const unsigned char *)in->str)[in->pos];
		if (!c)
			return EOF_;
		in->pos++;
	} else if (in->wide) {
		c = crt_fgetwc(in->file);
		if (c == 0xffff)
			return EOF_;
	} else {
		c = crt_fgetc(in->file);
		if (c < 0)
			return EOF_;
	}
	in->consumed++;
	return c;
}

static void in_unget(struct scan_in *in, int c)
{
	if (c == EOF_)
		return;
	in->consumed--;
	if (in->str)
		in->pos--;
	else if (in->wide)
		crt_ungetwc(c, in->file);
	else
		crt_ungetc(c, in->file);
}

static int is_space(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* Skips whitespace; returns the first other unit (consumed) or EOF. */
static int skip_space(struct scan_in *in)
{
	int c;

	do
		c = in_get(in);
	while (is_space(c));
	return c;
}

/* ---- conversions ---------------------------------------------------- */

enum { SZ_INT, SZ_CHAR, SZ_SHORT, SZ_LONG, SZ_64 };

struct field {
	int suppress;
	size_t width; /* 0: none */
	int size;
	int wide_str, short_str;
	unsigned int conv;
};

/* Collects the longest prefix of a number (integer in base, 0: C's
 * prefixes, or floating point) into buf, at most width units; returns
 * its length, 0 when it holds no digit. */
static size_t collect_number(struct scan_in *in, int first, const struct field *f, char *buf, size_t cap, int base,
			     int is_float)
{
	size_t n = 0, limit = f->width ? f->width : cap - 1;
	int c = first, seen_digit = 0, seen_exp = 0, seen_point = 0, hex = base == 16;

	if (limit > cap - 1)
		limit = cap - 1;
	if ((c == '-' || c == '+') && n < limit) {
		buf[n++] = c;
		c = in_get(in);
	}
	if (is_float && n < limit && (c == 'i' || c == 'I' || c == 'n' || c == 'N')) {
		/* inf, infinity, nan, nan(chars) */
		while (n < limit && c != EOF_ && ((c | 0x20) >= 'a' && (c | 0x20) <= 'z')) {
			buf[n++] = c;
			c = in_get(in);
		}
		if (n < limit && c == '(' && (buf[n - 1] | 0x20) == 'n') {
			while (n < limit && c != EOF_ && c != ')') {
				buf[n++] = c;
				c = in_get(in);
			}
			if (c == ')' && n < limit) {
				buf[n++] = c;
				c = in_get(in);
			}
		}
		in_unget(in, c);
		buf[n] = 0;
		return n;
	}
	if (c == '0' && n < limit) {
		buf[n++] = c;
		seen_digit = 1;
		c = in_get(in);
		if ((c == 'x' || c == 'X') && n < limit && (base == 16 || base == 0 || is_float)) {
			buf[n++] = c;
			hex = 1;
			c = in_get(in);
		} else if (base == 0) {
			base = 8;
		}
	}
	for (; n < limit && c != EOF_; c = in_get(in)) {
		int ok;
		if (is_float) {
			if (c == '.' && !seen_point && !seen_exp)
				ok = seen_point = 1;
			else if (!seen_exp && seen_digit && (hex ? (c | 0x20) == 'p' : (c | 0x20) == 'e'))
				ok = seen_exp = 1;
			else if ((c == '+' || c == '-') && n && (buf[n - 1] | 0x20) == (hex ? 'p' : 'e'))
				ok = 1;
			else
				ok = (c >= '0' && c <= '9') || (hex && !seen_exp && ((c | 0x20) >= 'a' && (c | 0x20) <= 'f'));
		} else {
			int b = hex ? 16 : base ? base : 10, d;
			if (c >= '0' && c <= '9')
				d = c - '0';
			else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z')
				d = (c | 0x20) - 'a' + 10;
			else
				d = 99;
			ok = d < b;
		}
		if (!ok)
			break;
		if ((c >= '0' && c <= '9') || (hex && (c | 0x20) >= 'a' && (c | 0x20) <= 'f'))
			seen_digit = 1;
		buf[n++] = c;
	}
	/* c is always one unit past the field */
	in_unget(in, c);
	buf[n] = 0;
	return seen_digit ? n : 0;
}

static void store_int(const struct field *f, void *p, uint64_t v)
{
	switch (f->size) {
	case SZ_CHAR:
		*(char *)p = (char)v;
		break;
	case SZ_SHORT:
		*(short *)p = (short)v;
		break;
	case SZ_64:
		*(uint64_t *)p = v;
		break;
	default:
		*(int *)p = (int)v;
		break;
	}
}

/* Stores a collected string (in input units) into the destination in
 * its own width; 0 when it does not fit the _s size. */
static int store_text(const struct scan_in *in, const struct field *f, void *dst, size_t size, const void *text,
		      size_t n, int terminate)
{
	int dst_wide = f->wide_str;
	size_t need;

	if (dst_wide == in->wide) {
		need = n + terminate;
		if (size && need > size)
			return 0;
		memcpy(dst, text, n * (dst_wide ? sizeof(WCHAR) : 1));
		if (terminate) {
			if (dst_wide)
				((WCHAR *)dst)[n] = 0;
			else
				((char *)dst)[n] = 0;
		}
		return 1;
	}
	if (dst_wide) {
		need = crt_utf8_to_wide(text, n, NULL, 0) + terminate;
		if (size && need > size)
			return 0;
		need = crt_utf8_to_wide(text, n, dst, need);
		if (terminate)
			((WCHAR *)dst)[need] = 0;
	} else {
		need = crt_wide_to_utf8(text, n, NULL, 0) + terminate;
		if (size && need > size)
			return 0;
		need = crt_wide_to_utf8(text, n, dst, need);
		if (terminate)
			((char *)dst)[need] = 0;
	}
	return 1;
}

#define FC(i) (in->wide ? ((const WCHAR *)fmt)[i] : ((const unsigned char *)fmt)[i])

/* A scanset "[...]" starting at fmt index i (after '['); returns the
 * index after ']' and fills set[] for units below 256 (others: negate). */
static size_t parse_set(const struct scan_in *in, const void *fmt, size_t i, unsigned char set[256], int *negate)
{
	memset(set, 0, 256);
	*negate = 0;
	if (FC(i) == '^') {
		*negate = 1;
		i++;
	}
	if (FC(i) == ']')
		set[']'] = 1, i++;
	for (; FC(i) && FC(i) != ']'; i++) {
		unsigned int a = FC(i);
		if (FC(i + 1) == '-' && FC(i + 2) && FC(i + 2) != ']') {
			unsigned int b = FC(i + 2);
			for (unsigned int c = a < b ? a : b; c <= (a < b ? b : a) && c < 256; c++)
				set[c] = 1;
			i += 2;
		} else if (a < 256) {
			set[a] = 1;
		}
	}
	return FC(i) == ']' ? i + 1 : i;
}

int crt_scan(unsigned int opts, int wide, const void *input, size_t len, struct crt_file *file, const void *fmt,
	     __ms_va_list ap)
{
	struct scan_in inb = { .wide = wide, .str = input, .len = len, .file = file }, *in = &inb;
	int assigned = 0, converted = 0, c;
	size_t i = 0;
	/* %s/%c take the family's own width in msvcrt and with the UCRT's
	 * legacy bit; otherwise ISO C: narrow unless l is given */
	const int native = (opts & CRT_SF_UCRT) && !(opts & CRT_SF_LEGACY_WIDE_SPECIFIERS) ? 0 : wide;

	if (input && len == (size_t)-1)
		inb.len = wide ? crt_wcslen(input) : strlen(input);

	while (FC(i)) {
		unsigned int fc = FC(i);
		if (is_space(fc)) {
			while (is_space(FC(i)))
				i++;
			in_unget(in, skip_space(in));
			continue;
		}
		if (fc != '%' || FC(i + 1) == '%') {
			i += fc == '%' ? 2 : 1;
			c = fc == '%' ? skip_space(in) : in_get(in);
			if (c == EOF_)
				goto input_failure;
			if ((unsigned int)c != fc) {
				in_unget(in, c);
				break;
			}
			continue;
		}
		i++;

		struct field f = { .size = SZ_INT };
		if (FC(i) == '*') {
			f.suppress = 1;
			i++;
		}
		while (FC(i) >= '0' && FC(i) <= '9')
			f.width = f.width * 10 + (FC(i++) - '0');
		for (;;) {
			unsigned int s = FC(i);
			if (s == 'h') {
				f.size = FC(i + 1) == 'h' ? SZ_CHAR : SZ_SHORT;
				i += FC(i + 1) == 'h' ? 2 : 1;
				f.short_str = 1;
			} else if (s == 'l') {
				if (FC(i + 1) == 'l') {
					f.size = SZ_64;
					i += 2;
				} else {
					f.size = SZ_LONG;
					i++;
				}
				f.wide_str = 1;
			} else if (s == 'w') {
				f.wide_str = 1;
				i++;
			} else if (s == 'L') {
				f.size = SZ_64;
				i++;
			} else if (s == 'z' || s == 't' || s == 'j') {
				f.size = SZ_64;
				i++;
			} else if (s == 'I') {
				if (FC(i + 1) == '6' && FC(i + 2) == '4') {
					f.size = SZ_64;
					i += 3;
				} else if (FC(i + 1) == '3' && FC(i + 2) == '2') {
					f.size = SZ_LONG;
					i += 3;
				} else {
					f.size = SZ_64;
					i++;
				}
			} else {
				break;
			}
		}
		f.conv = FC(i);
		if (!f.conv)
			break;
		i++;

		switch (f.conv) {
		case 'n':
			if (!f.suppress)
				store_int(&f, __builtin_va_arg(ap, void *), in->consumed);
			continue;
		case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': case 'p': {
			char buf[128];
			int base = f.conv == 'd' || f.conv == 'u' ? 10 : f.conv == 'i' ? 0 : f.conv == 'o' ? 8 : 16;
			if (f.conv == 'p')
				f.size = SZ_64;
			c = skip_space(in);
			if (c == EOF_)
				goto input_failure;
			if (!collect_number(in, c, &f, buf, sizeof(buf), base, 0))
				goto done;
			uint64_t v = buf[0] == '-' ? (uint64_t)strtoll(buf, NULL, base) : strtoull(buf, NULL, base);
			converted++;
			if (!f.suppress) {
				store_int(&f, __builtin_va_arg(ap, void *), v);
				assigned++;
			}
			continue;
		}
		case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A': {
			char buf[512], *end;
			c = skip_space(in);
			if (c == EOF_)
				goto input_failure;
			if (!collect_number(in, c, &f, buf, sizeof(buf), 10, 1))
				goto done;
			double v = strtod(buf, &end);
			if (end == buf || *end)
				goto done;
			converted++;
			if (!f.suppress) {
				void *p = __builtin_va_arg(ap, void *);
				if (f.size == SZ_LONG || f.size == SZ_64)
					*(double *)p = v;
				else
					*(float *)p = (float)v;
				assigned++;
			}
			continue;
		}
		case 'c': case 'C': case 's': case 'S': case '[': {
			unsigned char set[256];
			int negate = 0, upper = f.conv == 'C' || f.conv == 'S';
			size_t cap, n = 0, unit = wide ? sizeof(WCHAR) : 1;
			if (!f.wide_str && !f.short_str)
				f.wide_str = upper ? !native : native;
			if (f.conv == '[')
				i = parse_set(in, fmt, i, set, &negate);
			void *dst = f.suppress ? NULL : __builtin_va_arg(ap, void *);
			size_t size = 0;
			if (dst && (opts & CRT_SF_SECURECRT))
				size = __builtin_va_arg(ap, unsigned int);
			if ((f.conv | 0x20) == 'c') {
				if (!f.width)
					f.width = 1;
				c = in_get(in);
			} else {
				c = f.conv == '[' ? in_get(in) : skip_space(in);
			}
			if (c == EOF_)
				goto input_failure;
			cap = f.width ? f.width : 64;
			char *text = malloc(cap * unit);
			if (!text)
				goto done;
			for (; c != EOF_ && (!f.width || n < f.width); c = in_get(in)) {
				if ((f.conv | 0x20) == 's' && is_space(c))
					break;
				if (f.conv == '[') {
					int in_set = (unsigned int)c < 256 ? set[c] : 0;
					if (in_set == negate)
						break;
				}
				if (n == cap) {
					char *t = realloc(text, cap * 2 * unit);
					if (!t)
						break;
					text = t;
					cap *= 2;
				}
				if (wide)
					((WCHAR *)text)[n++] = c;
				else
					text[n++] = c;
			}
			in_unget(in, c);
			if (!n) {
				free(text);
				goto done;
			}
			int ok = 1;
			if (dst)
				ok = store_text(in, &f, dst, size, text, n, (f.conv | 0x20) != 'c');
			free(text);
			if (!ok) {
				/* the _s size is too small: an empty result, and stop */
				if (size)
					memset(dst, 0, f.wide_str ? sizeof(WCHAR) : 1);
				goto done;
			}
			converted++;
			if (dst)
				assigned++;
			continue;
		}
		default:
			goto done;
		}
	}
done:
	return assigned;
input_failure:
	return converted || assigned ? assigned : EOF_;
}

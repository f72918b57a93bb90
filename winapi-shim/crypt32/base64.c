/* CryptBinaryToString and CryptStringToBinary (wincrypt.h) for the
 * Base64 forms (plain, and between the certificate, request and CRL
 * header lines), raw hexadecimal and raw bytes.  Text output ends each
 * line with CRLF (64 Base64 characters a line), or LF alone
 * (CRYPT_STRING_NOCR), or has no line breaks (CRYPT_STRING_NOCRLF).  The
 * formatted hexadecimal dumps (CRYPT_STRING_HEX, HEXASCII, HEXADDR,
 * HEXASCIIADDR) are not implemented and stop the program naming the
 * format (core/unimpl.h).
 *
 * Sizes: a NULL output asks for the size (characters with the NUL for
 * text, bytes for binary); a buffer too small fails with ERROR_MORE_DATA;
 * on success the size written (text without its NUL). */
#include <string.h>

#include "core/unimpl.h"
#include "crypt32/crypt32_private.h"
#include "core/hexdigit.h"

#define FORMAT_MASK 0xff
#define FLAGS_KNOWN (CRYPT_STRING_NOCRLF | CRYPT_STRING_NOCR | CRYPT_STRING_STRICT)

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

struct header {
	DWORD format;
	const char *begin, *end;
};

static const struct header headers[] = {
	{ CRYPT_STRING_BASE64HEADER, "-----BEGIN CERTIFICATE-----", "-----END CERTIFICATE-----" },
	{ CRYPT_STRING_BASE64REQUESTHEADER, "-----BEGIN NEW CERTIFICATE REQUEST-----",
	  "-----END NEW CERTIFICATE REQUEST-----" },
	{ CRYPT_STRING_BASE64X509CRLHEADER, "-----BEGIN X509 CRL-----", "-----END X509 CRL-----" },
};

static const struct header *header_of(DWORD format)
{
	for (size_t i = 0; i < sizeof(headers) / sizeof(headers[0]); i++)
		if (headers[i].format == format)
			return &headers[i];
	return NULL;
}

/* Output of text in either width. */
struct out {
	void *buf;
	BOOL wide;
	size_t n, cap;	/* characters written (or counted) */
};

static void put_c(struct out *o, char c)
{
	if (o->buf && o->n < o->cap) {
		if (o->wide)
			((WCHAR *)o->buf)[o->n] = (unsigned char)c;
		else
			((char *)o->buf)[o->n] = c;
	}
	o->n++;
}

static void put_s(struct out *o, const char *s)
{
	while (*s)
		put_c(o, *s++);
}

static void put_eol(struct out *o, DWORD flags)
{
	if (flags & CRYPT_STRING_NOCRLF)
		return;
	if (!(flags & CRYPT_STRING_NOCR))
		put_c(o, '\r');
	put_c(o, '\n');
}

static void encode(const BYTE *data, DWORD len, DWORD flags, struct out *o)
{
	DWORD format = flags & FORMAT_MASK;
	const struct header *h = header_of(format);
	DWORD col = 0;

	if (format == CRYPT_STRING_HEXRAW) {
		static const char hex[] = "0123456789abcdef";
		for (DWORD i = 0; i < len; i++) {
			put_c(o, hex[data[i] >> 4]);
			put_c(o, hex[data[i] & 15]);
		}
		put_eol(o, flags);
		return;
	}
	if (h) {
		put_s(o, h->begin);
		put_eol(o, flags);
	}
	for (DWORD i = 0; i < len; i += 3) {
		DWORD v = data[i] << 16 | (i + 1 < len ? data[i + 1] << 8 : 0) | (i + 2 < len ? data[i + 2] : 0);
		put_c(o, b64[v >> 18]);
		put_c(o, b64[(v >> 12) & 63]);
		put_c(o, i + 1 < len ? b64[(v >> 6) & 63] : '=');
		put_c(o, i + 2 < len ? b64[v & 63] : '=');
		col += 4;
		if (col == 64 && i + 3 < len) {
			put_eol(o, flags);
			col = 0;
		}
	}
	if (len)
		put_eol(o, flags);
	if (h) {
		put_s(o, h->end);
		put_eol(o, flags);
	}
}

static BOOL binary_to_string(const BYTE *data, DWORD len, DWORD flags, void *str, DWORD *size, BOOL wide)
{
	DWORD format = flags & FORMAT_MASK;
	struct out o = { NULL, wide, 0, 0 };

	if (!size || (flags & ~(FORMAT_MASK | FLAGS_KNOWN))) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (format == CRYPT_STRING_BINARY) {
		if (!str) {
			*size = len;
			return TRUE;
		}
		if (*size < len) {
			*size = len;
			SetLastError(ERROR_MORE_DATA);
			return FALSE;
		}
		memcpy(str, data, len);
		*size = len;
		return TRUE;
	}
	if (format == CRYPT_STRING_HEX || format == CRYPT_STRING_HEXASCII || format == CRYPT_STRING_HEXADDR ||
	    format == CRYPT_STRING_HEXASCIIADDR)
		unimplemented_case(wide ? "crypt32.CryptBinaryToStringW" : "crypt32.CryptBinaryToStringA",
				   "format %#lx", (unsigned long)format);
	if (format != CRYPT_STRING_BASE64 && format != CRYPT_STRING_HEXRAW && !header_of(format)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	encode(data, len, flags, &o);
	if (!str) {
		*size = (DWORD)o.n + 1;
		return TRUE;
	}
	if (*size < o.n + 1) {
		*size = (DWORD)o.n + 1;
		SetLastError(ERROR_MORE_DATA);
		return FALSE;
	}
	o.buf = str;
	o.cap = *size;
	o.n = 0;
	encode(data, len, flags, &o);
	put_c(&o, 0);
	*size = (DWORD)o.n - 1;
	return TRUE;
}

BOOL WINAPI CryptBinaryToStringA(const BYTE *data, DWORD len, DWORD flags, LPSTR str, DWORD *size)
{
	return binary_to_string(data, len, flags, str, size, FALSE);
}

BOOL WINAPI CryptBinaryToStringW(const BYTE *data, DWORD len, DWORD flags, LPWSTR str, DWORD *size)
{
	return binary_to_string(data, len, flags, str, size, TRUE);
}

/* Input text in either width, as characters. */
struct in {
	const void *s;
	BOOL wide;
	DWORD len;
};

static int ch(const struct in *in, DWORD i)
{
	return in->wide ? ((const WCHAR *)in->s)[i] : (unsigned char)((const char *)in->s)[i];
}

static int b64_value(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

static BOOL is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Base64 in [from, to): the bytes into out (cap; counted past it);
 * FALSE when it is not Base64. */
static BOOL decode_b64(const struct in *in, DWORD from, DWORD to, BYTE *out, DWORD *n)
{
	DWORD v = 0, bits = 0, count = 0, pad = 0;

	for (DWORD i = from; i < to; i++) {
		int c = ch(in, i), d;
		if (is_space(c))
			continue;
		if (c == '=') {
			pad++;
			continue;
		}
		d = b64_value(c);
		if (d < 0 || pad)
			return FALSE;
		v = v << 6 | (DWORD)d;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (out)
				out[count] = (BYTE)(v >> bits);
			count++;
		}
	}
	if (pad > 2)
		return FALSE;
	*n = count;
	return TRUE;
}

/* Hex digit pairs, spaces between pairs allowed. */
static BOOL decode_hex(const struct in *in, BYTE *out, DWORD *n)
{
	DWORD count = 0;
	int hi = -1;

	for (DWORD i = 0; i < in->len; i++) {
		int c = ch(in, i), d;
		if (is_space(c)) {
			if (hi >= 0)
				return FALSE;
			continue;
		}
		d = hex_digit(c);
		if (d < 0)
			return FALSE;
		if (hi < 0) {
			hi = d;
		} else {
			if (out)
				out[count] = (BYTE)(hi << 4 | d);
			count++;
			hi = -1;
		}
	}
	if (hi >= 0)
		return FALSE;
	*n = count;
	return TRUE;
}

/* The position of the ASCII text s in the input from 'from', or -1. */
static long find(const struct in *in, DWORD from, const char *s)
{
	size_t n = strlen(s);

	for (DWORD i = from; i + n <= in->len; i++) {
		size_t k;
		for (k = 0; k < n && ch(in, i + k) == (unsigned char)s[k]; k++)
			;
		if (k == n)
			return (long)i;
	}
	return -1;
}

/* Decodes as format; *skip is where the data starts. */
static BOOL decode_as(const struct in *in, DWORD format, BYTE *out, DWORD *n, DWORD *skip)
{
	const struct header *h = header_of(format);

	*skip = 0;
	if (h) {
		long b = find(in, 0, h->begin), e;
		if (b < 0)
			return FALSE;
		DWORD start = (DWORD)b + (DWORD)strlen(h->begin);
		e = find(in, start, h->end);
		if (e < 0)
			return FALSE;
		*skip = (DWORD)b;
		return decode_b64(in, start, (DWORD)e, out, n);
	}
	switch (format) {
	case CRYPT_STRING_BASE64:
		return decode_b64(in, 0, in->len, out, n);
	case CRYPT_STRING_HEXRAW:
	case CRYPT_STRING_HEX:
		return decode_hex(in, out, n);
	case CRYPT_STRING_BINARY:
		if (in->wide)
			return FALSE;
		if (out)
			memcpy(out, in->s, in->len);
		*n = in->len;
		return TRUE;
	}
	return FALSE;
}

static BOOL string_to_binary(const struct in *in, DWORD flags, BYTE *out, DWORD *size, DWORD *skip,
			     DWORD *used_flags)
{
	static const DWORD any_b64[] = { CRYPT_STRING_BASE64HEADER, CRYPT_STRING_BASE64REQUESTHEADER,
					 CRYPT_STRING_BASE64X509CRLHEADER, CRYPT_STRING_BASE64 };
	DWORD format = flags & FORMAT_MASK, tries[6], ntries = 0, n = 0, sk = 0, which = 0;
	BOOL ok = FALSE;

	if (!in->s || !size || (flags & ~(FORMAT_MASK | CRYPT_STRING_STRICT))) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	switch (format) {
	case CRYPT_STRING_BASE64_ANY:
	case CRYPT_STRING_ANY:
		memcpy(tries, any_b64, sizeof(any_b64));
		ntries = 4;
		if (format == CRYPT_STRING_ANY)
			tries[ntries++] = CRYPT_STRING_BINARY;
		break;
	case CRYPT_STRING_HEX_ANY:
		tries[ntries++] = CRYPT_STRING_HEX;
		break;
	case CRYPT_STRING_BASE64HEADER: case CRYPT_STRING_BASE64: case CRYPT_STRING_BINARY:
	case CRYPT_STRING_BASE64REQUESTHEADER: case CRYPT_STRING_HEXRAW: case CRYPT_STRING_BASE64X509CRLHEADER:
	case CRYPT_STRING_HEX:
		tries[ntries++] = format;
		break;
	case CRYPT_STRING_HEXASCII: case CRYPT_STRING_HEXADDR: case CRYPT_STRING_HEXASCIIADDR:
		unimplemented_case(in->wide ? "crypt32.CryptStringToBinaryW" : "crypt32.CryptStringToBinaryA",
				   "format %#lx", (unsigned long)format);
	default:
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	for (DWORD t = 0; t < ntries && !ok; t++)
		if (decode_as(in, tries[t], NULL, &n, &sk)) {
			ok = TRUE;
			which = tries[t];
		}
	if (!ok) {
		SetLastError(ERROR_INVALID_DATA);
		return FALSE;
	}
	if (skip)
		*skip = sk;
	if (used_flags)
		*used_flags = which;
	if (!out) {
		*size = n;
		return TRUE;
	}
	if (*size < n) {
		*size = n;
		SetLastError(ERROR_MORE_DATA);
		return FALSE;
	}
	decode_as(in, which, out, &n, &sk);
	*size = n;
	return TRUE;
}

/* len 0: the string is NUL-terminated. */
BOOL WINAPI CryptStringToBinaryA(LPCSTR s, DWORD len, DWORD flags, BYTE *out, DWORD *size, DWORD *skip,
				 DWORD *used_flags)
{
	struct in in = { s, FALSE, s && !len ? (DWORD)strlen(s) : len };

	return string_to_binary(&in, flags, out, size, skip, used_flags);
}

BOOL WINAPI CryptStringToBinaryW(LPCWSTR s, DWORD len, DWORD flags, BYTE *out, DWORD *size, DWORD *skip,
				 DWORD *used_flags)
{
	struct in in = { s, TRUE, len };

	if (s && !len)
		while (s[in.len])
			in.len++;
	return string_to_binary(&in, flags, out, size, skip, used_flags);
}

/* RtlIpv4StringToAddress(A/W): an IPv4 address from its text.
 *   strict:     four decimal parts, each 0-255 ("192.168.0.1")
 *   not strict: one to four parts, each decimal, octal (leading 0) or
 *               hex (0x); the last fills the bytes left ("10.1" is
 *               10.0.0.1, "0x7f000001" 127.0.0.1), as inet_addr reads them
 * *terminator points at the first character not used (on failure, where
 * parsing stopped).  STATUS_INVALID_PARAMETER when it is not an address. */
#include <stdint.h>

#include "ntdll/ntdll_private.h"

#define STATUS_INVALID_PARAMETER_ ((NTSTATUS)0xC000000D)

static int digit(unsigned c, unsigned base)
{
	unsigned v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : 99;

	return v < base ? (int)v : -1;
}

/* One parser for both widths: ch(i) is the i-th character. */
#define PARSE(str, strict, term, addr, T)                                                          \
	do {                                                                                        \
		const T *p = (str);                                                                 \
		uint32_t part[4];                                                                   \
		int n = 0;                                                                          \
		for (;;) {                                                                          \
			unsigned base = 10;                                                         \
			uint64_t v = 0;                                                             \
			const T *start;                                                             \
			if (!(strict) && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {             \
				base = 16;                                                          \
				p += 2;                                                             \
			} else if (!(strict) && p[0] == '0' && digit((unsigned)p[1] & 0xffffu, 10) >= 0) {              \
				base = 8;                                                           \
				p++;                                                                \
			}                                                                           \
			start = p;                                                                  \
			while (digit((unsigned)*p & 0xffffu, base) >= 0) {                                              \
				v = v * base + digit((unsigned)*p & 0xffffu, base);                                     \
				if (v > 0xffffffffu)                                                \
					goto bad;                                                   \
				p++;                                                                \
			}                                                                           \
			if (p == start && base != 8)                                                \
				goto bad;                                                           \
			part[n++] = (uint32_t)v;                                                    \
			if (*p != '.' || n == 4)                                                    \
				break;                                                              \
			p++;                                                                        \
		}                                                                                   \
		if ((strict) && n != 4)                                                             \
			goto bad;                                                                   \
		{                                                                                   \
			uint32_t a = 0;                                                             \
			for (int i = 0; i < n - 1; i++) {                                           \
				if (part[i] > 255)                                                  \
					goto bad;                                                   \
				a |= part[i] << (24 - 8 * i);                                       \
			}                                                                           \
			if (part[n - 1] > (0xffffffffu >> (8 * (n - 1))))                           \
				goto bad;                                                           \
			a |= part[n - 1];                                                           \
			(addr)->S_un.S_addr = __builtin_bswap32(a);                                 \
		}                                                                                   \
		*(term) = p;                                                                        \
		return 0;                                                                           \
	bad:                                                                                        \
		*(term) = p;                                                                        \
		return STATUS_INVALID_PARAMETER_;                                                   \
	} while (0)

NTSTATUS WINAPI RtlIpv4StringToAddressW(const WCHAR *str, BOOLEAN strict, const WCHAR **term, IN_ADDR *addr)
{
	PARSE(str, strict, term, addr, WCHAR);
}

NTSTATUS WINAPI RtlIpv4StringToAddressA(const char *str, BOOLEAN strict, const char **term, IN_ADDR *addr)
{
	PARSE(str, strict, term, addr, char);
}

/* Narrow strings and ctype in the "C" locale: bytes >= 0x80 belong to no
 * class and fold to themselves, collation is byte order. */
#include <string.h>

#include "msvcrt/msvcrt_private.h"

#define CT_UPPER 0x01
#define CT_LOWER 0x02
#define CT_DIGIT 0x04
#define CT_SPACE 0x08
#define CT_PUNCT 0x10
#define CT_CONTROL 0x20
#define CT_BLANK 0x40
#define CT_HEX 0x80
#define CT_ALPHA 0x100

/* msvcrt's _pctype: 256 entries, preceded by one for EOF (index -1). */
static unsigned short ctype_table[257];
const unsigned short *crt__pctype = ctype_table + 1;

__attribute__((constructor)) static void init_ctype(void)
{
	for (int c = 0; c < 128; c++) {
		unsigned short m = 0;
		if (c >= 'A' && c <= 'Z')
			m |= CT_UPPER | CT_ALPHA;
		if (c >= 'a' && c <= 'z')
			m |= CT_LOWER | CT_ALPHA;
		if (c >= '0' && c <= '9')
			m |= CT_DIGIT | CT_HEX;
		if ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))
			m |= CT_HEX;
		if (c == ' ' || (c >= 9 && c <= 13))
			m |= CT_SPACE;
		if (c == ' ')
			m |= CT_BLANK;
		if (c < 32 || c == 127)
			m |= CT_CONTROL;
		if (c == '\t')
			m |= CT_BLANK;
		if (c > 32 && c < 127 && !(m & (CT_ALPHA | CT_DIGIT)))
			m |= CT_PUNCT;
		ctype_table[c + 1] = m;
	}
}

const unsigned short *__cdecl crt___pctype_func(void)
{
	return crt__pctype;
}

int __cdecl crt__isctype(int c, int mask)
{
	if (c < -1 || c > 255)
		return 0;
	return crt__pctype[c] & mask;
}

int __cdecl crt_isalpha(int c) { return crt__isctype(c, CT_ALPHA); }
int __cdecl crt_isdigit(int c) { return crt__isctype(c, CT_DIGIT); }
int __cdecl crt_isalnum(int c) { return crt__isctype(c, CT_ALPHA | CT_DIGIT); }
int __cdecl crt_isspace(int c) { return crt__isctype(c, CT_SPACE); }
int __cdecl crt_isupper(int c) { return crt__isctype(c, CT_UPPER); }
int __cdecl crt_islower(int c) { return crt__isctype(c, CT_LOWER); }
int __cdecl crt_isxdigit(int c) { return crt__isctype(c, CT_HEX); }
int __cdecl crt_ispunct(int c) { return crt__isctype(c, CT_PUNCT); }
int __cdecl crt_iscntrl(int c) { return crt__isctype(c, CT_CONTROL); }
int __cdecl crt_isgraph(int c) { return crt__isctype(c, CT_PUNCT | CT_ALPHA | CT_DIGIT); }
int __cdecl crt_isprint(int c) { return c == ' ' || crt_isgraph(c); }
int __cdecl crt_isascii(int c) { return (unsigned int)c < 0x80; }

int __cdecl crt_tolower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

int __cdecl crt_toupper(int c)
{
	return c >= 'a' && c <= 'z' ? c - 32 : c;
}

int __cdecl crt_strcoll(const char *a, const char *b)
{
	return strcmp(a, b);
}

/* In the "C" locale the transformed string is the string itself. */
size_t __cdecl crt_strxfrm(char *d, const char *s, size_t n)
{
	size_t len = strlen(s);
	if (len < n)
		memcpy(d, s, len + 1);
	return len;
}

int __cdecl crt__strnicmp(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int ca = crt_tolower((unsigned char)a[i]), cb = crt_tolower((unsigned char)b[i]);
		if (ca != cb)
			return ca - cb;
		if (!ca)
			break;
	}
	return 0;
}

int __cdecl crt__stricmp(const char *a, const char *b)
{
	return crt__strnicmp(a, b, SIZE_MAX);
}

char *__cdecl crt__strlwr(char *s)
{
	for (char *p = s; *p; p++)
		*p = crt_tolower((unsigned char)*p);
	return s;
}

char *__cdecl crt__strupr(char *s)
{
	for (char *p = s; *p; p++)
		*p = crt_toupper((unsigned char)*p);
	return s;
}

/* msvcrt keeps strtok's position per thread. */
char *__cdecl crt_strtok(char *s, const char *delim)
{
	static __thread char *next;
	if (!s)
		s = next;
	if (!s)
		return NULL;
	s += strspn(s, delim);
	if (!*s) {
		next = NULL;
		return NULL;
	}
	char *end = s + strcspn(s, delim);
	if (*end)
		*end++ = 0;
	next = end;
	return s;
}

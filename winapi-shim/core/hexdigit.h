/* The value of one hexadecimal digit, either case; -1 for anything else.
 * Takes a char, a WCHAR or an int alike (GUIDs, MAC addresses, %XX
 * escapes, hex dumps all read digits this way). */
#ifndef NDSHIM_CORE_HEXDIGIT_H
#define NDSHIM_CORE_HEXDIGIT_H

static inline int hex_digit(unsigned int c)
{
	if (c >= '0' && c <= '9')
		return (int)(c - '0');
	if (c >= 'a' && c <= 'f')
		return (int)(c - 'a' + 10);
	if (c >= 'A' && c <= 'F')
		return (int)(c - 'A' + 10);
	return -1;
}

#endif

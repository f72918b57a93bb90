#include "core/guidtext.h"

#include <string.h>

#include "core/hexdigit.h"

bool guid_from_text(const WCHAR *s, GUID *g)
{
	unsigned char b[16];
	int n = 0;

	for (int i = 0; i < 36; i++) {
		int hi, lo;

		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (s[i] != '-')
				return false;
			continue;
		}
		if ((hi = hex_digit(s[i])) < 0 || (lo = hex_digit(s[i + 1])) < 0)
			return false;
		b[n++] = (unsigned char)(hi << 4 | lo);
		i++;
	}
	g->Data1 = (DWORD)b[0] << 24 | (DWORD)b[1] << 16 | (DWORD)b[2] << 8 | b[3];
	g->Data2 = (WORD)(b[4] << 8 | b[5]);
	g->Data3 = (WORD)(b[6] << 8 | b[7]);
	memcpy(g->Data4, b + 8, 8);
	return true;
}

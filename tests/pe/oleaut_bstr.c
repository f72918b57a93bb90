/* oleaut32's BSTRs: the byte length in the 32-bit word before the first
 * character, the NUL after the last, odd byte lengths, embedded NULs,
 * NULL as the empty string, and reallocation. */
#include <windows.h>
#include <oleauto.h>

#include "test.h"

static DWORD prefix(BSTR b)
{
	return ((const DWORD *)b)[-1];
}

int main(void)
{
	BSTR b, c;

	b = SysAllocString(L"hello");
	ok(b != NULL, "SysAllocString\n");
	ok(prefix(b) == 10, "length prefix %lu\n", prefix(b));
	ok(SysStringLen(b) == 5 && SysStringByteLen(b) == 10, "lengths %u %u\n", SysStringLen(b),
	   SysStringByteLen(b));
	ok(b[5] == 0 && !wcscmp(b, L"hello"), "terminated copy\n");
	SysFreeString(b);

	ok(SysAllocString(NULL) == NULL, "SysAllocString(NULL)\n");
	b = SysAllocString(L"");
	ok(b != NULL && SysStringLen(b) == 0 && b[0] == 0, "empty string\n");
	SysFreeString(b);
	ok(SysStringLen(NULL) == 0 && SysStringByteLen(NULL) == 0, "NULL is the empty string\n");
	SysFreeString(NULL);

	/* Embedded NULs count; only the given characters are copied. */
	b = SysAllocStringLen(L"ab\0cdXYZ", 5);
	ok(b && SysStringLen(b) == 5 && b[2] == 0 && b[4] == 'd' && b[5] == 0, "embedded NUL\n");
	SysFreeString(b);
	b = SysAllocStringLen(NULL, 3);
	ok(b && SysStringLen(b) == 3 && b[3] == 0, "uninitialised characters, terminated\n");
	SysFreeString(b);

	/* An odd byte length, and the NUL character after it. */
	b = SysAllocStringByteLen("abc", 3);
	ok(b && SysStringByteLen(b) == 3 && SysStringLen(b) == 1 && prefix(b) == 3, "odd byte length %u\n",
	   b ? SysStringByteLen(b) : 0);
	ok(b && !memcmp(b, "abc", 3) && ((char *)b)[3] == 0 && ((char *)b)[4] == 0, "bytes and terminator\n");
	SysFreeString(b);

	b = SysAllocString(L"first");
	c = b;
	ok(SysReAllocString(&b, L"second string") == TRUE, "SysReAllocString\n");
	ok(b && !wcscmp(b, L"second string") && SysStringLen(b) == 13, "reallocated\n");
	ok(SysReAllocStringLen(&b, L"0123456789", 4) == TRUE, "SysReAllocStringLen\n");
	ok(b && SysStringLen(b) == 4 && !wcscmp(b, L"0123"), "reallocated to 4\n");
	/* The new string may come from the old one. */
	ok(SysReAllocStringLen(&b, b + 1, 2) == TRUE && b && !wcscmp(b, L"12"), "from itself\n");
	SysFreeString(b);
	(void)c;
	return test_summary();
}

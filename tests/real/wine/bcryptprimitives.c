/* A stand-in for bcryptprimitives.dll for the wine64 runs of the real
 * programs only: Wine 8 lacks the DLL, and Rust's standard library
 * imports ProcessPrng from it (Windows 10 and later have it).  The bytes
 * come from RtlGenRandom, which Wine has.  ndrun's own bcryptprimitives
 * is a builtin (winapi-shim/bcryptprimitives/); this file is never used
 * by ndrun. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buf, ULONG len);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE buf, SIZE_T len)
{
	while (len) {
		ULONG n = len > 0x10000000 ? 0x10000000 : (ULONG)len;

		if (!SystemFunction036(buf, n))
			return FALSE;
		buf += n;
		len -= n;
	}
	return TRUE;
}

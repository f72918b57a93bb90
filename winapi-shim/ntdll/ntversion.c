/* RtlGetNtVersionNumbers: the version RtlGetVersion reports, the build
 * number with its top nibble set as Windows returns it (0xF: a free
 * build).  Go's runtime from 1.16 to 1.20 calls it at start, without
 * checking that the look-up found it. */
#include "ntdll/ntdll_private.h"

void WINAPI RtlGetNtVersionNumbers(ULONG *major, ULONG *minor, ULONG *build)
{
	RTL_OSVERSIONINFOEXW v;

	v.dwOSVersionInfoSize = sizeof(v);
	RtlGetVersion(&v);
	if (major)
		*major = v.dwMajorVersion;
	if (minor)
		*minor = v.dwMinorVersion;
	if (build)
		*build = 0xf0000000u | v.dwBuildNumber;
}

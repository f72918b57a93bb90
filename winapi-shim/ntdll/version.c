/* RtlGetVersion: the version without GetVersionEx's compatibility lies
 * (ndrun tells none; see kernel32/sysinfoapi.c). */
#include <string.h>

#define WIN32_NO_STATUS
#include "ntdll/ntdll_private.h"
#undef WIN32_NO_STATUS
#include <ntstatus.h>

NTSTATUS WINAPI RtlGetVersion(RTL_OSVERSIONINFOEXW *v)
{
	OSVERSIONINFOEXW ex;

	if (v->dwOSVersionInfoSize != sizeof(RTL_OSVERSIONINFOW) &&
	    v->dwOSVersionInfoSize != sizeof(RTL_OSVERSIONINFOEXW))
		return STATUS_INVALID_PARAMETER;
	ex.dwOSVersionInfoSize = sizeof(ex);
	GetVersionExW((OSVERSIONINFOW *)&ex);
	v->dwMajorVersion = ex.dwMajorVersion;
	v->dwMinorVersion = ex.dwMinorVersion;
	v->dwBuildNumber = ex.dwBuildNumber;
	v->dwPlatformId = ex.dwPlatformId;
	memcpy(v->szCSDVersion, ex.szCSDVersion, sizeof(v->szCSDVersion));
	if (v->dwOSVersionInfoSize == sizeof(RTL_OSVERSIONINFOEXW)) {
		v->wServicePackMajor = ex.wServicePackMajor;
		v->wServicePackMinor = ex.wServicePackMinor;
		v->wSuiteMask = ex.wSuiteMask;
		v->wProductType = ex.wProductType;
		v->wReserved = 0;
	}
	return STATUS_SUCCESS;
}

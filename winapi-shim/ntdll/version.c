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

/* VerSetConditionMask: three bits of condition per VER_* field, at the
 * field's bit number times three (the layout VerifyVersionInfo reads). */
ULONGLONG WINAPI VerSetConditionMask(ULONGLONG mask, DWORD type, BYTE condition)
{
	condition &= 7;
	if (!condition)
		return mask;
	for (unsigned int bit = 0; bit < 8; bit++) {
		if (!(type & (1u << bit)))
			continue;
		mask &= ~(7ull << (bit * 3));
		mask |= (ULONGLONG)condition << (bit * 3);
	}
	return mask;
}

static BYTE condition_of(DWORDLONG mask, DWORD type_bit)
{
	unsigned int bit = __builtin_ctz(type_bit);

	return (BYTE)((mask >> (bit * 3)) & 7);
}

/* Whether "have CONDITION want" holds; -1 for a condition that is not
 * one of VER_EQUAL..VER_LESS_EQUAL. */
static int compare(ULONG have, ULONG want, BYTE condition)
{
	switch (condition) {
	case VER_EQUAL:
		return have == want;
	case VER_GREATER:
		return have > want;
	case VER_GREATER_EQUAL:
		return have >= want;
	case VER_LESS:
		return have < want;
	case VER_LESS_EQUAL:
		return have <= want;
	}
	return -1;
}

NTSTATUS WINAPI RtlVerifyVersionInfo(const RTL_OSVERSIONINFOEXW *want, DWORD type, DWORDLONG conditions)
{
	/* Major, minor and service-pack numbers form one version and are
	 * compared in that order: the first field that differs decides,
	 * with its own condition (so ">= 6.2" holds for 10.0). */
	static const DWORD version_fields[] = { VER_MAJORVERSION, VER_MINORVERSION, VER_SERVICEPACKMAJOR,
						VER_SERVICEPACKMINOR };
	RTL_OSVERSIONINFOEXW have = { .dwOSVersionInfoSize = sizeof(have) };
	ULONG hv[4], wv[4];
	BYTE last = 0;
	int decided = -1;

	if (!type || !conditions)
		return STATUS_INVALID_PARAMETER;
	RtlGetVersion(&have);
	hv[0] = have.dwMajorVersion, hv[1] = have.dwMinorVersion;
	hv[2] = have.wServicePackMajor, hv[3] = have.wServicePackMinor;
	wv[0] = want->dwMajorVersion, wv[1] = want->dwMinorVersion;
	wv[2] = want->wServicePackMajor, wv[3] = want->wServicePackMinor;
	for (unsigned int i = 0; i < 4; i++) {
		BYTE c;

		if (!(type & version_fields[i]))
			continue;
		c = condition_of(conditions, version_fields[i]);
		if (c < VER_EQUAL || c > VER_LESS_EQUAL)
			return STATUS_INVALID_PARAMETER;
		last = c;
		if (decided < 0 && hv[i] != wv[i])
			decided = compare(hv[i], wv[i], c);
	}
	if (last && decided < 0)
		decided = compare(0, 0, last);
	if (!decided)
		return STATUS_REVISION_MISMATCH;

	if (type & VER_BUILDNUMBER) {
		int r = compare(have.dwBuildNumber, want->dwBuildNumber, condition_of(conditions, VER_BUILDNUMBER));
		if (r < 0)
			return STATUS_INVALID_PARAMETER;
		if (!r)
			return STATUS_REVISION_MISMATCH;
	}
	if (type & VER_PLATFORMID) {
		int r = compare(have.dwPlatformId, want->dwPlatformId, condition_of(conditions, VER_PLATFORMID));
		if (r < 0)
			return STATUS_INVALID_PARAMETER;
		if (!r)
			return STATUS_REVISION_MISMATCH;
	}
	if (type & VER_PRODUCT_TYPE) {
		int r = compare(have.wProductType, want->wProductType, condition_of(conditions, VER_PRODUCT_TYPE));
		if (r < 0)
			return STATUS_INVALID_PARAMETER;
		if (!r)
			return STATUS_REVISION_MISMATCH;
	}
	if (type & VER_SUITENAME) {
		BYTE c = condition_of(conditions, VER_SUITENAME);
		WORD common = have.wSuiteMask & want->wSuiteMask;

		if (c == VER_AND) {
			if (common != want->wSuiteMask)
				return STATUS_REVISION_MISMATCH;
		} else if (c == VER_OR) {
			if (want->wSuiteMask && !common)
				return STATUS_REVISION_MISMATCH;
		} else {
			return STATUS_INVALID_PARAMETER;
		}
	}
	return STATUS_SUCCESS;
}

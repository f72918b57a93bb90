/* System information (sysinfoapi.h): processor, memory, version, time of
 * day, computer name.
 *
 * ndrun reports Windows 10 22H2 (10.0.19045) to every caller.  Real
 * Windows tells GetVersion(Ex) callers without a compatibility manifest
 * that it is 6.2; RtlGetVersion (ntdll) tells the truth, and so do we. */
#include <cpuid.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>

#include "core/codepage.h"
#include "core/topology.h"
#include "core/virtual.h"
#include "core/wstr.h"
#include "kernel32/kernel32_private.h"

#define WIN_MAJOR 10
#define WIN_MINOR 0
#define WIN_BUILD 19045

/* The cpuid leaves IsProcessorFeaturePresent and GetSystemInfo read.  In a
 * virtual machine every cpuid traps to the hypervisor (several µs each
 * here), and ntdll fills KUSER_SHARED_DATA's 64 feature flags at start-up:
 * three leaves per flag were half of `ndrun hello.exe`'s time.  They are
 * read once per process. */
struct cpuid_leaves {
	unsigned int a1, c1, d1, b7, c7, d81;
};

static struct cpuid_leaves leaves;
static pthread_once_t leaves_once = PTHREAD_ONCE_INIT;

static void read_cpuid_leaves(void)
{
	unsigned int a, b, c, d7;

	__get_cpuid(1, &leaves.a1, &b, &leaves.c1, &leaves.d1);
	__get_cpuid_count(7, 0, &a, &leaves.b7, &leaves.c7, &d7);
	__get_cpuid(0x80000001, &a, &b, &c, &leaves.d81);
}

static const struct cpuid_leaves *cpuid_leaves(void)
{
	pthread_once(&leaves_once, read_cpuid_leaves);
	return &leaves;
}

static void fill_system_info(SYSTEM_INFO *si)
{
	const struct topology *t = topology_get();
	const struct topo_cpu *cpu = topology_cpu_from_linux(t, sched_getcpu());
	unsigned int eax = cpuid_leaves()->a1, family, model, group = cpu ? cpu->group : 0;

	memset(si, 0, sizeof(*si));
	si->wProcessorArchitecture = PROCESSOR_ARCHITECTURE_AMD64;
	si->dwPageSize = VIRTUAL_PAGE_SIZE;
	si->lpMinimumApplicationAddress = (void *)VIRTUAL_MIN_ADDRESS;
	si->lpMaximumApplicationAddress = (void *)VIRTUAL_MAX_ADDRESS;
	/* The processors of the caller's group, whatever its affinity. */
	si->dwActiveProcessorMask = t->group_mask[group];
	si->dwNumberOfProcessors = t->group_count[group];
	si->dwProcessorType = PROCESSOR_AMD_X8664;
	si->dwAllocationGranularity = VIRTUAL_GRANULARITY;
	/* the display family and model, as Windows computes them */
	family = (eax >> 8) & 0xf;
	model = (eax >> 4) & 0xf;
	if (family == 0xf)
		family += (eax >> 20) & 0xff;
	if (family == 6 || family >= 0xf)
		model |= ((eax >> 16) & 0xf) << 4;
	si->wProcessorLevel = (WORD)family;
	si->wProcessorRevision = (WORD)((model << 8) | (eax & 0xf));
}

void WINAPI GetSystemInfo(LPSYSTEM_INFO si)
{
	fill_system_info(si);
}

void WINAPI GetNativeSystemInfo(LPSYSTEM_INFO si)
{
	fill_system_info(si);
}

BOOL WINAPI IsProcessorFeaturePresent(DWORD feature)
{
	const struct cpuid_leaves *l = cpuid_leaves();
	unsigned int c1 = l->c1, d1 = l->d1, b7 = l->b7, c7 = l->c7, d81 = l->d81;

	switch (feature) {
	case PF_COMPARE_EXCHANGE_DOUBLE:
		return !!(d1 & bit_CMPXCHG8B);
	case PF_MMX_INSTRUCTIONS_AVAILABLE:
		return !!(d1 & bit_MMX);
	case PF_XMMI_INSTRUCTIONS_AVAILABLE:
		return !!(d1 & bit_SSE);
	case PF_3DNOW_INSTRUCTIONS_AVAILABLE:
		return !!(d81 & bit_3DNOW);
	case PF_RDTSC_INSTRUCTION_AVAILABLE:
		return !!(d1 & (1u << 4)) /* TSC */;
	case PF_PAE_ENABLED:
	case PF_NX_ENABLED:
	case PF_FASTFAIL_AVAILABLE:
		return TRUE; /* always so on x86-64 Windows */
	case PF_XMMI64_INSTRUCTIONS_AVAILABLE:
		return !!(d1 & bit_SSE2);
	case PF_SSE_DAZ_MODE_AVAILABLE:
		return !!(d1 & bit_SSE2); /* every SSE2 processor has DAZ */
	case PF_SSE3_INSTRUCTIONS_AVAILABLE:
		return !!(c1 & bit_SSE3);
	case PF_COMPARE_EXCHANGE128:
		return !!(c1 & bit_CMPXCHG16B);
	case PF_XSAVE_ENABLED:
		return !!(c1 & bit_OSXSAVE);
	case PF_RDWRFSGSBASE_AVAILABLE:
		return !!(b7 & bit_FSGSBASE);
	case PF_RDRAND_INSTRUCTION_AVAILABLE:
		return !!(c1 & bit_RDRND);
	case PF_RDTSCP_INSTRUCTION_AVAILABLE:
		return !!(d81 & (1u << 27));
	case PF_RDPID_INSTRUCTION_AVAILABLE:
		return !!(c7 & bit_RDPID);
	case PF_SSSE3_INSTRUCTIONS_AVAILABLE:
		return !!(c1 & bit_SSSE3);
	case PF_SSE4_1_INSTRUCTIONS_AVAILABLE:
		return !!(c1 & bit_SSE4_1);
	case PF_SSE4_2_INSTRUCTIONS_AVAILABLE:
		return !!(c1 & bit_SSE4_2);
	case PF_AVX_INSTRUCTIONS_AVAILABLE:
		return (c1 & bit_AVX) && (c1 & bit_OSXSAVE);
	case PF_AVX2_INSTRUCTIONS_AVAILABLE:
		return (b7 & bit_AVX2) && (c1 & bit_OSXSAVE);
	case PF_AVX512F_INSTRUCTIONS_AVAILABLE:
		return (b7 & bit_AVX512F) && (c1 & bit_OSXSAVE);
	}
	return FALSE;
}

BOOL WINAPI GlobalMemoryStatusEx(LPMEMORYSTATUSEX status)
{
	struct sysinfo si;

	if (!status || status->dwLength != sizeof(*status)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (sysinfo(&si)) {
		SetLastError(ERROR_GEN_FAILURE);
		return FALSE;
	}
	status->ullTotalPhys = (DWORDLONG)si.totalram * si.mem_unit;
	status->ullAvailPhys = (DWORDLONG)(si.freeram + si.bufferram) * si.mem_unit;
	status->dwMemoryLoad = status->ullTotalPhys
				       ? (DWORD)(100 - status->ullAvailPhys * 100 / status->ullTotalPhys)
				       : 0;
	status->ullTotalPageFile = status->ullTotalPhys + (DWORDLONG)si.totalswap * si.mem_unit;
	status->ullAvailPageFile = status->ullAvailPhys + (DWORDLONG)si.freeswap * si.mem_unit;
	status->ullTotalVirtual = VIRTUAL_MAX_ADDRESS + 1 - VIRTUAL_MIN_ADDRESS;
	status->ullAvailVirtual = status->ullTotalVirtual;
	status->ullAvailExtendedVirtual = 0;
	return TRUE;
}

/* ---- version ---------------------------------------------------------------- */

DWORD WINAPI GetVersion(void)
{
	return ((DWORD)WIN_BUILD << 16) | (WIN_MINOR << 8) | WIN_MAJOR;
}

BOOL WINAPI GetVersionExW(OSVERSIONINFOW *v)
{
	if (v->dwOSVersionInfoSize != sizeof(OSVERSIONINFOW) &&
	    v->dwOSVersionInfoSize != sizeof(OSVERSIONINFOEXW)) {
		SetLastError(ERROR_INSUFFICIENT_BUFFER);
		return FALSE;
	}
	v->dwMajorVersion = WIN_MAJOR;
	v->dwMinorVersion = WIN_MINOR;
	v->dwBuildNumber = WIN_BUILD;
	v->dwPlatformId = VER_PLATFORM_WIN32_NT;
	memset(v->szCSDVersion, 0, sizeof(v->szCSDVersion));
	if (v->dwOSVersionInfoSize == sizeof(OSVERSIONINFOEXW)) {
		OSVERSIONINFOEXW *ex = (OSVERSIONINFOEXW *)v;

		ex->wServicePackMajor = 0;
		ex->wServicePackMinor = 0;
		ex->wSuiteMask = VER_SUITE_SINGLEUSERTS;
		ex->wProductType = VER_NT_WORKSTATION;
		ex->wReserved = 0;
	}
	return TRUE;
}

BOOL WINAPI GetVersionExA(OSVERSIONINFOA *v)
{
	OSVERSIONINFOEXW w;

	if (v->dwOSVersionInfoSize != sizeof(OSVERSIONINFOA) &&
	    v->dwOSVersionInfoSize != sizeof(OSVERSIONINFOEXA)) {
		SetLastError(ERROR_INSUFFICIENT_BUFFER);
		return FALSE;
	}
	w.dwOSVersionInfoSize = sizeof(w);
	GetVersionExW((OSVERSIONINFOW *)&w);
	v->dwMajorVersion = w.dwMajorVersion;
	v->dwMinorVersion = w.dwMinorVersion;
	v->dwBuildNumber = w.dwBuildNumber;
	v->dwPlatformId = w.dwPlatformId;
	memset(v->szCSDVersion, 0, sizeof(v->szCSDVersion));
	if (v->dwOSVersionInfoSize == sizeof(OSVERSIONINFOEXA)) {
		OSVERSIONINFOEXA *ex = (OSVERSIONINFOEXA *)v;

		ex->wServicePackMajor = w.wServicePackMajor;
		ex->wServicePackMinor = w.wServicePackMinor;
		ex->wSuiteMask = w.wSuiteMask;
		ex->wProductType = w.wProductType;
		ex->wReserved = 0;
	}
	return TRUE;
}

/* ---- time of day -------------------------------------------------------------- */

/* 100 ns intervals between 1601-01-01 and 1970-01-01. */
#define EPOCH_DIFF 116444736000000000ull

static void filetime_now(FILETIME *ft)
{
	struct timespec ts;
	ULONGLONG t;

	clock_gettime(CLOCK_REALTIME, &ts);
	t = (ULONGLONG)ts.tv_sec * 10000000ull + (ULONGLONG)ts.tv_nsec / 100 + EPOCH_DIFF;
	ft->dwLowDateTime = (DWORD)t;
	ft->dwHighDateTime = (DWORD)(t >> 32);
}

void WINAPI GetSystemTimeAsFileTime(LPFILETIME ft)
{
	filetime_now(ft);
}

void WINAPI GetSystemTimePreciseAsFileTime(LPFILETIME ft)
{
	filetime_now(ft);
}

void WINAPI GetSystemTime(LPSYSTEMTIME st)
{
	FILETIME ft;

	filetime_now(&ft);
	FileTimeToSystemTime(&ft, st);
}

void WINAPI GetLocalTime(LPSYSTEMTIME st)
{
	FILETIME ft, local;

	filetime_now(&ft);
	FileTimeToLocalFileTime(&ft, &local);
	FileTimeToSystemTime(&local, st);
}

/* ---- computer name -------------------------------------------------------------- */

/* The NetBIOS name: the host name up to the first dot, upper case, at
 * most MAX_COMPUTERNAME_LENGTH characters. */
BOOL WINAPI GetComputerNameW(LPWSTR buf, LPDWORD size)
{
	char host[256] = "localhost";
	WCHAR name[MAX_COMPUTERNAME_LENGTH + 1];
	size_t len = 0;
	char *dot;

	if (!size) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	gethostname(host, sizeof(host) - 1);
	host[sizeof(host) - 1] = 0;
	if ((dot = strchr(host, '.')))
		*dot = 0;
	for (; host[len] && len < MAX_COMPUTERNAME_LENGTH; len++)
		name[len] = wch_toupper((unsigned char)host[len]);
	name[len] = 0;
	if (!buf || *size < len + 1) {
		*size = (DWORD)len + 1;
		SetLastError(ERROR_BUFFER_OVERFLOW);
		return FALSE;
	}
	memcpy(buf, name, (len + 1) * sizeof(WCHAR));
	*size = (DWORD)len;
	return TRUE;
}

BOOL WINAPI GetComputerNameA(LPSTR buf, LPDWORD size)
{
	WCHAR name[MAX_COMPUTERNAME_LENGTH + 1];
	DWORD n = MAX_COMPUTERNAME_LENGTH + 1;

	if (!size) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!GetComputerNameW(name, &n))
		return FALSE;
	/* the name is ASCII: one byte per character */
	if (!buf || *size < n + 1) {
		*size = n + 1;
		SetLastError(ERROR_BUFFER_OVERFLOW);
		return FALSE;
	}
	for (DWORD i = 0; i <= n; i++)
		buf[i] = (char)name[i];
	*size = n;
	return TRUE;
}

/* ---- version checks ----------------------------------------------------------- */

/* STATUS_REVISION_MISMATCH (ntstatus.h clashes with winnt.h here). */
#define NT_REVISION_MISMATCH ((NTSTATUS)0xc0000059)

BOOL WINAPI VerifyVersionInfoW(LPOSVERSIONINFOEXW info, DWORD type, DWORDLONG conditions)
{
	NTSTATUS st = RtlVerifyVersionInfo((const RTL_OSVERSIONINFOEXW *)info, type, conditions);

	if (!st)
		return TRUE;
	SetLastError(st == NT_REVISION_MISMATCH ? ERROR_OLD_WIN_VERSION : ERROR_BAD_ARGUMENTS);
	return FALSE;
}

BOOL WINAPI VerifyVersionInfoA(LPOSVERSIONINFOEXA info, DWORD type, DWORDLONG conditions)
{
	OSVERSIONINFOEXW w = { .dwOSVersionInfoSize = sizeof(w) };

	/* The CSD string takes no part in the comparison. */
	w.dwMajorVersion = info->dwMajorVersion;
	w.dwMinorVersion = info->dwMinorVersion;
	w.dwBuildNumber = info->dwBuildNumber;
	w.dwPlatformId = info->dwPlatformId;
	w.wServicePackMajor = info->wServicePackMajor;
	w.wServicePackMinor = info->wServicePackMinor;
	w.wSuiteMask = info->wSuiteMask;
	w.wProductType = info->wProductType;
	return VerifyVersionInfoW(&w, type, conditions);
}

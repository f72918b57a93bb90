/* KUSER_SHARED_DATA: the read-only page at 0x7ffe0000 that MSVC, Rust
 * and Go runtimes read directly instead of calling GetTickCount,
 * GetSystemTimeAsFileTime or RtlGetVersion.  Its clocks must be current
 * (they advance while the program runs) and agree with the functions;
 * its version fields agree with RtlGetVersion. */
#include <stdint.h>
#include <windows.h>

#include "test.h"

/* Offsets from the documented layout (ntddk.h's KUSER_SHARED_DATA). */
#define USD ((const volatile BYTE *)0x7ffe0000)
#define USD_ULONG(off) (*(const volatile ULONG *)(USD + (off)))
#define OFF_TICK_MULTIPLIER 0x004
#define OFF_INTERRUPT_TIME 0x008
#define OFF_SYSTEM_TIME 0x014
#define OFF_IMAGE_NUMBER_LOW 0x02c
#define OFF_NT_SYSTEM_ROOT 0x030
#define OFF_NT_BUILD 0x260
#define OFF_PRODUCT_TYPE 0x264
#define OFF_NT_MAJOR 0x26c
#define OFF_NT_MINOR 0x270
#define OFF_FEATURES 0x274
#define OFF_TICK_COUNT 0x320

typedef LONG(WINAPI *rtl_get_version_fn)(OSVERSIONINFOEXW *);

/* A KSYSTEM_TIME, read by the documented protocol: High1Time, LowPart,
 * High2Time, again until both high parts agree. */
static ULONGLONG read_ksystem_time(unsigned int off)
{
	const volatile LONG *high1 = (const volatile LONG *)(USD + off + 4);
	const volatile LONG *high2 = (const volatile LONG *)(USD + off + 8);
	const volatile ULONG *low = (const volatile ULONG *)(USD + off);
	LONG h;
	ULONG l;

	do {
		h = *high1;
		MemoryBarrier();
		l = *low;
		MemoryBarrier();
	} while (h != *high2);
	return ((ULONGLONG)(ULONG)h << 32) | l;
}

static ULONGLONG filetime_now(void)
{
	FILETIME ft;

	GetSystemTimeAsFileTime(&ft);
	return ((ULONGLONG)ft.dwHighDateTime << 32) | ft.dwLowDateTime;
}

static void test_clocks(void)
{
	ULONGLONG tick1 = read_ksystem_time(OFF_TICK_COUNT), tick2, api;
	ULONGLONG sys = read_ksystem_time(OFF_SYSTEM_TIME), now = filetime_now();
	ULONGLONG intr1 = read_ksystem_time(OFF_INTERRUPT_TIME), intr2;
	LONGLONG diff;

	/* TickCount counts ticks: milliseconds = ticks * multiplier >> 24. */
	api = GetTickCount64();
	tick1 = (tick1 * USD_ULONG(OFF_TICK_MULTIPLIER)) >> 24;
	diff = (LONGLONG)(api - tick1);
	ok(diff > -100 && diff < 100, "tick count %llu ms, GetTickCount64 %llu\n", tick1, api);
	diff = (LONGLONG)(now - sys);
	ok(diff > -1000000 && diff < 1000000, "system time %llu, GetSystemTimeAsFileTime %llu\n", sys, now);

	Sleep(200);
	tick2 = (read_ksystem_time(OFF_TICK_COUNT) * USD_ULONG(OFF_TICK_MULTIPLIER)) >> 24;
	intr2 = read_ksystem_time(OFF_INTERRUPT_TIME);
	/* Kept current: 200 ms later both have moved by about that much. */
	ok(tick2 - tick1 >= 150 && tick2 - tick1 < 1000, "tick count moved %llu ms in 200 ms\n", tick2 - tick1);
	ok(intr2 - intr1 >= 1500000 && intr2 - intr1 < 10000000, "interrupt time moved %llu in 200 ms\n",
	   intr2 - intr1);
	ok(read_ksystem_time(OFF_SYSTEM_TIME) > sys, "system time did not move\n");
}

static void test_fixed_fields(void)
{
	rtl_get_version_fn get_version =
		(rtl_get_version_fn)(void *)GetProcAddress(GetModuleHandleA("ntdll.dll"), "RtlGetVersion");
	OSVERSIONINFOEXW v = { .dwOSVersionInfoSize = sizeof(v) };
	const volatile WCHAR *root = (const volatile WCHAR *)(USD + OFF_NT_SYSTEM_ROOT);

	ok(get_version && !get_version(&v), "RtlGetVersion\n");
	ok(USD_ULONG(OFF_NT_MAJOR) == v.dwMajorVersion, "NtMajorVersion %lu, RtlGetVersion %lu\n",
	   USD_ULONG(OFF_NT_MAJOR), v.dwMajorVersion);
	ok(USD_ULONG(OFF_NT_MINOR) == v.dwMinorVersion, "NtMinorVersion %lu, RtlGetVersion %lu\n",
	   USD_ULONG(OFF_NT_MINOR), v.dwMinorVersion);
	ok(USD_ULONG(OFF_NT_BUILD) == v.dwBuildNumber, "NtBuildNumber %lu, RtlGetVersion %lu\n",
	   USD_ULONG(OFF_NT_BUILD), v.dwBuildNumber);
	ok(USD_ULONG(OFF_PRODUCT_TYPE) == v.wProductType, "NtProductType %lu, wProductType %u\n",
	   USD_ULONG(OFF_PRODUCT_TYPE), v.wProductType);
	/* Wine leaves ImageNumberLow zero. */
	ok_todo_wine(*(const volatile USHORT *)(USD + OFF_IMAGE_NUMBER_LOW) == IMAGE_FILE_MACHINE_AMD64, "ImageNumberLow %#x\n",
	   *(const volatile USHORT *)(USD + OFF_IMAGE_NUMBER_LOW));
	ok(root[1] == ':' && root[2] == '\\', "NtSystemRoot does not start with a drive\n");
	for (DWORD f = PF_FLOATING_POINT_PRECISION_ERRATA; f <= PF_SSE4_2_INSTRUCTIONS_AVAILABLE; f++)
		ok(USD[OFF_FEATURES + f] == !!IsProcessorFeaturePresent(f), "ProcessorFeatures[%lu] %u, API %d\n", f,
		   USD[OFF_FEATURES + f], IsProcessorFeaturePresent(f));
}

/* The page is read-only for the program, as on Windows. */
static void test_read_only(void)
{
	MEMORY_BASIC_INFORMATION mbi;

	ok(VirtualQuery((void *)USD, &mbi, sizeof(mbi)) == sizeof(mbi), "VirtualQuery: %lu\n", GetLastError());
	ok(mbi.Protect == PAGE_READONLY, "protection %#lx\n", mbi.Protect);
}

int main(void)
{
	test_fixed_fields();
	test_clocks();
	test_read_only();
	return test_summary();
}

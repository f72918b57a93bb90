/* FormatMessage, errno mapping, system information, version, time
 * conversions, performance counter, error modes. */
#include <errno.h>
#include <time.h>
#include <unistd.h>

#include "k32_test.h"
#include "core/errors.h"

static DWORD __attribute__((ms_abi)) format_va(DWORD flags, const WCHAR *fmt, WCHAR *buf, DWORD size, ...)
{
	__builtin_ms_va_list va;
	DWORD n;

	__builtin_ms_va_start(va, size);
	n = FormatMessageW(flags | FORMAT_MESSAGE_FROM_STRING, fmt, 0, 0, buf, size, &va);
	__builtin_ms_va_end(va);
	return n;
}

static void test_format_system(void **state)
{
	WCHAR buf[256];
	char a[256];
	WCHAR *alloc = NULL;
	DWORD n;

	n = FormatMessageW(FORMAT_MESSAGE_FROM_SYSTEM, NULL, ERROR_FILE_NOT_FOUND, 0, buf, 256, NULL);
	assert_wstr_equal(buf, u"The system cannot find the file specified.\r\n");
	assert_int_equal(n, wstr_len(buf));
	n = FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_MAX_WIDTH_MASK, NULL, ERROR_ACCESS_DENIED,
			   MAKELANGID(LANG_NEUTRAL, SUBLANG_DEFAULT), a, 256, NULL);
	assert_string_equal(a, "Access is denied. ");
	assert_int_equal(n, 18);
	n = FormatMessageW(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_ALLOCATE_BUFFER, NULL, 0x80070057, 0,
			   (WCHAR *)&alloc, 0, NULL);
	assert_non_null(alloc);
	assert_wstr_equal(alloc, u"The parameter is incorrect.\r\n");
	assert_null(LocalFree(alloc));
	n = FormatMessageW(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL, ERROR_BAD_EXE_FORMAT, 0,
			   buf, 256, NULL);
	assert_wstr_equal(buf, u"%1 is not a valid Win32 application.\r\n");
	SetLastError(SENTINEL_ERROR);
	assert_int_equal(FormatMessageW(FORMAT_MESSAGE_FROM_SYSTEM, NULL, 0x3fffffff, 0, buf, 256, NULL), 0);
	assert_last_error(ERROR_MR_MID_NOT_FOUND);
	SetLastError(SENTINEL_ERROR);
	assert_int_equal(FormatMessageW(FORMAT_MESSAGE_FROM_SYSTEM, NULL, 2, 0, buf, 10, NULL), 0);
	assert_last_error(ERROR_INSUFFICIENT_BUFFER);
	SetLastError(SENTINEL_ERROR);
	assert_int_equal(FormatMessageW(FORMAT_MESSAGE_FROM_SYSTEM, NULL, 2, MAKELANGID(LANG_GERMAN, SUBLANG_DEFAULT),
				       buf, 256, NULL),
			 0);
	assert_last_error(ERROR_RESOURCE_LANG_NOT_FOUND);
}

static void test_format_inserts(void **state)
{
	WCHAR buf[256];
	char a[256];
	DWORD_PTR array[3];

	format_va(0, u"%1 and %2!d! and %3!04x!%n", buf, 256, u"str", -5, 0xab);
	assert_wstr_equal(buf, u"str and -5 and 00ab\r\n");
	format_va(0, u"%2 %1 %%%0 not this", buf, 256, u"a", u"b");
	assert_wstr_equal(buf, u"b a %");
	format_va(0, u"[%1!-5s!][%1!5.2s!]", buf, 256, u"abc");
	assert_wstr_equal(buf, u"[abc  ][   ab]");
	format_va(0, u"%1!S! %2!c!%3!I64u!", buf, 256, "narrow", (int)'Z', 12345678901234ull);
	assert_wstr_equal(buf, u"narrow Z12345678901234");
	format_va(FORMAT_MESSAGE_IGNORE_INSERTS, u"%1 %2!d! %t", buf, 256);
	assert_wstr_equal(buf, u"%1 %2!d! \t");

	array[0] = (DWORD_PTR)"one";
	array[1] = 2;
	array[2] = (DWORD_PTR)u"three";
	FormatMessageA(FORMAT_MESSAGE_FROM_STRING | FORMAT_MESSAGE_ARGUMENT_ARRAY, "%1-%2!u!-%3!S!", 0, 0, a, 256,
		       (__ms_va_list *)array);
	assert_string_equal(a, "one-2-three");
	SetLastError(SENTINEL_ERROR);
	assert_int_equal(FormatMessageW(FORMAT_MESSAGE_FROM_STRING, u"%1", 0, 0, buf, 256, NULL), 0);
	assert_last_error(ERROR_INVALID_PARAMETER);
}

static void test_errno_mapping(void **state)
{
	assert_int_equal(win32_error_from_errno(ENOENT), ERROR_FILE_NOT_FOUND);
	assert_int_equal(win32_error_from_errno(EACCES), ERROR_ACCESS_DENIED);
	assert_int_equal(win32_error_from_errno(EEXIST), ERROR_FILE_EXISTS);
	assert_int_equal(win32_error_from_errno(ENOMEM), ERROR_NOT_ENOUGH_MEMORY);
	assert_int_equal(win32_error_from_errno(ENOTEMPTY), ERROR_DIR_NOT_EMPTY);
	assert_int_equal(win32_error_from_errno(ENOSPC), ERROR_DISK_FULL);
	assert_int_equal(win32_error_from_errno(99999), ERROR_GEN_FAILURE);
	set_last_error_from_errno(EBADF);
	assert_last_error(ERROR_INVALID_HANDLE);
}

static void test_system_info(void **state)
{
	SYSTEM_INFO si;
	OSVERSIONINFOEXW v = { .dwOSVersionInfoSize = sizeof(v) };
	OSVERSIONINFOA va = { .dwOSVersionInfoSize = sizeof(va) };
	RTL_OSVERSIONINFOEXW rv = { .dwOSVersionInfoSize = sizeof(rv) };
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	WCHAR name[MAX_COMPUTERNAME_LENGTH + 1];
	DWORD size = 2;

	GetSystemInfo(&si);
	assert_int_equal(si.wProcessorArchitecture, PROCESSOR_ARCHITECTURE_AMD64);
	assert_int_equal(si.dwPageSize, 4096);
	assert_int_equal(si.dwAllocationGranularity, 65536);
	assert_true(si.dwNumberOfProcessors >= 1 && (long)si.dwNumberOfProcessors <= cpus);
	assert_int_equal(__builtin_popcountll(si.dwActiveProcessorMask), si.dwNumberOfProcessors);
	assert_true(GetVersionExW((OSVERSIONINFOW *)&v));
	assert_int_equal(v.dwMajorVersion, 10);
	assert_int_equal(v.dwBuildNumber, 19045);
	assert_int_equal(v.wProductType, VER_NT_WORKSTATION);
	assert_true(GetVersionExA(&va));
	assert_int_equal(va.dwPlatformId, VER_PLATFORM_WIN32_NT);
	assert_int_equal(GetVersion(), 0x4a65000a);
	assert_int_equal(RtlGetVersion(&rv), 0);
	assert_int_equal(rv.dwBuildNumber, 19045);
	v.dwOSVersionInfoSize = 12;
	SetLastError(SENTINEL_ERROR);
	assert_false(GetVersionExW((OSVERSIONINFOW *)&v));
	assert_last_error(ERROR_INSUFFICIENT_BUFFER);

	assert_true(IsProcessorFeaturePresent(PF_XMMI64_INSTRUCTIONS_AVAILABLE)); /* SSE2 on x86-64 */
	assert_true(IsProcessorFeaturePresent(PF_NX_ENABLED));
	assert_false(IsProcessorFeaturePresent(PF_ARM_NEON_INSTRUCTIONS_AVAILABLE));
	assert_false(IsProcessorFeaturePresent(1000));

	SetLastError(SENTINEL_ERROR);
	assert_false(GetComputerNameW(name, &size));
	assert_last_error(ERROR_BUFFER_OVERFLOW);
	assert_true(size >= 2);
	size = MAX_COMPUTERNAME_LENGTH + 1;
	assert_true(GetComputerNameW(name, &size));
	assert_int_equal(size, wstr_len(name));
	for (DWORD i = 0; i < size; i++)
		assert_false(name[i] >= 'a' && name[i] <= 'z');
	assert_false(IsDebuggerPresent());
}

static void test_time_conversions(void **state)
{
	SYSTEMTIME st = { 0 }, st2;
	FILETIME ft, now;
	ULONGLONG t, t_now;

	/* 1970-01-01 is 11644473600 s after 1601-01-01 */
	st.wYear = 1970;
	st.wMonth = 1;
	st.wDay = 1;
	assert_true(SystemTimeToFileTime(&st, &ft));
	t = ((ULONGLONG)ft.dwHighDateTime << 32) | ft.dwLowDateTime;
	assert_int_equal(t, 116444736000000000ull);
	/* 2024-02-29 13:45:30.250, a Thursday */
	st = (SYSTEMTIME){ .wYear = 2024, .wMonth = 2, .wDay = 29, .wHour = 13, .wMinute = 45, .wSecond = 30,
			   .wMilliseconds = 250 };
	assert_true(SystemTimeToFileTime(&st, &ft));
	assert_true(FileTimeToSystemTime(&ft, &st2));
	assert_int_equal(st2.wYear, 2024);
	assert_int_equal(st2.wMonth, 2);
	assert_int_equal(st2.wDay, 29);
	assert_int_equal(st2.wDayOfWeek, 4);
	assert_int_equal(st2.wHour, 13);
	assert_int_equal(st2.wMinute, 45);
	assert_int_equal(st2.wSecond, 30);
	assert_int_equal(st2.wMilliseconds, 250);
	t = ((ULONGLONG)ft.dwHighDateTime << 32) | ft.dwLowDateTime;
	assert_int_equal((t - 116444736000000000ull) / 10000000ull, 1709214330ull);
	/* 1601-01-01 was a Monday; 2000-12-31 is the 366th day of a leap year */
	ft.dwLowDateTime = ft.dwHighDateTime = 0;
	assert_true(FileTimeToSystemTime(&ft, &st2));
	assert_int_equal(st2.wYear, 1601);
	assert_int_equal(st2.wDayOfWeek, 1);
	st = (SYSTEMTIME){ .wYear = 2000, .wMonth = 12, .wDay = 31 };
	assert_true(SystemTimeToFileTime(&st, &ft));
	assert_true(FileTimeToSystemTime(&ft, &st2));
	assert_int_equal(st2.wMonth, 12);
	assert_int_equal(st2.wDay, 31);
	st = (SYSTEMTIME){ .wYear = 2023, .wMonth = 2, .wDay = 29 };
	SetLastError(SENTINEL_ERROR);
	assert_false(SystemTimeToFileTime(&st, &ft));
	assert_last_error(ERROR_INVALID_PARAMETER);

	GetSystemTimeAsFileTime(&now);
	t_now = ((ULONGLONG)now.dwHighDateTime << 32) | now.dwLowDateTime;
	assert_true(t_now / 10000000ull - 11644473600ull - (ULONGLONG)time(NULL) <= 1);
	GetSystemTime(&st);
	assert_true(st.wYear >= 2024);
}

static void test_counters(void **state)
{
	LARGE_INTEGER f, a, b;
	ULONGLONG t1, t2;
	struct timespec ts = { 0, 20 * 1000 * 1000 };

	assert_true(QueryPerformanceFrequency(&f));
	assert_int_equal(f.QuadPart, 10000000);
	QueryPerformanceCounter(&a);
	t1 = GetTickCount64();
	nanosleep(&ts, NULL);
	QueryPerformanceCounter(&b);
	t2 = GetTickCount64();
	assert_true(b.QuadPart - a.QuadPart >= 200000);  /* 20 ms in 100 ns units */
	assert_true(b.QuadPart - a.QuadPart < 50000000); /* and not 5 s */
	assert_true(t2 - t1 >= 19);
	assert_true(GetTickCount() - (DWORD)t2 < 1000); /* the low 32 bits of the same clock */
}

static void test_error_mode_and_startup(void **state)
{
	STARTUPINFOW si;
	DWORD old;

	SetErrorMode(SEM_FAILCRITICALERRORS);
	assert_int_equal(SetErrorMode(SEM_NOGPFAULTERRORBOX), SEM_FAILCRITICALERRORS);
	assert_int_equal(GetErrorMode(), SEM_NOGPFAULTERRORBOX);
	assert_true(SetThreadErrorMode(SEM_FAILCRITICALERRORS, &old));
	assert_int_equal(GetThreadErrorMode(), SEM_FAILCRITICALERRORS);
	assert_false(SetThreadErrorMode(SEM_NOALIGNMENTFAULTEXCEPT, &old));
	memset(&si, 0xcc, sizeof(si));
	GetStartupInfoW(&si);
	assert_int_equal(si.cb, sizeof(si));
	assert_int_equal(si.dwFlags, 0);
	assert_null(si.lpTitle);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_system),
		cmocka_unit_test(test_format_inserts),
		cmocka_unit_test(test_errno_mapping),
		cmocka_unit_test(test_system_info),
		cmocka_unit_test(test_time_conversions),
		cmocka_unit_test(test_counters),
		cmocka_unit_test(test_error_mode_and_startup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

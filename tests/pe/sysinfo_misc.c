/* Start-up queries of MSVC programs (ninja, Rust's std): processor-group
 * counts agree with GetSystemInfo, a handle that is no job cannot be
 * queried as one, a file has no console screen buffer (to query or
 * draw into), SetThreadStackGuarantee reports the previous guarantee, the
 * Windows and system folders, drive types, the locale list, the time
 * zone of a year, and RtlPcToFileHeader. */
#include <windows.h>

#include "test.h"

static void test_processor_counts(void)
{
	SYSTEM_INFO si;

	GetSystemInfo(&si);
	ok(GetActiveProcessorCount(ALL_PROCESSOR_GROUPS) == si.dwNumberOfProcessors, "active %lu, system info %lu\n",
	   GetActiveProcessorCount(ALL_PROCESSOR_GROUPS), si.dwNumberOfProcessors);
	ok(GetActiveProcessorCount(0) == si.dwNumberOfProcessors, "group 0: %lu\n", GetActiveProcessorCount(0));
	ok(GetMaximumProcessorCount(ALL_PROCESSOR_GROUPS) >= si.dwNumberOfProcessors, "maximum %lu\n",
	   GetMaximumProcessorCount(ALL_PROCESSOR_GROUPS));
	ok(GetActiveProcessorGroupCount() == 1 && GetMaximumProcessorGroupCount() == 1, "groups %u/%u\n",
	   GetActiveProcessorGroupCount(), GetMaximumProcessorGroupCount());
	SetLastError(0xdeadbeef);
	ok(GetActiveProcessorCount(7) == 0, "group 7 has processors\n");
	/* Wine does not set the error. */
	ok_todo_wine(GetLastError() == ERROR_INVALID_PARAMETER, "group 7: error %lu\n", GetLastError());
}

static void test_job_query(void)
{
	JOBOBJECT_BASIC_ACCOUNTING_INFORMATION info;

	SetLastError(0xdeadbeef);
	ok(!QueryInformationJobObject((HANDLE)(ULONG_PTR)0x1234, JobObjectBasicAccountingInformation, &info,
				      sizeof(info), NULL),
	   "a handle that is no job answered\n");
	ok(GetLastError() == ERROR_INVALID_HANDLE, "error %lu\n", GetLastError());
}

static void test_screen_buffer(void)
{
	CONSOLE_SCREEN_BUFFER_INFO csbi;
	char tmp[MAX_PATH], path[MAX_PATH];
	HANDLE h;

	GetTempPathA(sizeof(tmp), tmp);
	snprintf(path, sizeof(path), "%sndshim-csbi-%lu", tmp, GetCurrentProcessId());
	h = CreateFileA(path, GENERIC_READ | GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, FILE_FLAG_DELETE_ON_CLOSE, NULL);
	SetLastError(0xdeadbeef);
	ok(!GetConsoleScreenBufferInfo(h, &csbi), "a file has a screen buffer\n");
	ok(GetLastError() == ERROR_INVALID_HANDLE, "error %lu\n", GetLastError());
	{
		CHAR_INFO cell = { .Char.AsciiChar = 'x', .Attributes = 7 };
		SMALL_RECT r = { 0, 0, 0, 0 };
		COORD size = { 1, 1 }, from = { 0, 0 };

		SetLastError(0xdeadbeef);
		ok(!WriteConsoleOutputA(h, &cell, size, from, &r), "WriteConsoleOutputA drew into a file\n");
		ok(GetLastError() == ERROR_INVALID_HANDLE, "error %lu\n", GetLastError());
		SetLastError(0xdeadbeef);
		ok(!WriteConsoleOutputW(h, &cell, size, from, &r), "WriteConsoleOutputW drew into a file\n");
		ok(GetLastError() == ERROR_INVALID_HANDLE, "error %lu\n", GetLastError());
		SetLastError(0xdeadbeef);
		ok(!SetConsoleTextAttribute(h, FOREGROUND_RED), "SetConsoleTextAttribute on a file\n");
		ok(GetLastError() == ERROR_INVALID_HANDLE, "error %lu\n", GetLastError());
	}
	CloseHandle(h);
}

static void test_stack_guarantee(void)
{
	ULONG size = 0, first;

	ok(SetThreadStackGuarantee(&size), "query: %lu\n", GetLastError());
	first = size;
	size = 64 * 1024;
	ok(SetThreadStackGuarantee(&size), "set 64 KiB: %lu\n", GetLastError());
	ok(size == first, "previous %lu, queried %lu\n", size, first);
	size = 0;
	ok(SetThreadStackGuarantee(&size), "query again: %lu\n", GetLastError());
	ok(size >= 64 * 1024, "guarantee %lu after asking for 64 KiB\n", size);
	size = 0x7fffffff;
	SetLastError(0xdeadbeef);
	ok(!SetThreadStackGuarantee(&size), "a guarantee larger than the stack accepted\n");
}

static volatile LONG locale_found;

static BOOL CALLBACK locale_proc(LPWSTR name)
{
	if (!lstrcmpW(name, L"00000409"))
		InterlockedIncrement((LONG *)&locale_found);
	return TRUE;
}

static void test_folders_drives_locales(void)
{
	char buf[MAX_PATH], sys[MAX_PATH];
	UINT n, need;
	TIME_ZONE_INFORMATION tzi, cur;
	SYSTEMTIME now;

	n = GetWindowsDirectoryA(buf, sizeof(buf));
	ok(n == strlen(buf) && !lstrcmpiA(buf, "C:\\windows"), "windows folder %s\n", buf);
	need = GetWindowsDirectoryA(buf, 3);
	ok(need == n + 1, "too small: %u, wanted %u\n", need, n + 1);
	n = GetSystemDirectoryA(sys, sizeof(sys));
	ok(n == strlen(sys) && !lstrcmpiA(sys, "C:\\windows\\system32"), "system folder %s\n", sys);

	ok(GetDriveTypeA("C:\\") == DRIVE_FIXED, "C:\\ type %u\n", GetDriveTypeA("C:\\"));
	ok(GetDriveTypeW(NULL) == DRIVE_FIXED, "current drive type %u\n", GetDriveTypeW(NULL));
	/* Not a volume's root: DRIVE_NO_ROOT_DIR (Wine answers for the
	 * drive the folder is on). */
	ok_todo_wine(GetDriveTypeA("C:\\windows\\") == DRIVE_NO_ROOT_DIR, "a folder's type %u\n",
		     GetDriveTypeA("C:\\windows\\"));

	locale_found = 0;
	ok(EnumSystemLocalesW(locale_proc, LCID_SUPPORTED), "EnumSystemLocalesW: %lu\n", GetLastError());
	ok(locale_found == 1, "en-US listed %ld times\n", locale_found);

	GetSystemTime(&now);
	ok(GetTimeZoneInformationForYear(now.wYear, NULL, &tzi), "GetTimeZoneInformationForYear: %lu\n",
	   GetLastError());
	GetTimeZoneInformation(&cur);
	ok(tzi.Bias == cur.Bias && tzi.Bias >= -14 * 60 && tzi.Bias <= 12 * 60, "bias %ld, current %ld\n", tzi.Bias,
	   cur.Bias);
}

static void test_pc_to_file_header(void)
{
	void *base = (void *)1;

	ok(RtlPcToFileHeader((void *)test_pc_to_file_header, &base) == GetModuleHandleA(NULL) &&
	   base == GetModuleHandleA(NULL), "main module: base %p\n", base);
	ok(RtlPcToFileHeader((void *)16, &base) == NULL && base == NULL, "address 16: base %p\n", base);
}

int main(void)
{
	test_processor_counts();
	test_job_query();
	test_screen_buffer();
	test_stack_guarantee();
	test_folders_drives_locales();
	test_pc_to_file_header();
	return test_summary();
}

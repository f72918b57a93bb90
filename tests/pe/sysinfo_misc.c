/* Start-up queries of MSVC programs (ninja, Rust's std): processor-group
 * counts agree with GetSystemInfo, a process outside any job cannot
 * query "its" job, a redirected standard handle has no console screen
 * buffer, and SetThreadStackGuarantee reports the previous guarantee. */
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

int main(void)
{
	test_processor_counts();
	test_job_query();
	test_screen_buffer();
	test_stack_guarantee();
	return test_summary();
}

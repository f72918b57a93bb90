/* Faults the program causes inside system DLLs are the program's.
 *
 * Windows rules checked (Microsoft's "Structured Exception Handling",
 * AddVectoredExceptionHandler, SetUnhandledExceptionFilter and
 * CreateThread docs; the C runtime functions document no check of their
 * pointers, so a bad one faults where msvcrt reads or writes it):
 *  - strlen(NULL), wcslen(NULL), printf("%s", (char *)16), sprintf with a
 *    pointer to a page the program freed, memcpy and memset into reserved
 *    but uncommitted memory, GetSystemTime into such memory: each raises
 *    EXCEPTION_ACCESS_VIOLATION on the calling thread, which a vectored
 *    handler sees, with ExceptionInformation[0] the kind of access (0
 *    read, 1 write) and [1] an address in the memory the program named
 *    (below 64 KiB for the small pointers);
 *  - the thread goes on afterwards: the same C runtime calls work again
 *    on that thread (msvcrt's stream locks are recursive);
 *  - a thread created with a start address nothing is mapped at faults
 *    in that thread, where the program's unhandled-exception filter sees
 *    the access violation at that address (and may end the thread);
 *  - with no handler at all, the unhandled-exception filter sees an
 *    access violation from strlen(NULL).
 * The functions are looked up in msvcrt.dll at run time: the compiler
 * must not expand them inline, and mingw's printf is its own. */
#include "test.h"
#include "catch_av.h"

static size_t(__cdecl *p_strlen)(const char *);
static size_t(__cdecl *p_wcslen)(const wchar_t *);
static int(__cdecl *p_printf)(const char *, ...);
static int(__cdecl *p_sprintf)(char *, const char *, ...);
static void *(__cdecl *p_memcpy)(void *, const void *, size_t);
static void *(__cdecl *p_memset)(void *, int, size_t);

static char *reserved;      /* reserved, never committed */
static char *freed;         /* committed, then released */
#define RESERVED_SIZE 0x10000

static void do_strlen_null(void *arg)
{
	p_strlen(arg);
}

static void do_wcslen_null(void *arg)
{
	p_wcslen(arg);
}

static void do_printf_16(void *arg)
{
	p_printf("%s\n", (const char *)arg);
}

static void do_sprintf_freed(void *arg)
{
	char buf[64];

	p_sprintf(buf, "[%s]", (const char *)arg);
}

static void do_memcpy_reserved(void *arg)
{
	static const char src[256] = "source";

	p_memcpy(arg, src, sizeof(src));
}

static void do_memset_reserved(void *arg)
{
	p_memset(arg, 0x5a, 4096);
}

static void do_get_system_time(void *arg)
{
	GetSystemTime(arg);
}

static void test_crt_faults(void)
{
	char buf[32];
	int n;

	expect_av(do_strlen_null, NULL, EXCEPTION_READ_FAULT, 0, 0x10000, "strlen(NULL)");
	expect_av(do_wcslen_null, NULL, EXCEPTION_READ_FAULT, 0, 0x10000, "wcslen(NULL)");
	expect_av(do_printf_16, (void *)16, EXCEPTION_READ_FAULT, 0, 0x10000, "printf(\"%s\", 16)");
	expect_av(do_sprintf_freed, freed, EXCEPTION_READ_FAULT, (ULONG_PTR)freed, (ULONG_PTR)freed + 4096,
		  "sprintf of a freed page");
	expect_av(do_memcpy_reserved, reserved + 100, EXCEPTION_WRITE_FAULT, (ULONG_PTR)reserved,
		  (ULONG_PTR)reserved + RESERVED_SIZE, "memcpy into reserved memory");
	expect_av(do_memset_reserved, reserved, EXCEPTION_WRITE_FAULT, (ULONG_PTR)reserved,
		  (ULONG_PTR)reserved + RESERVED_SIZE, "memset of reserved memory");
	expect_av(do_get_system_time, reserved, EXCEPTION_WRITE_FAULT, (ULONG_PTR)reserved,
		  (ULONG_PTR)reserved + RESERVED_SIZE, "GetSystemTime into reserved memory");

	/* The same thread goes on with the same functions. */
	ok(p_strlen("four") == 4, "strlen after the faults\n");
	n = p_sprintf(buf, "[%s]", "ok");
	ok(n == 4 && !strcmp(buf, "[ok]"), "sprintf after the faults: %d '%s'\n", n, buf);
	n = p_printf("printf after the faults\n");
	ok(n == 24, "printf after the faults returned %d\n", n);
	fflush(stdout);
}

static volatile LONG filter_calls;
static volatile DWORD filter_code, filter_tid;
static volatile ULONG_PTR filter_info1;
static void *volatile filter_addr;

static LONG WINAPI thread_filter(EXCEPTION_POINTERS *ptrs)
{
	InterlockedIncrement(&filter_calls);
	filter_code = ptrs->ExceptionRecord->ExceptionCode;
	filter_addr = ptrs->ExceptionRecord->ExceptionAddress;
	filter_info1 = ptrs->ExceptionRecord->ExceptionInformation[1];
	filter_tid = GetCurrentThreadId();
	/* The faulting thread ends here; the process goes on. */
	ExitThread(77);
	return EXCEPTION_CONTINUE_SEARCH;
}

static void test_bad_thread_start(void)
{
	LPTOP_LEVEL_EXCEPTION_FILTER old = SetUnhandledExceptionFilter(thread_filter);
	DWORD tid = 0, code = 0;
	HANDLE th;

	th = CreateThread(NULL, 0, (LPTHREAD_START_ROUTINE)(ULONG_PTR)0x10, NULL, 0, &tid);
	ok(th != NULL, "CreateThread: %lu\n", GetLastError());
	if (!th)
		return;
	ok(WaitForSingleObject(th, INFINITE) == WAIT_OBJECT_0, "wait for the thread\n");
	ok(GetExitCodeThread(th, &code) && code == 77, "thread exit code %lu\n", code);
	CloseHandle(th);
	SetUnhandledExceptionFilter(old);
	ok(filter_calls == 1, "filter called %ld times\n", (long)filter_calls);
	ok(filter_code == EXCEPTION_ACCESS_VIOLATION, "code %#lx\n", (unsigned long)filter_code);
	ok(filter_addr == (void *)0x10, "exception address %p\n", filter_addr);
	ok(filter_info1 == 0x10, "fault address %#llx\n", (unsigned long long)filter_info1);
	ok(filter_tid == tid, "filter ran on thread %lu, not the new one %lu\n", (unsigned long)filter_tid,
	   (unsigned long)tid);
}

static LONG WINAPI last_filter(EXCEPTION_POINTERS *ptrs)
{
	ok(ptrs->ExceptionRecord->ExceptionCode == EXCEPTION_ACCESS_VIOLATION, "last: code %#lx\n",
	   (unsigned long)ptrs->ExceptionRecord->ExceptionCode);
	ok(ptrs->ExceptionRecord->ExceptionInformation[1] < 0x10000, "last: address %#llx\n",
	   (unsigned long long)ptrs->ExceptionRecord->ExceptionInformation[1]);
	ExitProcess(test_summary());
	return EXCEPTION_EXECUTE_HANDLER;
}

int main(void)
{
	HMODULE crt = GetModuleHandleA("msvcrt.dll");

	if (!crt)
		crt = LoadLibraryA("msvcrt.dll");
	p_strlen = (void *)GetProcAddress(crt, "strlen");
	p_wcslen = (void *)GetProcAddress(crt, "wcslen");
	p_printf = (void *)GetProcAddress(crt, "printf");
	p_sprintf = (void *)GetProcAddress(crt, "sprintf");
	p_memcpy = (void *)GetProcAddress(crt, "memcpy");
	p_memset = (void *)GetProcAddress(crt, "memset");
	ok(p_strlen && p_wcslen && p_printf && p_sprintf && p_memcpy && p_memset, "msvcrt exports\n");
	reserved = VirtualAlloc(NULL, RESERVED_SIZE, MEM_RESERVE, PAGE_READWRITE);
	freed = VirtualAlloc(NULL, 4096, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
	ok(reserved && freed, "VirtualAlloc: %lu\n", GetLastError());
	if (!p_strlen || !p_wcslen || !p_printf || !p_sprintf || !p_memcpy || !p_memset || !reserved || !freed)
		return test_summary();
	ok(VirtualFree(freed, 0, MEM_RELEASE), "VirtualFree: %lu\n", GetLastError());

	test_crt_faults();
	test_bad_thread_start();

	/* Last: nobody handles it but the unhandled-exception filter, which
	 * prints the summary and ends the process. */
	SetUnhandledExceptionFilter(last_filter);
	p_strlen(NULL);
	ok(0, "strlen(NULL) returned\n");
	return test_summary();
}

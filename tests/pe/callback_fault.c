/* A callback the program hands a system DLL is the program's code: what
 * goes wrong in it, or in the jump to it, is the program's exception.
 *
 * Windows rules checked (Microsoft's qsort, bsearch, QueueUserAPC,
 * EnumSystemLocalesA, _beginthreadex, atexit and _onexit docs, with
 * "Structured Exception Handling", AddVectoredExceptionHandler and
 * SetUnhandledExceptionFilter; the DLLs check no callback pointer, so a
 * bad one is called and faults):
 *  - a callback pointer that points into a DLL's data (msvcrt's _iob, a
 *    data export: readable, not executable) is jumped to: an
 *    EXCEPTION_ACCESS_VIOLATION with ExceptionInformation[0] 8 (execute)
 *    and [1] that address, on the thread that called it, which a
 *    vectored handler sees -- for qsort's and bsearch's comparators, an
 *    APC run by SleepEx and EnumSystemLocalesA's callback;
 *  - a comparator that reads NULL: the access violation is seen the same
 *    way (read, address 0);
 *  - the thread goes on afterwards, and qsort works again;
 *  - a thread started by _beginthreadex at such an address faults in that
 *    thread, where the unhandled-exception filter sees the access
 *    violation at that address;
 *  - an atexit handler at such an address faults while exit() runs the
 *    handlers: a vectored handler sees it (the child ends itself with
 *    TerminateProcess(42) from there), and with no handler at all, an
 *    _onexit handler's fault ends the process with status 0xC0000005.
 * The program runs itself as the child for the exit cases. */
#include <process.h>
#include <stdlib.h>

#include "test.h"
#include "catch_av.h"

typedef int(__cdecl *cmp_fn)(const void *, const void *);

static void *bad_code; /* msvcrt's _iob: data, not code */

static int __cdecl cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static int __cdecl cmp_reads_null(const void *a, const void *b)
{
	return *(volatile const int *)0 + cmp_int(a, b);
}

static void do_qsort(void *cmp)
{
	int v[8] = { 5, 3, 7, 1, 8, 2, 6, 4 };

	qsort(v, 8, sizeof(v[0]), (cmp_fn)cmp);
}

static void do_bsearch(void *cmp)
{
	static const int v[4] = { 1, 2, 3, 4 };
	int key = 3;

	bsearch(&key, v, 4, sizeof(v[0]), (cmp_fn)cmp);
}

static void do_apc(void *fn)
{
	QueueUserAPC((PAPCFUNC)fn, GetCurrentThread(), 0);
	SleepEx(0, TRUE);
}

static void do_enum_locales(void *fn)
{
	EnumSystemLocalesA((LOCALE_ENUMPROCA)fn, LCID_SUPPORTED);
}

static void expect_av(void (*fn)(void *), void *arg, ULONG_PTR kind, ULONG_PTR addr, const char *what)
{
	int got = catch_av(fn, arg);

	ok(got, "%s: no access violation\n", what);
	if (!got)
		return;
	ok(caught_info[0] == kind, "%s: access kind %lu, expected %lu\n", what, (unsigned long)caught_info[0],
	   (unsigned long)kind);
	ok(caught_info[1] == addr, "%s: address %#llx, expected %#llx\n", what, (unsigned long long)caught_info[1],
	   (unsigned long long)addr);
}

static void test_same_thread(void)
{
	int v[4] = { 4, 2, 3, 1 };

	expect_av(do_qsort, bad_code, EXCEPTION_EXECUTE_FAULT, (ULONG_PTR)bad_code, "qsort comparator in data");
	expect_av(do_qsort, (void *)cmp_reads_null, EXCEPTION_READ_FAULT, 0, "qsort comparator reading NULL");
	expect_av(do_bsearch, bad_code, EXCEPTION_EXECUTE_FAULT, (ULONG_PTR)bad_code, "bsearch comparator in data");
	expect_av(do_apc, bad_code, EXCEPTION_EXECUTE_FAULT, (ULONG_PTR)bad_code, "APC in data");
	expect_av(do_enum_locales, bad_code, EXCEPTION_EXECUTE_FAULT, (ULONG_PTR)bad_code,
		  "EnumSystemLocalesA callback in data");

	/* The thread goes on, and so does qsort. */
	qsort(v, 4, sizeof(v[0]), cmp_int);
	ok(v[0] == 1 && v[1] == 2 && v[2] == 3 && v[3] == 4, "qsort after the faults: %d %d %d %d\n", v[0], v[1],
	   v[2], v[3]);
}

static volatile LONG filter_calls;
static volatile DWORD filter_code;
static void *volatile filter_addr;
static volatile ULONG_PTR filter_info0, filter_info1;

static LONG WINAPI thread_filter(EXCEPTION_POINTERS *ptrs)
{
	InterlockedIncrement(&filter_calls);
	filter_code = ptrs->ExceptionRecord->ExceptionCode;
	filter_addr = ptrs->ExceptionRecord->ExceptionAddress;
	filter_info0 = ptrs->ExceptionRecord->ExceptionInformation[0];
	filter_info1 = ptrs->ExceptionRecord->ExceptionInformation[1];
	/* The faulting thread ends here; the process goes on. */
	ExitThread(77);
	return EXCEPTION_CONTINUE_SEARCH;
}

static void test_thread_start(void)
{
	LPTOP_LEVEL_EXCEPTION_FILTER old = SetUnhandledExceptionFilter(thread_filter);
	HANDLE th;
	DWORD code = 0;

	th = (HANDLE)_beginthreadex(NULL, 0, (unsigned(__stdcall *)(void *))bad_code, NULL, 0, NULL);
	ok(th != NULL, "_beginthreadex failed\n");
	if (!th)
		return;
	ok(WaitForSingleObject(th, 20000) == WAIT_OBJECT_0, "wait for the thread\n");
	ok(GetExitCodeThread(th, &code) && code == 77, "thread exit code %lu\n", code);
	CloseHandle(th);
	SetUnhandledExceptionFilter(old);
	ok(filter_calls == 1, "filter called %ld times\n", (long)filter_calls);
	ok(filter_code == EXCEPTION_ACCESS_VIOLATION, "code %#lx\n", (unsigned long)filter_code);
	ok(filter_addr == bad_code, "exception address %p, expected %p\n", filter_addr, bad_code);
	ok(filter_info0 == EXCEPTION_EXECUTE_FAULT && filter_info1 == (ULONG_PTR)bad_code,
	   "access %lu at %#llx\n", (unsigned long)filter_info0, (unsigned long long)filter_info1);
}

/* ---- the exit cases, in a child ---- */

static LONG CALLBACK exit_vectored(EXCEPTION_POINTERS *ptrs)
{
	EXCEPTION_RECORD *rec = ptrs->ExceptionRecord;

	if (rec->ExceptionCode == EXCEPTION_ACCESS_VIOLATION && rec->ExceptionInformation[0] == EXCEPTION_EXECUTE_FAULT &&
	    rec->ExceptionInformation[1] == (ULONG_PTR)bad_code && rec->ExceptionAddress == bad_code)
		TerminateProcess(GetCurrentProcess(), 42);
	TerminateProcess(GetCurrentProcess(), 43);
	return EXCEPTION_CONTINUE_SEARCH;
}

static int child(const char *how)
{
	if (!strcmp(how, "atexit")) {
		AddVectoredExceptionHandler(1, exit_vectored);
		atexit((void(__cdecl *)(void))bad_code);
	} else {
		_onexit((_onexit_t)bad_code);
	}
	exit(0);
}

static DWORD run_child(const char *how)
{
	STARTUPINFOA si = { .cb = sizeof(si) };
	PROCESS_INFORMATION pi;
	char exe[MAX_PATH], line[MAX_PATH + 32];
	DWORD code = 0xdead;

	SECURITY_ATTRIBUTES sa = { sizeof(sa), NULL, TRUE };
	HANDLE nul;

	GetModuleFileNameA(NULL, exe, sizeof(exe));
	snprintf(line, sizeof(line), "\"%s\" %s", exe, how);
	/* The crash report of the unhandled case is not this test's output. */
	nul = CreateFileA("NUL", GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, &sa, OPEN_EXISTING, 0, NULL);
	si.dwFlags = STARTF_USESTDHANDLES;
	si.hStdInput = GetStdHandle(STD_INPUT_HANDLE);
	si.hStdOutput = GetStdHandle(STD_OUTPUT_HANDLE);
	si.hStdError = nul;
	if (!CreateProcessA(NULL, line, NULL, NULL, TRUE, 0, NULL, NULL, &si, &pi)) {
		CloseHandle(nul);
		ok(0, "CreateProcess: %lu\n", GetLastError());
		return code;
	}
	CloseHandle(nul);
	ok(WaitForSingleObject(pi.hProcess, 20000) == WAIT_OBJECT_0, "%s child did not end\n", how);
	GetExitCodeProcess(pi.hProcess, &code);
	CloseHandle(pi.hProcess);
	CloseHandle(pi.hThread);
	return code;
}

static void test_exit_handlers(void)
{
	DWORD code;

	code = run_child("atexit");
	ok(code == 42, "atexit handler in data: child's status %#lx, expected 42 (from its vectored handler)\n",
	   (unsigned long)code);
	code = run_child("onexit");
	ok(code == EXCEPTION_ACCESS_VIOLATION, "_onexit handler in data: child's status %#lx\n",
	   (unsigned long)code);
}

int main(int argc, char **argv)
{
	HMODULE msvcrt = GetModuleHandleA("msvcrt.dll");

	bad_code = msvcrt ? (void *)GetProcAddress(msvcrt, "_iob") : NULL;
	if (argc > 1)
		return bad_code ? child(argv[1]) : 1;
	ok(bad_code != NULL, "msvcrt's _iob: not found\n");
	if (!bad_code)
		return test_summary();
	test_same_thread();
	test_thread_start();
	test_exit_handlers();
	return test_summary();
}

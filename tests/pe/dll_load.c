/* DLLs beside the program: a load-time import (impdll), a delay-load import
 * (delaydll), and a run-time LoadLibraryW (evtdll) whose DllMain and TLS
 * callback notifications are checked in order, with GetProcAddress by name,
 * by ordinal and through a forwarder (to fwddll), GetModuleHandleW,
 * GetModuleFileNameW and FreeLibrary. */
#include <stdio.h>
#include <string.h>
#include <wchar.h>
#include <windows.h>

#include "dlls/evtdll.h"
#include "test.h"

__declspec(dllimport) int impdll_func(int x);
__declspec(dllimport) void impdll_attach_info(LONG *count, int *reserved_null);
__declspec(dllimport) extern int impdll_data;
int delay_func(int x);

static WCHAR exe_dir[MAX_PATH];

/* GetProcAddress as a data pointer: FARPROC converts to no other function
 * type without a warning. */
static void *get_proc(HMODULE h, const char *name)
{
	return (void *)GetProcAddress(h, name);
}

/* The directory part of a module path, backslash included. */
static void dir_of(const WCHAR *path, WCHAR *dir)
{
	const WCHAR *slash = wcsrchr(path, '\\');
	size_t n = slash ? (size_t)(slash - path + 1) : 0;

	memcpy(dir, path, n * sizeof(WCHAR));
	dir[n] = 0;
}

/* Checks that MODULE's file is NAME in the program's directory. */
static void check_file_name(HMODULE module, const WCHAR *name)
{
	WCHAR path[MAX_PATH], dir[MAX_PATH];
	DWORD n;

	/* Rule: GetModuleFileNameW returns the length copied, NUL excluded. */
	n = GetModuleFileNameW(module, path, MAX_PATH);
	ok(n > 0 && n == wcslen(path), "GetModuleFileNameW(%ls): %lu\n", name, n);
	dir_of(path, dir);
	ok(!_wcsicmp(dir, exe_dir), "%ls is in [%ls], the program in [%ls]\n", name, dir, exe_dir);
	ok(!_wcsicmp(path + wcslen(dir), name), "file name [%ls], expected [%ls]\n",
	   path + wcslen(dir), name);
}

static void test_load_time_import(void)
{
	HMODULE h = GetModuleHandleW(L"impdll.dll");
	LONG count;
	int reserved_null;

	/* Rule: a DLL in the import table is loaded, and its DllMain has run,
	 * before the program's entry point; its exported variable is reached
	 * through the import address table. */
	ok(h != NULL, "impdll.dll is not loaded\n");
	ok(impdll_data == 1234, "impdll_data %d\n", impdll_data);
	ok(impdll_func(1) == 1235, "impdll_func(1) = %d\n", impdll_func(1));
	impdll_data = 10;
	ok(impdll_func(1) == 11, "impdll_func sees impdll_data %d\n", impdll_func(1) - 1);
	impdll_attach_info(&count, &reserved_null);
	ok(count == 1, "impdll PROCESS_ATTACH ran %ld times\n", count);
	/* Rule (DllMain docs): lpvReserved is non-NULL for static loads. */
	ok(reserved_null == 0, "impdll PROCESS_ATTACH lpvReserved NULL: %d\n", reserved_null);
	/* Rule: module names are matched case-insensitively, and a name
	 * without an extension gets ".dll". */
	ok(GetModuleHandleW(L"IMPDLL.DLL") == h, "GetModuleHandleW(IMPDLL.DLL) %p\n",
	   GetModuleHandleW(L"IMPDLL.DLL"));
	ok(GetModuleHandleW(L"impdll") == h, "GetModuleHandleW(impdll) %p\n",
	   GetModuleHandleW(L"impdll"));
	if (h)
		check_file_name(h, L"impdll.dll");
}

static void test_delay_load(void)
{
	HMODULE h;

	/* Rule: a delay-loaded DLL is not loaded until one of its functions
	 * is first called; that call loads it and binds the import. */
	ok(GetModuleHandleW(L"delaydll.dll") == NULL, "delaydll.dll loaded before first call\n");
	ok(delay_func(5) == 15, "delay_func(5) = %d\n", delay_func(5));
	h = GetModuleHandleW(L"delaydll.dll");
	ok(h != NULL, "delaydll.dll not loaded after the call\n");
	ok(delay_func(7) == 21, "second delay_func(7) = %d\n", delay_func(7));
	if (h)
		check_file_name(h, L"delaydll.dll");
}

static HANDLE early_running, early_go;

static DWORD WINAPI early_thread(void *arg)
{
	(void)arg;
	SetEvent(early_running);
	WaitForSingleObject(early_go, INFINITE);
	return 0;
}

static DWORD WINAPI late_thread(void *arg)
{
	(void)arg;
	return 0;
}

/* Index of the next event of THREAD from *pos on, -1 when none. */
static int next_event(const struct dll_event_log *log, int *pos, DWORD thread)
{
	while (*pos < log->count && *pos < MAX_DLL_EVENTS) {
		int i = (*pos)++;

		if (log->ev[i].thread == thread)
			return i;
	}
	return -1;
}

/* Checks that THREAD's next events are REASON twice: once from the TLS
 * callback and once from DllMain; in that order if ORDERED. */
static void expect_pair(const struct dll_event_log *log, int *pos, DWORD thread, DWORD reason,
			int ordered, const char *what)
{
	int a = next_event(log, pos, thread), b = next_event(log, pos, thread);
	int sa = a < 0 ? '-' : log->ev[a].source, sb = b < 0 ? '-' : log->ev[b].source;

	ok(a >= 0 && b >= 0, "%s: missing notifications (%d, %d)\n", what, a, b);
	if (a < 0 || b < 0)
		return;
	ok(log->ev[a].reason == reason && log->ev[b].reason == reason,
	   "%s: reasons %lu, %lu, expected %lu\n", what, log->ev[a].reason, log->ev[b].reason,
	   reason);
	if (ordered)
		ok(sa == EVT_TLS_CALLBACK && sb == EVT_DLLMAIN, "%s: order %c%c, expected TM\n", what,
		   sa, sb);
	else
		ok((sa == EVT_TLS_CALLBACK && sb == EVT_DLLMAIN) ||
		   (sa == EVT_DLLMAIN && sb == EVT_TLS_CALLBACK),
		   "%s: notified %c%c, expected T and M\n", what, sa, sb);
}

static void test_get_proc_address(HMODULE h)
{
	int (*fn)(void);
	void *by_name, *by_ord;
	HMODULE fwd;

	/* Rule: an export can be looked up by name or by its ordinal
	 * (MAKEINTRESOURCE); both give the same address. */
	by_name = get_proc(h, "ord_func");
	by_ord = get_proc(h, MAKEINTRESOURCEA(5));
	ok(by_name != NULL && by_name == by_ord, "ord_func by name %p, by ordinal 5 %p\n",
	   by_name, by_ord);
	fn = by_ord;
	if (fn)
		ok(fn() == 5, "ordinal 5 returned %d\n", fn());

	/* Rule: a NONAME export is reachable only by ordinal. */
	fn = get_proc(h, MAKEINTRESOURCEA(7));
	ok(fn != NULL, "ordinal 7 (NONAME) not found, error %lu\n", GetLastError());
	if (fn)
		ok(fn() == 7, "ordinal 7 returned %d\n", fn());
	ok(GetProcAddress(h, "noname_func") == NULL, "NONAME export found by name\n");

	/* Rule: an unknown name gives NULL and ERROR_PROC_NOT_FOUND. */
	SetLastError(0xdeadbeef);
	ok(GetProcAddress(h, "no_such_function") == NULL, "unknown name found\n");
	ok(GetLastError() == ERROR_PROC_NOT_FOUND, "unknown name: error %lu\n", GetLastError());
	/* Rule: names are case-sensitive. */
	ok(GetProcAddress(h, "ORD_FUNC") == NULL, "GetProcAddress ignored case\n");
	/* Rule: an ordinal outside the export table gives NULL. */
	SetLastError(0xdeadbeef);
	ok(GetProcAddress(h, MAKEINTRESOURCEA(999)) == NULL, "ordinal 999 found\n");
	ok(GetLastError() != 0xdeadbeef && GetLastError() != ERROR_SUCCESS,
	   "ordinal 999: error not set (%lu)\n", GetLastError());

	/* Rule: a forwarder export (fwd_func = fwddll.real_func) resolves to
	 * the target DLL's function, loading that DLL when the forwarder is
	 * resolved. */
	ok(GetModuleHandleW(L"fwddll.dll") == NULL, "fwddll.dll loaded before use\n");
	fn = get_proc(h, "fwd_func");
	ok(fn != NULL, "fwd_func not found, error %lu\n", GetLastError());
	fwd = GetModuleHandleW(L"fwddll.dll");
	ok(fwd != NULL, "fwddll.dll not loaded by the forwarder\n");
	if (fwd)
		ok((void *)fn == get_proc(fwd, "real_func"), "fwd_func %p, real_func %p\n",
		   (void *)fn, get_proc(fwd, "real_func"));
	if (fn)
		ok(fn() == 0xf00d, "fwd_func returned %#x\n", fn());
}

static void test_load_library(void)
{
	static struct dll_event_log log;
	evtdll_attach_log_fn attach;
	HANDLE early, late;
	DWORD main_tid = GetCurrentThreadId(), early_tid, late_tid;
	WCHAR path[MAX_PATH];
	HMODULE h, h2;
	DWORD n;
	int pos;

	/* A thread that runs before the load, to be ended after it.  It must
	 * be running: a thread gets its THREAD_ATTACH notifications when it
	 * starts, from whatever DLLs are loaded at that moment. */
	early_running = CreateEventW(NULL, TRUE, FALSE, NULL);
	early_go = CreateEventW(NULL, TRUE, FALSE, NULL);
	early = CreateThread(NULL, 0, early_thread, NULL, 0, &early_tid);
	ok(early != NULL, "CreateThread failed %lu\n", GetLastError());
	WaitForSingleObject(early_running, INFINITE);

	ok(GetModuleHandleW(L"evtdll.dll") == NULL, "evtdll.dll loaded too early\n");
	h = LoadLibraryW(L"evtdll.dll");
	ok(h != NULL, "LoadLibraryW(evtdll.dll) failed %lu\n", GetLastError());
	if (!h)
		return;
	attach = get_proc(h, "evtdll_attach_log");
	ok(attach != NULL, "evtdll_attach_log not found %lu\n", GetLastError());
	if (!attach)
		return;
	attach(&log);

	/* Rule: LoadLibrary of a loaded DLL returns the same handle and only
	 * raises its reference count: no second PROCESS_ATTACH. */
	h2 = LoadLibraryW(L"EVTDLL.dll");
	ok(h2 == h, "second LoadLibraryW %p, first %p\n", h2, h);
	ok(GetModuleHandleW(L"evtdll.dll") == h, "GetModuleHandleW %p\n",
	   GetModuleHandleW(L"evtdll.dll"));
	check_file_name(h, L"evtdll.dll");

	/* Rule: GetModuleFileNameW into a small buffer truncates, returns the
	 * buffer size and sets ERROR_INSUFFICIENT_BUFFER. */
	SetLastError(0xdeadbeef);
	n = GetModuleFileNameW(h, path, 4);
	ok(n == 4 && GetLastError() == ERROR_INSUFFICIENT_BUFFER,
	   "small buffer: %lu, error %lu\n", n, GetLastError());

	test_get_proc_address(h);

	late = CreateThread(NULL, 0, late_thread, NULL, 0, &late_tid);
	ok(late != NULL, "CreateThread failed %lu\n", GetLastError());
	WaitForSingleObject(late, INFINITE);
	SetEvent(early_go);
	WaitForSingleObject(early, INFINITE);

	/* Rule: FreeLibrary only drops a reference until the count reaches
	 * zero; then DllMain gets PROCESS_DETACH and the module is gone. */
	ok(FreeLibrary(h), "FreeLibrary failed %lu\n", GetLastError());
	ok(GetModuleHandleW(L"evtdll.dll") == h, "unloaded while still referenced\n");
	ok(FreeLibrary(h), "FreeLibrary failed %lu\n", GetLastError());
	ok(GetModuleHandleW(L"evtdll.dll") == NULL, "still loaded after the last FreeLibrary\n");

	/* Rule: at attach, the TLS callbacks run before the entry point
	 * (DllMain); the load runs on the loading thread, with lpvReserved
	 * NULL for LoadLibrary. */
	pos = 0;
	expect_pair(&log, &pos, main_tid, DLL_PROCESS_ATTACH, 1, "process attach");
	ok(log.ev[0].reserved_is_null && log.ev[1].reserved_is_null,
	   "PROCESS_ATTACH lpvReserved not NULL for LoadLibrary\n");
	/* Rule: a thread created while the DLL is loaded gets THREAD_ATTACH
	 * (TLS callback, then DllMain) and THREAD_DETACH on its own thread;
	 * the detach order is not documented, both must come. */
	pos = 0;
	expect_pair(&log, &pos, late_tid, DLL_THREAD_ATTACH, 1, "late thread attach");
	expect_pair(&log, &pos, late_tid, DLL_THREAD_DETACH, 0, "late thread detach");
	ok(next_event(&log, &pos, late_tid) < 0, "late thread: more events\n");
	/* Rule (DllMain docs): threads that existed before the load get no
	 * THREAD_ATTACH, but they do get THREAD_DETACH when they exit. */
	pos = 0;
	expect_pair(&log, &pos, early_tid, DLL_THREAD_DETACH, 0, "early thread detach");
	ok(next_event(&log, &pos, early_tid) < 0, "early thread: more events\n");
	/* Rule: the last FreeLibrary delivers PROCESS_DETACH on the calling
	 * thread, lpvReserved NULL; the DLL received nothing else on it. */
	pos = 2;
	expect_pair(&log, &pos, main_tid, DLL_PROCESS_DETACH, 0, "process detach");
	if (pos >= 2)
		ok(log.ev[pos - 1].reserved_is_null && log.ev[pos - 2].reserved_is_null,
		   "PROCESS_DETACH lpvReserved not NULL after FreeLibrary\n");
	ok(next_event(&log, &pos, main_tid) < 0, "main thread: more events\n");
	ok(log.count <= MAX_DLL_EVENTS, "%ld events\n", log.count);
	if (test_failures) {
		LONG i;

		for (i = 0; i < log.count && i < MAX_DLL_EVENTS; i++)
			printf("  event %ld: %c reason %lu thread %s\n", i, log.ev[i].source,
			       log.ev[i].reason,
			       log.ev[i].thread == main_tid ? "main" :
			       log.ev[i].thread == early_tid ? "early" :
			       log.ev[i].thread == late_tid ? "late" : "other");
	}
	CloseHandle(early);
	CloseHandle(late);
	CloseHandle(early_go);
	CloseHandle(early_running);
}

static void test_load_failure(void)
{
	/* Rule: LoadLibraryW of a missing DLL returns NULL with
	 * ERROR_MOD_NOT_FOUND. */
	SetLastError(0xdeadbeef);
	ok(LoadLibraryW(L"no_such_dll_here.dll") == NULL, "missing DLL loaded\n");
	ok(GetLastError() == ERROR_MOD_NOT_FOUND, "missing DLL: error %lu\n", GetLastError());
	/* Rule: GetModuleHandleW(NULL) is the program's own image. */
	ok(GetModuleHandleW(NULL) == (HMODULE)GetModuleHandleA(NULL), "GetModuleHandle(NULL)\n");
	ok(((IMAGE_DOS_HEADER *)GetModuleHandleW(NULL))->e_magic == IMAGE_DOS_SIGNATURE,
	   "GetModuleHandleW(NULL) is not an image\n");
}

int main(void)
{
	WCHAR exe[MAX_PATH];

	GetModuleFileNameW(NULL, exe, MAX_PATH);
	dir_of(exe, exe_dir);
	ok(exe_dir[0] != 0, "no directory in [%ls]\n", exe);
	test_load_time_import();
	test_delay_load();
	test_load_library();
	test_load_failure();
	return test_summary();
}

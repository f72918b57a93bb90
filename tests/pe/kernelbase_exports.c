/* kernelbase.dll hosts most of kernel32's functions on Windows, and
 * programs look them up there: MS-MPI takes GetModuleHandleW(L"kernelbase")
 * and GetProcAddress's WaitOnAddress and WakeByAddressAll from it.  It is
 * always loaded (kernel32 depends on it), so GetModuleHandle finds it
 * without a LoadLibrary. */
#include <windows.h>

#include "test.h"

typedef BOOL(WINAPI *wait_fn)(volatile VOID *, PVOID, SIZE_T, DWORD);
typedef VOID(WINAPI *wake_fn)(PVOID);
typedef DWORD(WINAPI *tid_fn)(void);

int main(void)
{
	HMODULE kb = GetModuleHandleW(L"kernelbase");
	ok(kb != NULL, "GetModuleHandle(kernelbase) failed: %lu\n", GetLastError());
	if (!kb)
		return test_summary();
	ok(GetModuleHandleA("KERNELBASE.DLL") == kb, "the name with .dll in capitals is another module\n");

	wait_fn wait = (wait_fn)(void *)GetProcAddress(kb, "WaitOnAddress");
	wake_fn wake_all = (wake_fn)(void *)GetProcAddress(kb, "WakeByAddressAll");
	tid_fn tid = (tid_fn)(void *)GetProcAddress(kb, "GetCurrentThreadId");
	ok(wait && wake_all, "WaitOnAddress %p WakeByAddressAll %p\n", (void *)wait, (void *)wake_all);
	ok(tid && tid() == GetCurrentThreadId(), "GetCurrentThreadId from kernelbase: %p\n", (void *)tid);
	/* A function kernelbase hosts besides kernel32's, from the path API set. */
	ok(GetProcAddress(kb, "PathCchAddBackslash") != NULL, "PathCchAddBackslash missing\n");

	SetLastError(0xdeadbeef);
	ok(GetProcAddress(kb, "NoSuchFunctionAnywhere") == NULL, "a name nobody exports was found\n");
	ok(GetLastError() == ERROR_PROC_NOT_FOUND, "last error %lu\n", GetLastError());

	if (wait && wake_all) {
		/* The value differs from the compare value: returns at once. */
		volatile LONG word = 1;
		LONG cmp = 0;
		ok(wait(&word, &cmp, sizeof(word), 0), "WaitOnAddress with a changed value: %lu\n", GetLastError());
		cmp = 1;
		SetLastError(0xdeadbeef);
		ok(!wait(&word, &cmp, sizeof(word), 10) && GetLastError() == ERROR_TIMEOUT,
		   "WaitOnAddress timeout: last error %lu\n", GetLastError());
		wake_all((PVOID)&word);
	}
	return test_summary();
}

/* FreeLibraryAndExitThread (Microsoft's docs: it decrements the DLL's
 * reference count, as FreeLibrary does, then calls ExitThread; it does
 * not return), as runtimes use it in threads whose code lives in the DLL
 * they unload.  Checked: the thread ends with the code given, the
 * statement after the call never runs, and the DLL, loaded once, is
 * gone afterwards (GetModuleHandle finds nothing). */
#include "test.h"

static HMODULE dll;
static volatile LONG after_call;

static DWORD WINAPI unloader(void *arg)
{
	(void)arg;
	FreeLibraryAndExitThread(dll, 42);
	InterlockedExchange(&after_call, 1);
	return 7;
}

int main(void)
{
	HANDLE t;
	DWORD code = 0;

	dll = LoadLibraryW(L"impdll.dll");
	ok(dll != NULL, "LoadLibraryW(impdll.dll): %lu\n", GetLastError());
	if (!dll)
		return test_summary();
	t = CreateThread(NULL, 0, unloader, NULL, 0, NULL);
	ok(t != NULL, "CreateThread: %lu\n", GetLastError());
	if (!t)
		return test_summary();
	ok(WaitForSingleObject(t, 10000) == WAIT_OBJECT_0, "the thread did not end\n");
	ok(GetExitCodeThread(t, &code) && code == 42, "exit code %lu\n", code);
	ok(!after_call, "FreeLibraryAndExitThread returned\n");
	ok(GetModuleHandleW(L"impdll.dll") == NULL, "impdll.dll still loaded\n");
	CloseHandle(t);
	return test_summary();
}

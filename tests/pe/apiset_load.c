/* API-set names at run time: LoadLibrary and GetModuleHandle accept them
 * (any case, with or without ".dll", any revision of a known contract),
 * and functions found through them work (on Windows kernel32's own
 * exports may be stubs that jump to the set's host, so the addresses
 * need not be kernel32's); a
 * contract nobody implements fails with ERROR_MOD_NOT_FOUND. */
#include <windows.h>

#include "test.h"

typedef HANDLE(WINAPI *create_event_fn)(SECURITY_ATTRIBUTES *, BOOL, BOOL, const WCHAR *);

int main(void)
{
	HMODULE h;
	FARPROC via;
	HANDLE ev;

	h = LoadLibraryA("api-ms-win-core-synch-l1-2-0.dll");
	ok(h != NULL, "LoadLibrary of the synch set failed, error %lu\n", GetLastError());
	via = h ? GetProcAddress(h, "CreateEventW") : NULL;
	ok(via != NULL, "CreateEventW not found through the set\n");
	if (via) {
		ev = ((create_event_fn)(void *)via)(NULL, TRUE, TRUE, NULL);
		ok(ev && WaitForSingleObject(ev, 0) == WAIT_OBJECT_0, "the event is not signalled\n");
		CloseHandle(ev);
	}
	ok(LoadLibraryA("API-MS-WIN-CORE-SYNCH-L1-2-0") == h, "another spelling gave another module\n");
	ok(GetModuleHandleA("api-ms-win-core-synch-l1-2-0.dll") == h, "GetModuleHandle differs from LoadLibrary\n");
	if (h) {
		ok(FreeLibrary(h), "FreeLibrary failed\n");
		FreeLibrary(h);
	}

	h = LoadLibraryA("api-ms-win-core-processthreads-l1-1-0.dll");
	ok(h && GetProcAddress(h, "GetCurrentThreadId"), "processthreads set: %p\n", (void *)h);

	SetLastError(0xdeadbeef);
	ok(!LoadLibraryA("api-ms-win-core-nosuch-l1-1-0.dll"), "an unknown set loaded\n");
	ok(GetLastError() == ERROR_MOD_NOT_FOUND, "error %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	ok(!GetModuleHandleA("ext-ms-win-nosuch-l1-1-0.dll"), "an unknown set has a handle\n");
	ok(GetLastError() == ERROR_MOD_NOT_FOUND, "error %lu\n", GetLastError());
	return test_summary();
}

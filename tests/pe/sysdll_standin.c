/* A program that imports from a DLL every Windows has (avicap32, video
 * capture) a function it never calls loads and runs, as on Windows:
 * ndrun binds the import to its named trap (DESIGN.md, "System DLLs a
 * program imports but ndrun lacks").  At run time the DLL is a module
 * like any other: LoadLibrary and GetModuleHandle find it, and
 * GetProcAddress returns NULL with ERROR_PROC_NOT_FOUND for what it does
 * not have.  kernelbase.dll, which every process has loaded, is found
 * without loading and exports what kernel32 forwards to it.  (The import
 * library comes from dlls/sysdll_gui.def.) */
#include <windows.h>

#include "test.h"

__declspec(dllimport) BOOL WINAPI capGetDriverDescriptionW(WORD, LPWSTR, INT, LPWSTR, INT);

/* Referenced so that the import stays; never called. */
static void *volatile keep;

int main(void)
{
	HMODULE cap, cap2, kb;
	WCHAR path[MAX_PATH];
	FARPROC p;

	keep = (void *)capGetDriverDescriptionW;
	cap = GetModuleHandleA("avicap32.dll");
	ok(cap != NULL, "avicap32 is not loaded although the program imports it: %lu\n", GetLastError());
	cap2 = LoadLibraryA("AVICAP32");
	ok(cap2 == cap, "LoadLibrary gave %p, GetModuleHandle %p\n", cap2, cap);
	ok(GetModuleFileNameW(cap, path, MAX_PATH) > 0, "no file name: %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	p = GetProcAddress(cap, "NdshimNoSuchExport");
	ok(!p && GetLastError() == ERROR_PROC_NOT_FOUND, "got %p, error %lu\n", (void *)p, GetLastError());
	ok(FreeLibrary(cap2), "FreeLibrary failed: %lu\n", GetLastError());

	/* A system DLL the program does not import: LoadLibrary loads it. */
	ok(GetModuleHandleA("mscms.dll") == NULL, "mscms is loaded before anyone asked\n");
	ok(LoadLibraryA("mscms.dll") != NULL, "LoadLibrary(mscms) failed: %lu\n", GetLastError());
	ok(GetModuleHandleA("mscms.dll") != NULL, "mscms is not loaded after LoadLibrary\n");

	/* A DLL nobody has: not found. */
	SetLastError(0xdeadbeef);
	ok(LoadLibraryA("ndshim_nosuch_private.dll") == NULL && GetLastError() == ERROR_MOD_NOT_FOUND,
	   "loading a DLL that does not exist: error %lu\n", GetLastError());

	/* kernelbase: always there, kernel32's functions in it. */
	kb = GetModuleHandleA("kernelbase.dll");
	ok(kb != NULL, "kernelbase.dll is not loaded: %lu\n", GetLastError());
	p = kb ? GetProcAddress(kb, "GetCurrentProcessId") : NULL;
	ok(p != NULL, "kernelbase lacks GetCurrentProcessId\n");
	if (p)
		ok(((DWORD(WINAPI *)(void))(void *)p)() == GetCurrentProcessId(), "kernelbase's GetCurrentProcessId differs\n");
	return test_summary();
}

/* Imported by dll_load.exe at load time (a function and a variable), so the
 * loader must find it beside the program before main runs. */
#include <windows.h>

__declspec(dllexport) int impdll_data = 1234;

static volatile LONG attach_count;
static volatile int attach_reserved_null = -1;

__declspec(dllexport) int impdll_func(int x);
__declspec(dllexport) int impdll_func(int x)
{
	return x + impdll_data;
}

/* How DllMain saw the load: the count of PROCESS_ATTACH calls and whether
 * lpvReserved was NULL (it must not be for a load-time import). */
__declspec(dllexport) void impdll_attach_info(LONG *count, int *reserved_null);
__declspec(dllexport) void impdll_attach_info(LONG *count, int *reserved_null)
{
	*count = attach_count;
	*reserved_null = attach_reserved_null;
}

BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, LPVOID reserved);
BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, LPVOID reserved)
{
	(void)inst;
	if (reason == DLL_PROCESS_ATTACH) {
		InterlockedIncrement(&attach_count);
		attach_reserved_null = reserved == NULL;
	}
	return TRUE;
}

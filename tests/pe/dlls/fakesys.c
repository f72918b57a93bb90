/* A stand-in for a system DLL, copied beside a program under a system
 * DLL's name by tests/pe/dll_search.c: whoever loads it can tell by
 * FakeSysMarker, which no real system DLL exports. */
#include <windows.h>

__declspec(dllexport) int FakeSysMarker(void)
{
	return 0x5eed;
}

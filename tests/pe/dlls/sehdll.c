/* For seh_cpp and seh_vectored: frames of another image between a throw
 * and its catch, and an exception raised inside a DLL.  Plain C: its
 * frames are unwound through its own .pdata, no handler of its own. */
#include <windows.h>

/* Calls back into the program, which throws through this frame. */
__declspec(dllexport) int sehdll_call(int (*callback)(int), int value)
{
	volatile int local = value + 1;
	int r = callback(local);
	return r + local;
}

__declspec(dllexport) void sehdll_raise(DWORD code, ULONG_PTR param)
{
	RaiseException(code, 0, 1, &param);
}

/* The target of evtdll.dll's forwarder fwd_func = fwddll.real_func. */
#include <windows.h>

__declspec(dllexport) int real_func(void);
__declspec(dllexport) int real_func(void)
{
	return 0xf00d;
}

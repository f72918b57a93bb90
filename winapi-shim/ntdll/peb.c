/* RtlGetCurrentPeb: the process environment block, the one every TEB
 * points to (runtimes look it up with GetProcAddress, and call it: a NULL
 * look-up ends in a call to address 0). */
#include "loader.h"
#include "ntdll/ntdll_private.h"

PPEB WINAPI RtlGetCurrentPeb(void)
{
	return loader_peb();
}

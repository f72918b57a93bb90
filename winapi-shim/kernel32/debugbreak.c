/* DebugBreak: the breakpoint exception (int 3 on Windows, raised in
 * kernelbase), seen by the caller's handlers; with none, the program ends
 * as for any unhandled exception.  Raised here in the caller as the
 * builtin returns (ntdll/seh.h), continuable like a breakpoint. */
#include "kernel32/kernel32_private.h"
#include "ntdll/seh.h"

void WINAPI DebugBreak(void)
{
	SEH_RAISE_ON_RETURN(EXCEPTION_BREAKPOINT);
}

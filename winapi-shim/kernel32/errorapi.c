/* GetLastError/SetLastError: the last-error slot lives in the TEB, where
 * PE code may also read it directly (gs:0x68). */
#include "kernel32/kernel32_private.h"
#include "loader.h"

DWORD WINAPI GetLastError(void)
{
	TEB *teb = loader_current_teb();
	return teb ? teb->LastErrorValue : 0;
}

/* Also called by ndrun's own code on threads that never ran PE code;
 * those have no TEB and nobody to read the value, so it is dropped. */
void WINAPI SetLastError(DWORD err)
{
	TEB *teb = loader_current_teb();
	if (teb)
		teb->LastErrorValue = err;
}

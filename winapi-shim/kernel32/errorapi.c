/* GetLastError/SetLastError: the last-error slot lives in the TEB, where
 * PE code may also read it directly (gs:0x68). */
#include "kernel32/kernel32_private.h"
#include "loader.h"

/* Threads that never ran PE code have no TEB, but ndrun's own code on
 * them (and unit tests) still calls Win32 functions and reads the error
 * back: they keep it here. */
static __thread DWORD no_teb_last_error;

DWORD WINAPI GetLastError(void)
{
	TEB *teb = loader_current_teb();
	return teb ? teb->LastErrorValue : no_teb_last_error;
}

void WINAPI SetLastError(DWORD err)
{
	TEB *teb = loader_current_teb();
	if (teb)
		teb->LastErrorValue = err;
	else
		no_teb_last_error = err;
}

/* GetStartupInfoA/W (processthreadsapi.h).  A console program started
 * from a shell gets no STARTF_* flags, so every optional field is unset;
 * the standard handles are found with GetStdHandle. */
#include <string.h>

#include "kernel32/kernel32_private.h"

void WINAPI GetStartupInfoW(LPSTARTUPINFOW si)
{
	memset(si, 0, sizeof(*si));
	si->cb = sizeof(*si);
}

void WINAPI GetStartupInfoA(LPSTARTUPINFOA si)
{
	memset(si, 0, sizeof(*si));
	si->cb = sizeof(*si);
}

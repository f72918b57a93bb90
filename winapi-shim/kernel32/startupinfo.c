/* GetStartupInfoA/W (processthreadsapi.h).  A console program started
 * from a shell gets no STARTF_* flags, so every optional field is unset;
 * one started by CreateProcess gets the parent's dwFlags, wShowWindow
 * and (STARTF_USESTDHANDLES) standard handle values.  Desktop, title,
 * position and reserved fields do not travel: they stay NULL/0. */
#include <string.h>

#include "core/startup.h"
#include "kernel32/kernel32_private.h"

void WINAPI GetStartupInfoW(LPSTARTUPINFOW si)
{
	HANDLE h[3];

	memset(si, 0, sizeof(*si));
	si->cb = sizeof(*si);
	startup_info(&si->dwFlags, &si->wShowWindow);
	if (startup_std_handle(0, &h[0]) && startup_std_handle(1, &h[1]) && startup_std_handle(2, &h[2])) {
		si->hStdInput = h[0];
		si->hStdOutput = h[1];
		si->hStdError = h[2];
	}
}

void WINAPI GetStartupInfoA(LPSTARTUPINFOA si)
{
	STARTUPINFOW w;

	GetStartupInfoW(&w);
	memset(si, 0, sizeof(*si));
	si->cb = sizeof(*si);
	si->dwFlags = w.dwFlags;
	si->wShowWindow = w.wShowWindow;
	si->hStdInput = w.hStdInput;
	si->hStdOutput = w.hStdOutput;
	si->hStdError = w.hStdError;
}

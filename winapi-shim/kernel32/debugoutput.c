/* OutputDebugString and IsDebuggerPresent (debugapi.h).
 *
 * No Windows debugger ever watches an ndrun process, so debug output
 * goes where a developer can ask for it: the "misc" trace channel
 * (NDSHIM_DEBUG=+misc), one line per call. */
#include <stdlib.h>

#include "core/codepage.h"
#include "core/debug.h"
#include "kernel32/kernel32_private.h"
#include "loader.h"

#pragma weak loader_peb

void WINAPI OutputDebugStringA(LPCSTR s)
{
	WCHAR *w;

	if (!s || !TRACE_ON(misc))
		return;
	w = cp_to_utf16_dup(CP_ACP, s);
	if (w) {
		char *u = utf16_to_utf8_dup(w);

		TRACE(misc, "%s\n", u ? u : "");
		free(u);
	}
	free(w);
}

void WINAPI OutputDebugStringW(LPCWSTR s)
{
	char *u;

	if (!s || !TRACE_ON(misc))
		return;
	u = utf16_to_utf8_dup(s);
	TRACE(misc, "%s\n", u ? u : "");
	free(u);
}

/* What a debugger would have set in the PEB; ndrun's loader never does. */
BOOL WINAPI IsDebuggerPresent(void)
{
	PEB *peb = loader_peb ? loader_peb() : NULL;

	return peb && peb->BeingDebugged;
}

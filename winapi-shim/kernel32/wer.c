/* Windows Error Reporting's per-process flags (werapi.h).  There is no
 * error reporting here -- ndrun's report of an unhandled exception goes
 * to stderr whatever they say -- but programs set and read them: what
 * WerSetFlags stored, WerGetFlags gives back. */
#include <stdatomic.h>

#include "core/debug.h"
#include "kernel32/kernel32_private.h"

static atomic_uint wer_flags;

HRESULT WINAPI WerSetFlags(DWORD flags)
{
	TRACE(seh, "%#x\n", (unsigned)flags);
	atomic_store(&wer_flags, flags);
	return S_OK;
}

HRESULT WINAPI WerGetFlags(HANDLE process, PDWORD flags)
{
	/* Only this process's own flags are known. */
	if (!flags)
		return E_INVALIDARG;
	if (process != GetCurrentProcess() && GetProcessId(process) != GetCurrentProcessId())
		return E_INVALIDARG;
	*flags = atomic_load(&wer_flags);
	return S_OK;
}

/* Processor groups (winbase.h / processtopologyapi.h).  ndrun has one
 * group holding the processors GetSystemInfo counts (at most 64, as a
 * Windows group). */
#include "core/debug.h"
#include "kernel32/kernel32_private.h"

static DWORD group_size(void)
{
	SYSTEM_INFO si;

	GetSystemInfo(&si);
	return si.dwNumberOfProcessors;
}

DWORD WINAPI GetActiveProcessorCount(WORD group)
{
	if (group != ALL_PROCESSOR_GROUPS && group != 0) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return 0;
	}
	return group_size();
}

DWORD WINAPI GetMaximumProcessorCount(WORD group)
{
	return GetActiveProcessorCount(group);
}

WORD WINAPI GetActiveProcessorGroupCount(void)
{
	return 1;
}

WORD WINAPI GetMaximumProcessorGroupCount(void)
{
	return 1;
}

/* Job objects (jobapi2.h): only the query a program makes about its own
 * job.  ndrun has no job objects yet (the processes issue adds them), so
 * no process is in a job and no handle names one: every query fails with
 * the error an invalid handle gets.  ninja asks for its job's CPU rate
 * limit at start-up and treats the failure as "no limit". */
#include "core/debug.h"
#include "kernel32/kernel32_private.h"

BOOL WINAPI QueryInformationJobObject(HANDLE job, JOBOBJECTINFOCLASS cls, LPVOID info, DWORD len, LPDWORD ret_len)
{
	TRACE(misc, "%p class %d\n", job, (int)cls);
	SetLastError(ERROR_INVALID_HANDLE);
	return FALSE;
}

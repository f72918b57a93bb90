/* GetProcessIoCounters and the priority-boost switch (processthreadsapi.h,
 * winbase.h), for any process handle with the query right; what Linux
 * keeps in /proc/PID/io is what Windows counts:
 *   ReadOperationCount/WriteOperationCount  syscr/syscw (read and write
 *   calls), ReadTransferCount/WriteTransferCount  rchar/wchar (bytes
 *   through them, files, pipes and sockets alike, as on Windows);
 *   OtherOperationCount/OtherTransferCount  not counted by Linux: 0.
 * Priority boost is a scheduler feature Linux does not have; the switch
 * is kept per process so that GetProcessPriorityBoost reports what the
 * program set, and it changes nothing else (documented as a hint). */
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "kernel32/kernel32_private.h"

static atomic_bool boost_disabled;

BOOL WINAPI GetProcessIoCounters(HANDLE process, PIO_COUNTERS counters)
{
	char path[64], key[32];
	unsigned long long v;
	/* GetProcessId checks the handle and its query right. */
	DWORD pid = GetProcessId(process);
	FILE *f;

	if (!pid)
		return FALSE;
	if (!counters) {
		SetLastError(ERROR_NOACCESS);
		return FALSE;
	}
	snprintf(path, sizeof(path), "/proc/%lu/io", (unsigned long)pid);
	f = fopen(path, "re");
	if (!f) {
		/* A process of another user (or gone): Windows would not
		 * have granted the query right either. */
		SetLastError(ERROR_ACCESS_DENIED);
		return FALSE;
	}
	memset(counters, 0, sizeof(*counters));
	while (fscanf(f, "%31[^:]: %llu\n", key, &v) == 2) {
		if (!strcmp(key, "syscr"))
			counters->ReadOperationCount = v;
		else if (!strcmp(key, "syscw"))
			counters->WriteOperationCount = v;
		else if (!strcmp(key, "rchar"))
			counters->ReadTransferCount = v;
		else if (!strcmp(key, "wchar"))
			counters->WriteTransferCount = v;
	}
	fclose(f);
	return TRUE;
}

BOOL WINAPI SetProcessPriorityBoost(HANDLE process, BOOL disable)
{
	DWORD pid = GetProcessId(process);

	if (!pid)
		return FALSE;
	/* Another process's switch would be its own to keep. */
	if (pid != GetCurrentProcessId()) {
		SetLastError(ERROR_ACCESS_DENIED);
		return FALSE;
	}
	atomic_store(&boost_disabled, disable != FALSE);
	return TRUE;
}

BOOL WINAPI GetProcessPriorityBoost(HANDLE process, PBOOL disabled)
{
	DWORD pid = GetProcessId(process);

	if (!pid)
		return FALSE;
	if (!disabled) {
		SetLastError(ERROR_NOACCESS);
		return FALSE;
	}
	/* Other processes start with boosting on, as Windows starts them. */
	*disabled = pid == GetCurrentProcessId() && atomic_load(&boost_disabled);
	return TRUE;
}

/* Privileges: LookupPrivilegeValueA/W and AdjustTokenPrivileges.
 *
 * Each privilege name has the LUID Windows gives it (wdm.h's
 * SE_*_PRIVILEGE values, 2 to 36).  ndrun has no privilege model: a
 * token holds no privileges, so AdjustTokenPrivileges asked to enable
 * any succeeds with ERROR_NOT_ALL_ASSIGNED, as Windows answers for a
 * privilege the token does not hold, and changes nothing; asked to
 * disable, there is nothing to disable (ERROR_SUCCESS).  Programs that
 * enable SeCreateSymbolicLinkPrivilege or SeLockMemoryPrivilege at start
 * (7-Zip) go on as unprivileged Windows programs do. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "advapi32/advapi32_private.h"
#include "core/codepage.h"
#include "core/debug.h"

static const char *const names[] = {
	/* index + 2 is the LUID's LowPart */
	"SeCreateTokenPrivilege", "SeAssignPrimaryTokenPrivilege", "SeLockMemoryPrivilege",
	"SeIncreaseQuotaPrivilege", "SeMachineAccountPrivilege", "SeTcbPrivilege", "SeSecurityPrivilege",
	"SeTakeOwnershipPrivilege", "SeLoadDriverPrivilege", "SeSystemProfilePrivilege", "SeSystemtimePrivilege",
	"SeProfileSingleProcessPrivilege", "SeIncreaseBasePriorityPrivilege", "SeCreatePagefilePrivilege",
	"SeCreatePermanentPrivilege", "SeBackupPrivilege", "SeRestorePrivilege", "SeShutdownPrivilege",
	"SeDebugPrivilege", "SeAuditPrivilege", "SeSystemEnvironmentPrivilege", "SeChangeNotifyPrivilege",
	"SeRemoteShutdownPrivilege", "SeUndockPrivilege", "SeSyncAgentPrivilege", "SeEnableDelegationPrivilege",
	"SeManageVolumePrivilege", "SeImpersonatePrivilege", "SeCreateGlobalPrivilege",
	"SeTrustedCredManAccessPrivilege", "SeRelabelPrivilege", "SeIncreaseWorkingSetPrivilege",
	"SeTimeZonePrivilege", "SeCreateSymbolicLinkPrivilege", "SeDelegateSessionUserImpersonatePrivilege",
};

/* system: NULL or "" is this computer; another is not reachable. */
static BOOL lookup(bool remote, const char *name, PLUID luid)
{
	if (remote) {
		SetLastError(RPC_S_SERVER_UNAVAILABLE);
		return FALSE;
	}
	if (!name || !luid) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	for (unsigned int i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcasecmp(name, names[i])) {
			luid->LowPart = i + 2;
			luid->HighPart = 0;
			return TRUE;
		}
	}
	SetLastError(ERROR_NO_SUCH_PRIVILEGE);
	return FALSE;
}

BOOL WINAPI LookupPrivilegeValueA(LPCSTR system, LPCSTR name, PLUID luid)
{
	return lookup(system && *system, name, luid);
}

BOOL WINAPI LookupPrivilegeValueW(LPCWSTR system, LPCWSTR name, PLUID luid)
{
	char *a = name ? utf16_to_utf8_dup(name) : NULL;
	BOOL ret;

	if (name && !a) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	ret = lookup(system && *system, a, luid);
	free(a);
	return ret;
}

BOOL WINAPI AdjustTokenPrivileges(HANDLE token, BOOL disable_all, PTOKEN_PRIVILEGES state, DWORD len,
				  PTOKEN_PRIVILEGES previous, PDWORD ret_len)
{
	bool enabling = false;

	TRACE(misc, "%p, disable all %d, %lu privileges\n", token, disable_all,
	      state ? (unsigned long)state->PrivilegeCount : 0UL);
	if (!token_check(token, TOKEN_ADJUST_PRIVILEGES))
		return FALSE;
	if (!disable_all && !state) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	/* What was enabled before: nothing. */
	if (previous) {
		if (len < sizeof(DWORD)) {
			if (ret_len)
				*ret_len = sizeof(DWORD);
			SetLastError(ERROR_INSUFFICIENT_BUFFER);
			return FALSE;
		}
		previous->PrivilegeCount = 0;
	}
	if (ret_len)
		*ret_len = sizeof(DWORD);
	if (!disable_all)
		for (DWORD i = 0; i < state->PrivilegeCount; i++)
			enabling |= (state->Privileges[i].Attributes & SE_PRIVILEGE_ENABLED) != 0;
	SetLastError(enabling ? ERROR_NOT_ALL_ASSIGNED : ERROR_SUCCESS);
	return TRUE;
}

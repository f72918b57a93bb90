/* NetGetJoinInformation: a Linux machine is in no Windows domain; it is
 * reported as a member of Windows' default workgroup, WORKGROUP.  Only
 * the local machine can be asked (server NULL or empty); another one is
 * not reachable here (ERROR_BAD_NETPATH, as for an unknown server). */
#include <string.h>

#include "netapi32/netapi32_private.h"

NET_API_STATUS WINAPI NetGetJoinInformation(LPCWSTR server, LPWSTR *name, PNETSETUP_JOIN_STATUS status)
{
	static const WCHAR workgroup[] = u"WORKGROUP";
	NET_API_STATUS err;

	if (!name || !status)
		return ERROR_INVALID_PARAMETER;
	if (server && *server)
		return ERROR_BAD_NETPATH;
	err = NetApiBufferAllocate(sizeof(workgroup), (void **)name);
	if (err)
		return err;
	memcpy(*name, workgroup, sizeof(workgroup));
	*status = NetSetupWorkgroupName;
	return NERR_Success;
}

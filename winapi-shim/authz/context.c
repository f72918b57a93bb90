/* Querying an authorization context (see authz_private.h). */
#include "authz/authz_private.h"

BOOL WINAPI AuthzGetInformationFromContext(AUTHZ_CLIENT_CONTEXT_HANDLE context, int cls, DWORD size, PDWORD needed, PVOID buffer)
{
	SetLastError(ERROR_INVALID_HANDLE);
	return FALSE;
}

/* authz.dll: authorization contexts.  None can be made in ndrun (rpcrt4's
 * RpcGetAuthorizationContextForClient, their only source for the
 * programs run so far, has no server call to take one from), so the
 * functions that take one fail as for an invalid handle. */
#ifndef NDSHIM_AUTHZ_PRIVATE_H
#define NDSHIM_AUTHZ_PRIVATE_H

#include <windef.h>
#include <winbase.h>
#include <authz.h>

/* Not in the Wine headers; the class is an enum (authz.h's
 * AUTHZ_CONTEXT_INFORMATION_CLASS). */
BOOL WINAPI AuthzGetInformationFromContext(AUTHZ_CLIENT_CONTEXT_HANDLE context, int cls, DWORD size, PDWORD needed,
					   PVOID buffer);

#endif

/* iphlpapi.dll: the machine's network interfaces and addresses the way
 * Windows describes them (adapters, interface tables, LUIDs and names,
 * the best interface to a destination), built from what Linux reports
 * (ifaces.h); see docs/SYSTEM-DLLS.md.  These files see the Windows
 * socket headers only; ifaces.c sees Linux's. */
#ifndef NDSHIM_IPHLPAPI_PRIVATE_H
#define NDSHIM_IPHLPAPI_PRIVATE_H

#include <windef.h>
#include <winbase.h>
#include <winsock2.h>
#include <ws2ipdef.h>
#include <iphlpapi.h>
#include <netioapi.h>

#include "iphlpapi/ifaces.h"

/* The interfaces now (never NULL when the count is >= 0); free with
 * ifc_free.  -1: they cannot be read (the Win32 error is set). */
int iphlp_list(struct ifc **out);

/* The Windows view of one interface (luid.c). */
ULONG64 iphlp_luid(const struct ifc *c);
void iphlp_guid(const struct ifc *c, GUID *guid);
/* "{XXXXXXXX-...}" (39 chars with the NUL). */
void iphlp_guid_string(const struct ifc *c, char *buf);
/* The interface whose LUID (or index) this is, or NULL. */
const struct ifc *iphlp_by_luid(const struct ifc *list, int n, ULONG64 luid);
const struct ifc *iphlp_by_index(const struct ifc *list, int n, unsigned int index);

/* if_nametoindex and if_indextoname, named apart from libc's (which
 * ifaces.c uses); the spec exports them under their own names. */
NET_IFINDEX WINAPI IPHLP_if_nametoindex(const char *name);
char *WINAPI IPHLP_if_indextoname(NET_IFINDEX index, char *buf);

#endif

/* Interface identities: the LUID (NET_LUID: the interface type in bits
 * 48-63, the LUID index in bits 24-47; the LUID index is the Linux
 * interface index), a GUID made from the index and the Linux name (the
 * same interface keeps it), the index, and the names Windows gives
 * ("ethernet_2"), with the functions converting between them
 * (netioapi.h) and if_nametoindex/if_indextoname, which use those
 * names. */
#include <stdio.h>
#include <string.h>

#include "core/wstr.h"
#include "iphlpapi/iphlpapi_private.h"

int iphlp_list(struct ifc **out)
{
	int n = ifc_list("", out);

	if (n < 0)
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
	return n;
}

ULONG64 iphlp_luid(const struct ifc *c)
{
	return (ULONG64)c->type << 48 | (ULONG64)(c->index & 0xffffff) << 24;
}

void iphlp_guid(const struct ifc *c, GUID *g)
{
	g->Data1 = c->index;
	g->Data2 = 0x6e64; /* "nd" */
	g->Data3 = 0x4e64;
	memset(g->Data4, 0, sizeof(g->Data4));
	memcpy(g->Data4, c->name, strnlen(c->name, sizeof(g->Data4)));
}

void iphlp_guid_string(const struct ifc *c, char *buf)
{
	GUID g;

	iphlp_guid(c, &g);
	snprintf(buf, 39, "{%08lX-%04X-%04X-%02X%02X-%02X%02X%02X%02X%02X%02X}", (unsigned long)g.Data1, g.Data2,
		 g.Data3, g.Data4[0], g.Data4[1], g.Data4[2], g.Data4[3], g.Data4[4], g.Data4[5], g.Data4[6],
		 g.Data4[7]);
}

const struct ifc *iphlp_by_luid(const struct ifc *list, int n, ULONG64 luid)
{
	for (int i = 0; i < n; i++)
		if (iphlp_luid(&list[i]) == (luid & ~(ULONG64)0xffffff))
			return &list[i];
	return NULL;
}

const struct ifc *iphlp_by_index(const struct ifc *list, int n, unsigned int index)
{
	for (int i = 0; i < n; i++)
		if (list[i].index == index)
			return &list[i];
	return NULL;
}

DWORD WINAPI ConvertInterfaceIndexToLuid(NET_IFINDEX index, NET_LUID *luid)
{
	struct ifc *list;
	const struct ifc *c;
	int n;

	if (!luid)
		return ERROR_INVALID_PARAMETER;
	luid->Value = 0;
	if ((n = iphlp_list(&list)) < 0)
		return GetLastError();
	c = iphlp_by_index(list, n, index);
	if (c)
		luid->Value = iphlp_luid(c);
	ifc_free(list, n);
	return c ? NO_ERROR : ERROR_FILE_NOT_FOUND;
}

DWORD WINAPI ConvertInterfaceLuidToIndex(const NET_LUID *luid, NET_IFINDEX *index)
{
	struct ifc *list;
	const struct ifc *c;
	int n;

	if (!luid || !index)
		return ERROR_INVALID_PARAMETER;
	if ((n = iphlp_list(&list)) < 0)
		return GetLastError();
	c = iphlp_by_luid(list, n, luid->Value);
	*index = c ? c->index : NET_IFINDEX_UNSPECIFIED;
	ifc_free(list, n);
	return c ? NO_ERROR : ERROR_FILE_NOT_FOUND;
}

/* The name, into len characters (NUL included). */
DWORD WINAPI ConvertInterfaceLuidToNameA(const NET_LUID *luid, char *name, SIZE_T len)
{
	char buf[64];

	if (!luid || !name)
		return ERROR_INVALID_PARAMETER;
	ifc_luid_name((unsigned int)luid->Info.IfType, (unsigned int)luid->Info.NetLuidIndex, buf, sizeof(buf));
	if (strlen(buf) + 1 > len)
		return ERROR_NOT_ENOUGH_MEMORY;
	memcpy(name, buf, strlen(buf) + 1);
	return NO_ERROR;
}

DWORD WINAPI ConvertInterfaceLuidToNameW(const NET_LUID *luid, WCHAR *name, SIZE_T len)
{
	char buf[64];
	DWORD err;
	size_t i;

	if (!name)
		return ERROR_INVALID_PARAMETER;
	err = ConvertInterfaceLuidToNameA(luid, buf, sizeof(buf));
	if (err)
		return err;
	if (strlen(buf) + 1 > len)
		return ERROR_NOT_ENOUGH_MEMORY;
	for (i = 0; buf[i]; i++)
		name[i] = (WCHAR)buf[i];
	name[i] = 0;
	return NO_ERROR;
}

/* A well-formed name of an interface that exists. */
DWORD WINAPI ConvertInterfaceNameToLuidA(const char *name, NET_LUID *luid)
{
	unsigned int type, index;
	struct ifc *list;
	const struct ifc *c;
	int n;

	if (!luid)
		return ERROR_INVALID_PARAMETER;
	luid->Value = 0;
	if (!name || !ifc_parse_luid_name(name, &type, &index))
		return ERROR_INVALID_NAME;
	if ((n = iphlp_list(&list)) < 0)
		return GetLastError();
	c = iphlp_by_luid(list, n, (ULONG64)type << 48 | (ULONG64)index << 24);
	if (c)
		luid->Value = iphlp_luid(c);
	ifc_free(list, n);
	return c ? NO_ERROR : ERROR_INVALID_NAME;
}

DWORD WINAPI ConvertInterfaceNameToLuidW(const WCHAR *name, NET_LUID *luid)
{
	char buf[64];
	size_t i;

	if (!luid)
		return ERROR_INVALID_PARAMETER;
	if (!name) {
		luid->Value = 0;
		return ERROR_INVALID_NAME;
	}
	for (i = 0; name[i] && i < sizeof(buf) - 1; i++) {
		if (name[i] > 0x7f) {
			luid->Value = 0;
			return ERROR_INVALID_NAME;
		}
		buf[i] = (char)name[i];
	}
	buf[i] = 0;
	return ConvertInterfaceNameToLuidA(buf, luid);
}

NET_IFINDEX WINAPI IPHLP_if_nametoindex(const char *name)
{
	NET_LUID luid;
	NET_IFINDEX index;

	if (ConvertInterfaceNameToLuidA(name, &luid) || ConvertInterfaceLuidToIndex(&luid, &index))
		return 0;
	return index;
}

/* buf holds IF_NAMESIZE (256) characters. */
char *WINAPI IPHLP_if_indextoname(NET_IFINDEX index, char *buf)
{
	NET_LUID luid;

	if (ConvertInterfaceIndexToLuid(index, &luid) || ConvertInterfaceLuidToNameA(&luid, buf, IF_MAX_STRING_SIZE + 1))
		return NULL;
	return buf;
}

DWORD WINAPI GetNumberOfInterfaces(PDWORD count)
{
	struct ifc *list;
	int n;

	if (!count)
		return ERROR_INVALID_PARAMETER;
	if ((n = iphlp_list(&list)) < 0)
		return GetLastError();
	*count = (DWORD)n;
	ifc_free(list, n);
	return NO_ERROR;
}

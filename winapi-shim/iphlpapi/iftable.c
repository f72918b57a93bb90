/* Interface tables: GetIfTable (MIB_IFROW, the old form) and
 * GetIfTable2/GetIfEntry2 (MIB_IF_ROW2), with the counters of
 * /sys/class/net/<if>/statistics; and the best interface towards a
 * destination (the one the kernel would send from). */
#include <stdio.h>
#include <string.h>

#include "core/heap.h"
#include "iphlpapi/iphlpapi_private.h"

static void fill_row(const struct ifc *c, MIB_IFROW *r)
{
	char guid[40], name[64];
	size_t len;

	memset(r, 0, sizeof(*r));
	iphlp_guid_string(c, guid);
	snprintf(name, sizeof(name), "\\DEVICE\\TCPIP_%s", guid);
	for (size_t i = 0; name[i]; i++)
		r->wszName[i] = (WCHAR)name[i];
	r->dwIndex = c->index;
	r->dwType = c->type;
	r->dwMtu = c->mtu;
	r->dwSpeed = c->speed > 0xffffffffu ? 0xffffffffu : (DWORD)c->speed;
	r->dwPhysAddrLen = c->mac_len;
	memcpy(r->bPhysAddr, c->mac, c->mac_len);
	r->dwAdminStatus = c->admin_up ? MIB_IF_ADMIN_STATUS_UP : MIB_IF_ADMIN_STATUS_DOWN;
	r->dwOperStatus = c->oper_up ? MIB_IF_OPER_STATUS_OPERATIONAL : MIB_IF_OPER_STATUS_DISCONNECTED;
	r->dwInOctets = (DWORD)c->stats.rx_bytes;
	r->dwInUcastPkts = (DWORD)(c->stats.rx_packets - c->stats.rx_multicast);
	r->dwInNUcastPkts = (DWORD)c->stats.rx_multicast;
	r->dwInDiscards = (DWORD)c->stats.rx_dropped;
	r->dwInErrors = (DWORD)c->stats.rx_errors;
	r->dwOutOctets = (DWORD)c->stats.tx_bytes;
	r->dwOutUcastPkts = (DWORD)c->stats.tx_packets;
	r->dwOutDiscards = (DWORD)c->stats.tx_dropped;
	r->dwOutErrors = (DWORD)c->stats.tx_errors;
	len = strlen(c->name);
	r->dwDescrLen = (DWORD)len + 1;
	memcpy(r->bDescr, c->name, len + 1);
}

DWORD WINAPI GetIfTable(PMIB_IFTABLE table, PULONG size, BOOL order)
{
	struct ifc *list;
	ULONG need;
	int n;

	if (!size)
		return ERROR_INVALID_PARAMETER;
	if ((n = iphlp_list(&list)) < 0)
		return GetLastError();
	need = (ULONG)(FIELD_OFFSET(MIB_IFTABLE, table) + n * sizeof(MIB_IFROW));
	if (!table || *size < need) {
		*size = need;
		ifc_free(list, n);
		return ERROR_INSUFFICIENT_BUFFER;
	}
	/* Rows are in index order, sorted or not. */
	table->dwNumEntries = n;
	for (int i = 0; i < n; i++)
		fill_row(&list[i], &table->table[i]);
	ifc_free(list, n);
	return NO_ERROR;
}

static void fill_row2(const struct ifc *c, MIB_IF_ROW2 *r)
{
	size_t len = strlen(c->name);

	memset(r, 0, sizeof(*r));
	r->InterfaceLuid.Value = iphlp_luid(c);
	r->InterfaceIndex = c->index;
	iphlp_guid(c, &r->InterfaceGuid);
	for (size_t i = 0; i <= len; i++)
		r->Alias[i] = r->Description[i] = (WCHAR)(unsigned char)c->name[i];
	r->PhysicalAddressLength = c->mac_len;
	memcpy(r->PhysicalAddress, c->mac, c->mac_len);
	memcpy(r->PermanentPhysicalAddress, c->mac, c->mac_len);
	r->Mtu = c->mtu;
	r->Type = c->type;
	r->TunnelType = c->type == IFC_TYPE_TUNNEL ? TUNNEL_TYPE_OTHER : TUNNEL_TYPE_NONE;
	r->MediaType = NdisMedium802_3;
	r->PhysicalMediumType = NdisPhysicalMediumUnspecified;
	r->AccessType = c->type == IFC_TYPE_LOOPBACK ? NET_IF_ACCESS_LOOPBACK : NET_IF_ACCESS_BROADCAST;
	r->DirectionType = NET_IF_DIRECTION_SENDRECEIVE;
	r->InterfaceAndOperStatusFlags.HardwareInterface = c->type != IFC_TYPE_LOOPBACK && c->type != IFC_TYPE_TUNNEL;
	r->InterfaceAndOperStatusFlags.ConnectorPresent = r->InterfaceAndOperStatusFlags.HardwareInterface;
	r->OperStatus = c->oper_up ? IfOperStatusUp : IfOperStatusDown;
	r->AdminStatus = c->admin_up ? NET_IF_ADMIN_STATUS_UP : NET_IF_ADMIN_STATUS_DOWN;
	r->MediaConnectState = c->oper_up ? MediaConnectStateConnected : MediaConnectStateDisconnected;
	r->ConnectionType = NET_IF_CONNECTION_DEDICATED;
	r->TransmitLinkSpeed = r->ReceiveLinkSpeed = c->speed;
	r->InOctets = c->stats.rx_bytes;
	r->InUcastPkts = c->stats.rx_packets - c->stats.rx_multicast;
	r->InNUcastPkts = c->stats.rx_multicast;
	r->InDiscards = c->stats.rx_dropped;
	r->InErrors = c->stats.rx_errors;
	r->OutOctets = c->stats.tx_bytes;
	r->OutUcastPkts = c->stats.tx_packets;
	r->OutDiscards = c->stats.tx_dropped;
	r->OutErrors = c->stats.tx_errors;
}

DWORD WINAPI GetIfTable2(PMIB_IF_TABLE2 *out)
{
	MIB_IF_TABLE2 *t;
	struct ifc *list;
	int n;

	if (!out)
		return ERROR_INVALID_PARAMETER;
	*out = NULL;
	if ((n = iphlp_list(&list)) < 0)
		return GetLastError();
	t = heap_alloc(heap_process_heap(), HEAP_ZERO_MEMORY, FIELD_OFFSET(MIB_IF_TABLE2, Table) + (n ? n : 1) * sizeof(MIB_IF_ROW2));
	if (!t) {
		ifc_free(list, n);
		return ERROR_NOT_ENOUGH_MEMORY;
	}
	t->NumEntries = n;
	for (int i = 0; i < n; i++)
		fill_row2(&list[i], &t->Table[i]);
	ifc_free(list, n);
	*out = t;
	return NO_ERROR;
}

/* The row of the interface its LUID names, or (LUID 0) its index. */
DWORD WINAPI GetIfEntry2(PMIB_IF_ROW2 row)
{
	const struct ifc *c;
	struct ifc *list;
	int n;

	if (!row)
		return ERROR_INVALID_PARAMETER;
	if ((n = iphlp_list(&list)) < 0)
		return GetLastError();
	c = row->InterfaceLuid.Value ? iphlp_by_luid(list, n, row->InterfaceLuid.Value)
				     : iphlp_by_index(list, n, row->InterfaceIndex);
	if (c)
		fill_row2(c, row);
	ifc_free(list, n);
	return c ? NO_ERROR : ERROR_FILE_NOT_FOUND;
}

void WINAPI FreeMibTable(void *table)
{
	heap_free(heap_process_heap(), 0, table);
}

static DWORD best(const struct ifc_addr *dest, PDWORD index)
{
	unsigned int i = ifc_best_index(dest);

	if (!i)
		return ERROR_NETWORK_UNREACHABLE;
	*index = i;
	return NO_ERROR;
}

/* dest is an IPv4 address in network order. */
DWORD WINAPI GetBestInterface(IPAddr dest, PDWORD index)
{
	struct ifc_addr a = { .family = 4 };

	if (!index)
		return ERROR_INVALID_PARAMETER;
	memcpy(a.addr, &dest, 4);
	return best(&a, index);
}

DWORD WINAPI GetBestInterfaceEx(struct sockaddr *dest, PDWORD index)
{
	struct ifc_addr a = { 0 };

	if (!dest || !index)
		return ERROR_INVALID_PARAMETER;
	if (dest->sa_family == AF_INET) {
		a.family = 4;
		memcpy(a.addr, &((SOCKADDR_IN *)dest)->sin_addr, 4);
	} else if (dest->sa_family == AF_INET6) {
		a.family = 6;
		memcpy(a.addr, &((SOCKADDR_IN6 *)dest)->sin6_addr, 16);
		a.scope_id = ((SOCKADDR_IN6 *)dest)->sin6_scope_id;
	} else {
		return ERROR_INVALID_PARAMETER;
	}
	return best(&a, index);
}

/* iphlpapi: GetAdaptersAddresses (sizing, the loopback adapter with
 * 127.0.0.1, families, prefixes), GetAdaptersInfo (no loopback, the
 * same IPv4 adapters), GetIfTable/GetIfTable2/GetIfEntry2 and
 * GetNumberOfInterfaces agreeing on the interfaces, the LUID, index and
 * name conversions round-tripping, if_nametoindex/if_indextoname, and
 * GetBestInterface(Ex) to the loopback address. */
#include <winsock2.h>
#include <ws2ipdef.h>
#include <iphlpapi.h>
#include <netioapi.h>

#include "test.h"

static IP_ADAPTER_ADDRESSES *get_addresses(ULONG family, ULONG flags)
{
	ULONG size = 0, err;
	IP_ADAPTER_ADDRESSES *a;

	err = GetAdaptersAddresses(family, flags, NULL, NULL, &size);
	ok(err == ERROR_BUFFER_OVERFLOW && size > 0, "sizing: %lu, %lu\n", err, size);
	a = malloc(size);
	err = GetAdaptersAddresses(family, flags, NULL, a, &size);
	ok(err == ERROR_SUCCESS, "GetAdaptersAddresses: %lu\n", err);
	return err ? (free(a), NULL) : a;
}

static IP_ADAPTER_ADDRESSES *find_loopback(IP_ADAPTER_ADDRESSES *a)
{
	for (; a; a = a->Next)
		if (a->IfType == IF_TYPE_SOFTWARE_LOOPBACK)
			return a;
	return NULL;
}

static void test_addresses(void)
{
	IP_ADAPTER_ADDRESSES *all = get_addresses(AF_UNSPEC, GAA_FLAG_INCLUDE_PREFIX), *lo, *a;
	IP_ADAPTER_UNICAST_ADDRESS *u;
	ULONG size = 16, err;
	BOOL found = FALSE;

	if (!all)
		return;
	lo = find_loopback(all);
	ok(lo != NULL, "no loopback adapter\n");
	if (lo) {
		ok(lo->OperStatus == IfOperStatusUp, "loopback status %d\n", lo->OperStatus);
		ok(lo->Length >= sizeof(IP_ADAPTER_ADDRESSES_XP), "Length %lu\n", lo->Length);
		ok(lo->AdapterName && lo->AdapterName[0] == '{', "AdapterName [%s]\n", lo->AdapterName);
		for (u = lo->FirstUnicastAddress; u; u = u->Next) {
			SOCKADDR_IN *s = (SOCKADDR_IN *)u->Address.lpSockaddr;
			if (s->sin_family == AF_INET && s->sin_addr.s_addr == htonl(INADDR_LOOPBACK)) {
				found = TRUE;
				ok(u->OnLinkPrefixLength == 8, "127.0.0.1/%u\n", u->OnLinkPrefixLength);
				ok(u->Address.iSockaddrLength == sizeof(SOCKADDR_IN), "sockaddr length %d\n",
				   u->Address.iSockaddrLength);
			}
		}
		ok(found, "127.0.0.1 is not on the loopback adapter\n");
		/* The docs: GAA_FLAG_INCLUDE_PREFIX lists the prefixes of both
		 * families; Wine lists none for loopback. */
		ok_todo_wine(lo->FirstPrefix != NULL, "no prefixes with GAA_FLAG_INCLUDE_PREFIX\n");
	}
	for (a = all; a; a = a->Next) {
		NET_LUID luid;
		NET_IFINDEX index = 0;
		ok(ConvertInterfaceIndexToLuid(a->IfIndex, &luid) == NO_ERROR && luid.Value == a->Luid.Value,
		   "%lu: LUID %#llx vs %#llx\n", a->IfIndex, (unsigned long long)luid.Value, (unsigned long long)a->Luid.Value);
		ok(ConvertInterfaceLuidToIndex(&a->Luid, &index) == NO_ERROR && index == a->IfIndex,
		   "%lu: index back %lu\n", a->IfIndex, index);
		ok(luid.Info.IfType == a->IfType, "%lu: LUID type %u, IfType %lu\n", a->IfIndex, luid.Info.IfType,
		   a->IfType);
		for (u = a->FirstUnicastAddress; u; u = u->Next) {
			USHORT f = u->Address.lpSockaddr->sa_family;
			ok(f == AF_INET || f == AF_INET6, "%lu: family %u\n", a->IfIndex, f);
		}
	}
	free(all);

	/* IPv4 only: no IPv6 address anywhere. */
	all = get_addresses(AF_INET, 0);
	for (a = all; a; a = a->Next)
		for (u = a->FirstUnicastAddress; u; u = u->Next)
			ok(u->Address.lpSockaddr->sa_family == AF_INET, "an IPv6 address with AF_INET\n");
	free(all);

	a = malloc(16);
	err = GetAdaptersAddresses(AF_UNSPEC, 0, NULL, a, &size);
	ok(err == ERROR_BUFFER_OVERFLOW && size > 16, "16 bytes: %lu, size %lu\n", err, size);
	free(a);
	/* The docs: a family other than AF_INET, AF_INET6 or AF_UNSPEC is
	 * ERROR_INVALID_PARAMETER; Wine does not check it. */
	ok_todo_wine(GetAdaptersAddresses(12345, 0, NULL, NULL, &size) == ERROR_INVALID_PARAMETER, "bad family\n");
}

static void test_info(void)
{
	IP_ADAPTER_INFO *info, *i;
	IP_ADAPTER_ADDRESSES *all = get_addresses(AF_INET, 0), *a;
	ULONG size = 0, err;

	err = GetAdaptersInfo(NULL, &size);
	if (err == ERROR_NO_DATA) {
		/* Only a loopback interface: nothing to list. */
		for (a = all; a; a = a->Next)
			ok(a->IfType == IF_TYPE_SOFTWARE_LOOPBACK, "adapter %lu missing from GetAdaptersInfo\n",
			   a->IfIndex);
		free(all);
		return;
	}
	ok(err == ERROR_BUFFER_OVERFLOW, "GetAdaptersInfo sizing: %lu\n", err);
	info = malloc(size);
	ok(GetAdaptersInfo(info, &size) == ERROR_SUCCESS, "GetAdaptersInfo\n");
	for (i = info; i; i = i->Next) {
		BOOL seen = FALSE;
		ok(i->Type != MIB_IF_TYPE_LOOPBACK, "loopback in GetAdaptersInfo\n");
		for (a = all; a; a = a->Next)
			if (a->IfIndex == i->Index) {
				seen = TRUE;
				ok(!strcmp(a->AdapterName, i->AdapterName), "%lu: names [%s] [%s]\n", i->Index,
				   a->AdapterName, i->AdapterName);
				ok(a->PhysicalAddressLength == i->AddressLength &&
					   !memcmp(a->PhysicalAddress, i->Address, i->AddressLength),
				   "%lu: hardware addresses differ\n", i->Index);
			}
		ok(seen, "adapter %lu is not in GetAdaptersAddresses\n", i->Index);
		ok(inet_addr(i->IpAddressList.IpAddress.String) != INADDR_NONE, "address [%s]\n",
		   i->IpAddressList.IpAddress.String);
	}
	free(info);
	free(all);
}

static void test_tables(void)
{
	MIB_IF_TABLE2 *t2 = NULL;
	MIB_IFTABLE *t;
	DWORD count = 0;
	ULONG size = 0;

	ok(GetNumberOfInterfaces(&count) == NO_ERROR && count > 0, "GetNumberOfInterfaces %lu\n", count);
	ok(GetIfTable(NULL, &size, TRUE) == ERROR_INSUFFICIENT_BUFFER && size, "GetIfTable sizing\n");
	t = malloc(size);
	ok(GetIfTable(t, &size, TRUE) == NO_ERROR, "GetIfTable\n");
	ok(GetIfTable2(&t2) == NO_ERROR && t2, "GetIfTable2\n");
	if (!t2)
		return;
	/* Interfaces GetIfTable lists are in GetIfTable2 too. */
	for (DWORD i = 0; i < t->dwNumEntries; i++) {
		BOOL seen = FALSE;
		for (ULONG k = 0; k < t2->NumEntries; k++)
			if (t2->Table[k].InterfaceIndex == t->table[i].dwIndex) {
				seen = TRUE;
				ok(t2->Table[k].Mtu == t->table[i].dwMtu, "%lu: MTU %lu vs %lu\n", t->table[i].dwIndex,
				   t2->Table[k].Mtu, t->table[i].dwMtu);
			}
		ok(seen, "interface %lu not in GetIfTable2\n", t->table[i].dwIndex);
	}
	if (t2->NumEntries) {
		MIB_IF_ROW2 row;
		memset(&row, 0, sizeof(row));
		row.InterfaceIndex = t2->Table[0].InterfaceIndex;
		ok(GetIfEntry2(&row) == NO_ERROR && row.InterfaceLuid.Value == t2->Table[0].InterfaceLuid.Value,
		   "GetIfEntry2 by index\n");
	}
	FreeMibTable(t2);
	free(t);
}

static void test_names(void)
{
	IP_ADAPTER_ADDRESSES *all = get_addresses(AF_UNSPEC, 0), *lo = all ? find_loopback(all) : NULL;
	char name[IF_MAX_STRING_SIZE + 1], *p;
	WCHAR wname[IF_MAX_STRING_SIZE + 1];
	NET_LUID luid;
	DWORD index;

	if (!lo) {
		ok(0, "no loopback adapter\n");
		free(all);
		return;
	}
	ok(ConvertInterfaceLuidToNameA(&lo->Luid, name, sizeof(name)) == NO_ERROR, "LuidToNameA\n");
	ok(!strncmp(name, "loopback_", 9), "loopback's name [%s]\n", name);
	ok(ConvertInterfaceNameToLuidA(name, &luid) == NO_ERROR && luid.Value == lo->Luid.Value, "NameToLuidA\n");
	ok(ConvertInterfaceLuidToNameW(&lo->Luid, wname, IF_MAX_STRING_SIZE + 1) == NO_ERROR, "LuidToNameW\n");
	ok(ConvertInterfaceNameToLuidW(wname, &luid) == NO_ERROR && luid.Value == lo->Luid.Value, "NameToLuidW\n");
	/* The docs: ERROR_NOT_ENOUGH_MEMORY when Length is too small; Wine
	 * answers another error. */
	ok_todo_wine(ConvertInterfaceLuidToNameA(&lo->Luid, name, 3) == ERROR_NOT_ENOUGH_MEMORY, "3-character buffer\n");
	ok(ConvertInterfaceNameToLuidA("nosuchtype_1", &luid) == ERROR_INVALID_NAME, "a bad name\n");

	ConvertInterfaceLuidToNameA(&lo->Luid, name, sizeof(name));
	ok(if_nametoindex(name) == lo->IfIndex, "if_nametoindex(%s) %lu\n", name, if_nametoindex(name));
	p = if_indextoname(lo->IfIndex, name);
	ok(p == name && !strncmp(name, "loopback_", 9), "if_indextoname [%s]\n", p ? p : "(null)");
	ok(if_nametoindex("no such interface") == 0, "unknown name\n");

	/* Windows routes 127.0.0.1 through the loopback interface; Wine's
	 * GetBestInterface(Ex) finds no interface for it. */
	index = 0;
	ok_todo_wine(GetBestInterface(htonl(INADDR_LOOPBACK), &index) == NO_ERROR && index == lo->IfIndex,
	   "GetBestInterface(127.0.0.1): %lu\n", index);
	SOCKADDR_IN sin = { AF_INET, 0, { { { 127, 0, 0, 1 } } }, { 0 } };
	index = 0;
	ok_todo_wine(GetBestInterfaceEx((struct sockaddr *)&sin, &index) == NO_ERROR && index == lo->IfIndex,
	   "GetBestInterfaceEx(127.0.0.1): %lu\n", index);
	free(all);
}

int main(void)
{
	WSADATA wsa;

	WSAStartup(MAKEWORD(2, 2), &wsa);
	test_addresses();
	test_info();
	test_tables();
	test_names();
	WSACleanup();
	return test_summary();
}

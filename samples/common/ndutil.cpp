/* ndutil: finding NetworkDirect v2 providers through the Winsock catalog
 * (see ndutil.h for the sequence).  Single-threaded, like the samples. */
#define INITGUID
#include "ndutil.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Completion keys of the update port. */
enum { NOTIFY_PROVIDER_CHANGE = 0, NOTIFY_ADDR_CHANGE = 1 };

#define XP1_ND_REQUIRED \
	(XP1_GUARANTEED_DELIVERY | XP1_GUARANTEED_ORDER | XP1_MESSAGE_ORIENTED | XP1_CONNECT_DATA)

static struct {
	bool started;
	HANDLE port;
	SOCKET sock;		/* carries SIO_ADDRESS_LIST_CHANGE */
	WSAOVERLAPPED addrOv;
	bool addrPending;
	HANDLE change;		/* WSAProviderConfigChange's handle */
	WSAOVERLAPPED changeOv;
	bool changePending;
	NdProviderEntry *entries;
	ULONG count;
} nd;

static void TryUnload(NdProviderEntry *e)
{
	if (e->module && e->canUnloadNow() == S_OK) {
		FreeLibrary(e->module);
		e->module = NULL;
		e->getClassObject = NULL;
		e->canUnloadNow = NULL;
	}
}

static HRESULT LoadProvider(NdProviderEntry *e)
{
	HMODULE m;

	if (e->module)
		return ND_SUCCESS;
	m = LoadLibraryExW(e->expandedPath, NULL, 0);
	if (!m)
		return HRESULT_FROM_WIN32(GetLastError());
	/* A provider must export both; one without DllCanUnloadNow could never
	 * be unloaded safely. */
	e->getClassObject = (HRESULT(WINAPI *)(REFCLSID, REFIID, void **))(void *)GetProcAddress(
		m, "DllGetClassObject");
	e->canUnloadNow = (HRESULT(WINAPI *)(void))(void *)GetProcAddress(m, "DllCanUnloadNow");
	if (!e->getClassObject || !e->canUnloadNow) {
		FreeLibrary(m);
		e->getClassObject = NULL;
		e->canUnloadNow = NULL;
		return HRESULT_FROM_WIN32(ERROR_PROC_NOT_FOUND);
	}
	e->module = m;
	return ND_SUCCESS;
}

static HRESULT OpenEntry(NdProviderEntry *e, IND2Provider **provider)
{
	HRESULT hr;

	*provider = NULL;
	hr = LoadProvider(e);
	if (FAILED(hr))
		return hr;
	/* ND v2: the provider GUID is the class, and the object comes back
	 * directly, without a class factory. */
	hr = e->getClassObject(e->protocol.ProviderId, IID_IND2Provider, (void **)provider);
	if (FAILED(hr)) {
		*provider = NULL;
		TryUnload(e);
	}
	return hr;
}

static void CloseEntry(NdProviderEntry *e, IND2Provider *provider)
{
	if (provider)
		provider->Release();
	TryUnload(e);
}

/* Asks the provider for its addresses with the ND_BUFFER_OVERFLOW protocol:
 * a first call with no buffer learns the size. */
static void QueryEntryAddresses(NdProviderEntry *e)
{
	IND2Provider *provider;
	SOCKET_ADDRESS_LIST *list = NULL;
	ULONG size = 0;
	HRESULT hr;

	free(e->addresses);
	e->addresses = NULL;
	hr = OpenEntry(e, &provider);
	if (FAILED(hr)) {
		e->status = hr;
		return;
	}
	hr = provider->QueryAddressList(NULL, &size);
	while (hr == ND_BUFFER_OVERFLOW && size) {
		free(list);
		list = (SOCKET_ADDRESS_LIST *)malloc(size);
		if (!list) {
			hr = ND_NO_MEMORY;
			break;
		}
		hr = provider->QueryAddressList(list, &size);
	}
	CloseEntry(e, provider);
	if (hr == ND_SUCCESS && list && list->iAddressCount > 0) {
		e->addresses = list;
	} else {
		free(list);
	}
	e->status = hr;
}

static bool IsNdV2Entry(const WSAPROTOCOL_INFOW *p)
{
	return (p->dwServiceFlags1 & XP1_ND_REQUIRED) == XP1_ND_REQUIRED &&
	       p->iVersion == ND_VERSION_2 &&
	       (p->dwProviderFlags & (PFL_HIDDEN | PFL_NETWORKDIRECT_PROVIDER)) ==
		       (PFL_HIDDEN | PFL_NETWORKDIRECT_PROVIDER) &&
	       (p->iAddressFamily == AF_INET || p->iAddressFamily == AF_INET6) && p->iSocketType == -1 &&
	       p->iProtocol == 0 && p->iProtocolMaxOffset == 0;
}

static void FreeEntries(void)
{
	for (ULONG i = 0; i < nd.count; i++) {
		TryUnload(&nd.entries[i]);
		free(nd.entries[i].addresses);
	}
	free(nd.entries);
	nd.entries = NULL;
	nd.count = 0;
}

static HRESULT ScanCatalog(void)
{
	WSAPROTOCOL_INFOW *all;
	NdProviderEntry *old = nd.entries, *entries;
	ULONG oldCount = nd.count, count = 0;
	DWORD size = 0;
	int err = 0, n;

	/* The size probe must fail with WSAENOBUFS. */
	if (WSCEnumProtocols(NULL, NULL, &size, &err) != SOCKET_ERROR || err != WSAENOBUFS)
		return HRESULT_FROM_WIN32(err ? err : WSAEINVAL);
	all = (WSAPROTOCOL_INFOW *)malloc(size);
	if (!all)
		return ND_NO_MEMORY;
	n = WSCEnumProtocols(NULL, all, &size, &err);
	if (n == SOCKET_ERROR) {
		free(all);
		return HRESULT_FROM_WIN32(err);
	}
	entries = (NdProviderEntry *)calloc(n ? n : 1, sizeof(*entries));
	if (!entries) {
		free(all);
		return ND_NO_MEMORY;
	}
	for (int i = 0; i < n; i++) {
		NdProviderEntry *e = &entries[count];
		int len = MAX_PATH;

		if (!IsNdV2Entry(&all[i]))
			continue;
		e->protocol = all[i];
		if (WSCGetProviderPath(&e->protocol.ProviderId, e->path, &len, &err) == SOCKET_ERROR) {
			e->status = HRESULT_FROM_WIN32(err);
		} else if (!ExpandEnvironmentStringsW(e->path, e->expandedPath, MAX_PATH)) {
			e->status = HRESULT_FROM_WIN32(GetLastError());
		}
		/* A DLL still in use (an adapter is open) stays loaded across
		 * rescans. */
		for (ULONG j = 0; j < oldCount; j++) {
			if (old[j].module && IsEqualGUID(old[j].protocol.ProviderId, e->protocol.ProviderId)) {
				e->module = old[j].module;
				e->getClassObject = old[j].getClassObject;
				e->canUnloadNow = old[j].canUnloadNow;
				old[j].module = NULL;
			}
		}
		count++;
	}
	free(all);
	FreeEntries();
	nd.entries = entries;
	nd.count = count;
	for (ULONG i = 0; i < count; i++) {
		if (entries[i].status == ND_SUCCESS)
			QueryEntryAddresses(&entries[i]);
	}
	return ND_SUCCESS;
}

static void ArmAddressChange(void)
{
	DWORD bytes;

	memset(&nd.addrOv, 0, sizeof(nd.addrOv));
	nd.addrPending = WSAIoctl(nd.sock, SIO_ADDRESS_LIST_CHANGE, NULL, 0, NULL, 0, &bytes, &nd.addrOv,
				  NULL) == SOCKET_ERROR &&
			 WSAGetLastError() == WSA_IO_PENDING;
}

static void ArmProviderChange(void)
{
	memset(&nd.changeOv, 0, sizeof(nd.changeOv));
	nd.changePending = WSAProviderConfigChange(&nd.change, &nd.changeOv, NULL) == SOCKET_ERROR &&
			   WSAGetLastError() == WSA_IO_PENDING;
}

/* Drains the update port without waiting, and rescans what changed. */
static void ProcessUpdates(void)
{
	bool scan = false, addresses = false;
	OVERLAPPED *ov;
	ULONG_PTR key;
	DWORD bytes;

	for (;;) {
		BOOL got;

		ov = NULL;
		got = GetQueuedCompletionStatus(nd.port, &bytes, &key, &ov, 0);

		if (!got && !ov)
			break;
		if (key == NOTIFY_PROVIDER_CHANGE) {
			if (ov == &nd.changeOv)
				nd.changePending = false;
			scan = true;
		} else if (key == NOTIFY_ADDR_CHANGE) {
			nd.addrPending = false;
			addresses = true;
		}
	}
	if (scan) {
		if (!nd.changePending)
			ArmProviderChange();
		ScanCatalog();
	} else if (addresses) {
		for (ULONG i = 0; i < nd.count; i++)
			QueryEntryAddresses(&nd.entries[i]);
	}
	if (addresses && !nd.addrPending)
		ArmAddressChange();
}

HRESULT NdStartup(void)
{
	WSADATA wsa;
	int err;

	if (nd.started)
		return ND_SUCCESS;
	err = WSAStartup(MAKEWORD(2, 2), &wsa);
	if (err)
		return HRESULT_FROM_WIN32(err);
	nd.port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 0);
	if (!nd.port)
		goto fail_wsa;
	nd.sock = WSASocketW(AF_INET, SOCK_STREAM, 0, NULL, 0, WSA_FLAG_OVERLAPPED);
	if (nd.sock == INVALID_SOCKET)
		goto fail_port;
	if (CreateIoCompletionPort((HANDLE)nd.sock, nd.port, NOTIFY_ADDR_CHANGE, 0) != nd.port)
		goto fail_sock;
	/* Without catalog notifications the client could never see a
	 * provider: that fails startup. */
	nd.change = NULL;
	if (WSAProviderConfigChange(&nd.change, NULL, NULL) == SOCKET_ERROR)
		goto fail_sock;
	if (CreateIoCompletionPort(nd.change, nd.port, NOTIFY_PROVIDER_CHANGE, 0) != nd.port)
		goto fail_change;
	ArmAddressChange();
	/* The first scan happens on the first call, like every later one. */
	if (!PostQueuedCompletionStatus(nd.port, 0, NOTIFY_PROVIDER_CHANGE, NULL))
		goto fail_change;
	nd.started = true;
	return ND_SUCCESS;

fail_change:
	err = GetLastError();
	CloseHandle(nd.change);
	closesocket(nd.sock);
	CloseHandle(nd.port);
	WSACleanup();
	return HRESULT_FROM_WIN32(err);
fail_sock:
	err = WSAGetLastError();
	closesocket(nd.sock);
	CloseHandle(nd.port);
	WSACleanup();
	return HRESULT_FROM_WIN32(err);
fail_port:
	err = WSAGetLastError();
	CloseHandle(nd.port);
	WSACleanup();
	return HRESULT_FROM_WIN32(err);
fail_wsa:
	err = GetLastError();
	WSACleanup();
	return HRESULT_FROM_WIN32(err);
}

HRESULT NdCleanup(void)
{
	OVERLAPPED *ov;
	ULONG_PTR key;
	DWORD bytes;

	if (!nd.started)
		return ND_SUCCESS;
	FreeEntries();
	/* Closing the socket and the change handle aborts their requests;
	 * their packets are drained before the port goes. */
	closesocket(nd.sock);
	CloseHandle(nd.change);
	do
		ov = NULL;
	while (GetQueuedCompletionStatus(nd.port, &bytes, &key, &ov, 0) || ov);
	CloseHandle(nd.port);
	WSACleanup();
	memset(&nd, 0, sizeof(nd));
	return ND_SUCCESS;
}

ULONG NdGetProviderCount(void)
{
	if (!nd.started)
		return 0;
	ProcessUpdates();
	return nd.count;
}

const NdProviderEntry *NdGetProvider(ULONG index)
{
	return index < nd.count ? &nd.entries[index] : NULL;
}

HRESULT NdOpenProvider(ULONG index, IND2Provider **provider)
{
	if (!provider)
		return ND_INVALID_PARAMETER;
	*provider = NULL;
	if (index >= nd.count)
		return ND_INVALID_PARAMETER;
	return OpenEntry(&nd.entries[index], provider);
}

void NdReleaseProvider(ULONG index, IND2Provider *provider)
{
	if (index < nd.count)
		CloseEntry(&nd.entries[index], provider);
	else if (provider)
		provider->Release();
}

static bool SameAddress(const struct sockaddr *a, const struct sockaddr *b)
{
	if (a->sa_family != b->sa_family)
		return false;
	if (a->sa_family == AF_INET)
		return ((const sockaddr_in *)a)->sin_addr.s_addr == ((const sockaddr_in *)b)->sin_addr.s_addr;
	if (a->sa_family == AF_INET6) {
		const sockaddr_in6 *x = (const sockaddr_in6 *)a, *y = (const sockaddr_in6 *)b;

		return !memcmp(&x->sin6_addr, &y->sin6_addr, sizeof(x->sin6_addr)) &&
		       (!x->sin6_scope_id || !y->sin6_scope_id || x->sin6_scope_id == y->sin6_scope_id);
	}
	return false;
}

static bool UsableAddress(const SOCKET_ADDRESS *a)
{
	if (!a->lpSockaddr)
		return false;
	if (a->lpSockaddr->sa_family == AF_INET)
		return a->iSockaddrLength >= (INT)sizeof(sockaddr_in);
	if (a->lpSockaddr->sa_family == AF_INET6)
		return a->iSockaddrLength >= (INT)sizeof(sockaddr_in6);
	return false;
}

static bool EntryHasAddress(const NdProviderEntry *e, const struct sockaddr *address)
{
	if (!e->addresses)
		return false;
	for (INT i = 0; i < e->addresses->iAddressCount; i++) {
		const SOCKET_ADDRESS *a = &e->addresses->Address[i];

		if (UsableAddress(a) && SameAddress(a->lpSockaddr, address))
			return true;
	}
	return false;
}

HRESULT NdQueryAddressList(DWORD flags, SOCKET_ADDRESS_LIST *list, SIZE_T *size)
{
	SIZE_T need = offsetof(SOCKET_ADDRESS_LIST, Address), data = 0;
	INT count = 0;
	char *p;

	if (!size)
		return ND_INVALID_PARAMETER;
	if (!nd.started)
		return ND_DEVICE_NOT_READY;
	ProcessUpdates();
	/* Every address is an ND v2 one: excluding those leaves nothing. */
	if (!(flags & ND_QUERY_EXCLUDE_NDv2_ADDRESSES)) {
		for (ULONG i = 0; i < nd.count; i++) {
			const SOCKET_ADDRESS_LIST *l = nd.entries[i].addresses;

			for (INT j = 0; l && j < l->iAddressCount; j++) {
				if (!UsableAddress(&l->Address[j]))
					continue;
				count++;
				data += l->Address[j].iSockaddrLength;
			}
		}
	}
	if (!count) {
		*size = 0;
		return ND_SUCCESS;
	}
	need += count * sizeof(SOCKET_ADDRESS) + data;
	if (!list || *size < need) {
		*size = need;
		return ND_BUFFER_OVERFLOW;
	}
	list->iAddressCount = 0;
	p = (char *)&list->Address[count];
	for (ULONG i = 0; i < nd.count; i++) {
		const SOCKET_ADDRESS_LIST *l = nd.entries[i].addresses;

		for (INT j = 0; l && j < l->iAddressCount; j++) {
			const SOCKET_ADDRESS *a = &l->Address[j];

			if (!UsableAddress(a))
				continue;
			memcpy(p, a->lpSockaddr, a->iSockaddrLength);
			list->Address[list->iAddressCount].lpSockaddr = (LPSOCKADDR)p;
			list->Address[list->iAddressCount].iSockaddrLength = a->iSockaddrLength;
			list->iAddressCount++;
			p += a->iSockaddrLength;
		}
	}
	*size = need;
	return ND_SUCCESS;
}

HRESULT NdCheckAddress(const struct sockaddr *address, SIZE_T length)
{
	if (!address || length < sizeof(sockaddr_in))
		return ND_INVALID_PARAMETER;
	if (!nd.started)
		return ND_DEVICE_NOT_READY;
	ProcessUpdates();
	for (ULONG i = 0; i < nd.count; i++) {
		if (EntryHasAddress(&nd.entries[i], address))
			return ND_SUCCESS;
	}
	return ND_INVALID_ADDRESS;
}

HRESULT NdResolveAddress(const struct sockaddr *remote, SIZE_T remoteLength, struct sockaddr *local,
			 SIZE_T *localLength)
{
	SOCKADDR_STORAGE route;
	DWORD bytes = 0;
	SOCKET s;
	int err = 0;

	if (!remote || !local || !localLength)
		return ND_INVALID_PARAMETER;
	if (!nd.started)
		return ND_DEVICE_NOT_READY;
	s = WSASocketW(remote->sa_family, SOCK_STREAM, 0, NULL, 0, WSA_FLAG_OVERLAPPED);
	if (s == INVALID_SOCKET)
		return ND_INVALID_ADDRESS;
	if (WSAIoctl(s, SIO_ROUTING_INTERFACE_QUERY, (void *)remote, (DWORD)remoteLength, &route,
		     sizeof(route), &bytes, NULL, NULL) == SOCKET_ERROR)
		err = WSAGetLastError();
	closesocket(s);
	if (err == WSAENETUNREACH)
		return ND_NETWORK_UNREACHABLE;
	if (err == WSAEHOSTUNREACH)
		return ND_HOST_UNREACHABLE;
	if (err)
		return ND_INVALID_ADDRESS;
	/* The route must leave through an address an ND adapter serves. */
	if (NdCheckAddress((struct sockaddr *)&route, bytes) != ND_SUCCESS)
		return ND_INVALID_ADDRESS;
	if (*localLength < bytes) {
		*localLength = bytes;
		return ND_BUFFER_OVERFLOW;
	}
	memcpy(local, &route, bytes);
	*localLength = bytes;
	return ND_SUCCESS;
}

HRESULT NdOpenAdapter(REFIID iid, const struct sockaddr *address, SIZE_T length, void **adapter)
{
	HRESULT hr = ND_INVALID_ADDRESS;

	if (!adapter)
		return ND_INVALID_PARAMETER;
	*adapter = NULL;
	hr = NdCheckAddress(address, length);
	if (FAILED(hr))
		return hr;
	hr = ND_INVALID_ADDRESS;
	for (ULONG i = 0; i < nd.count; i++) {
		NdProviderEntry *e = &nd.entries[i];
		IND2Provider *provider;
		UINT64 id;

		if (!EntryHasAddress(e, address))
			continue;
		hr = OpenEntry(e, &provider);
		if (FAILED(hr))
			continue;
		hr = provider->ResolveAddress(address, (ULONG)length, &id);
		if (SUCCEEDED(hr))
			hr = provider->OpenAdapter(iid, id, adapter);
		CloseEntry(e, provider);
		if (SUCCEEDED(hr))
			return hr;
		*adapter = NULL;
	}
	return hr;
}

/* ---- helpers ---------------------------------------------------------------- */

static const struct {
	HRESULT hr;
	const char *name;
} status_names[] = {
#define S(x) { x, #x }
	S(ND_SUCCESS), S(ND_TIMEOUT), S(ND_PENDING), S(ND_BUFFER_OVERFLOW), S(ND_DEVICE_BUSY),
	S(ND_NO_MORE_ENTRIES), S(ND_UNSUCCESSFUL), S(ND_ACCESS_VIOLATION), S(ND_INVALID_HANDLE),
	S(ND_INVALID_PARAMETER), S(ND_INVALID_DEVICE_REQUEST), S(ND_NO_MEMORY),
	S(ND_INVALID_PARAMETER_MIX), S(ND_DATA_OVERRUN), S(ND_SHARING_VIOLATION),
	S(ND_INSUFFICIENT_RESOURCES), S(ND_DEVICE_NOT_READY), S(ND_IO_TIMEOUT), S(ND_NOT_SUPPORTED),
	S(ND_INTERNAL_ERROR), S(ND_INVALID_PARAMETER_1), S(ND_INVALID_PARAMETER_2),
	S(ND_INVALID_PARAMETER_3), S(ND_INVALID_PARAMETER_4), S(ND_INVALID_PARAMETER_5),
	S(ND_INVALID_PARAMETER_6), S(ND_INVALID_PARAMETER_7), S(ND_INVALID_PARAMETER_8),
	S(ND_INVALID_PARAMETER_9), S(ND_INVALID_PARAMETER_10), S(ND_CANCELED), S(ND_REMOTE_ERROR),
	S(ND_INVALID_ADDRESS), S(ND_INVALID_DEVICE_STATE), S(ND_INVALID_BUFFER_SIZE),
	S(ND_TOO_MANY_ADDRESSES), S(ND_ADDRESS_ALREADY_EXISTS), S(ND_CONNECTION_REFUSED),
	S(ND_CONNECTION_INVALID), S(ND_CONNECTION_ACTIVE), S(ND_NETWORK_UNREACHABLE),
	S(ND_HOST_UNREACHABLE), S(ND_CONNECTION_ABORTED), S(ND_DEVICE_REMOVED),
#undef S
	{ (HRESULT)0xC000003EL, "STATUS_DATA_ERROR" },
	{ (HRESULT)0xC00000CCL, "STATUS_BAD_NETWORK_NAME" },
	{ (HRESULT)0xC000020CL, "STATUS_CONNECTION_DISCONNECTED" },
	{ (HRESULT)0xC0000238L, "STATUS_ADDRESS_ALREADY_ASSOCIATED" },
	{ (HRESULT)0xC0000135L, "STATUS_DLL_NOT_FOUND" },
	{ HRESULT_FROM_WIN32(ERROR_MOD_NOT_FOUND), "HRESULT_FROM_WIN32(ERROR_MOD_NOT_FOUND)" },
	{ HRESULT_FROM_WIN32(ERROR_PROC_NOT_FOUND), "HRESULT_FROM_WIN32(ERROR_PROC_NOT_FOUND)" },
	{ E_NOINTERFACE, "E_NOINTERFACE" },
	{ CLASS_E_CLASSNOTAVAILABLE, "CLASS_E_CLASSNOTAVAILABLE" },
};

const char *NdStatusName(HRESULT hr)
{
	for (size_t i = 0; i < sizeof(status_names) / sizeof(status_names[0]); i++) {
		if (status_names[i].hr == hr)
			return status_names[i].name;
	}
	return NULL;
}

const char *NdStatusString(HRESULT hr)
{
	static char buffers[4][96];
	static unsigned next;
	char *b = buffers[next++ % 4];
	const char *name = NdStatusName(hr);

	if (name)
		snprintf(b, sizeof(buffers[0]), "0x%08lX (%s)", (unsigned long)hr, name);
	else
		snprintf(b, sizeof(buffers[0]), "0x%08lX", (unsigned long)hr);
	return b;
}

const char *NdAddressString(const struct sockaddr *address, char *buffer, size_t size)
{
	char host[INET6_ADDRSTRLEN] = "?";
	USHORT port = 0;

	if (address->sa_family == AF_INET) {
		const sockaddr_in *in = (const sockaddr_in *)address;

		inet_ntop(AF_INET, (void *)&in->sin_addr, host, sizeof(host));
		port = ntohs(in->sin_port);
		if (port)
			snprintf(buffer, size, "%s:%u", host, port);
		else
			snprintf(buffer, size, "%s", host);
	} else if (address->sa_family == AF_INET6) {
		const sockaddr_in6 *in6 = (const sockaddr_in6 *)address;
		char scope[16] = "";

		inet_ntop(AF_INET6, (void *)&in6->sin6_addr, host, sizeof(host));
		if (in6->sin6_scope_id)
			snprintf(scope, sizeof(scope), "%%%lu", (unsigned long)in6->sin6_scope_id);
		port = ntohs(in6->sin6_port);
		if (port)
			snprintf(buffer, size, "[%s%s]:%u", host, scope, port);
		else
			snprintf(buffer, size, "%s%s", host, scope);
	} else {
		snprintf(buffer, size, "(family %u)", address->sa_family);
	}
	return buffer;
}

BOOL NdParseAddress(const char *text, USHORT defaultPort, SOCKADDR_INET *out, int *length)
{
	char host[INET6_ADDRSTRLEN + 2];
	const char *port = NULL, *colon;
	unsigned long value = defaultPort;
	size_t n;

	memset(out, 0, sizeof(*out));
	if (text[0] == '[') {
		const char *end = strchr(text, ']');

		if (!end || (end[1] && end[1] != ':'))
			return FALSE;
		n = end - text - 1;
		if (end[1] == ':')
			port = end + 2;
		text++;
	} else {
		colon = strchr(text, ':');
		/* One colon separates a port; more make an IPv6 address. */
		if (colon && !strchr(colon + 1, ':')) {
			n = colon - text;
			port = colon + 1;
		} else {
			n = strlen(text);
		}
	}
	if (n == 0 || n >= sizeof(host))
		return FALSE;
	memcpy(host, text, n);
	host[n] = 0;
	if (port) {
		char *end;

		value = strtoul(port, &end, 10);
		if (!*port || *end || value > 65535)
			return FALSE;
	}
	if (inet_pton(AF_INET, host, &out->Ipv4.sin_addr) == 1) {
		out->Ipv4.sin_family = AF_INET;
		out->Ipv4.sin_port = htons((USHORT)value);
		*length = sizeof(out->Ipv4);
		return TRUE;
	}
	if (inet_pton(AF_INET6, host, &out->Ipv6.sin6_addr) == 1) {
		out->Ipv6.sin6_family = AF_INET6;
		out->Ipv6.sin6_port = htons((USHORT)value);
		*length = sizeof(out->Ipv6);
		return TRUE;
	}
	return FALSE;
}

const char *NdGuidString(const GUID *g, char *buffer, size_t size)
{
	snprintf(buffer, size, "{%08lX-%04X-%04X-%02X%02X-%02X%02X%02X%02X%02X%02X}",
		 (unsigned long)g->Data1, g->Data2, g->Data3, g->Data4[0], g->Data4[1], g->Data4[2],
		 g->Data4[3], g->Data4[4], g->Data4[5], g->Data4[6], g->Data4[7]);
	return buffer;
}

/* The provider list: the Winsock catalog's NetworkDirect entries, their
 * DLLs (loaded while an object is out) and their addresses, rescanned when
 * the catalog or the machine's address list changes. */
#include <stdlib.h>
#include <string.h>

#include "nd2_private.h"

struct nd_state libnd2;

/* Completion keys of the update port. */
enum { NOTIFY_PROVIDER_CHANGE = 0, NOTIFY_ADDR_CHANGE = 1 };

#define XP1_ND_REQUIRED \
	(XP1_GUARANTEED_DELIVERY | XP1_GUARANTEED_ORDER | XP1_MESSAGE_ORIENTED | XP1_CONNECT_DATA)

bool libnd2_entry_is_v1(const NdProviderEntry *e)
{
	return e->protocol.iVersion == ND_VERSION_1;
}

static void try_unload(NdProviderEntry *e)
{
	if (e->module && e->canUnloadNow() == S_OK) {
		FreeLibrary(e->module);
		e->module = NULL;
		e->getClassObject = NULL;
		e->canUnloadNow = NULL;
	}
}

static HRESULT load_provider(NdProviderEntry *e)
{
	HMODULE m;

	if (e->module)
		return ND_SUCCESS;
	m = LoadLibraryExW(e->expandedPath, NULL, 0);
	if (!m)
		return HRESULT_FROM_WIN32(GetLastError());
	/* A provider must export both; one without DllCanUnloadNow could never
	 * be unloaded safely. */
	e->getClassObject = (HRESULT(WINAPI *)(REFCLSID, REFIID, void **))(void (*)(void))GetProcAddress(
		m, "DllGetClassObject");
	e->canUnloadNow = (HRESULT(WINAPI *)(void))(void (*)(void))GetProcAddress(m, "DllCanUnloadNow");
	if (!e->getClassObject || !e->canUnloadNow) {
		FreeLibrary(m);
		e->getClassObject = NULL;
		e->canUnloadNow = NULL;
		return HRESULT_FROM_WIN32(ERROR_PROC_NOT_FOUND);
	}
	e->module = m;
	return ND_SUCCESS;
}

HRESULT libnd2_open_entry(NdProviderEntry *e, IUnknown **provider)
{
	IClassFactory *factory = NULL;
	HRESULT hr;

	*provider = NULL;
	hr = load_provider(e);
	if (FAILED(hr))
		return hr;
	if (libnd2_entry_is_v1(e)) {
		/* ND v1: a class factory makes the provider. */
		hr = e->getClassObject(&e->protocol.ProviderId, &IID_IClassFactory, (void **)&factory);
		if (SUCCEEDED(hr)) {
			hr = factory->lpVtbl->CreateInstance(factory, NULL, &IID_INDProvider, (void **)provider);
			factory->lpVtbl->Release(factory);
		}
	} else {
		/* ND v2: the provider GUID is the class, and the object comes
		 * back directly. */
		hr = e->getClassObject(&e->protocol.ProviderId, &IID_IND2Provider, (void **)provider);
	}
	if (FAILED(hr)) {
		*provider = NULL;
		try_unload(e);
	}
	return hr;
}

void libnd2_close_entry(NdProviderEntry *e, IUnknown *provider)
{
	if (provider)
		provider->lpVtbl->Release(provider);
	try_unload(e);
}

/* The provider's addresses with the ND_BUFFER_OVERFLOW protocol: a first
 * call with no buffer learns the size (a ULONG in v2, a SIZE_T in v1). */
static void query_entry_addresses(NdProviderEntry *e)
{
	SOCKET_ADDRESS_LIST *list = NULL;
	IUnknown *provider;
	SIZE_T size = 0;
	ULONG size2 = 0;
	HRESULT hr;

	free(e->addresses);
	e->addresses = NULL;
	hr = libnd2_open_entry(e, &provider);
	if (FAILED(hr)) {
		e->status = hr;
		return;
	}
	for (;;) {
		if (libnd2_entry_is_v1(e)) {
			NdV1Provider *p = (NdV1Provider *)provider;

			hr = p->lpVtbl->QueryAddressList(p, list, &size);
		} else {
			IND2Provider *p = (IND2Provider *)provider;

			size2 = (ULONG)size;
			hr = p->lpVtbl->QueryAddressList(p, list, &size2);
			size = size2;
		}
		if (hr != ND_BUFFER_OVERFLOW || !size)
			break;
		free(list);
		list = malloc(size);
		if (!list) {
			hr = ND_NO_MEMORY;
			break;
		}
	}
	libnd2_close_entry(e, provider);
	if (hr == ND_SUCCESS && list && list->iAddressCount > 0)
		e->addresses = list;
	else
		free(list);
	e->status = hr;
}

static bool is_nd_entry(const WSAPROTOCOL_INFOW *p)
{
	DWORD need;

	if ((p->dwServiceFlags1 & XP1_ND_REQUIRED) != XP1_ND_REQUIRED)
		return false;
	if (p->iVersion == ND_VERSION_2)
		need = PFL_HIDDEN | PFL_NETWORKDIRECT_PROVIDER;
	else if (p->iVersion == ND_VERSION_1)
		need = PFL_HIDDEN;
	else
		return false;
	return (p->dwProviderFlags & need) == need && (p->iAddressFamily == AF_INET || p->iAddressFamily == AF_INET6) &&
	       p->iSocketType == -1 && p->iProtocol == 0 && p->iProtocolMaxOffset == 0;
}

static void free_entries(void)
{
	for (ULONG i = 0; i < libnd2.count; i++) {
		try_unload(&libnd2.entries[i]);
		free(libnd2.entries[i].addresses);
	}
	free(libnd2.entries);
	libnd2.entries = NULL;
	libnd2.count = 0;
}

static HRESULT scan_catalog(void)
{
	WSAPROTOCOL_INFOW *all;
	NdProviderEntry *old = libnd2.entries, *entries;
	ULONG old_count = libnd2.count, count = 0;
	DWORD size = 0;
	int err = 0, n;

	/* The size probe must fail with WSAENOBUFS. */
	if (WSCEnumProtocols(NULL, NULL, &size, &err) != SOCKET_ERROR || err != WSAENOBUFS)
		return HRESULT_FROM_WIN32(err ? err : WSAEINVAL);
	all = malloc(size);
	if (!all)
		return ND_NO_MEMORY;
	n = WSCEnumProtocols(NULL, all, &size, &err);
	if (n == SOCKET_ERROR) {
		free(all);
		return HRESULT_FROM_WIN32(err);
	}
	entries = calloc(n ? n : 1, sizeof(*entries));
	if (!entries) {
		free(all);
		return ND_NO_MEMORY;
	}
	for (int i = 0; i < n; i++) {
		NdProviderEntry *e = &entries[count];
		int len = MAX_PATH;

		if (!is_nd_entry(&all[i]))
			continue;
		e->protocol = all[i];
		if (WSCGetProviderPath(&e->protocol.ProviderId, e->path, &len, &err) == SOCKET_ERROR)
			e->status = HRESULT_FROM_WIN32(err);
		else if (!ExpandEnvironmentStringsW(e->path, e->expandedPath, MAX_PATH))
			e->status = HRESULT_FROM_WIN32(GetLastError());
		/* A DLL still in use (an adapter is open) stays loaded across
		 * rescans. */
		for (ULONG j = 0; j < old_count; j++) {
			if (old[j].module && IsEqualGUID(&old[j].protocol.ProviderId, &e->protocol.ProviderId)) {
				e->module = old[j].module;
				e->getClassObject = old[j].getClassObject;
				e->canUnloadNow = old[j].canUnloadNow;
				old[j].module = NULL;
			}
		}
		count++;
	}
	free(all);
	free_entries();
	libnd2.entries = entries;
	libnd2.count = count;
	for (ULONG i = 0; i < count; i++)
		if (entries[i].status == ND_SUCCESS)
			query_entry_addresses(&entries[i]);
	return ND_SUCCESS;
}

static void arm_address_change(void)
{
	DWORD bytes;

	memset(&libnd2.addrOv, 0, sizeof(libnd2.addrOv));
	libnd2.addrPending = WSAIoctl(libnd2.sock, SIO_ADDRESS_LIST_CHANGE, NULL, 0, NULL, 0, &bytes, &libnd2.addrOv, NULL) ==
				 SOCKET_ERROR &&
			 WSAGetLastError() == WSA_IO_PENDING;
}

static void arm_provider_change(void)
{
	memset(&libnd2.changeOv, 0, sizeof(libnd2.changeOv));
	libnd2.changePending = WSAProviderConfigChange(&libnd2.change, &libnd2.changeOv, NULL) == SOCKET_ERROR &&
			   WSAGetLastError() == WSA_IO_PENDING;
}

/* Drains the update port without waiting, and rescans what changed. */
void libnd2_process_updates(void)
{
	bool scan = false, addresses = false;
	OVERLAPPED *ov;
	ULONG_PTR key;
	DWORD bytes;

	for (;;) {
		BOOL got;

		ov = NULL;
		got = GetQueuedCompletionStatus(libnd2.port, &bytes, &key, &ov, 0);
		if (!got && !ov)
			break;
		if (key == NOTIFY_PROVIDER_CHANGE) {
			if (ov == &libnd2.changeOv)
				libnd2.changePending = false;
			scan = true;
		} else if (key == NOTIFY_ADDR_CHANGE) {
			libnd2.addrPending = false;
			addresses = true;
		}
	}
	if (scan) {
		if (!libnd2.changePending)
			arm_provider_change();
		scan_catalog();
	} else if (addresses) {
		for (ULONG i = 0; i < libnd2.count; i++)
			query_entry_addresses(&libnd2.entries[i]);
	}
	if (addresses && !libnd2.addrPending)
		arm_address_change();
}

HRESULT ND_HELPER_API NdStartup(VOID)
{
	WSADATA wsa;
	int err;

	if (libnd2.started)
		return ND_SUCCESS;
	err = WSAStartup(MAKEWORD(2, 2), &wsa);
	if (err)
		return HRESULT_FROM_WIN32(err);
	libnd2.port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 0);
	if (!libnd2.port) {
		err = GetLastError();
		goto fail_wsa;
	}
	libnd2.sock = WSASocketW(AF_INET, SOCK_STREAM, 0, NULL, 0, WSA_FLAG_OVERLAPPED);
	if (libnd2.sock == INVALID_SOCKET) {
		err = WSAGetLastError();
		goto fail_port;
	}
	if (CreateIoCompletionPort((HANDLE)libnd2.sock, libnd2.port, NOTIFY_ADDR_CHANGE, 0) != libnd2.port) {
		err = GetLastError();
		goto fail_sock;
	}
	/* Without catalog notifications the client could never see a
	 * provider: that fails startup. */
	libnd2.change = NULL;
	if (WSAProviderConfigChange(&libnd2.change, NULL, NULL) == SOCKET_ERROR) {
		err = WSAGetLastError();
		goto fail_sock;
	}
	if (CreateIoCompletionPort(libnd2.change, libnd2.port, NOTIFY_PROVIDER_CHANGE, 0) != libnd2.port) {
		err = GetLastError();
		goto fail_change;
	}
	arm_address_change();
	/* The first scan happens on the first call, like every later one. */
	if (!PostQueuedCompletionStatus(libnd2.port, 0, NOTIFY_PROVIDER_CHANGE, NULL)) {
		err = GetLastError();
		goto fail_change;
	}
	libnd2.started = true;
	return ND_SUCCESS;

fail_change:
	CloseHandle(libnd2.change);
fail_sock:
	closesocket(libnd2.sock);
fail_port:
	CloseHandle(libnd2.port);
fail_wsa:
	WSACleanup();
	memset(&libnd2, 0, sizeof(libnd2));
	return HRESULT_FROM_WIN32(err);
}

HRESULT ND_HELPER_API NdCleanup(VOID)
{
	OVERLAPPED *ov;
	ULONG_PTR key;
	DWORD bytes;

	if (!libnd2.started)
		return ND_SUCCESS;
	free_entries();
	/* Closing the socket and the change handle aborts their requests;
	 * their packets are drained before the port goes. */
	closesocket(libnd2.sock);
	CloseHandle(libnd2.change);
	do
		ov = NULL;
	while (GetQueuedCompletionStatus(libnd2.port, &bytes, &key, &ov, 0) || ov);
	CloseHandle(libnd2.port);
	WSACleanup();
	memset(&libnd2, 0, sizeof(libnd2));
	return ND_SUCCESS;
}

VOID ND_HELPER_API NdFlushProviders(VOID)
{
	if (!libnd2.started)
		return;
	for (ULONG i = 0; i < libnd2.count; i++)
		try_unload(&libnd2.entries[i]);
}

ULONG NdGetProviderCount(void)
{
	if (!libnd2.started)
		return 0;
	libnd2_process_updates();
	return libnd2.count;
}

const NdProviderEntry *NdGetProvider(ULONG index)
{
	return index < libnd2.count ? &libnd2.entries[index] : NULL;
}

HRESULT NdOpenProvider(ULONG index, IND2Provider **provider)
{
	if (!provider)
		return ND_INVALID_PARAMETER;
	*provider = NULL;
	if (index >= libnd2.count || libnd2_entry_is_v1(&libnd2.entries[index]))
		return ND_INVALID_PARAMETER;
	return libnd2_open_entry(&libnd2.entries[index], (IUnknown **)provider);
}

void NdReleaseProvider(ULONG index, IND2Provider *provider)
{
	if (index < libnd2.count)
		libnd2_close_entry(&libnd2.entries[index], (IUnknown *)provider);
	else if (provider)
		provider->lpVtbl->Release(provider);
}

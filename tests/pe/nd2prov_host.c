/* nd2prov.dll where there is no RDMA device (or no Linux side at all):
 * found through the Winsock catalog exactly as ND clients find it
 * (CLIENT-BEHAVIOR.md), its provider object's COM rules, a provider with
 * no addresses (the QueryAddressList sizing protocol), ResolveAddress and
 * OpenAdapter failing with their documented codes, DllCanUnloadNow
 * counting live objects, and 100 load/unload cycles.
 * ndrun only: the catalog's default entry is nd2prov.dll beside ndrun. */
#include <winsock2.h>
#include <ws2tcpip.h>
#include <ws2spi.h>
#include <windows.h>
#include <initguid.h>

#include "ndspi.h"
#include "ndshim_provider.h"
#include "test.h"

#define XP1_ND (XP1_GUARANTEED_DELIVERY | XP1_GUARANTEED_ORDER | XP1_MESSAGE_ORIENTED | XP1_CONNECT_DATA)

typedef HRESULT(WINAPI *get_class_fn)(REFCLSID, REFIID, void **);
typedef HRESULT(WINAPI *can_unload_fn)(void);

static GUID provider_id;
static WCHAR dll_path[MAX_PATH];

/* The catalog scan of ndutil's NdStartup: the one ND v2 entry, its path. */
static int find_provider(void)
{
	WSAPROTOCOL_INFOW *info;
	DWORD len = 0;
	int err = 0, n, i, found = 0, plen = MAX_PATH;
	WCHAR path[MAX_PATH];

	ok(WSCEnumProtocols(NULL, NULL, &len, &err) == SOCKET_ERROR && err == WSAENOBUFS, "size probe: %d\n", err);
	info = HeapAlloc(GetProcessHeap(), 0, len);
	n = WSCEnumProtocols(NULL, info, &len, &err);
	for (i = 0; i < n; i++) {
		if ((info[i].dwServiceFlags1 & XP1_ND) != XP1_ND || info[i].iVersion != ND_VERSION_2 ||
		    (info[i].dwProviderFlags & (PFL_HIDDEN | PFL_NETWORKDIRECT_PROVIDER)) !=
			    (PFL_HIDDEN | PFL_NETWORKDIRECT_PROVIDER) ||
		    (info[i].iAddressFamily != AF_INET && info[i].iAddressFamily != AF_INET6) ||
		    info[i].iSocketType != -1 || info[i].iProtocol || info[i].iProtocolMaxOffset)
			continue;
		provider_id = info[i].ProviderId;
		found++;
	}
	HeapFree(GetProcessHeap(), 0, info);
	ok(found == 1, "%d ND v2 catalog entries\n", found);
	if (found != 1)
		return 0;
	ok(WSCGetProviderPath(&provider_id, path, &plen, &err) == 0, "WSCGetProviderPath: %d\n", err);
	ok(ExpandEnvironmentStringsW(path, dll_path, MAX_PATH) > 0, "ExpandEnvironmentStringsW\n");
	return 1;
}

struct dll {
	HMODULE mod;
	get_class_fn get_class;
	can_unload_fn can_unload;
};

static int load(struct dll *d)
{
	d->mod = LoadLibraryExW(dll_path, NULL, 0);
	if (!d->mod)
		return 0;
	d->get_class = (get_class_fn)(void *)GetProcAddress(d->mod, "DllGetClassObject");
	d->can_unload = (can_unload_fn)(void *)GetProcAddress(d->mod, "DllCanUnloadNow");
	return d->get_class && d->can_unload;
}

static void class_object(struct dll *d)
{
	GUID other = provider_id, next = provider_id;
	void *p = (void *)1;
	IND2Provider *a, *b;

	other.Data1 ^= 0x100;
	ok(d->get_class(&other, &IID_IND2Provider, &p) == CLASS_E_CLASSNOTAVAILABLE && !p,
	   "another GUID: CLASS_E_CLASSNOTAVAILABLE\n");
	p = (void *)1;
	ok(d->get_class(&provider_id, &IID_IND2Adapter, &p) == E_NOINTERFACE && !p,
	   "IID_IND2Adapter: E_NOINTERFACE\n");
	{
		/* ND v1's way: a class factory, which keeps the DLL while held. */
		GUID v1 = provider_id;
		IClassFactory *f = NULL;
		INDProvider *p1 = NULL;
		IUnknown *u = (IUnknown *)1;

		v1.Data4[7] += 0x80;
		ok(d->get_class(&v1, &IID_IClassFactory, (void **)&f) == S_OK && f,
		   "IClassFactory under the v1 entry's GUID\n");
		if (f) {
			ok(d->can_unload() == S_FALSE, "factory held: S_FALSE\n");
			ok(f->lpVtbl->CreateInstance(f, NULL, &IID_IND2Provider, (void **)&u) == E_NOINTERFACE && !u,
			   "CreateInstance(IID_IND2Provider): E_NOINTERFACE\n");
			ok(f->lpVtbl->CreateInstance(f, NULL, &IID_INDProvider, (void **)&p1) == S_OK && p1,
			   "CreateInstance(IID_INDProvider)\n");
			ok(f->lpVtbl->LockServer(f, FALSE) == E_UNEXPECTED, "LockServer(FALSE) unlocked: E_UNEXPECTED\n");
			ok(f->lpVtbl->LockServer(f, TRUE) == S_OK, "LockServer(TRUE)\n");
			f->lpVtbl->Release(f);
			ok(d->can_unload() == S_FALSE, "locked, a v1 provider alive: S_FALSE\n");
			if (p1)
				ok(p1->lpVtbl->Release(p1) == 0, "Release the v1 provider: 0\n");
			ok(d->can_unload() == S_FALSE, "still locked: S_FALSE\n");
			ok(f->lpVtbl->LockServer(f, FALSE) == S_OK, "LockServer(FALSE)\n");
		}
	}
	ok(d->get_class(&provider_id, &IID_IND2Provider, NULL) == E_POINTER, "NULL out: E_POINTER\n");
	ok(d->can_unload() == S_OK, "nothing alive: DllCanUnloadNow S_OK\n");

	/* Entry i of a multi-provider catalog carries the GUID + i. */
	next.Data4[7]++;
	ok(d->get_class(&next, &IID_IND2Provider, (void **)&a) == S_OK && a, "the next entry's GUID\n");
	ok(d->get_class(&provider_id, &IID_IND2Provider, (void **)&b) == S_OK && b && b != a,
	   "a second provider object\n");
	ok(d->can_unload() == S_FALSE, "two providers alive: S_FALSE\n");
	ok(a->lpVtbl->Release(a) == 0, "Release the first: 0\n");
	ok(d->can_unload() == S_FALSE, "one provider alive: S_FALSE\n");
	ok(b->lpVtbl->Release(b) == 0, "Release the second: 0\n");
	ok(d->can_unload() == S_OK, "none alive: S_OK\n");
}

static void com_rules(IND2Provider *p)
{
	void *q = (void *)1;
	IUnknown *u;

	ok(p->lpVtbl->AddRef(p) == 2, "AddRef: 2\n");
	ok(p->lpVtbl->QueryInterface(p, &IID_IUnknown, (void **)&u) == S_OK && u == (IUnknown *)p,
	   "QueryInterface(IUnknown): the same object\n");
	ok(u->lpVtbl->Release(u) == 2, "its Release: 2\n");
	ok(p->lpVtbl->QueryInterface(p, &IID_IND2Provider, &q) == S_OK && q == p, "QueryInterface(IND2Provider)\n");
	ok(p->lpVtbl->Release(p) == 2, "Release: 2\n");
	q = (void *)1;
	ok(p->lpVtbl->QueryInterface(p, &IID_IND2Adapter, &q) == E_NOINTERFACE && !q,
	   "QueryInterface(IND2Adapter): E_NOINTERFACE, NULL\n");
	q = (void *)1;
	ok(p->lpVtbl->QueryInterface(p, &IID_IND2Overlapped, &q) == E_NOINTERFACE && !q,
	   "QueryInterface(IND2Overlapped): E_NOINTERFACE\n");
	ok(p->lpVtbl->QueryInterface(p, &IID_IUnknown, NULL) == E_POINTER, "QueryInterface(NULL): E_POINTER\n");
	ok(p->lpVtbl->Release(p) == 1, "back to 1\n");
}

static void addresses(IND2Provider *p)
{
	ULONG need = 0, cb;
	union {
		SOCKET_ADDRESS_LIST list;
		char bytes[4096];
	} buf;
	HRESULT hr;

	hr = p->lpVtbl->QueryAddressList(p, NULL, &need);
	ok(hr == ND_BUFFER_OVERFLOW && need >= FIELD_OFFSET(SOCKET_ADDRESS_LIST, Address),
	   "QueryAddressList(NULL, 0): ND_BUFFER_OVERFLOW (%#lx), size %lu\n", hr, need);
	ok(p->lpVtbl->QueryAddressList(p, NULL, NULL) == ND_INVALID_PARAMETER_2, "NULL size: ND_INVALID_PARAMETER_2\n");
	memset(&buf, 0xcc, sizeof(buf));
	cb = need - 1;
	ok(p->lpVtbl->QueryAddressList(p, &buf.list, &cb) == ND_BUFFER_OVERFLOW && cb == need &&
	   (unsigned char)buf.bytes[0] == 0xcc, "one byte short: ND_BUFFER_OVERFLOW, buffer untouched\n");
	cb = sizeof(buf);
	hr = p->lpVtbl->QueryAddressList(p, &buf.list, &cb);
	ok(hr == ND_SUCCESS && cb == need, "a big buffer: ND_SUCCESS (%#lx), size set to what was used (%lu)\n", hr, cb);
	if (hr == ND_SUCCESS && buf.list.iAddressCount) {
		printf("this host has %d ND addresses: the no-device checks are skipped\n", buf.list.iAddressCount);
		return;
	}
	ok(buf.list.iAddressCount == 0 && need == FIELD_OFFSET(SOCKET_ADDRESS_LIST, Address),
	   "no device: zero addresses in %lu bytes\n", need);
	cb = need;
	ok(p->lpVtbl->QueryAddressList(p, &buf.list, &cb) == ND_SUCCESS && cb == need, "the exact size\n");
}

static void resolve_and_open(IND2Provider *p)
{
	struct sockaddr_in sin = { 0 };
	struct sockaddr_in6 sin6 = { 0 };
	struct sockaddr sa = { 0 };
	UINT64 id = 0x5555;
	void *a = (void *)1;
	HRESULT hr;

	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	hr = p->lpVtbl->ResolveAddress(p, (struct sockaddr *)&sin, sizeof(sin), &id);
	ok(hr == ND_INVALID_ADDRESS && id == 0x5555, "ResolveAddress(127.0.0.1): ND_INVALID_ADDRESS (%#lx)\n", hr);
	sin6.sin6_family = AF_INET6;
	sin6.sin6_addr.s6_addr[15] = 1;
	ok(p->lpVtbl->ResolveAddress(p, (struct sockaddr *)&sin6, sizeof(sin6), &id) == ND_INVALID_ADDRESS,
	   "ResolveAddress(::1): ND_INVALID_ADDRESS\n");
	ok(p->lpVtbl->ResolveAddress(p, (struct sockaddr *)&sin, sizeof(sin) - 1, &id) == ND_INVALID_ADDRESS,
	   "a short sockaddr_in: ND_INVALID_ADDRESS\n");
	sa.sa_family = AF_UNSPEC;
	ok(p->lpVtbl->ResolveAddress(p, &sa, sizeof(sa), &id) == ND_INVALID_ADDRESS, "AF_UNSPEC: ND_INVALID_ADDRESS\n");
	ok(p->lpVtbl->ResolveAddress(p, NULL, sizeof(sin), &id) == ND_INVALID_PARAMETER_1,
	   "NULL address: ND_INVALID_PARAMETER_1\n");
	ok(p->lpVtbl->ResolveAddress(p, (struct sockaddr *)&sin, sizeof(sin), NULL) == ND_INVALID_PARAMETER_3,
	   "NULL id: ND_INVALID_PARAMETER_3\n");

	hr = p->lpVtbl->OpenAdapter(p, &IID_IND2Adapter, 0x1234, &a);
	ok(hr == ND_INVALID_PARAMETER && !a, "OpenAdapter(unknown id): ND_INVALID_PARAMETER (%#lx)\n", hr);
	a = (void *)1;
	ok(p->lpVtbl->OpenAdapter(p, &IID_IND2Adapter, 0, &a) == ND_INVALID_PARAMETER && !a,
	   "OpenAdapter(0): ND_INVALID_PARAMETER\n");
	a = (void *)1;
	ok(p->lpVtbl->OpenAdapter(p, &IID_IND2Provider, 0x1234, &a) == E_NOINTERFACE && !a,
	   "OpenAdapter(IID_IND2Provider): E_NOINTERFACE\n");
	ok(p->lpVtbl->OpenAdapter(p, &IID_IND2Adapter, 0x1234, NULL) == ND_INVALID_PARAMETER_3,
	   "OpenAdapter(NULL out): ND_INVALID_PARAMETER_3\n");
}

/* What ndutil does around every call: load, get the provider, use it,
 * release it, unload when DllCanUnloadNow says so. */
static void cycles(int n)
{
	int i, good = 0;

	for (i = 0; i < n; i++) {
		struct dll d;
		IND2Provider *p = NULL;
		ULONG cb = 0;
		int fine;

		if (!load(&d))
			break;
		fine = d.get_class(&provider_id, &IID_IND2Provider, (void **)&p) == S_OK &&
		       p->lpVtbl->QueryAddressList(p, NULL, &cb) == ND_BUFFER_OVERFLOW && cb &&
		       d.can_unload() == S_FALSE && p->lpVtbl->Release(p) == 0 && d.can_unload() == S_OK;
		fine &= FreeLibrary(d.mod);
		good += fine;
	}
	ok(good == n, "%d of %d load/use/unload cycles\n", good, n);
}

int main(void)
{
	WSADATA wsa;
	struct dll d;
	IND2Provider *p = NULL;

	ok(WSAStartup(MAKEWORD(2, 2), &wsa) == 0, "WSAStartup\n");
	if (!find_provider())
		return test_summary();
	ok(load(&d), "LoadLibraryExW(%ls) with DllGetClassObject and DllCanUnloadNow: %lu\n", dll_path,
	   GetLastError());
	if (!d.mod)
		return test_summary();
	class_object(&d);
	ok(d.get_class(&provider_id, &IID_IND2Provider, (void **)&p) == S_OK && p, "DllGetClassObject\n");
	com_rules(p);
	addresses(p);
	resolve_and_open(p);
	ok(d.can_unload() == S_FALSE, "provider alive: S_FALSE\n");
	ok(p->lpVtbl->Release(p) == 0, "Release: 0\n");
	ok(d.can_unload() == S_OK, "released: S_OK\n");
	ok(FreeLibrary(d.mod), "FreeLibrary\n");
	cycles(100);
	WSACleanup();
	return test_summary();
}

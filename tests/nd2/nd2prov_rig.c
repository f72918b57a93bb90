/* nd2prov.dll end to end on a real rdma-core device (Soft-RoCE rig), run
 * under ndrun inside the guests by tests/vm/suites/nd2prov.sh:
 *
 *   nd2prov_rig server ADDR PEER     the passive side
 *   nd2prov_rig client ADDR PEER     the active side
 *
 * (on one guest, two processes with ADDR == PEER).  It finds the provider
 * through the Winsock catalog as ND clients do, then checks the
 * connector/listener paths, the overlapped rules (skip-on-success,
 * packets, events, low-bit events, GetOverlappedResult across objects),
 * receives posted before the connection, data transfer, Flush, and
 * releasing objects with requests pending before closing the file, and
 * both sides connecting to each other at once (the server rejects).
 * Prints "ok: ..." / "FAIL: ..." per check; exits 1 if any failed. */
#include <winsock2.h>
#include <ws2tcpip.h>
#include <ws2spi.h>
#include <windows.h>
#include <initguid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ndcatalog.h"
#include "ndcheck.h"
#include "ndspi.h"

#define PORT 54400
#define NOPORT 54998
#define KEY 0x77
#define RECVS 16
#define SLOT 65536
#define STATUS_ADDRESS_ALREADY_ASSOCIATED ((HRESULT)0xC0000238L)

/* "server" or "client": also the private data of the simultaneous connects. */
static const char *role = "?";

typedef HRESULT(WINAPI *can_unload_fn)(void);

struct side {
	HMODULE dll;
	can_unload_fn can_unload;
	IND2Adapter *ad;
	ND2_ADAPTER_INFO info;
	HANDLE file, port;
	IND2CompletionQueue *cq;
	IND2QueuePair *qp;
	IND2MemoryRegion *mr;
	IND2Listener *listener;
	char *buf;
	UINT32 token;
};

/* ---- waiting (wait_port, wait_packet, wait_ov, no_packet: ndcheck.c) ---------------- */
static int get_one(struct side *s, ND2_RESULT *r, DWORD ms)
{
	return get_result(s->cq, r, ms);
}

/* ---- discovery: the catalog, the DLL, the provider --------------------------------- */
static IND2Provider *get_provider(struct side *s, GUID *id_out, WCHAR *path_out)
{
	IND2Provider *p = NULL;
	get_class_fn get_class;
	GUID id;

	path_out[0] = 0;
	if (!nd_find_entry(ND_VERSION_2, PFL_HIDDEN | PFL_NETWORKDIRECT_PROVIDER, &id))
		return NULL;
	get_class = nd_load_entry(&id, &s->dll, path_out);
	if (!s->dll)
		return NULL;
	s->can_unload = (can_unload_fn)(void *)GetProcAddress(s->dll, "DllCanUnloadNow");
	if (!get_class || !s->can_unload || get_class(&id, &IID_IND2Provider, (void **)&p) != S_OK)
		return NULL;
	*id_out = id;
	return p;
}

/* QueryAddressList (sizing protocol) lists ip; ResolveAddress gives its id. */
static UINT64 find_adapter(IND2Provider *p, const char *ip)
{
	struct sockaddr_in want = addr_of(ip, 0);
	SOCKET_ADDRESS_LIST *list;
	ULONG cb = 0;
	UINT64 id = 0;
	int i, found = 0;

	if (p->lpVtbl->QueryAddressList(p, NULL, &cb) != ND_BUFFER_OVERFLOW)
		return 0;
	list = malloc(cb);
	if (p->lpVtbl->QueryAddressList(p, list, &cb) == ND_SUCCESS)
		for (i = 0; i < list->iAddressCount; i++) {
			struct sockaddr_in *a = (struct sockaddr_in *)list->Address[i].lpSockaddr;
			if (a->sin_family == AF_INET && a->sin_addr.s_addr == want.sin_addr.s_addr)
				found = 1;
		}
	free(list);
	if (found && p->lpVtbl->ResolveAddress(p, (struct sockaddr *)&want, sizeof(want), &id) != ND_SUCCESS)
		id = 0;
	return id;
}

/* ndutil's way: provider obtained, used and released per call; the DLL
 * unloaded whenever DllCanUnloadNow says so. */
static void discovery_cycles(const char *ip, int n)
{
	int i, good = 0;

	for (i = 0; i < n; i++) {
		struct side t = { 0 };
		GUID id;
		WCHAR path[MAX_PATH];
		IND2Provider *p = get_provider(&t, &id, path);
		IND2Adapter *a = NULL;
		UINT64 aid;
		int fine = 0;

		if (p) {
			aid = find_adapter(p, ip);
			fine = aid && p->lpVtbl->OpenAdapter(p, &IID_IND2Adapter, aid, (void **)&a) == ND_SUCCESS;
			fine &= p->lpVtbl->Release(p) == 0;
			/* The adapter keeps the DLL in use after the provider goes. */
			fine &= t.can_unload() == S_FALSE;
			if (a)
				fine &= a->lpVtbl->Release(a) == 0;
			fine &= t.can_unload() == S_OK;
		}
		if (t.dll)
			fine &= FreeLibrary(t.dll);
		good += fine;
	}
	check(good == n, "%d of %d catalog/load/open/release/unload cycles", good, n);
}

static void open_side(struct side *s, const char *ip)
{
	IND2Provider *p;
	GUID id;
	WCHAR path[MAX_PATH];
	UINT64 aid;
	ULONG cb;
	HRESULT st;
	OVERLAPPED ov = { 0 };
	ND2_ADAPTER_INFO info;

	p = get_provider(s, &id, path);
	check(p != NULL, "the catalog's ND v2 entry loads %ls and gives an IND2Provider", path);
	if (!p)
		exit(1);
	aid = find_adapter(p, ip);
	check(aid != 0, "QueryAddressList lists %s; ResolveAddress gives adapter %#llx", ip, (unsigned long long)aid);
	st = p->lpVtbl->OpenAdapter(p, &IID_IND2Adapter, aid, (void **)&s->ad);
	check(st == ND_SUCCESS, "OpenAdapter (%#lx)", st);
	check(p->lpVtbl->Release(p) == 0, "the provider released, the adapter stays");
	if (!s->ad)
		exit(1);

	cb = 0;
	st = s->ad->lpVtbl->Query(s->ad, NULL, &cb);
	check(st == ND_BUFFER_OVERFLOW && cb == sizeof(info), "Query(NULL, 0): ND_BUFFER_OVERFLOW, size %lu", cb);
	memset(&info, 0, sizeof(info));
	info.InfoVersion = 1;
	cb = sizeof(info) + 8;
	st = s->ad->lpVtbl->Query(s->ad, &info, &cb);
	check(st == ND_SUCCESS && cb == sizeof(info) && info.AdapterId == aid, "Query with InfoVersion 1");
	s->info.InfoVersion = ND_VERSION_2;
	cb = sizeof(s->info);
	st = s->ad->lpVtbl->Query(s->ad, &s->info, &cb);
	check(st == ND_SUCCESS && s->info.InfoVersion == ND_VERSION_2, "Query with InfoVersion ND_VERSION_2");
	check(s->info.MaxCallerData >= 56 && s->info.MaxCalleeData >= 56 && s->info.MaxCompletionQueueDepth >= 160 &&
		      s->info.MaxReceiveQueueDepth >= 128 && s->info.MaxInitiatorQueueDepth >= 32 &&
		      s->info.MaxInboundReadLimit >= 16 && s->info.MaxOutboundReadLimit >= 16 &&
		      s->info.MaxTransferLength >= 1u << 20,
	      "Query: limits clients need (caller %lu callee %lu cq %lu recv %lu init %lu read %lu/%lu xfer %lu flags %#lx)",
	      s->info.MaxCallerData, s->info.MaxCalleeData, s->info.MaxCompletionQueueDepth, s->info.MaxReceiveQueueDepth,
	      s->info.MaxInitiatorQueueDepth, s->info.MaxInboundReadLimit, s->info.MaxOutboundReadLimit,
	      s->info.MaxTransferLength, s->info.AdapterFlags);

	/* rxe's messages stop at 8 MiB (its port's max_msg_sz): reported as it is. */
	if (s->info.MaxTransferLength < 32u << 20)
		printf("    note: MaxTransferLength %lu is below the 32 MiB MS-MPI expects (the device's limit)\n",
		       s->info.MaxTransferLength);
	check(s->ad->lpVtbl->CreateOverlappedFile(s->ad, &s->file) == ND_SUCCESS && s->file, "CreateOverlappedFile");
	s->port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 0);
	check(CreateIoCompletionPort(s->file, s->port, KEY, 0) == s->port, "the file joins a completion port");

	st = s->ad->lpVtbl->CreateCompletionQueue(s->ad, &IID_IND2CompletionQueue, s->file, 0, 0, 0, (void **)&s->cq);
	check(st == ND_INVALID_PARAMETER_3, "CreateCompletionQueue(depth 0): ND_INVALID_PARAMETER_3");
	st = s->ad->lpVtbl->CreateCompletionQueue(s->ad, &IID_IND2CompletionQueue, s->file,
						  s->info.MaxCompletionQueueDepth + 1, 0, 0, (void **)&s->cq);
	check(st == ND_INVALID_PARAMETER_3, "CreateCompletionQueue(over the limit): ND_INVALID_PARAMETER_3");
	st = s->ad->lpVtbl->CreateCompletionQueue(s->ad, &IID_IND2QueuePair, s->file, 64, 0, 0, (void **)&s->cq);
	check(st == E_NOINTERFACE, "CreateCompletionQueue(IID_IND2QueuePair): E_NOINTERFACE");
	/* A small CQ shared by deep queues: depths are not checked against it. */
	st = s->ad->lpVtbl->CreateCompletionQueue(s->ad, &IID_IND2CompletionQueue, s->file, 512, 0, 0, (void **)&s->cq);
	check(st == ND_SUCCESS, "CreateCompletionQueue(512)");

	st = s->ad->lpVtbl->CreateQueuePair(s->ad, &IID_IND2QueuePair, (IUnknown *)s->cq, (IUnknown *)s->cq, (void *)0xC0FFEE,
					    s->info.MaxReceiveQueueDepth + 1, 64, 1, 1, 0, (void **)&s->qp);
	check(st == ND_INVALID_PARAMETER_5, "CreateQueuePair(receive depth over the limit): ND_INVALID_PARAMETER_5");
	st = s->ad->lpVtbl->CreateQueuePair(s->ad, &IID_IND2QueuePair, (IUnknown *)s->cq, (IUnknown *)s->cq, (void *)0xC0FFEE,
					    128, 64, s->info.MaxReceiveSge + 1, 1, 0, (void **)&s->qp);
	check(st == ND_INVALID_PARAMETER_7, "CreateQueuePair(receive SGEs over the limit): ND_INVALID_PARAMETER_7");
	st = s->ad->lpVtbl->CreateQueuePair(s->ad, &IID_IND2QueuePair, (IUnknown *)s->ad, (IUnknown *)s->cq, (void *)0xC0FFEE,
					    128, 64, 1, 1, 0, (void **)&s->qp);
	check(st == ND_INVALID_PARAMETER_2, "CreateQueuePair(an adapter as CQ): ND_INVALID_PARAMETER_2");
	st = s->ad->lpVtbl->CreateQueuePair(s->ad, &IID_IND2QueuePair, (IUnknown *)s->cq, (IUnknown *)s->cq, (void *)0xC0FFEE,
					    128, 64, 1, 1, 64, (void **)&s->qp);
	check(st == ND_SUCCESS, "CreateQueuePair(128, 64) on one CQ");

	st = s->ad->lpVtbl->CreateMemoryRegion(s->ad, &IID_IND2MemoryRegion, s->file, (void **)&s->mr);
	check(st == ND_SUCCESS, "CreateMemoryRegion");
	s->buf = VirtualAlloc(NULL, (RECVS + 1) * SLOT, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
	check(s->mr->lpVtbl->Register(s->mr, NULL, 0, 0, &ov) == ND_INVALID_PARAMETER, "Register(NULL, 0): ND_INVALID_PARAMETER");
	check(s->mr->lpVtbl->Register(s->mr, s->buf, 0, 0, &ov) == ND_INVALID_BUFFER_SIZE,
	      "Register(buf, 0): ND_INVALID_BUFFER_SIZE");
	check(no_packet(s->port, 50), "failed requests leave no packet");
	st = s->mr->lpVtbl->Register(s->mr, s->buf, (RECVS + 1) * SLOT,
				     ND_MR_FLAG_ALLOW_LOCAL_WRITE | ND_MR_FLAG_ALLOW_REMOTE_READ | ND_MR_FLAG_ALLOW_REMOTE_WRITE, &ov);
	check(st == ND_PENDING && wait_port(s->port, &ov, 5000) == ND_SUCCESS,
	      "Register pends, then its packet arrives on the port (%#lx)", st);
	check(s->mr->lpVtbl->GetOverlappedResult(s->mr, &ov, FALSE) == ND_SUCCESS, "GetOverlappedResult: ND_SUCCESS");
	s->token = s->mr->lpVtbl->GetLocalToken(s->mr);
}

/* Overlapped rules, no peer needed. */
static void overlapped_rules(struct side *s)
{
	OVERLAPPED a = { 0 }, b = { 0 }, c = { 0 };
	HANDLE ev = CreateEventW(NULL, TRUE, FALSE, NULL);
	IND2MemoryRegion *mr2;
	IND2Overlapped *o;
	HRESULT st;
	BOOL pk = TRUE;
	char *buf = VirtualAlloc(NULL, 65536, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);

	check(s->cq->lpVtbl->QueryInterface(s->cq, &IID_IND2Overlapped, (void **)&o) == S_OK && (void *)o == s->cq &&
		      o->lpVtbl->Release(o) == 1,
	      "CQ: QueryInterface(IND2Overlapped), exact counts");
	check(s->qp->lpVtbl->QueryInterface(s->qp, &IID_IND2Overlapped, (void **)&o) == E_NOINTERFACE,
	      "QP: no IND2Overlapped");

	/* Notify pends; GetOverlappedResult through another object of the
	 * adapter sees it; cancel completes it ND_CANCELED, packet first. */
	st = s->cq->lpVtbl->Notify(s->cq, ND_CQ_NOTIFY_ANY, &a);
	check(st == ND_PENDING, "Notify(ANY) pends on an idle CQ");
	check(s->mr->lpVtbl->GetOverlappedResult(s->mr, &a, FALSE) == ND_PENDING,
	      "GetOverlappedResult(FALSE) of the CQ's request through the MR: ND_PENDING");
	st = s->cq->lpVtbl->Notify(s->cq, ND_CQ_NOTIFY_SOLICITED, &b);
	check(s->cq->lpVtbl->Notify(s->cq, 7, &c) == ND_INVALID_PARAMETER_1, "Notify(type 7): ND_INVALID_PARAMETER_1");
	check(s->cq->lpVtbl->CancelOverlappedRequests(s->cq) == ND_SUCCESS, "CancelOverlappedRequests");
	check((HRESULT)a.Internal == ND_CANCELED && (HRESULT)b.Internal == ND_CANCELED,
	      "both Notify requests ended ND_CANCELED before Cancel returned");
	{
		DWORD bytes;
		ULONG_PTR key;
		OVERLAPPED *g1 = NULL, *g2 = NULL;
		BOOL r1 = GetQueuedCompletionStatus(s->port, &bytes, &key, &g1, 0);
		BOOL r2 = GetQueuedCompletionStatus(s->port, &bytes, &key, &g2, 0);
		check(!r1 && !r2 && g1 == &a && g2 == &b && GetLastError() == ERROR_OPERATION_ABORTED,
		      "their packets wait on the port, in issue order, as failures (timeout 0)");
	}
	check(s->mr->lpVtbl->GetOverlappedResult(s->mr, &a, TRUE) == ND_CANCELED,
	      "GetOverlappedResult(TRUE) through the MR: ND_CANCELED");

	/* Events: the event is set; a low bit means no packet. */
	st = s->ad->lpVtbl->CreateMemoryRegion(s->ad, &IID_IND2MemoryRegion, s->file, (void **)&mr2);
	memset(&a, 0, sizeof(a));
	a.hEvent = (HANDLE)((ULONG_PTR)ev | 1);
	st = mr2->lpVtbl->Register(mr2, buf, 65536, ND_MR_FLAG_ALLOW_LOCAL_WRITE, &a);
	check(st == ND_PENDING && WaitForSingleObject(ev, 5000) == WAIT_OBJECT_0 && no_packet(s->port, 200),
	      "Register with a low-bit event: the event is set, no packet");
	check(mr2->lpVtbl->GetOverlappedResult(mr2, &a, TRUE) == ND_SUCCESS, "GetOverlappedResult(TRUE) on it");
	ResetEvent(ev);
	memset(&b, 0, sizeof(b));
	b.hEvent = ev;
	st = mr2->lpVtbl->Deregister(mr2, &b);
	check(st == ND_PENDING && WaitForSingleObject(ev, 5000) == WAIT_OBJECT_0 &&
		      wait_packet(s->port, &b, 5000, &pk) == ND_SUCCESS && pk,
	      "Deregister with an event: the event is set and the packet arrives");
	check(s->cq->lpVtbl->GetOverlappedResult(s->cq, &b, TRUE) == ND_SUCCESS,
	      "GetOverlappedResult(TRUE) of the MR's request through the CQ");
	check(mr2->lpVtbl->Release(mr2) == 0, "release the second MR");
	/* A synchronous failure touches neither. */
	ResetEvent(ev);
	check(s->mr->lpVtbl->Register(s->mr, NULL, 0, 0, &b) == ND_INVALID_PARAMETER &&
		      WaitForSingleObject(ev, 100) == WAIT_TIMEOUT && no_packet(s->port, 100),
	      "a synchronous failure: no event, no packet");
	CloseHandle(ev);
	VirtualFree(buf, 0, MEM_RELEASE);
}

/* Objects released with requests pending, then the file closed; and the
 * file closed first, then the objects released. */
static void release_pending(struct side *s, const char *ip, int close_first)
{
	HANDLE f;
	IND2CompletionQueue *cq;
	IND2Listener *l;
	IND2Connector *c, *c2;
	OVERLAPPED a = { 0 }, b = { 0 }, d = { 0 };
	struct sockaddr_in sa = addr_of(ip, (USHORT)(PORT + 10 + close_first));
	HRESULT s1, s2, s3;
	ULONG n;

	s->ad->lpVtbl->CreateOverlappedFile(s->ad, &f);
	s->ad->lpVtbl->CreateCompletionQueue(s->ad, &IID_IND2CompletionQueue, f, 16, 0, 0, (void **)&cq);
	s->ad->lpVtbl->CreateListener(s->ad, &IID_IND2Listener, f, (void **)&l);
	s->ad->lpVtbl->CreateConnector(s->ad, &IID_IND2Connector, f, (void **)&c);
	s->ad->lpVtbl->CreateConnector(s->ad, &IID_IND2Connector, f, (void **)&c2);
	l->lpVtbl->Bind(l, (struct sockaddr *)&sa, sizeof(sa));
	l->lpVtbl->Listen(l, 0);
	s1 = cq->lpVtbl->Notify(cq, ND_CQ_NOTIFY_ANY, &a);
	s2 = l->lpVtbl->GetConnectionRequest(l, (IUnknown *)c, &b);
	s3 = l->lpVtbl->GetConnectionRequest(l, (IUnknown *)c, &d);
	check(s1 == ND_PENDING && s2 == ND_PENDING && s3 == ND_INVALID_PARAMETER_1,
	      "Notify and GetConnectionRequest pend; the same connector twice: ND_INVALID_PARAMETER_1");
	if (close_first)
		check(CloseHandle(f), "close the overlapped file with requests pending");
	check(c->lpVtbl->Release(c) == 0, "release the connector lent to a pending GetConnectionRequest: 0");
	check(c2->lpVtbl->Release(c2) == 0, "release an idle connector: 0");
	n = cq->lpVtbl->Release(cq);
	check(n == 0 && (HRESULT)a.Internal == ND_CANCELED, "release the CQ: 0, its Notify ended (%#lx)",
	      (HRESULT)a.Internal);
	n = l->lpVtbl->Release(l);
	check(n == 0 && (HRESULT)b.Internal == ND_CANCELED, "release the listener: 0, its request ended (%#lx)",
	      (HRESULT)b.Internal);
	if (!close_first)
		check(CloseHandle(f), "then close the overlapped file");
}

/* ---- the passive side ------------------------------------------------------------ */
static const char reject_data[] = "no thanks";
static const char accept_data[] = "server-hello: welcome aboard";
static const char client_data[] = "client-hello, from MS-MPI 28";
static const ULONG sizes[] = { 1, 100, 4096, 65536 };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

static void fill(char *p, ULONG n, ULONG seed)
{
	ULONG i;
	for (i = 0; i < n; i++)
		p[i] = (char)(seed * 31 + i * 7);
}

static int verify(const char *p, ULONG n, ULONG seed)
{
	ULONG i;
	for (i = 0; i < n; i++)
		if (p[i] != (char)(seed * 31 + i * 7))
			return 0;
	return 1;
}

static HRESULT post_recv(struct side *s, int slot)
{
	ND2_SGE sge = { s->buf + slot * SLOT, SLOT, s->token };
	return s->qp->lpVtbl->Receive(s->qp, (void *)(ULONG_PTR)(0x1000 + slot), &sge, 1);
}

static HRESULT send_buf(struct side *s, const void *data, ULONG len, ULONG flags, ULONG_PTR ctx)
{
	ND2_SGE sge = { (void *)data, len, s->token };
	return s->qp->lpVtbl->Send(s->qp, (void *)ctx, len ? &sge : NULL, len ? 1 : 0, flags);
}

static IND2Connector *new_connector(struct side *s)
{
	IND2Connector *c = NULL;
	s->ad->lpVtbl->CreateConnector(s->ad, &IID_IND2Connector, s->file, (void **)&c);
	return c;
}

static void server(struct side *s, const char *ip, const char *peer)
{
	struct sockaddr_in sa = addr_of(ip, PORT), got;
	IND2Connector *c;
	OVERLAPPED ov = { 0 }, nd = { 0 }, dc = { 0 };
	char data[256];
	ULONG len, cb, in = 0, out = 0, i;
	ND2_RESULT r;
	HRESULT st;
	int ok, slot;

	s->ad->lpVtbl->CreateListener(s->ad, &IID_IND2Listener, s->file, (void **)&s->listener);
	cb = sizeof(got);
	check(s->listener->lpVtbl->GetLocalAddress(s->listener, (struct sockaddr *)&got, &cb) == ND_INVALID_DEVICE_STATE,
	      "Listener GetLocalAddress before Bind: ND_INVALID_DEVICE_STATE");
	check(s->listener->lpVtbl->Bind(s->listener, (struct sockaddr *)&sa, sizeof(sa)) == ND_SUCCESS, "Listener Bind");
	/* MS-MPI asks for the bound port before it listens. */
	cb = sizeof(got);
	check(s->listener->lpVtbl->GetLocalAddress(s->listener, (struct sockaddr *)&got, &cb) == ND_SUCCESS &&
		      got.sin_port == htons(PORT),
	      "Listener GetLocalAddress bound, before Listen: our port");
	check(s->listener->lpVtbl->Bind(s->listener, (struct sockaddr *)&sa, sizeof(sa)) == STATUS_ADDRESS_ALREADY_ASSOCIATED,
	      "second Bind: STATUS_ADDRESS_ALREADY_ASSOCIATED");
	check(s->listener->lpVtbl->Listen(s->listener, 0) == ND_SUCCESS, "Listen");
	cb = 0;
	st = s->listener->lpVtbl->GetLocalAddress(s->listener, NULL, &cb);
	check(st == ND_BUFFER_OVERFLOW && cb == sizeof(got), "GetLocalAddress(NULL, 0): ND_BUFFER_OVERFLOW, %lu", cb);
	cb = sizeof(got);
	check(s->listener->lpVtbl->GetLocalAddress(s->listener, (struct sockaddr *)&got, &cb) == ND_SUCCESS &&
		      got.sin_port == htons(PORT),
	      "GetLocalAddress: our port");

	for (slot = 0, ok = 1; slot < RECVS; slot++)
		ok &= post_recv(s, slot) == ND_SUCCESS;
	check(ok, "%d Receives posted before Accept", RECVS);

	/* First request: reject it, with data. */
	c = new_connector(s);
	st = s->listener->lpVtbl->GetConnectionRequest(s->listener, (IUnknown *)c, &ov);
	check(st == ND_PENDING && wait_port(s->port, &ov, 120000) == ND_SUCCESS,
	      "GetConnectionRequest pends, its packet comes with the first request");
	len = 0;
	st = c->lpVtbl->GetPrivateData(c, NULL, &len);
	check(st == ND_BUFFER_OVERFLOW && len >= 28, "GetPrivateData(NULL, &0): ND_BUFFER_OVERFLOW, size %lu", len);
	check(c->lpVtbl->Reject(c, reject_data, s->info.MaxCalleeData + 1) == ND_INVALID_BUFFER_SIZE,
	      "Reject with too much private data: ND_INVALID_BUFFER_SIZE");
	check(c->lpVtbl->Reject(c, reject_data, sizeof(reject_data)) == ND_SUCCESS, "Reject with private data");
	check(c->lpVtbl->Release(c) == 0, "release the rejected connector: 0");

	/* Second request: accept it. */
	c = new_connector(s);
	memset(&ov, 0, sizeof(ov));
	st = s->listener->lpVtbl->GetConnectionRequest(s->listener, (IUnknown *)c, &ov);
	check(st == ND_PENDING && wait_port(s->port, &ov, 60000) == ND_SUCCESS, "GetConnectionRequest for the second");
	len = sizeof(data);
	st = c->lpVtbl->GetPrivateData(c, data, &len);
	check(st == ND_SUCCESS && len >= 28 && !memcmp(data, client_data, 28), "GetPrivateData: the client's 28 bytes");
	st = c->lpVtbl->GetReadLimits(c, &in, &out);
	check(st == ND_SUCCESS && in == 8 && out == 4, "GetReadLimits: the client's 8/4 (got %lu/%lu)", in, out);
	cb = sizeof(got);
	check(c->lpVtbl->GetPeerAddress(c, (struct sockaddr *)&got, &cb) == ND_SUCCESS &&
		      got.sin_addr.s_addr == inet_addr(peer),
	      "GetPeerAddress: %s", peer);
	memset(&ov, 0, sizeof(ov));
	check(c->lpVtbl->Accept(c, (IUnknown *)s->qp, 16, 16, data, s->info.MaxCalleeData + 1, &ov) == ND_INVALID_BUFFER_SIZE &&
		      no_packet(s->port, 50),
	      "Accept with too much private data: ND_INVALID_BUFFER_SIZE, no packet");
	st = c->lpVtbl->Accept(c, (IUnknown *)s->qp, 16, 16, accept_data, sizeof(accept_data), &ov);
	check(st == ND_PENDING && wait_port(s->port, &ov, 30000) == ND_SUCCESS, "Accept pends, then completes (%#lx)", st);
	check(c->lpVtbl->NotifyDisconnect(c, &nd) == ND_PENDING, "NotifyDisconnect pends");

	for (i = 0, ok = 1; i < NSIZES && ok; i++) {
		ok = get_one(s, &r, 30000) && r.RequestType == Nd2RequestTypeReceive && r.Status == ND_SUCCESS &&
		     r.BytesTransferred == sizes[i] && r.QueuePairContext == (void *)0xC0FFEE &&
		     r.RequestContext == (void *)(ULONG_PTR)(0x1000 + i) && verify(s->buf + i * SLOT, sizes[i], i);
		post_recv(s, (int)i);
	}
	check(ok, "received %u messages in the order posted, data intact", (unsigned)NSIZES);
	ok = get_one(s, &r, 30000) && r.Status == ND_SUCCESS && r.BytesTransferred == 32 &&
	     verify(s->buf + 4 * SLOT, 32, 99);
	check(ok, "the inline Send arrived");
	ok = get_one(s, &r, 30000) && r.Status == ND_SUCCESS && r.BytesTransferred == 0 &&
	     r.RequestContext == (void *)0x1005;
	check(ok, "the zero-byte Send arrived as a zero-byte receive");
	fill(s->buf + RECVS * SLOT, 64, 5);
	ok = send_buf(s, s->buf + RECVS * SLOT, 64, 0, 0x5E) == ND_SUCCESS && get_one(s, &r, 30000) &&
	     r.Status == ND_SUCCESS && r.RequestType == Nd2RequestTypeSend && r.RequestContext == (void *)0x5E;
	check(ok, "a Send back completes with its context");

	check(wait_port(s->port, &nd, 60000) == ND_SUCCESS, "NotifyDisconnect completes when the client disconnects");
	st = c->lpVtbl->Disconnect(c, &dc);
	check(wait_ov(s->port, st, &dc, 30000) == ND_SUCCESS, "Disconnect (%#lx)", st);
	for (i = 6, ok = 1; i < RECVS; i++)
		ok &= get_one(s, &r, 10000) && r.Status == ND_CANCELED && r.RequestType == Nd2RequestTypeReceive;
	check(ok, "Disconnect flushed the posted Receives: ND_CANCELED, RequestType Receive");
	check(c->lpVtbl->Release(c) == 0, "release the connector: 0");
}

/* ---- the active side --------------------------------------------------------------- */
static HRESULT try_connect(struct side *s, IND2Connector *c, const char *ip, USHORT port, const void *pd, ULONG len)
{
	struct sockaddr_in dst = addr_of(ip, port);
	OVERLAPPED ov = { 0 };
	HRESULT st = c->lpVtbl->Connect(c, (IUnknown *)s->qp, (struct sockaddr *)&dst, sizeof(dst), 4, 8, pd, len, &ov);

	return wait_ov(s->port, st, &ov, 30000);
}

static void client(struct side *s, const char *ip, const char *peer)
{
	struct sockaddr_in me = addr_of(ip, 0), got;
	IND2Connector *c;
	OVERLAPPED ov = { 0 };
	char data[256], big[256], stackbuf[32];
	ULONG len, cb, in = 0, out = 0, i;
	ND2_RESULT r;
	HRESULT st;
	DWORD t0;
	int ok, slot, tries;

	for (slot = 0, ok = 1; slot < RECVS; slot++)
		ok &= post_recv(s, slot) == ND_SUCCESS;
	check(ok, "%d Receives posted before Connect", RECVS);
	check(send_buf(s, s->buf, 1, 0, 1) == ND_CONNECTION_INVALID, "Send before connecting: ND_CONNECTION_INVALID");

	c = new_connector(s);
	st = try_connect(s, c, peer, NOPORT, NULL, 0);
	check(st == ND_CONNECTION_REFUSED, "Connect to a port nobody serves: ND_CONNECTION_REFUSED (%#lx)", st);
	check(c->lpVtbl->Release(c) == 0, "release it: 0");
	c = new_connector(s);
	if (strcmp(ip, peer)) {
		t0 = GetTickCount();
		st = try_connect(s, c, "198.18.0.99", PORT, NULL, 0);
		check(st != ND_SUCCESS && st != 1, "Connect to an address no host has fails (%#lx) in %lu ms", st,
		      GetTickCount() - t0);
	} else {
		struct sockaddr_in dst = addr_of("198.18.0.99", PORT);
		BOOL pk = TRUE;
		st = c->lpVtbl->Connect(c, (IUnknown *)s->qp, (struct sockaddr *)&dst, sizeof(dst), 0, 0, NULL, 0, &ov);
		Sleep(100);
		c->lpVtbl->CancelOverlappedRequests(c);
		check(st == ND_PENDING && wait_packet(s->port, &ov, 0, &pk) == ND_CANCELED && !pk,
		      "Connect to nobody, cancelled: ND_CANCELED on the port at once");
	}
	check(c->lpVtbl->Release(c) == 0, "release it: 0");

	c = new_connector(s);
	check(c->lpVtbl->Bind(c, (struct sockaddr *)&me, sizeof(me)) == ND_SUCCESS, "Connector Bind %s:0", ip);
	check(c->lpVtbl->Bind(c, (struct sockaddr *)&me, sizeof(me)) == STATUS_ADDRESS_ALREADY_ASSOCIATED,
	      "second Bind: STATUS_ADDRESS_ALREADY_ASSOCIATED");
	memset(big, 'x', sizeof(big));
	memset(&ov, 0, sizeof(ov));
	st = try_connect(s, c, peer, PORT, big, s->info.MaxCallerData + 1);
	check(st == ND_INVALID_BUFFER_SIZE && no_packet(s->port, 50), "Connect with %lu bytes of private data: ND_INVALID_BUFFER_SIZE",
	      s->info.MaxCallerData + 1);

	/* The server rejects its first request: retry until it listens. */
	for (tries = 0; tries < 60; tries++) {
		st = try_connect(s, c, peer, PORT, client_data, 28);
		len = sizeof(data);
		memset(data, 0, sizeof(data));
		if (st == ND_CONNECTION_REFUSED && c->lpVtbl->GetPrivateData(c, data, &len) == ND_SUCCESS &&
		    !memcmp(data, reject_data, sizeof(reject_data)))
			break;
		Sleep(1000);
	}
	check(tries < 60, "the rejected Connect completes ND_CONNECTION_REFUSED with the reject's data");
	st = try_connect(s, c, peer, PORT, client_data, 28);
	check(st == ND_SUCCESS, "the same connector connects after the refusal (%#lx)", st);
	len = sizeof(data);
	check(c->lpVtbl->GetPrivateData(c, data, &len) == ND_SUCCESS && !memcmp(data, accept_data, sizeof(accept_data)),
	      "GetPrivateData: the Accept's data");
	st = c->lpVtbl->GetReadLimits(c, &in, &out);
	check(st == ND_SUCCESS && in && out, "GetReadLimits after the Accept: %lu/%lu", in, out);
	memset(&ov, 0, sizeof(ov));
	{
		struct sockaddr_in dst = addr_of(peer, PORT);
		check(c->lpVtbl->Connect(c, (IUnknown *)s->qp, (struct sockaddr *)&dst, sizeof(dst), 0, 0, NULL, 0, &ov) ==
			      ND_CONNECTION_ACTIVE && no_packet(s->port, 50),
		      "a second Connect: ND_CONNECTION_ACTIVE");
	}
	st = c->lpVtbl->CompleteConnect(c, &ov);
	check(wait_ov(s->port, st, &ov, 10000) == ND_SUCCESS, "CompleteConnect (%#lx)", st);
	cb = 0;
	st = c->lpVtbl->GetPeerAddress(c, NULL, &cb);
	check(st == ND_BUFFER_OVERFLOW && cb == sizeof(got), "GetPeerAddress(NULL, 0): ND_BUFFER_OVERFLOW, %lu", cb);
	cb = sizeof(got) + 12;
	check(c->lpVtbl->GetPeerAddress(c, (struct sockaddr *)&got, &cb) == ND_SUCCESS && cb == sizeof(got) &&
		      got.sin_port == htons(PORT),
	      "GetPeerAddress: %s:%d", peer, PORT);
	cb = sizeof(got);
	check(c->lpVtbl->GetLocalAddress(c, (struct sockaddr *)&got, &cb) == ND_SUCCESS &&
		      got.sin_addr.s_addr == inet_addr(ip) && got.sin_port,
	      "GetLocalAddress: %s with a port", ip);

	for (i = 0, ok = 1; i < NSIZES; i++) {
		fill(s->buf + RECVS * SLOT, sizes[i], i);
		ok &= send_buf(s, s->buf + RECVS * SLOT, sizes[i], 0, 0x100 + i) == ND_SUCCESS;
		ok &= get_one(s, &r, 30000) && r.Status == ND_SUCCESS && r.RequestType == Nd2RequestTypeSend &&
		      r.RequestContext == (void *)(ULONG_PTR)(0x100 + i) && r.QueuePairContext == (void *)0xC0FFEE;
	}
	check(ok, "sent %u messages, each completed with its contexts", (unsigned)NSIZES);
	fill(stackbuf, 32, 99);
	st = send_buf(s, stackbuf, 32, ND_OP_FLAG_INLINE, 0x200);
	memset(stackbuf, 0, sizeof(stackbuf));
	check(st == ND_SUCCESS && get_one(s, &r, 30000) && r.Status == ND_SUCCESS && r.RequestContext == (void *)0x200,
	      "an inline Send from unregistered stack memory");
	st = send_buf(s, NULL, 0, 0, 0x201);
	check(st == ND_SUCCESS && get_one(s, &r, 30000) && r.Status == ND_SUCCESS && r.RequestContext == (void *)0x201,
	      "a zero-byte Send (nSge 0)");
	ok = get_one(s, &r, 30000) && r.RequestType == Nd2RequestTypeReceive && r.Status == ND_SUCCESS &&
	     r.BytesTransferred == 64 && r.RequestContext == (void *)0x1000 && verify(s->buf, 64, 5);
	check(ok, "the server's message arrived in the first Receive posted before Connect");

	check(s->qp->lpVtbl->Flush(s->qp) == ND_SUCCESS, "Flush");
	for (i = 1, ok = 1; i < RECVS; i++)
		ok &= get_one(s, &r, 10000) && r.Status == ND_CANCELED && r.RequestType == Nd2RequestTypeReceive &&
		      r.QueuePairContext == (void *)0xC0FFEE && r.RequestContext == (void *)(ULONG_PTR)(0x1000 + i);
	check(ok, "Flush completed the other %d Receives ND_CANCELED, in order, contexts intact", RECVS - 1);
	memset(&ov, 0, sizeof(ov));
	st = c->lpVtbl->Disconnect(c, &ov);
	check(wait_ov(s->port, st, &ov, 30000) == ND_SUCCESS, "Disconnect (%#lx)", st);
	check(c->lpVtbl->Release(c) == 0, "release the connector: 0");
}

/* ---- both sides connect at once ---------------------------------------------------- */
static const char lose_data[] = "simultaneous: the server wins";

/* The QP's next result, past those the first QP's Disconnect flushed. */
static int get_for(struct side *s, void *qp_ctx, ND2_RESULT *r, DWORD ms)
{
	while (get_one(s, r, ms)) {
		if (r->QueuePairContext == qp_ctx)
			return 1;
		if (r->QueuePairContext != (void *)0xC0FFEE || r->Status != ND_CANCELED) {
			printf("    note: unexpected result: QP context %p, type %d, status %#lx\n", r->QueuePairContext,
			       (int)r->RequestType, r->Status);
			return 0;
		}
	}
	return 0;
}

/* Each side listens (server PORT+20, client PORT+21) and connects to the
 * other's listener while its own request is pending.  The rule: the server
 * rejects the client's request, so the client's Connect is refused and the
 * server's Connect is the connection that stays; one message each way.
 * A Connect refused without the reject's data met no listener yet: the
 * peer is still on its way here, so it is retried. */
static void simultaneous(struct side *s, const char *ip, const char *peer)
{
	int rejecter = !strcmp(role, "server");
	struct sockaddr_in sa = addr_of(ip, (USHORT)(PORT + 20 + !rejecter));
	struct sockaddr_in dst = addr_of(peer, (USHORT)(PORT + 20 + rejecter));
	IND2Listener *l = NULL;
	IND2Connector *in = new_connector(s), *out = new_connector(s);
	IND2QueuePair *qin = NULL, *qout = NULL, *qp;
	OVERLAPPED ovl = { 0 }, ovc = { 0 }, ov = { 0 };
	char data[256];
	void *qp_ctx;
	ULONG len;
	HRESULT st, cst = 1;
	ND2_RESULT r1 = { 0 }, r2 = { 0 };
	int tries, ok;
	char *rbuf = s->buf, *sbuf = s->buf + RECVS * SLOT;

	s->ad->lpVtbl->CreateQueuePair(s->ad, &IID_IND2QueuePair, (IUnknown *)s->cq, (IUnknown *)s->cq, (void *)0x51, 4, 4, 1,
				       1, 0, (void **)&qin);
	s->ad->lpVtbl->CreateQueuePair(s->ad, &IID_IND2QueuePair, (IUnknown *)s->cq, (IUnknown *)s->cq, (void *)0x52, 4, 4, 1,
				       1, 0, (void **)&qout);
	s->ad->lpVtbl->CreateListener(s->ad, &IID_IND2Listener, s->file, (void **)&l);
	check(in && out && qin && qout && l && l->lpVtbl->Bind(l, (struct sockaddr *)&sa, sizeof(sa)) == ND_SUCCESS &&
		      l->lpVtbl->Listen(l, 0) == ND_SUCCESS,
	      "simultaneous: a listener on port %d, a connector and two QPs", PORT + 20 + !rejecter);
	if (!in || !out || !qin || !qout || !l)
		exit(1);
	qp = rejecter ? qout : qin;
	qp_ctx = rejecter ? (void *)0x52 : (void *)0x51;
	{
		ND2_SGE sge = { rbuf, 64, s->token };
		check(qp->lpVtbl->Receive(qp, (void *)0x3000, &sge, 1) == ND_SUCCESS,
		      "simultaneous: a Receive posted on the QP that will stay connected");
	}
	st = l->lpVtbl->GetConnectionRequest(l, (IUnknown *)in, &ovl);
	check(st == ND_PENDING, "simultaneous: GetConnectionRequest pends");

	/* Connect while our own listener waits; retry until the peer listens. */
	for (tries = 0; tries < 120; tries++) {
		memset(&ovc, 0, sizeof(ovc));
		st = out->lpVtbl->Connect(out, (IUnknown *)qout, (struct sockaddr *)&dst, sizeof(dst), 4, 4, role,
					  (ULONG)strlen(role) + 1, &ovc);
		if (st != ND_PENDING)
			break;
		/* The rejecter serves the peer's request while its own Connect pends. */
		if (rejecter && tries == 0) {
			check(wait_port(s->port, &ovl, 120000) == ND_SUCCESS,
			      "simultaneous: the client's request arrives");
			len = sizeof(data);
			check(in->lpVtbl->GetPrivateData(in, data, &len) == ND_SUCCESS && !strcmp(data, "client"),
			      "simultaneous: it is the client's");
			check(in->lpVtbl->Reject(in, lose_data, sizeof(lose_data)) == ND_SUCCESS,
			      "simultaneous: the server rejects it");
		}
		cst = wait_port(s->port, &ovc, 60000);
		len = sizeof(data);
		memset(data, 0, sizeof(data));
		if (cst == ND_CONNECTION_REFUSED && out->lpVtbl->GetPrivateData(out, data, &len) == ND_SUCCESS &&
		    !memcmp(data, lose_data, sizeof(lose_data)))
			break;
		if (cst != ND_CONNECTION_REFUSED)
			break;
		Sleep(500);
	}
	if (rejecter) {
		check(cst == ND_SUCCESS, "simultaneous: the server's Connect is accepted (%#lx, %d retries)", cst, tries);
		st = out->lpVtbl->CompleteConnect(out, &ov);
		check(wait_ov(s->port, st, &ov, 30000) == ND_SUCCESS, "simultaneous: CompleteConnect");
	} else {
		check(cst == ND_CONNECTION_REFUSED && tries < 120,
		      "simultaneous: the client's Connect is refused with the server's reject data (%#lx, %d retries)", cst,
		      tries);
		check(wait_port(s->port, &ovl, 120000) == ND_SUCCESS, "simultaneous: the server's request arrives");
		len = sizeof(data);
		check(in->lpVtbl->GetPrivateData(in, data, &len) == ND_SUCCESS && !strcmp(data, "server"),
		      "simultaneous: it is the server's");
		st = in->lpVtbl->Accept(in, (IUnknown *)qin, 4, 4, role, (ULONG)strlen(role) + 1, &ov);
		check(wait_ov(s->port, st, &ov, 60000) == ND_SUCCESS, "simultaneous: the client accepts it (%#lx)", st);
	}

	/* One message each way over the connection that stayed. */
	strcpy(sbuf, role);
	{
		ND2_SGE sge = { sbuf, (ULONG)strlen(role) + 1, s->token };
		st = qp->lpVtbl->Send(qp, (void *)0x3001, &sge, 1, 0);
	}
	ok = st == ND_SUCCESS && get_for(s, qp_ctx, &r1, 30000) && get_for(s, qp_ctx, &r2, 30000);
	if (ok && r1.RequestType == Nd2RequestTypeReceive) {
		ND2_RESULT t = r1;
		r1 = r2;
		r2 = t;
	}
	ok = ok && r1.RequestType == Nd2RequestTypeSend && r1.Status == ND_SUCCESS && r1.RequestContext == (void *)0x3001 &&
	     r2.RequestType == Nd2RequestTypeReceive && r2.Status == ND_SUCCESS && r2.RequestContext == (void *)0x3000 &&
	     !strcmp(rbuf, rejecter ? "client" : "server");
	check(ok, "simultaneous: one message each way over the surviving connection");
	if (!ok)
		printf("    note: send %#lx; results: type %d status %#lx ctx %p len %lu, type %d status %#lx ctx %p len %lu; '%.8s'\n",
		       st, (int)r1.RequestType, r1.Status, r1.RequestContext, r1.BytesTransferred, (int)r2.RequestType,
		       r2.Status, r2.RequestContext, r2.BytesTransferred, rbuf);

	/* The client waits for the server to disconnect: no crossing disconnects. */
	memset(&ov, 0, sizeof(ov));
	if (rejecter) {
		st = out->lpVtbl->Disconnect(out, &ov);
	} else {
		OVERLAPPED nd = { 0 };
		check(in->lpVtbl->NotifyDisconnect(in, &nd) == ND_PENDING && wait_port(s->port, &nd, 60000) == ND_SUCCESS,
		      "simultaneous: the server disconnects");
		st = in->lpVtbl->Disconnect(in, &ov);
	}
	cst = wait_ov(s->port, st, &ov, 30000);
	check(cst == ND_SUCCESS, "simultaneous: Disconnect (%#lx, then %#lx)", st, cst);
	check(in->lpVtbl->Release(in) == 0 && out->lpVtbl->Release(out) == 0 && l->lpVtbl->Release(l) == 0 &&
		      qin->lpVtbl->Release(qin) == 0 && qout->lpVtbl->Release(qout) == 0,
	      "simultaneous: release the connectors, the listener and the QPs: 0");
	/* Results of the disconnected QP (its flushed Receives: none left). */
	while (s->cq->lpVtbl->GetResults(s->cq, &r1, 1) == 1)
		;
}

static void close_side(struct side *s)
{
	OVERLAPPED ov = { 0 };
	HRESULT st = s->mr->lpVtbl->Deregister(s->mr, &ov);

	check(wait_ov(s->port, st, &ov, 5000) == ND_SUCCESS, "Deregister pends, then completes (%#lx)", st);
	check(s->mr->lpVtbl->Release(s->mr) == 0, "release the MR");
	if (s->listener)
		check(s->listener->lpVtbl->Release(s->listener) == 0, "release the listener");
	check(s->qp->lpVtbl->Release(s->qp) == 0, "release the QP");
	check(s->cq->lpVtbl->Release(s->cq) == 0, "release the CQ");
	check(s->can_unload() == S_FALSE, "the adapter alive: DllCanUnloadNow S_FALSE");
	check(s->ad->lpVtbl->Release(s->ad) == 0, "release the adapter");
	check(s->can_unload() == S_OK, "nothing alive: DllCanUnloadNow S_OK");
	CloseHandle(s->file);
	CloseHandle(s->port);
	check(FreeLibrary(s->dll), "FreeLibrary");
}

int main(int argc, char **argv)
{
	struct side s = { 0 };
	WSADATA wsa;
	DWORD t0 = GetTickCount();

	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc != 4 || (strcmp(argv[1], "server") && strcmp(argv[1], "client"))) {
		fprintf(stderr, "usage: %s server|client ADDR PEER\n", argv[0]);
		return 2;
	}
	role = argv[1];
	ndcheck_name = !strcmp(role, "server") ? "nd2prov server" : "nd2prov client";
	ndcheck_key = KEY;
	WSAStartup(MAKEWORD(2, 2), &wsa);
	discovery_cycles(argv[2], 20);
	open_side(&s, argv[2]);
	overlapped_rules(&s);
	release_pending(&s, argv[2], 0);
	release_pending(&s, argv[2], 1);
	if (!strcmp(role, "server"))
		server(&s, argv[2], argv[3]);
	else
		client(&s, argv[2], argv[3]);
	simultaneous(&s, argv[2], argv[3]);
	close_side(&s);
	WSACleanup();
	printf("%s: took %lu ms, %d failed\n", role, GetTickCount() - t0, ndcheck_failures);
	return ndcheck_failures ? 1 : 0;
}

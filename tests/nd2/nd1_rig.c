/* nd2prov.dll's ND v1 objects end to end on a real rdma-core device
 * (Soft-RoCE rig), under ndrun inside the guests (tests/vm/suites/nd1.sh):
 *
 *   nd1_rig server ADDR PEER     the passive side
 *   nd1_rig client ADDR PEER     the active side
 *
 * It finds the provider through the Winsock catalog both ways in the same
 * run (the ND v2 entry: DllGetClassObject(IID_IND2Provider); the ND v1
 * entry: IID_IClassFactory, then CreateInstance(IID_INDProvider)), then
 * checks each v1 method's documented codes as far as the v1 Receive page
 * and the v2 counterparts define them: the sizing protocols, receives
 * posted before the connection (ND_DATA_OVERRUN, ND_NO_MORE_ENTRIES,
 * ND_BUFFER_OVERFLOW synchronously), GetResults handing back the
 * requests' own ND_RESULTs, a memory window bound with its descriptor in
 * network order and used by the peer's Read and Write, Notify through
 * the adapter's file, a receive too small completing ND_BUFFER_OVERFLOW,
 * and Flush completing the rest ND_CANCELED.  A second connection then
 * checks request batches (nothing of a batch completes before
 * SubmitRequestBatch, everything after it, in order; requests refused
 * inside a batch say so at once) and SendAndInvalidate (its codes; the
 * peer's window invalidate ND_RESULT completed by the time its Receive is
 * reaped; the peer's Read with the invalidated token failing), with
 * CancelOverlappedRequests on a CQ's Notify, a Reject the client retries
 * after, NotifyDisconnect and Disconnect on the way.  A third connection
 * sends SendAndInvalidate with a token that names no window of the peer's:
 * the sender's request succeeds, the peer's Receive fails and ends its
 * queue pair, and the peer's Disconnect is what tells the sender
 * (docs/nd2-decisions.md).
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

#define PORT 54410
#define NOPORT 54997
#define KEY 0x71
#define RECVS 4
#define SLOT 8192
#define SMALL 16
#define WINDOW 4096
#define WAIT_MS 20000

/* "server" or "client". */
static const char *role = "?";

struct side {
	HMODULE dll;
	INDAdapter *ad;
	ND_ADAPTER_INFO1 info;
	HANDLE file, port;
	INDCompletionQueue *cq;
	INDConnector *conn;
	INDEndpoint *ep;
	ND_MR_HANDLE mr;
	char *buf;		/* RECVS slots, then a send slot, then the window */
	ND_RESULT recv[RECVS], send, other;
};

static char *slot(struct side *s, int i)
{
	return s->buf + (size_t)i * SLOT;
}

/* An overlapped request to its end through GetOverlappedResult(wait). */
static HRESULT finish(INDOverlapped *o, HRESULT hr, OVERLAPPED *ov, SIZE_T *bytes)
{
	SIZE_T b = (SIZE_T)-1;

	if (hr == ND_PENDING)
		hr = o->lpVtbl->GetOverlappedResult(o, ov, &b, TRUE);
	if (bytes)
		*bytes = b;
	return hr;
}

static ND_RESULT *next_on(INDCompletionQueue *cq)
{
	DWORD end = GetTickCount() + WAIT_MS;
	ND_RESULT *r;

	do {
		if (cq->lpVtbl->GetResults(cq, &r, 1) == 1)
			return r;
	} while (GetTickCount() < end);
	return NULL;
}

static ND_RESULT *next_result(struct side *s)
{
	return next_on(s->cq);
}

/* ---- discovery --------------------------------------------------------------------- */
static INDProvider *discover(struct side *s, const char *ip)
{
	GUID v1id, v2id;
	WCHAR full[MAX_PATH];
	get_class_fn get_class;
	IClassFactory *f = NULL;
	IND2Provider *p2 = NULL;
	INDProvider *p = NULL;
	IUnknown *u = NULL;
	SOCKET_ADDRESS_LIST *list;
	SIZE_T cb = 0;
	HRESULT hr;
	int i, listed = 0;

	check(nd_find_entry(ND_VERSION_1, PFL_HIDDEN, &v1id), "the catalog has an ND v1 entry (iVersion 1, PFL_HIDDEN)");
	check(nd_find_entry(ND_VERSION_2, PFL_HIDDEN | PFL_NETWORKDIRECT_PROVIDER, &v2id),
	      "the catalog has an ND v2 entry beside it");
	get_class = nd_load_entry(&v2id, &s->dll, full);
	check(get_class && get_class(&v2id, &IID_IND2Provider, (void **)&p2) == S_OK && p2,
	      "v2 client: DllGetClassObject(v2 entry, IID_IND2Provider)");
	if (p2)
		p2->lpVtbl->Release(p2);
	get_class = nd_load_entry(&v1id, &s->dll, full);
	if (!get_class) {
		check(0, "the v1 entry's DLL loads");
		return NULL;
	}
	check(get_class(&v1id, &IID_IClassFactory, (void **)&f) == S_OK && f,
	      "v1 client: DllGetClassObject(v1 entry, IID_IClassFactory)");
	if (!f)
		return NULL;
	check(f->lpVtbl->CreateInstance(f, (IUnknown *)f, &IID_INDProvider, (void **)&u) == CLASS_E_NOAGGREGATION && !u,
	      "CreateInstance with an outer object: CLASS_E_NOAGGREGATION");
	check(f->lpVtbl->CreateInstance(f, NULL, &IID_IND2Adapter, (void **)&u) == E_NOINTERFACE,
	      "CreateInstance(IID_IND2Adapter): E_NOINTERFACE");
	check(f->lpVtbl->CreateInstance(f, NULL, &IID_INDProvider, (void **)&p) == S_OK && p,
	      "CreateInstance(NULL, IID_INDProvider)");
	f->lpVtbl->Release(f);
	if (!p)
		return NULL;
	check(p->lpVtbl->QueryAddressList(p, NULL, NULL) == ND_INVALID_PARAMETER_2,
	      "QueryAddressList(NULL size): ND_INVALID_PARAMETER_2");
	hr = p->lpVtbl->QueryAddressList(p, NULL, &cb);
	check(hr == ND_BUFFER_OVERFLOW && cb > sizeof(SOCKET_ADDRESS_LIST),
	      "QueryAddressList(NULL): ND_BUFFER_OVERFLOW with the SIZE_T size (%lu)", (unsigned long)cb);
	list = malloc(cb);
	if (p->lpVtbl->QueryAddressList(p, list, &cb) == ND_SUCCESS)
		for (i = 0; i < list->iAddressCount; i++) {
			struct sockaddr_in *a = (struct sockaddr_in *)list->Address[i].lpSockaddr;

			listed |= a->sin_family == AF_INET && a->sin_addr.s_addr == inet_addr(ip);
		}
	free(list);
	check(listed, "QueryAddressList lists %s", ip);
	return p;
}

/* ---- the adapter and the objects both sides share -------------------------------- */
static int setup(struct side *s, INDProvider *p, const char *ip)
{
	struct sockaddr_in a = addr_of(ip, 0), bad = addr_of("192.0.2.77", 0);
	SIZE_T cb = 0, inl = 0, bytes;
	OVERLAPPED ov = { 0 };
	INDCompletionQueue *cq2 = NULL;
	INDEndpoint *ep2 = NULL;
	ND_MR_HANDLE bogus = (ND_MR_HANDLE)&cb;
	HRESULT hr;
	char ctl[8];

	check(p->lpVtbl->OpenAdapter(p, (struct sockaddr *)&bad, sizeof(bad), &s->ad) == ND_INVALID_ADDRESS,
	      "OpenAdapter(an address no adapter has): ND_INVALID_ADDRESS");
	hr = p->lpVtbl->OpenAdapter(p, (struct sockaddr *)&a, sizeof(a), &s->ad);
	check(hr == ND_SUCCESS && s->ad, "OpenAdapter(%s) (%#lx)", ip, hr);
	if (hr != ND_SUCCESS)
		return 0;
	s->file = s->ad->lpVtbl->GetFileHandle(s->ad);
	s->port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 0);
	check(s->file && s->file != INVALID_HANDLE_VALUE && CreateIoCompletionPort(s->file, s->port, KEY, 0) == s->port,
	      "GetFileHandle: a handle a completion port takes");
	check(s->ad->lpVtbl->Query(s->ad, ND_VERSION_2, &s->info, &cb) == ND_NOT_SUPPORTED,
	      "Query(version 2): ND_NOT_SUPPORTED");
	cb = 0;
	hr = s->ad->lpVtbl->Query(s->ad, ND_VERSION_1, NULL, &cb);
	check(hr == ND_BUFFER_OVERFLOW && cb == sizeof(ND_ADAPTER_INFO1),
	      "Query(NULL): ND_BUFFER_OVERFLOW, size %lu", (unsigned long)cb);
	hr = s->ad->lpVtbl->Query(s->ad, ND_VERSION_1, &s->info, &cb);
	check(hr == ND_SUCCESS && s->info.MaxInboundSge &&
		      s->info.MaxOutboundRequests && s->info.MaxCqEntries && s->info.MaxRegistrationSize,
	      "Query(ND_VERSION_1): ND_ADAPTER_INFO1 (sge %lu/%lu, depth %lu/%lu, cq %lu, inline %lu)",
	      (unsigned long)s->info.MaxInboundSge, (unsigned long)s->info.MaxOutboundSge,
	      (unsigned long)s->info.MaxInboundRequests, (unsigned long)s->info.MaxOutboundRequests,
	      (unsigned long)s->info.MaxCqEntries, (unsigned long)s->info.MaxInlineData);
	check(s->ad->lpVtbl->Control(s->ad, 0x12345, ctl, sizeof(ctl), ctl, sizeof(ctl), &cb, NULL) ==
		      ND_INVALID_PARAMETER_7,
	      "Control(no OVERLAPPED): ND_INVALID_PARAMETER_7");
	cb = 99;
	ov.Internal = 0x1234;
	check(s->ad->lpVtbl->Control(s->ad, 0x12345, ctl, sizeof(ctl), ctl, sizeof(ctl), &cb, &ov) ==
			      ND_INVALID_DEVICE_REQUEST &&
		      cb == 0 && ov.Internal == 0x1234,
	      "Control(an unknown code): ND_INVALID_DEVICE_REQUEST at once, nothing returned or queued");
	check(s->ad->lpVtbl->CreateCompletionQueue(s->ad, 0, &cq2) == ND_INVALID_PARAMETER_1,
	      "CreateCompletionQueue(0): ND_INVALID_PARAMETER_1");
	check(s->ad->lpVtbl->CreateCompletionQueue(s->ad, 64, &s->cq) == ND_SUCCESS, "CreateCompletionQueue(64)");
	check(s->cq->lpVtbl->Resize(s->cq, 0) == ND_INVALID_PARAMETER, "Resize(0): ND_INVALID_PARAMETER");
	check(s->cq->lpVtbl->Resize(s->cq, 128) == ND_SUCCESS, "Resize(128)");
	s->buf = VirtualAlloc(NULL, (RECVS + 2) * SLOT, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
	ov.hEvent = CreateEventW(NULL, TRUE, FALSE, NULL);
	check(s->ad->lpVtbl->RegisterMemory(s->ad, s->buf, (RECVS + 2) * SLOT, NULL, &s->mr) == ND_INVALID_PARAMETER_3,
	      "RegisterMemory(no OVERLAPPED): ND_INVALID_PARAMETER_3");
	hr = s->ad->lpVtbl->RegisterMemory(s->ad, s->buf, (RECVS + 2) * SLOT, &ov, &s->mr);
	check(hr == ND_PENDING || hr == ND_SUCCESS, "RegisterMemory: pending (%#lx)", hr);
	hr = finish((INDOverlapped *)s->ad, hr, &ov, &bytes);
	check(hr == ND_SUCCESS && s->mr, "RegisterMemory completes; GetOverlappedResult gives the byte count (%lu)",
	      (unsigned long)bytes);
	check(s->ad->lpVtbl->DeregisterMemory(s->ad, bogus, &ov) == ND_INVALID_PARAMETER_1,
	      "DeregisterMemory(a handle it never gave): ND_INVALID_PARAMETER_1");
	check(s->ad->lpVtbl->CreateConnector(s->ad, &s->conn) == ND_SUCCESS, "CreateConnector");
	check(s->conn->lpVtbl->CreateEndpoint(s->conn, NULL, s->cq, RECVS, 4, 1, 1, 0, 0, &inl, &ep2) ==
		      ND_INVALID_PARAMETER_1,
	      "CreateEndpoint(no inbound CQ): ND_INVALID_PARAMETER_1");
	hr = s->conn->lpVtbl->CreateEndpoint(s->conn, s->cq, s->cq, RECVS, 4, 1, 1, 4, 4, &inl, &s->ep);
	check(hr == ND_SUCCESS && s->ep && inl == s->info.MaxInlineData,
	      "CreateEndpoint: max inline %lu (%#lx)", (unsigned long)inl, hr);
	CloseHandle(ov.hEvent);
	return s->ep != NULL;
}

/* Receives posted before the connection: the synchronous codes, and the
 * queue filled with RECVS - 1 slots and a last SMALL one. */
static void post_receives(struct side *s)
{
	ND_SGE two[2] = { { slot(s, 0), SLOT, s->mr }, { slot(s, 1), SLOT, s->mr } };
	ND_SGE big = { s->buf, s->info.MaxInboundLength + 1, s->mr };
	ND_RESULT extra;
	int i;

	check(s->ep->lpVtbl->Receive(s->ep, &extra, two, 2) == ND_DATA_OVERRUN,
	      "Receive with more SGEs than CreateEndpoint allowed: ND_DATA_OVERRUN");
	if (s->info.MaxInboundLength < 0xffffffffu)
		check(s->ep->lpVtbl->Receive(s->ep, &extra, &big, 1) == ND_BUFFER_OVERFLOW,
		      "Receive of more than MaxInboundLength: ND_BUFFER_OVERFLOW");
	for (i = 0; i < RECVS; i++) {
		ND_SGE sge = { slot(s, i), i == RECVS - 1 ? SMALL : SLOT, s->mr };

		s->recv[i].Status = ND_PENDING;
		check(s->ep->lpVtbl->Receive(s->ep, &s->recv[i], &sge, 1) == ND_SUCCESS,
		      "Receive %d before the connection", i);
	}
	check(s->ep->lpVtbl->Receive(s->ep, &extra, two, 1) == ND_NO_MORE_ENTRIES,
	      "Receive past nInboundEntries: ND_NO_MORE_ENTRIES");
}

static int send_msg(struct side *s, const void *data, ULONG len)
{
	ND_SGE sge = { slot(s, RECVS), len, s->mr };
	ND_RESULT *r;

	memcpy(slot(s, RECVS), data, len);
	if (s->ep->lpVtbl->Send(s->ep, &s->send, &sge, 1, 0) != ND_SUCCESS)
		return 0;
	r = next_result(s);
	return r == &s->send && r->Status == ND_SUCCESS;
}

/* The next receive completion, which must be recv[i]. */
static int recv_msg(struct side *s, int i, SIZE_T len)
{
	ND_RESULT *r = next_result(s);

	check(r == &s->recv[i] && r->Status == ND_SUCCESS && r->BytesTransferred == len,
	      "GetResults hands back Receive %d's own ND_RESULT: ND_SUCCESS, %lu bytes", i, (unsigned long)len);
	return r == &s->recv[i];
}

/* ---- the sides ---------------------------------------------------------------------- */
static void server(struct side *s)
{
	INDListen *l = NULL;
	INDMemoryWindow *mw = NULL;
	ND_MW_DESCRIPTOR desc;
	ND_RESULT inval, *r;
	OVERLAPPED ov = { 0 }, nov = { 0 };
	USHORT assigned = 0;
	SIZE_T in = 99, out = 99, len = 0, bytes;
	char priv[64], *win = slot(s, RECVS + 1);
	struct sockaddr_in peer;
	HRESULT hr;
	int i;

	post_receives(s);
	hr = s->ad->lpVtbl->Listen(s->ad, 4, IPPROTO_TCP, PORT, &assigned, &l);
	check(hr == ND_SUCCESS && assigned == PORT, "Listen(port %u): assigned %u (%#lx)", PORT, assigned, hr);
	if (hr != ND_SUCCESS)
		return;
	ov.hEvent = CreateEventW(NULL, TRUE, FALSE, NULL);
	check(l->lpVtbl->GetConnectionRequest(l, NULL, &ov) == ND_INVALID_PARAMETER_1,
	      "GetConnectionRequest(NULL): ND_INVALID_PARAMETER_1");
	hr = finish((INDOverlapped *)l, l->lpVtbl->GetConnectionRequest(l, s->conn, &ov), &ov, &bytes);
	check(hr == ND_SUCCESS, "GetConnectionRequest completes (%#lx)", hr);
	/* The transport pads private data (56 bytes on RoCE): at least ours. */
	hr = s->conn->lpVtbl->GetConnectionData(s->conn, &in, &out, NULL, &len);
	check(hr == ND_BUFFER_OVERFLOW && len >= 5 && len <= sizeof(priv),
	      "GetConnectionData(no buffer): ND_BUFFER_OVERFLOW, %lu bytes of private data", (unsigned long)len);
	len = sizeof(priv);
	hr = s->conn->lpVtbl->GetConnectionData(s->conn, &in, &out, priv, &len);
	check(hr == ND_SUCCESS && len >= 5 && !memcmp(priv, "hello", 5) && in <= s->info.MaxInboundReadLimit,
	      "GetConnectionData: the client's private data, read limits %lu/%lu", (unsigned long)in,
	      (unsigned long)out);
	len = 2;
	check(s->conn->lpVtbl->GetPeerAddress(s->conn, (struct sockaddr *)&peer, &len) == ND_BUFFER_OVERFLOW &&
		      len == sizeof(peer),
	      "GetPeerAddress(too small): ND_BUFFER_OVERFLOW with the SIZE_T size");
	hr = finish((INDOverlapped *)s->conn, s->conn->lpVtbl->Accept(s->conn, s->ep, "olleh", 5, &ov), &ov, NULL);
	check(hr == ND_SUCCESS, "Accept (%#lx)", hr);

	/* A window over our buffer for the client's Write and Read. */
	for (i = 0; i < WINDOW; i++)
		win[i] = (char)(i * 3);
	check(s->ad->lpVtbl->CreateMemoryWindow(s->ad, &inval, &mw) == ND_SUCCESS, "CreateMemoryWindow");
	check(s->ep->lpVtbl->Bind(s->ep, &s->other, (ND_MR_HANDLE)&in, mw, win, WINDOW, ND_OP_FLAG_ALLOW_READ, &desc) ==
		      ND_INVALID_PARAMETER_2,
	      "Bind with a bad ND_MR_HANDLE: ND_INVALID_PARAMETER_2");
	hr = s->ep->lpVtbl->Bind(s->ep, &s->other, s->mr, mw, win, WINDOW,
				 ND_OP_FLAG_ALLOW_READ | ND_OP_FLAG_ALLOW_WRITE, &desc);
	r = hr == ND_SUCCESS ? next_result(s) : NULL;
	check(r == &s->other && r->Status == ND_SUCCESS, "Bind completes through its ND_RESULT (%#lx, %#lx)", hr,
	      r ? r->Status : 0);
	check(_byteswap_uint64(desc.Base) == (UINT64)(ULONG_PTR)win && _byteswap_uint64(desc.Length) == WINDOW,
	      "the ND_MW_DESCRIPTOR's base and length are in network order");
	check(send_msg(s, &desc, sizeof(desc)), "Send the descriptor");
	/* Notify through the adapter's file: the client's "written" message. */
	nov.hEvent = NULL;
	hr = s->cq->lpVtbl->Notify(s->cq, ND_CQ_NOTIFY_ANY, &nov);
	check(hr == ND_PENDING, "Notify(ND_CQ_NOTIFY_ANY): ND_PENDING (%#lx)", hr);
	{
		DWORD b;
		ULONG_PTR key;
		OVERLAPPED *got = NULL;
		DWORD end = GetTickCount() + WAIT_MS;

		/* Earlier requests' packets (Accept, ...) come first. */
		do
			GetQueuedCompletionStatus(s->port, &b, &key, &got, WAIT_MS);
		while (got && got != &nov && GetTickCount() < end);
		check(got == &nov && key == KEY && nov.Internal == ND_SUCCESS,
		      "Notify's packet arrives on the adapter file's port");
	}
	if (recv_msg(s, 0, 7))
		check(!memcmp(slot(s, 0), "written", 7), "the client's message says written");
	for (i = 0; i < 256; i++)
		if (win[128 + i] != (char)(0xA5 ^ i))
			break;
	check(i == 256, "the client's Write reached the window at Offset 128");
	hr = s->ep->lpVtbl->Invalidate(s->ep, &s->other, mw, 0);
	r = hr == ND_SUCCESS ? next_result(s) : NULL;
	check(r == &s->other && r->Status == ND_SUCCESS, "Invalidate completes (%#lx)", hr);
	check(send_msg(s, "invalid", 7), "Send 'invalidated'");
	/* Receive 1 and 2 take two messages; the last (SMALL bytes) is too
	 * small for the one after. */
	recv_msg(s, 1, 100);
	recv_msg(s, 2, 100);
	r = next_result(s);
	check(r == &s->recv[RECVS - 1] && r->Status == ND_BUFFER_OVERFLOW,
	      "a Receive too small for the Send completes ND_BUFFER_OVERFLOW (%#lx)", r ? r->Status : 0);
	check(s->ep->lpVtbl->Flush(s->ep) == ND_SUCCESS, "Flush");
	mw->lpVtbl->Release(mw);
	l->lpVtbl->Release(l);
	CloseHandle(ov.hEvent);
}

static void client(struct side *s, const char *ip, const char *peer_ip)
{
	struct sockaddr_in peer = addr_of(peer_ip, PORT), nobody = addr_of(peer_ip, NOPORT), me;
	INDConnector *c2 = NULL;
	INDEndpoint *ep2 = NULL;
	ND_MW_DESCRIPTOR desc;
	OVERLAPPED ov = { 0 };
	ND_SGE sge;
	ND_RESULT *r;
	SIZE_T len, inl;
	char *w = slot(s, RECVS);
	HRESULT hr;
	int i, tries;

	post_receives(s);
	ov.hEvent = CreateEventW(NULL, TRUE, FALSE, NULL);
	/* A port nobody serves first, on a connector of its own. */
	s->ad->lpVtbl->CreateConnector(s->ad, &c2);
	c2->lpVtbl->CreateEndpoint(c2, s->cq, s->cq, 1, 1, 1, 1, 0, 0, &inl, &ep2);
	hr = finish((INDOverlapped *)c2,
		    c2->lpVtbl->Connect(c2, ep2, (struct sockaddr *)&nobody, sizeof(nobody), IPPROTO_TCP, 0, NULL, 0, &ov),
		    &ov, NULL);
	check(hr == ND_CONNECTION_REFUSED, "Connect to a port nobody serves: ND_CONNECTION_REFUSED (%#lx)", hr);
	ep2->lpVtbl->Release(ep2);
	c2->lpVtbl->Release(c2);
	/* An endpoint never connected takes no initiator request, in a batch
	 * or not: the code comes at once. */
	s->ad->lpVtbl->CreateConnector(s->ad, &c2);
	c2->lpVtbl->CreateEndpoint(c2, s->cq, s->cq, 1, 1, 1, 1, 0, 0, &inl, &ep2);
	memset(&desc, 0, sizeof(desc));
	sge = (ND_SGE){ w, 8, s->mr };
	check(ep2->lpVtbl->Send(ep2, &s->other, &sge, 1, 0) == ND_CONNECTION_INVALID,
	      "Send before the connection: ND_CONNECTION_INVALID");
	check(ep2->lpVtbl->SendAndInvalidate(ep2, &s->other, &sge, 1, &desc, 0) == ND_CONNECTION_INVALID,
	      "SendAndInvalidate before the connection: ND_CONNECTION_INVALID");
	ep2->lpVtbl->StartRequestBatch(ep2);
	check(ep2->lpVtbl->Send(ep2, &s->other, &sge, 1, 0) == ND_CONNECTION_INVALID,
	      "inside a batch, Send before the connection: ND_CONNECTION_INVALID at once");
	ep2->lpVtbl->SubmitRequestBatch(ep2);
	ep2->lpVtbl->Release(ep2);
	c2->lpVtbl->Release(c2);
	check(s->conn->lpVtbl->Connect(s->conn, s->ep, (struct sockaddr *)&peer, sizeof(peer), IPPROTO_TCP, 0, "hello",
				       5, NULL) == ND_INVALID_PARAMETER_8,
	      "Connect(no OVERLAPPED): ND_INVALID_PARAMETER_8");
	/* The server may not listen yet: retry while refused. */
	for (tries = 0; tries < 60; tries++) {
		hr = finish((INDOverlapped *)s->conn,
			    s->conn->lpVtbl->Connect(s->conn, s->ep, (struct sockaddr *)&peer, sizeof(peer), IPPROTO_TCP,
						     0, "hello", 5, &ov),
			    &ov, NULL);
		if (hr != ND_CONNECTION_REFUSED && hr != ND_TIMEOUT)
			break;
		Sleep(500);
	}
	check(hr == ND_SUCCESS, "Connect (%#lx, %d tries)", hr, tries + 1);
	hr = finish((INDOverlapped *)s->conn, s->conn->lpVtbl->CompleteConnect(s->conn, &ov), &ov, NULL);
	check(hr == ND_SUCCESS, "CompleteConnect (%#lx)", hr);
	len = sizeof(me);
	check(s->conn->lpVtbl->GetLocalAddress(s->conn, (struct sockaddr *)&me, &len) == ND_SUCCESS &&
		      len == sizeof(me) && me.sin_addr.s_addr == inet_addr(ip),
	      "GetLocalAddress: %s", ip);
	if (!recv_msg(s, 0, sizeof(desc)))
		return;
	memcpy(&desc, slot(s, 0), sizeof(desc));
	for (i = 0; i < 256; i++)
		w[i] = (char)(0xA5 ^ i);
	sge = (ND_SGE){ w, 256, s->mr };
	check(s->ep->lpVtbl->Write(s->ep, &s->other, &sge, 1, NULL, 0, 0) == ND_INVALID_PARAMETER_4,
	      "Write(no descriptor): ND_INVALID_PARAMETER_4");
	check(s->ep->lpVtbl->Write(s->ep, &s->other, &sge, 1, &desc, WINDOW + 1, 0) == ND_INVALID_PARAMETER_5,
	      "Write past the window's length: ND_INVALID_PARAMETER_5");
	hr = s->ep->lpVtbl->Write(s->ep, &s->other, &sge, 1, &desc, 128, 0);
	r = hr == ND_SUCCESS ? next_result(s) : NULL;
	check(r == &s->other && r->Status == ND_SUCCESS && r->BytesTransferred == 256,
	      "Write 256 bytes at Offset 128 of the peer's window: ND_SUCCESS, 256 bytes (%#lx, %#lx, %lu)", hr,
	      r ? r->Status : 0, r ? (unsigned long)r->BytesTransferred : 0UL);
	sge = (ND_SGE){ w + 512, 64, s->mr };
	hr = s->ep->lpVtbl->Read(s->ep, &s->other, &sge, 1, &desc, 0, 0);
	r = hr == ND_SUCCESS ? next_result(s) : NULL;
	for (i = 0; i < 64; i++)
		if (w[512 + i] != (char)(i * 3))
			break;
	check(r == &s->other && r->Status == ND_SUCCESS && r->BytesTransferred == 64 && i == 64,
	      "Read 64 bytes of the peer's window (%#lx)", hr);
	sge = (ND_SGE){ w, 100, s->mr };
	{
		ND_SGE many[2] = { sge, sge };

		check(s->ep->lpVtbl->Send(s->ep, &s->send, many, 2, 0) == ND_DATA_OVERRUN,
		      "Send with more SGEs than nOutboundSge: ND_DATA_OVERRUN");
	}
	check(send_msg(s, "written", 7), "Send 'written'");
	if (recv_msg(s, 1, 7))
		check(!memcmp(slot(s, 1), "invalid", 7), "the server invalidated its window");
	check(send_msg(s, w, 100) && send_msg(s, w, 100), "two Sends of 100 bytes");
	/* Into the server's SMALL receive: the send fails, the connection ends. */
	sge = (ND_SGE){ w, 100, s->mr };
	hr = s->ep->lpVtbl->Send(s->ep, &s->send, &sge, 1, 0);
	r = hr == ND_SUCCESS ? next_result(s) : NULL;
	check(r == &s->send && r->Status != ND_SUCCESS, "a Send bigger than the peer's Receive fails (%#lx)",
	      r ? r->Status : 0);
	/* What is left posted completes ND_CANCELED on Flush. */
	check(s->ep->lpVtbl->Flush(s->ep) == ND_SUCCESS, "Flush");
	for (i = 2; i < RECVS; i++) {
		r = next_result(s);
		check(r == &s->recv[i] && r->Status == ND_CANCELED, "Receive %d completes ND_CANCELED after Flush (%#lx)",
		      i, r ? r->Status : 0);
	}
	CloseHandle(ov.hEvent);
}

/* ---- second connection: request batches and SendAndInvalidate --------------------- */
#define PORT2 (PORT + 1)
/* More than the 64 a batch holds before it is handed over early. */
#define P2_RECVS 128

struct conn2 {
	INDCompletionQueue *cq;
	INDConnector *conn;
	INDEndpoint *ep;
	ND_RESULT recv[P2_RECVS], send[4], other;
};

static int open2(struct side *s, struct conn2 *c, SIZE_T in_depth, SIZE_T out_depth)
{
	SIZE_T inl;

	if (s->ad->lpVtbl->CreateCompletionQueue(s->ad, in_depth + out_depth, &c->cq) != ND_SUCCESS ||
	    s->ad->lpVtbl->CreateConnector(s->ad, &c->conn) != ND_SUCCESS ||
	    c->conn->lpVtbl->CreateEndpoint(c->conn, c->cq, c->cq, in_depth, out_depth, 1, 1, 4, 4, &inl, &c->ep) !=
		    ND_SUCCESS) {
		check(0, "a second connector and endpoint");
		return 0;
	}
	return 1;
}

static void close2(struct conn2 *c)
{
	ND_RESULT *r;

	if (c->ep) {
		c->ep->lpVtbl->Flush(c->ep);
		c->ep->lpVtbl->Release(c->ep);
	}
	if (c->conn)
		c->conn->lpVtbl->Release(c->conn);
	while (c->cq && c->cq->lpVtbl->GetResults(c->cq, &r, 1))
		;
	if (c->cq)
		c->cq->lpVtbl->Release(c->cq);
}

static int send2(struct side *s, struct conn2 *c, const void *data, ULONG len)
{
	ND_SGE sge = { slot(s, RECVS), len, s->mr };

	memcpy(slot(s, RECVS), data, len);
	return c->ep->lpVtbl->Send(c->ep, &c->send[3], &sge, 1, 0) == ND_SUCCESS && next_on(c->cq) == &c->send[3] &&
	       c->send[3].Status == ND_SUCCESS;
}

static int recv2(struct conn2 *c, int i, SIZE_T len, const char *what)
{
	ND_RESULT *r = next_on(c->cq);

	check(r == &c->recv[i] && r->Status == ND_SUCCESS && r->BytesTransferred == len,
	      "second connection: Receive %d completes with %s (%lu bytes, %#lx)", i, what,
	      r ? (unsigned long)r->BytesTransferred : 0UL, r ? r->Status : 0);
	return r == &c->recv[i] && r->Status == ND_SUCCESS;
}

/* The server's listener for the NTH ("second", "third") connection. */
static INDListen *listen2(struct side *s, USHORT port, const char *nth)
{
	INDListen *l = NULL;
	USHORT assigned = 0;
	HRESULT hr = s->ad->lpVtbl->Listen(s->ad, 4, IPPROTO_TCP, port, &assigned, &l);

	check(hr == ND_SUCCESS && assigned == port, "Listen(port %u) for the %s connection (%#lx)", port, nth, hr);
	return hr == ND_SUCCESS ? l : NULL;
}

/* The next request on l, accepted on c. */
static HRESULT accept2(INDListen *l, struct conn2 *c, OVERLAPPED *ov, const char *nth)
{
	HRESULT hr = finish((INDOverlapped *)l, l->lpVtbl->GetConnectionRequest(l, c->conn, ov), ov, NULL);

	if (hr == ND_SUCCESS)
		hr = finish((INDOverlapped *)c->conn, c->conn->lpVtbl->Accept(c->conn, c->ep, NULL, 0, ov), ov, NULL);
	check(hr == ND_SUCCESS, "%s connection accepted (%#lx)", nth, hr);
	return hr;
}

/* c connected to peer_ip:port; the server may not listen yet, or may
 * reject a first request: retried while refused or timed out. */
static HRESULT connect2(struct conn2 *c, const char *peer_ip, USHORT port, OVERLAPPED *ov, const char *nth)
{
	struct sockaddr_in peer = addr_of(peer_ip, port);
	HRESULT hr = ND_UNSUCCESSFUL;
	int tries;

	for (tries = 0; tries < 60; tries++) {
		hr = finish((INDOverlapped *)c->conn,
			    c->conn->lpVtbl->Connect(c->conn, c->ep, (struct sockaddr *)&peer, sizeof(peer), IPPROTO_TCP,
						     0, NULL, 0, ov),
			    ov, NULL);
		if (hr != ND_CONNECTION_REFUSED && hr != ND_TIMEOUT)
			break;
		Sleep(500);
	}
	if (hr == ND_SUCCESS)
		hr = finish((INDOverlapped *)c->conn, c->conn->lpVtbl->CompleteConnect(c->conn, ov), ov, NULL);
	check(hr == ND_SUCCESS, "%s connection (%#lx, %d tries)", nth, hr, tries + 1);
	return hr;
}

static void server2(struct side *s)
{
	struct conn2 c = { 0 };
	INDListen *l = NULL;
	INDConnector *rej = NULL;
	INDMemoryWindow *mw = NULL;
	ND_MW_DESCRIPTOR desc;
	ND_SGE two[2] = { { slot(s, 0), SLOT, s->mr }, { slot(s, 1), SLOT, s->mr } };
	ND_RESULT inval, extra, *r;
	OVERLAPPED ov = { 0 }, dov = { 0 };
	char *win = slot(s, RECVS + 1) + WINDOW;
	HRESULT hr;
	int i, n;

	if (!open2(s, &c, P2_RECVS, 4))
		return;
	ov.hEvent = CreateEventW(NULL, TRUE, FALSE, NULL);
	hr = c.cq->lpVtbl->Notify(c.cq, ND_CQ_NOTIFY_ANY, &ov);
	check(hr == ND_PENDING, "Notify on an empty CQ: ND_PENDING (%#lx)", hr);
	check(c.cq->lpVtbl->CancelOverlappedRequests(c.cq) == ND_SUCCESS &&
		      finish((INDOverlapped *)c.cq, hr, &ov, NULL) == ND_CANCELED,
	      "CancelOverlappedRequests: the Notify completes ND_CANCELED");
	/* Receives in a batch, before the connection: each call still says
	 * at once what is wrong with it, and the batch goes on. */
	c.ep->lpVtbl->StartRequestBatch(c.ep);
	for (i = n = 0; i < P2_RECVS; i++) {
		/* Only the first four take data. */
		ND_SGE sge = { slot(s, i < 4 ? i : 4), SLOT, s->mr };

		c.recv[i].Status = ND_PENDING;
		n += c.ep->lpVtbl->Receive(c.ep, &c.recv[i], &sge, 1) == ND_SUCCESS;
		if (i == 1)
			check(c.ep->lpVtbl->Receive(c.ep, &extra, two, 2) == ND_DATA_OVERRUN,
			      "inside a batch, a Receive with too many SGEs: ND_DATA_OVERRUN at once, the batch goes on");
	}
	check(n == P2_RECVS, "%d of %d batched Receives accepted", n, P2_RECVS);
	check(c.ep->lpVtbl->Receive(c.ep, &extra, two, 1) == ND_NO_MORE_ENTRIES,
	      "inside a batch, a Receive past nInboundEntries: ND_NO_MORE_ENTRIES at once");
	c.ep->lpVtbl->SubmitRequestBatch(c.ep);

	l = listen2(s, PORT2, "second");
	if (!l)
		goto out;
	/* The client's first request is rejected; it tries again. */
	if (s->ad->lpVtbl->CreateConnector(s->ad, &rej) == ND_SUCCESS) {
		hr = finish((INDOverlapped *)l, l->lpVtbl->GetConnectionRequest(l, rej, &ov), &ov, NULL);
		check(hr == ND_SUCCESS && rej->lpVtbl->Reject(rej, "no", 2) == ND_SUCCESS,
		      "Reject the client's first request (%#lx)", hr);
		rej->lpVtbl->Release(rej);
	}
	hr = accept2(l, &c, &ov, "second");
	if (hr != ND_SUCCESS)
		goto out;
	dov.hEvent = CreateEventW(NULL, TRUE, FALSE, NULL);
	hr = c.conn->lpVtbl->NotifyDisconnect(c.conn, &dov);
	check(hr == ND_PENDING, "NotifyDisconnect: ND_PENDING (%#lx)", hr);

	/* The client's batch of three Sends arrives whole and in order. */
	for (i = 0; i < 3; i++) {
		char want[2] = { 'b', (char)('0' + i) };

		if (recv2(&c, i, 2, "the client's batched Send"))
			check(!memcmp(slot(s, i), want, 2), "batched Send %d arrives in order (%.2s)", i, slot(s, i));
	}

	/* A window for the client to read, then to invalidate. */
	for (i = 0; i < WINDOW; i++)
		win[i] = (char)(i * 7);
	inval.Status = 0x1234;
	check(s->ad->lpVtbl->CreateMemoryWindow(s->ad, &inval, &mw) == ND_SUCCESS,
	      "CreateMemoryWindow(with an invalidate ND_RESULT)");
	hr = c.ep->lpVtbl->Bind(c.ep, &c.other, s->mr, mw, win, WINDOW, ND_OP_FLAG_ALLOW_READ | ND_OP_FLAG_ALLOW_WRITE,
				&desc);
	r = hr == ND_SUCCESS ? next_on(c.cq) : NULL;
	check(r == &c.other && r->Status == ND_SUCCESS, "Bind the window for SendAndInvalidate (%#lx)", hr);
	check(inval.Status == ND_PENDING, "after Bind, the window's invalidate ND_RESULT is ND_PENDING (%#lx)",
	      inval.Status);
	check(send2(s, &c, &desc, sizeof(desc)), "Send the window's descriptor");
	if (recv2(&c, 3, 6, "the client's SendAndInvalidate")) {
		check(!memcmp(slot(s, 3), "sndinv", 6), "the SendAndInvalidate's data arrived");
		check(inval.Status == ND_SUCCESS && inval.BytesTransferred == 0,
		      "the peer's SendAndInvalidate completed the window's invalidate ND_RESULT by the time its "
		      "Receive was reaped (%#lx)",
		      inval.Status);
		check(send2(s, &c, "ack", 3), "Send 'ack'");
		/* The client's Read with the invalidated token fails, which ends
		 * the connection: the last Receive completes with an error. */
		r = next_on(c.cq);
		check(r == &c.recv[4] && r->Status != ND_SUCCESS,
		      "the connection ends after the client's Read of the invalidated window (Receive 4: %#lx)",
		      r ? r->Status : 0);
		hr = finish((INDOverlapped *)c.conn, ND_PENDING, &dov, NULL);
		check(hr == ND_SUCCESS, "NotifyDisconnect completes when the client disconnects (%#lx)", hr);
	}
out:
	if (dov.hEvent)
		CloseHandle(dov.hEvent);
	if (mw)
		mw->lpVtbl->Release(mw);
	if (l)
		l->lpVtbl->Release(l);
	if (ov.hEvent)
		CloseHandle(ov.hEvent);
	close2(&c);
}

static void client2(struct side *s, const char *peer_ip)
{
	struct conn2 c = { 0 };
	ND_MW_DESCRIPTOR desc;
	OVERLAPPED ov = { 0 };
	ND_SGE sge, many[2];
	ND_RESULT extra, *r, *got[4];
	char *w = slot(s, RECVS);
	SIZE_T n;
	HRESULT hr = ND_UNSUCCESSFUL;
	int i;

	if (!open2(s, &c, 2, 8))
		return;
	for (i = 0; i < 2; i++) {
		sge = (ND_SGE){ slot(s, i), SLOT, s->mr };
		c.ep->lpVtbl->Receive(c.ep, &c.recv[i], &sge, 1);
	}
	ov.hEvent = CreateEventW(NULL, TRUE, FALSE, NULL);
	hr = connect2(&c, peer_ip, PORT2, &ov, "second");
	if (hr != ND_SUCCESS)
		goto out;

	/* Submit without Start: nothing to submit, nothing changes. */
	c.ep->lpVtbl->SubmitRequestBatch(c.ep);
	c.ep->lpVtbl->StartRequestBatch(c.ep);
	for (i = 0; i < 3; i++) {
		w[64 * i] = 'b';
		w[64 * i + 1] = (char)('0' + i);
		sge = (ND_SGE){ w + 64 * i, 2, s->mr };
		check(c.ep->lpVtbl->Send(c.ep, &c.send[i], &sge, 1, 0) == ND_SUCCESS, "batched Send %d", i);
	}
	many[0] = many[1] = sge;
	check(c.ep->lpVtbl->Send(c.ep, &extra, many, 2, 0) == ND_DATA_OVERRUN,
	      "inside a batch, a Send with too many SGEs: ND_DATA_OVERRUN at once");
	/* Soft-RoCE completes a Send in microseconds once it has it. */
	Sleep(500);
	n = c.cq->lpVtbl->GetResults(c.cq, got, 4);
	check(n == 0, "nothing of the batch completes before SubmitRequestBatch (%lu results after 500 ms)",
	      (unsigned long)n);
	c.ep->lpVtbl->SubmitRequestBatch(c.ep);
	for (i = 0; i < 3; i++) {
		r = next_on(c.cq);
		check(r == &c.send[i] && r->Status == ND_SUCCESS && r->BytesTransferred == 2,
		      "after SubmitRequestBatch, batched Send %d completes, in order, with its 2 bytes", i);
	}

	if (!recv2(&c, 0, sizeof(desc), "the window's descriptor"))
		goto out;
	memcpy(&desc, slot(s, 0), sizeof(desc));
	sge = (ND_SGE){ w + 512, 64, s->mr };
	hr = c.ep->lpVtbl->Read(c.ep, &c.other, &sge, 1, &desc, 0, 0);
	r = hr == ND_SUCCESS ? next_on(c.cq) : NULL;
	for (i = 0; i < 64; i++)
		if (w[512 + i] != (char)(i * 7))
			break;
	check(r == &c.other && r->Status == ND_SUCCESS && i == 64, "Read the window before invalidating it (%#lx)",
	      r ? r->Status : hr);

	memcpy(w, "sndinv", 6);
	sge = (ND_SGE){ w, 6, s->mr };
	many[0] = many[1] = sge;
	check(c.ep->lpVtbl->SendAndInvalidate(c.ep, NULL, &sge, 1, &desc, 0) == ND_INVALID_PARAMETER_1,
	      "SendAndInvalidate(no ND_RESULT): ND_INVALID_PARAMETER_1");
	check(c.ep->lpVtbl->SendAndInvalidate(c.ep, &c.send[0], &sge, 1, NULL, 0) == ND_INVALID_PARAMETER_4,
	      "SendAndInvalidate(no descriptor): ND_INVALID_PARAMETER_4");
	check(c.ep->lpVtbl->SendAndInvalidate(c.ep, &c.send[0], many, 2, &desc, 0) == ND_DATA_OVERRUN,
	      "SendAndInvalidate with more SGEs than nOutboundSge: ND_DATA_OVERRUN");
	check(c.ep->lpVtbl->SendAndInvalidate(c.ep, &c.send[0], &sge, 1, &desc, 0x80000) == ND_INVALID_PARAMETER_5,
	      "SendAndInvalidate with an unknown flag: ND_INVALID_PARAMETER_5");
	hr = c.ep->lpVtbl->SendAndInvalidate(c.ep, &c.send[0], &sge, 1, &desc, 0);
	if (hr == ND_NOT_SUPPORTED) {
		/* Never a pass: the device cannot do what the client asked. */
		check(0, "SendAndInvalidate: this device has no send-with-invalidate (ND_NOT_SUPPORTED, nothing "
			 "posted); remote invalidation NOT tested");
		goto out;
	}
	r = hr == ND_SUCCESS ? next_on(c.cq) : NULL;
	check(r == &c.send[0] && r->Status == ND_SUCCESS && r->BytesTransferred == 6,
	      "SendAndInvalidate completes through its ND_RESULT, with its 6 bytes (%#lx, %#lx)", hr, r ? r->Status : 0);
	if (!recv2(&c, 1, 3, "the server's 'ack'"))
		goto out;
	sge = (ND_SGE){ w + 1024, 64, s->mr };
	hr = c.ep->lpVtbl->Read(c.ep, &c.other, &sge, 1, &desc, 0, 0);
	r = hr == ND_SUCCESS ? next_on(c.cq) : NULL;
	check(r == &c.other && r->Status != ND_SUCCESS,
	      "a Read with the token SendAndInvalidate invalidated fails at the peer (%#lx, %#lx)", hr,
	      r ? r->Status : 0);
	/* What a batch holds is outstanding: Flush cancels it too. */
	c.ep->lpVtbl->StartRequestBatch(c.ep);
	sge = (ND_SGE){ slot(s, 0), SLOT, s->mr };
	c.recv[0].Status = ND_PENDING;
	hr = c.ep->lpVtbl->Receive(c.ep, &c.recv[0], &sge, 1);
	check(hr == ND_SUCCESS && c.ep->lpVtbl->Flush(c.ep) == ND_SUCCESS, "a batched Receive, then Flush (%#lx)", hr);
	r = next_on(c.cq);
	check(r == &c.recv[0] && r->Status == ND_CANCELED,
	      "Flush completes the Receive the batch held ND_CANCELED, without Submit (%#lx)", r ? r->Status : 0);
	c.ep->lpVtbl->SubmitRequestBatch(c.ep);
	c.recv[1].Status = ND_PENDING;
	hr = c.ep->lpVtbl->Receive(c.ep, &c.recv[1], &sge, 1);
	r = hr == ND_SUCCESS ? next_on(c.cq) : NULL;
	check(r == &c.recv[1] && r->Status == ND_CANCELED, "a Receive after Flush completes ND_CANCELED (%#lx, %#lx)",
	      hr, r ? r->Status : 0);
	hr = finish((INDOverlapped *)c.conn, c.conn->lpVtbl->Disconnect(c.conn, &ov), &ov, NULL);
	check(hr == ND_SUCCESS, "Disconnect (%#lx)", hr);
out:
	if (ov.hEvent)
		CloseHandle(ov.hEvent);
	close2(&c);
}

/* ---- third connection: SendAndInvalidate of a token the peer cannot invalidate ----- */
#define PORT3 (PORT + 2)
/* A window's index in rxe's range (rkey >> 8 in 0x10001..0x20000) that no
 * window of this run has: the peer's device finds nothing to invalidate.
 * (Not the token of a window in the free state: rxe 6.1 dereferences a
 * NULL region in the kernel for that one, docs/nd2-decisions.md.) */
#define NO_WINDOW_TOKEN 0x01ffff01u

static void server3(struct side *s)
{
	struct conn2 c = { 0 };
	INDListen *l = NULL;
	OVERLAPPED ov = { 0 };
	ND_RESULT *r;
	HRESULT hr;
	int i;

	if (!open2(s, &c, 4, 4))
		return;
	for (i = 0; i < 2; i++) {
		ND_SGE sge = { slot(s, i), SLOT, s->mr };

		c.recv[i].Status = ND_PENDING;
		c.ep->lpVtbl->Receive(c.ep, &c.recv[i], &sge, 1);
	}
	ov.hEvent = CreateEventW(NULL, TRUE, FALSE, NULL);
	l = listen2(s, PORT3, "third");
	if (!l)
		goto out;
	hr = accept2(l, &c, &ov, "third");
	if (hr != ND_SUCCESS)
		goto out;
	r = next_on(c.cq);
	check(r == &c.recv[0] && r->Status == ND_INVALIDATION_ERROR,
	      "third connection: the client's SendAndInvalidate of a token that names no window here: the "
	      "Receive completes ND_INVALIDATION_ERROR, the device could not invalidate it (%#lx)", r ? r->Status : 0);
	r = next_on(c.cq);
	check(r == &c.recv[1] && r->Status == ND_CANCELED,
	      "third connection: the queue pair went to error: Receive 1 completes ND_CANCELED (%#lx)", r ? r->Status : 0);
	/* The client's device acknowledged the data: only the connection's
	 * end tells it something went wrong. */
	hr = finish((INDOverlapped *)c.conn, c.conn->lpVtbl->Disconnect(c.conn, &ov), &ov, NULL);
	check(hr == ND_SUCCESS, "third connection: Disconnect after the failed Receive (%#lx)", hr);
out:
	if (l)
		l->lpVtbl->Release(l);
	if (ov.hEvent)
		CloseHandle(ov.hEvent);
	close2(&c);
}

static void client3(struct side *s, const char *peer_ip)
{
	struct conn2 c = { 0 };
	ND_MW_DESCRIPTOR desc = { 0, WINDOW, 0 };
	OVERLAPPED ov = { 0 }, dov = { 0 };
	ND_SGE sge;
	ND_RESULT *r;
	char *w = slot(s, RECVS);
	HRESULT hr = ND_UNSUCCESSFUL;

	if (!open2(s, &c, 2, 4))
		return;
	ov.hEvent = CreateEventW(NULL, TRUE, FALSE, NULL);
	dov.hEvent = CreateEventW(NULL, TRUE, FALSE, NULL);
	hr = connect2(&c, peer_ip, PORT3, &ov, "third");
	if (hr != ND_SUCCESS)
		goto out;
	hr = c.conn->lpVtbl->NotifyDisconnect(c.conn, &dov);
	check(hr == ND_PENDING, "third connection: NotifyDisconnect pends (%#lx)", hr);
	desc.Token = htonl(NO_WINDOW_TOKEN);
	memcpy(w, "badinv", 6);
	sge = (ND_SGE){ w, 6, s->mr };
	hr = c.ep->lpVtbl->SendAndInvalidate(c.ep, &c.send[0], &sge, 1, &desc, 0);
	if (hr == ND_NOT_SUPPORTED) {
		check(0, "SendAndInvalidate: this device has no send-with-invalidate (ND_NOT_SUPPORTED); the failed "
			 "remote invalidation NOT tested");
		goto out;
	}
	r = hr == ND_SUCCESS ? next_on(c.cq) : NULL;
	check(r == &c.send[0] && r->Status == ND_SUCCESS,
	      "third connection: SendAndInvalidate of a token that names no window of the peer's completes ND_SUCCESS: "
	      "the peer's device acknowledged the data before its invalidation failed (%#lx, %#lx)", hr,
	      r ? r->Status : 0);
	hr = WaitForSingleObject(dov.hEvent, WAIT_MS) == WAIT_OBJECT_0 ? finish((INDOverlapped *)c.conn, ND_PENDING, &dov, NULL)
									 : ND_PENDING;
	check(hr == ND_SUCCESS, "third connection: NotifyDisconnect completes when the server ends the connection (%#lx)",
	      hr);
	c.send[1].Status = ND_PENDING;
	hr = c.ep->lpVtbl->Send(c.ep, &c.send[1], &sge, 1, 0);
	r = hr == ND_SUCCESS ? next_on(c.cq) : NULL;
	check(r == &c.send[1] && r->Status == ND_CANCELED,
	      "third connection: a Send after the server's Disconnect completes ND_CANCELED (%#lx, %#lx)", hr,
	      r ? r->Status : 0);
	hr = finish((INDOverlapped *)c.conn, c.conn->lpVtbl->Disconnect(c.conn, &ov), &ov, NULL);
	check(hr == ND_SUCCESS, "third connection: Disconnect (%#lx)", hr);
out:
	if (ov.hEvent)
		CloseHandle(ov.hEvent);
	close2(&c);	/* a NotifyDisconnect still pending completes here */
	if (dov.hEvent)
		CloseHandle(dov.hEvent);
}

static void teardown(struct side *s)
{
	OVERLAPPED ov = { 0 };
	HRESULT hr;

	if (s->ep)
		s->ep->lpVtbl->Release(s->ep);
	if (s->conn)
		s->conn->lpVtbl->Release(s->conn);
	if (s->cq)
		s->cq->lpVtbl->Release(s->cq);
	if (s->mr) {
		ov.hEvent = CreateEventW(NULL, TRUE, FALSE, NULL);
		hr = finish((INDOverlapped *)s->ad, s->ad->lpVtbl->DeregisterMemory(s->ad, s->mr, &ov), &ov, NULL);
		check(hr == ND_SUCCESS, "DeregisterMemory completes (%#lx)", hr);
		CloseHandle(ov.hEvent);
	}
	if (s->ad)
		check(s->ad->lpVtbl->Release(s->ad) == 0, "the adapter goes with its last Release");
}

int main(int argc, char **argv)
{
	struct side s = { 0 };
	INDProvider *p;
	WSADATA wsa;
	HRESULT(WINAPI * can_unload)(void);

	if (argc != 4 || (strcmp(argv[1], "server") && strcmp(argv[1], "client"))) {
		fprintf(stderr, "usage: nd1_rig server|client ADDR PEER\n");
		return 2;
	}
	role = argv[1];
	ndcheck_name = !strcmp(role, "server") ? "nd1 server" : "nd1 client";
	WSAStartup(MAKEWORD(2, 2), &wsa);
	p = discover(&s, argv[2]);
	if (p && setup(&s, p, argv[2])) {
		if (!strcmp(role, "server")) {
			server(&s);
			server2(&s);
			server3(&s);
		} else {
			client(&s, argv[2], argv[3]);
			client2(&s, argv[3]);
			client3(&s, argv[3]);
		}
	}
	teardown(&s);
	if (p)
		check(p->lpVtbl->Release(p) == 0, "the provider goes with its last Release");
	can_unload = s.dll ? (void *)GetProcAddress(s.dll, "DllCanUnloadNow") : NULL;
	check(can_unload && can_unload() == S_OK, "DllCanUnloadNow: S_OK once everything is released");
	printf("nd1 %s: %d failure%s\n", role, ndcheck_failures, ndcheck_failures == 1 ? "" : "s");
	return ndcheck_failures ? 1 : 0;
}

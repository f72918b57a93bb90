/* What foreign ND2 clients rely on when the peer misbehaves or goes away,
 * under ndrun in the Soft-RoCE guests (tests/vm/suites/nd2peer.sh):
 *
 *   nd2peer_rig server ADDR PEER [WRITES [PINGS]]   the passive side
 *   nd2peer_rig client ADDR PEER [WRITES [PINGS]]   the active side
 *   nd2peer_rig gone-server ADDR PEER       serves the clients below in turn
 *   nd2peer_rig gone-client ADDR PEER exit|kill|requested|last
 *
 * The sequence: queue sizes and limits; unusable destinations; the peer's
 * Disconnect flushing the survivor's queue pair; Accept after the
 * connecting side rejected or released its connector; a Send too large for
 * the peer's Receive (nd2peer_overrun.c); memory windows bound
 * with no access, Deregister while bound, a region released under a bound
 * window; a stream of WRITES (default 20000) 1-byte RDMA Writes through a
 * window; RDMA Read and Write, and a ping-pong of PINGS (default WRITES / 10)
 * 1-byte RDMA Writes each side spins on (nd2peer_rdma.c).  The gone- pair: a client process that exits, or is killed
 * (by the suite, once it printed "ready"), while connected or while its
 * request waits for the Accept; then a new connection works.
 *
 * The two processes keep in step over a TCP control connection (port
 * CTL_PORT on the server's address): ND has no way to say "I released my
 * connector", and timing guesses fail under TCG.
 * Prints "ok: ..." / "FAIL: ..." per check; exits 1 if any failed. */
#include <winsock2.h>
#include <ws2tcpip.h>
#include <ws2spi.h>
#include <windows.h>
#include <initguid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ndspi.h"
#include "nd2peer.h"

/* ---- the control connection: fixed 32-byte records --------------------------- */
/* Long enough for the longest step of the peer (the check-long stream). */
static const DWORD ctl_wait_ms = 300000;

void ctl_open(struct side *s, const char *ip, const char *peer, int serve)
{
	s->ctl = ctl_connect(ip, peer, CTL_PORT, serve, 60, ctl_wait_ms);
}

void ctl_send(struct side *s, const char *word, UINT64 addr, UINT32 token)
{
	struct ctl_msg m;

	memset(&m, 0, sizeof(m));
	strncpy(m.word, word, sizeof(m.word) - 1);
	m.addr = addr;
	m.token = token;
	if (send(s->ctl, (const char *)&m, sizeof(m), 0) != sizeof(m))
		die("control: send");
}

/* The next record, which must be word; 0 at end of stream. */
int ctl_recv(struct side *s, const char *word, struct ctl_msg *m)
{
	if (!ctl_read(s->ctl, m, sizeof(*m)))
		return 0;
	if (strcmp(m->word, word)) {
		note("control: got '%s', wanted '%s'", m->word, word);
		die("control: out of step");
	}
	return 1;
}

void ctl_expect(struct side *s, const char *word)
{
	struct ctl_msg m;

	if (!ctl_recv(s, word, &m))
		die("control: the peer went away");
}

/* The peer process has ended (its socket closed with it). */
int ctl_eof(struct side *s, DWORD ms)
{
	return ctl_closed(s->ctl, ms);
}

/* ---- discovery ------------------------------------------------------------------ */
void open_side(struct side *s, const char *ip)
{
	struct sockaddr_in want = addr_of(ip, 0);
	IND2Provider *p = nd_open_provider(0);
	UINT64 aid = 0;
	ULONG cb;
	OVERLAPPED ov = { 0 };

	if (p->lpVtbl->ResolveAddress(p, (struct sockaddr *)&want, sizeof(want), &aid) != ND_SUCCESS ||
	    p->lpVtbl->OpenAdapter(p, &IID_IND2Adapter, aid, (void **)&s->ad) != ND_SUCCESS)
		die("ResolveAddress and OpenAdapter");
	p->lpVtbl->Release(p);
	s->info.InfoVersion = ND_VERSION_2;
	cb = sizeof(s->info);
	if (s->ad->lpVtbl->Query(s->ad, &s->info, &cb) != ND_SUCCESS ||
	    s->ad->lpVtbl->CreateOverlappedFile(s->ad, &s->file) != ND_SUCCESS)
		die("Query and CreateOverlappedFile");
	s->port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 0);
	CreateIoCompletionPort(s->file, s->port, KEY, 0);
	if (s->ad->lpVtbl->CreateCompletionQueue(s->ad, &IID_IND2CompletionQueue, s->file, 1024, 0, 0, (void **)&s->cq) ||
	    s->ad->lpVtbl->CreateMemoryRegion(s->ad, &IID_IND2MemoryRegion, s->file, (void **)&s->mr))
		die("a CQ and a memory region");
	s->buf = VirtualAlloc(NULL, (RECVS + 2) * SLOT + WIN, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
	if (wait_ov(s, s->mr->lpVtbl->Register(s->mr, s->buf, (RECVS + 2) * SLOT + WIN,
					      ND_MR_FLAG_ALLOW_LOCAL_WRITE | ND_MR_FLAG_ALLOW_REMOTE_WRITE, &ov),
		    &ov, 5000) != ND_SUCCESS)
		die("Register");
	s->token = s->mr->lpVtbl->GetLocalToken(s->mr);
}

IND2QueuePair *new_qp(struct side *s, void *ctx)
{
	IND2QueuePair *qp = NULL;

	if (s->ad->lpVtbl->CreateQueuePair(s->ad, &IID_IND2QueuePair, (IUnknown *)s->cq, (IUnknown *)s->cq, ctx, 64, 64, 1, 1,
					   0, (void **)&qp) != ND_SUCCESS)
		die("CreateQueuePair(64, 64)");
	return qp;
}

IND2Connector *new_connector(struct side *s)
{
	IND2Connector *c = NULL;

	if (s->ad->lpVtbl->CreateConnector(s->ad, &IID_IND2Connector, s->file, (void **)&c) != ND_SUCCESS)
		die("CreateConnector");
	return c;
}

HRESULT post_recv(struct side *s, IND2QueuePair *qp, int slot)
{
	ND2_SGE sge = { s->buf + slot * SLOT, SLOT, s->token };

	return qp->lpVtbl->Receive(qp, (void *)(ULONG_PTR)(0x1000 + slot), &sge, 1);
}

/* The listener's next request handed to a new connector. */
IND2Connector *get_request(struct side *s, IND2Listener *l)
{
	IND2Connector *c = new_connector(s);
	OVERLAPPED ov = { 0 };
	HRESULT st = l->lpVtbl->GetConnectionRequest(l, (IUnknown *)c, &ov);

	if (wait_ov(s, st, &ov, 120000) != ND_SUCCESS)
		die("GetConnectionRequest completes");
	return c;
}

HRESULT accept_on(struct side *s, IND2Connector *c, IND2QueuePair *qp)
{
	OVERLAPPED ov = { 0 };
	HRESULT st = c->lpVtbl->Accept(c, (IUnknown *)qp, 4, 4, NULL, 0, &ov);

	return wait_ov(s, st, &ov, 30000);
}

/* Connect, then CompleteConnect unless told not to. */
HRESULT connect_to(struct side *s, IND2Connector *c, IND2QueuePair *qp, const char *peer, int complete)
{
	struct sockaddr_in dst = addr_of(peer, PORT);
	OVERLAPPED ov = { 0 };
	HRESULT st = c->lpVtbl->Connect(c, (IUnknown *)qp, (struct sockaddr *)&dst, sizeof(dst), 4, 4, NULL, 0, &ov);

	st = wait_ov(s, st, &ov, 60000);
	if (st != ND_SUCCESS || !complete)
		return st;
	memset(&ov, 0, sizeof(ov));
	st = c->lpVtbl->CompleteConnect(c, &ov);
	return wait_ov(s, st, &ov, 30000);
}

HRESULT disconnect(struct side *s, IND2Connector *c)
{
	OVERLAPPED ov = { 0 };
	HRESULT st = c->lpVtbl->Disconnect(c, &ov);

	return wait_ov(s, st, &ov, 30000);
}

/* Results of qp_ctx until n arrived or ms passed; how many had status st. */
int count_results(struct side *s, void *qp_ctx, int n, HRESULT st, DWORD ms, int *got)
{
	ND2_RESULT r;
	DWORD end = GetTickCount() + ms;
	int good = 0;

	*got = 0;
	while (*got < n && GetTickCount() < end) {
		if (!get_one(s, &r, end - GetTickCount()))
			break;
		if (r.QueuePairContext != qp_ctx)
			continue;
		(*got)++;
		if (r.Status == st)
			good++;
		else
			printf("    note: request %p (type %d) ended %#lx\n", r.RequestContext, (int)r.RequestType, r.Status);
	}
	return good;
}

void drain(struct side *s)
{
	ND2_RESULT r;

	while (s->cq->lpVtbl->GetResults(s->cq, &r, 1) == 1)
		;
}

/* ndfault_rig.c and ndsoak_rig.c link the helpers above with mains of their own. */
#ifndef ND2PEER_NO_MAIN
/* ---- local checks: limits and queue sizes ------------------------------------- */
static void limits(struct side *s)
{
	IND2QueuePair *qp = NULL;
	IND2CompletionQueue *cq = NULL;
	ND2_SGE sge[2];
	HRESULT st;

	check(s->info.MaxReceiveQueueDepth >= 128 && s->info.MaxInitiatorQueueDepth >= 32 &&
		      s->info.MaxCompletionQueueDepth >= 160 && s->info.MaxReceiveQueueDepth <= 65536 &&
		      s->info.MaxInitiatorQueueDepth <= 65536 && s->info.MaxCompletionQueueDepth <= 262144 &&
		      s->info.MaxSharedReceiveQueueDepth <= 65536,
	      "Query: depths a 1 GiB host can honour (recv %lu init %lu cq %lu srq %lu)", s->info.MaxReceiveQueueDepth,
	      s->info.MaxInitiatorQueueDepth, s->info.MaxCompletionQueueDepth, s->info.MaxSharedReceiveQueueDepth);
	st = s->ad->lpVtbl->CreateQueuePair(s->ad, &IID_IND2QueuePair, (IUnknown *)s->cq, (IUnknown *)s->cq, (void *)1,
					    s->info.MaxReceiveQueueDepth, s->info.MaxInitiatorQueueDepth, 1, 1, 0, (void **)&qp);
	check(st == ND_SUCCESS || st == ND_INSUFFICIENT_RESOURCES,
	      "CreateQueuePair at the advertised maximum depths: success or ND_INSUFFICIENT_RESOURCES (%#lx)", st);
	if (qp)
		check(qp->lpVtbl->Release(qp) == 0, "release it: 0");
	st = s->ad->lpVtbl->CreateCompletionQueue(s->ad, &IID_IND2CompletionQueue, s->file, s->info.MaxCompletionQueueDepth,
						  0, 0, (void **)&cq);
	check(st == ND_SUCCESS || st == ND_INSUFFICIENT_RESOURCES,
	      "CreateCompletionQueue at the advertised maximum depth: success or ND_INSUFFICIENT_RESOURCES (%#lx)", st);
	if (cq)
		check(cq->lpVtbl->Release(cq) == 0, "release it: 0");

	/* Asked for 1 SGE, posts 2: lenient up to the adapter's maximum. */
	qp = NULL;
	st = s->ad->lpVtbl->CreateQueuePair(s->ad, &IID_IND2QueuePair, (IUnknown *)s->cq, (IUnknown *)s->cq, (void *)2, 128,
					    32, 1, 1, 0, (void **)&qp);
	check(st == ND_SUCCESS, "CreateQueuePair(128, 32, 1 SGE each)");
	if (!qp)
		return;
	sge[0] = (ND2_SGE){ s->buf, 16, s->token };
	sge[1] = (ND2_SGE){ s->buf + 16, 16, s->token };
	if (s->info.MaxReceiveSge >= 2)
		check(qp->lpVtbl->Receive(qp, (void *)0x77, sge, 2) == ND_SUCCESS,
		      "a Receive with 2 SGEs on a QP that asked for 1: accepted (adapter max %lu)", s->info.MaxReceiveSge);
	check(qp->lpVtbl->Flush(qp) == ND_SUCCESS, "Flush it");
	check(qp->lpVtbl->Release(qp) == 0, "release it: 0");
	drain(s);
}

/* ---- destinations no one can serve ------------------------------------------------ */
static void bad_destinations(struct side *s, const char *peer)
{
	static const struct {
		const char *ip;
		USHORT port;
		const char *what;
	} bad[] = {
		{ "0.0.0.0", PORT, "0.0.0.0" },
		{ "224.0.0.1", PORT, "a multicast address" },
		{ "255.255.255.255", PORT, "the broadcast address" },
		{ NULL, 0, "port 0 of the peer" },
	};
	IND2QueuePair *qp = new_qp(s, (void *)3);
	struct sockaddr_in6 any6;
	unsigned i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		IND2Connector *c = new_connector(s);
		struct sockaddr_in dst = addr_of(bad[i].ip ? bad[i].ip : peer, bad[i].port);
		OVERLAPPED ov = { 0 };
		DWORD t0 = GetTickCount();
		HRESULT st = c->lpVtbl->Connect(c, (IUnknown *)qp, (struct sockaddr *)&dst, sizeof(dst), 0, 0, NULL, 0, &ov);

		check(st == STATUS_BAD_NETWORK_NAME && wait_port(s, &ov, 50) == 1,
		      "Connect to %s: STATUS_BAD_NETWORK_NAME at once, no packet (%#lx in %lu ms)", bad[i].what, st,
		      GetTickCount() - t0);
		if (st == ND_PENDING) {
			c->lpVtbl->CancelOverlappedRequests(c);
			wait_port(s, &ov, 5000);
		}
		check(c->lpVtbl->Release(c) == 0, "release the connector: 0");
	}
	{
		IND2Connector *c = new_connector(s);
		OVERLAPPED ov = { 0 };
		HRESULT st;

		memset(&any6, 0, sizeof(any6));
		any6.sin6_family = AF_INET6;
		any6.sin6_port = htons(PORT);
		st = c->lpVtbl->Connect(c, (IUnknown *)qp, (struct sockaddr *)&any6, sizeof(any6), 0, 0, NULL, 0, &ov);
		check(st == STATUS_BAD_NETWORK_NAME, "Connect to [::]: STATUS_BAD_NETWORK_NAME (%#lx)", st);
		if (st == ND_PENDING) {
			c->lpVtbl->CancelOverlappedRequests(c);
			wait_port(s, &ov, 5000);
		}
		c->lpVtbl->Release(c);
	}
	check(qp->lpVtbl->Release(qp) == 0, "release the QP: 0");
}

/* ---- the peer's Disconnect flushes the survivor ------------------------------------ */
static void flush_server(struct side *s, IND2Listener *l)
{
	IND2QueuePair *qp = new_qp(s, (void *)0xF1);
	IND2Connector *c;
	OVERLAPPED nd = { 0 };
	ND2_SGE sge = { s->buf + RECVS * SLOT, 8, s->token };
	int i, ok, got;
	DWORD t0;

	for (i = 0, ok = 1; i < RECVS; i++)
		ok &= post_recv(s, qp, i) == ND_SUCCESS;
	c = get_request(s, l);
	check(ok && accept_on(s, c, qp) == ND_SUCCESS, "flush: %d Receives posted, the connection accepted", RECVS);
	check(c->lpVtbl->NotifyDisconnect(c, &nd) == ND_PENDING, "flush: NotifyDisconnect pends");
	check(count_results(s, (void *)0xF1, 1, ND_SUCCESS, 30000, &got) == 1, "flush: the client's message arrives");
	ctl_send(s, "received", 0, 0);
	ctl_expect(s, "disconnected");
	t0 = GetTickCount();
	check(wait_port(s, &nd, 5000) == ND_SUCCESS, "flush: NotifyDisconnect completes when the client disconnects");
	ok = count_results(s, (void *)0xF1, RECVS - 1, ND_CANCELED, 5000, &got);
	check(ok == RECVS - 1, "flush: the client's Disconnect flushed the other %d Receives: %d ND_CANCELED of %d, %lu ms",
	      RECVS - 1, ok, got, GetTickCount() - t0);
	/* The queue pair is in error: a request posted now is flushed too. */
	check(qp->lpVtbl->Send(qp, (void *)0x5E, &sge, 1, 0) == ND_SUCCESS &&
		      count_results(s, (void *)0xF1, 1, ND_CANCELED, 5000, &got) == 1,
	      "flush: a Send posted after the peer's Disconnect completes ND_CANCELED");
	check(disconnect(s, c) == ND_SUCCESS, "flush: the server's own Disconnect then succeeds");
	check(c->lpVtbl->Release(c) == 0 && qp->lpVtbl->Release(qp) == 0, "flush: release the connector and the QP: 0");
}

static void flush_client(struct side *s, const char *peer)
{
	IND2QueuePair *qp = new_qp(s, (void *)0xF2);
	IND2Connector *c = new_connector(s);
	ND2_SGE sge = { s->buf + RECVS * SLOT, 8, s->token };
	OVERLAPPED ov = { 0 };
	HRESULT st;
	int got;

	check(connect_to(s, c, qp, peer, 1) == ND_SUCCESS, "flush: connected");
	check(qp->lpVtbl->Send(qp, (void *)0x5E, &sge, 1, 0) == ND_SUCCESS &&
		      count_results(s, (void *)0xF2, 1, ND_SUCCESS, 30000, &got) == 1,
	      "flush: one message sent");
	ctl_expect(s, "received");
	/* The Disconnect completes once the server disconnects too, which it
	 * does only after its checks. */
	st = c->lpVtbl->Disconnect(c, &ov);
	ctl_send(s, "disconnected", 0, 0);
	check(wait_ov(s, st, &ov, 30000) == ND_SUCCESS, "flush: Disconnect (%#lx)", st);
	check(c->lpVtbl->Release(c) == 0 && qp->lpVtbl->Release(qp) == 0, "flush: release the connector and the QP: 0");
}

/* ---- Accept after the connecting side gave up ------------------------------------- */
static void refused_server(struct side *s, IND2Listener *l)
{
	IND2QueuePair *qp = new_qp(s, (void *)0xA1);
	IND2Connector *c;
	OVERLAPPED ov = { 0 };
	HRESULT st, done;

	/* The client's CompleteConnect never comes: it rejects the Accept. */
	c = get_request(s, l);
	st = c->lpVtbl->Accept(c, (IUnknown *)qp, 4, 4, NULL, 0, &ov);
	done = wait_ov(s, st, &ov, 30000);
	check(st == ND_PENDING && done == ND_CONNECTION_REFUSED,
	      "refused: Accept after the connecting side rejected: ND_CONNECTION_REFUSED (%#lx, then %#lx)", st, done);
	check(c->lpVtbl->Release(c) == 0, "refused: release the connector: 0");

	/* The client releases its connector while its request waits here. */
	check(qp->lpVtbl->Release(qp) == 0, "refused: release the QP: 0");
	qp = new_qp(s, (void *)0xA1);
	c = get_request(s, l);
	ctl_send(s, "requested", 0, 0);
	ctl_expect(s, "released");
	memset(&ov, 0, sizeof(ov));
	st = c->lpVtbl->Accept(c, (IUnknown *)qp, 4, 4, NULL, 0, &ov);
	done = wait_ov(s, st, &ov, 30000);
	check(st == ND_PENDING && done == ND_CONNECTION_REFUSED,
	      "refused: Accept after the connecting side released its connector: pends, then ND_CONNECTION_REFUSED "
	      "(%#lx, then %#lx)",
	      st, done);
	check(c->lpVtbl->Release(c) == 0, "refused: release the connector: 0");
	check(qp->lpVtbl->Release(qp) == 0, "refused: release the QP: 0");
	ctl_send(s, "refused-done", 0, 0);
}

static void refused_client(struct side *s, const char *peer)
{
	IND2QueuePair *qp = new_qp(s, (void *)0xA2);
	IND2Connector *c = new_connector(s);
	struct sockaddr_in dst = addr_of(peer, PORT);
	OVERLAPPED ov = { 0 };
	HRESULT st;

	st = connect_to(s, c, qp, peer, 0);
	check(st == ND_SUCCESS, "refused: Connect completes (%#lx)", st);
	check(c->lpVtbl->Reject(c, NULL, 0) == ND_SUCCESS, "refused: the connecting side rejects the Accept");
	check(c->lpVtbl->Release(c) == 0, "refused: release the connector: 0");

	c = new_connector(s);
	st = c->lpVtbl->Connect(c, (IUnknown *)qp, (struct sockaddr *)&dst, sizeof(dst), 4, 4, NULL, 0, &ov);
	check(st == ND_PENDING, "refused: a second Connect pends (%#lx)", st);
	ctl_expect(s, "requested");
	check(c->lpVtbl->Release(c) == 0, "refused: release the connector while its request waits: 0");
	/* Its Connect ended ND_CANCELED with the connector. */
	check(wait_port(s, &ov, 5000) == ND_CANCELED, "refused: the pending Connect ended ND_CANCELED");
	ctl_send(s, "released", 0, 0);
	ctl_expect(s, "refused-done");
	check(qp->lpVtbl->Release(qp) == 0, "refused: release the QP: 0");
}

/* ---- memory windows and an RDMA Write stream -------------------------------------- */
static void window_server(struct side *s, IND2Listener *l, ULONG writes)
{
	IND2QueuePair *qp = new_qp(s, (void *)0xB1);
	IND2Connector *c;
	IND2MemoryWindow *mw = NULL, *mw0 = NULL;
	IND2MemoryRegion *mr = NULL;
	char *win;
	OVERLAPPED ov = { 0 };
	HRESULT st;
	ULONG i;
	int got, ok;

	win = VirtualAlloc(NULL, WIN, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
	c = get_request(s, l);
	check(accept_on(s, c, qp) == ND_SUCCESS, "window: connection accepted");
	s->ad->lpVtbl->CreateMemoryRegion(s->ad, &IID_IND2MemoryRegion, s->file, (void **)&mr);
	st = mr->lpVtbl->Register(mr, win, WIN, ND_MR_FLAG_ALLOW_LOCAL_WRITE | ND_MR_FLAG_ALLOW_REMOTE_WRITE, &ov);
	check(wait_ov(s, st, &ov, 5000) == ND_SUCCESS, "window: a region registered");
	check(s->ad->lpVtbl->CreateMemoryWindow(s->ad, &IID_IND2MemoryWindow, (void **)&mw0) == ND_SUCCESS &&
		      s->ad->lpVtbl->CreateMemoryWindow(s->ad, &IID_IND2MemoryWindow, (void **)&mw) == ND_SUCCESS,
	      "window: two memory windows");
	if (!mw || !mw0)
		die("window: no memory windows");

	/* A window that grants nothing: Bind with flags 0. */
	st = qp->lpVtbl->Bind(qp, (void *)0xB0, (IUnknown *)mr, (IUnknown *)mw0, win, WIN, 0);
	check(st == ND_SUCCESS && count_results(s, (void *)0xB1, 1, ND_SUCCESS, 5000, &got) == 1,
	      "window: Bind with flags 0 succeeds (%#lx)", st);
	memset(&ov, 0, sizeof(ov));
	st = mr->lpVtbl->Deregister(mr, &ov);
	check(st == ND_DEVICE_BUSY && wait_port(s, &ov, 50) == 1,
	      "window: Deregister of the region while a window is bound: ND_DEVICE_BUSY (%#lx)", st);

	st = qp->lpVtbl->Bind(qp, (void *)0xB2, (IUnknown *)mr, (IUnknown *)mw, win, WIN, ND_OP_FLAG_ALLOW_WRITE);
	check(st == ND_SUCCESS && count_results(s, (void *)0xB1, 1, ND_SUCCESS, 5000, &got) == 1,
	      "window: Bind with ND_OP_FLAG_ALLOW_WRITE (%#lx)", st);
	memset(win, 0, WIN);
	ctl_send(s, "window", (UINT64)(ULONG_PTR)win, mw->lpVtbl->GetRemoteToken(mw));
	ctl_expect(s, "written");
	/* Write i put (i & 0x7f) + 1 at offset i % WIN; untouched bytes stay 0. */
	for (i = 0, ok = 1; i < WIN; i++)
		ok &= win[i] == (i < writes ? (char)((i & 0x7f) + 1) : 0);
	check(ok, "window: %lu 1-byte RDMA Writes through the window landed, every byte in place", writes);

	/* The denying window: the client's Write through it must fail. */
	ctl_send(s, "window0", (UINT64)(ULONG_PTR)win, mw0->lpVtbl->GetRemoteToken(mw0));
	ctl_expect(s, "denied");

	/* The region released while both windows are bound: it must go with
	 * the last window, without a leak. */
	check(mr->lpVtbl->Release(mr) == 0, "window: release the region while windows are bound: 0");
	check(mw0->lpVtbl->Release(mw0) == 0 && mw->lpVtbl->Release(mw) == 0, "window: release the windows: 0");
	drain(s);
	/* The client is waiting for our word, not disconnecting: ours must
	 * complete anyway. */
	check(disconnect(s, c) == ND_SUCCESS, "window: Disconnect while the client waits");
	check(c->lpVtbl->Release(c) == 0 && qp->lpVtbl->Release(qp) == 0, "window: release the connector and the QP: 0");
	VirtualFree(win, 0, MEM_RELEASE);
	ctl_send(s, "window-done", 0, 0);
}

static void window_client(struct side *s, const char *peer, ULONG writes)
{
	IND2QueuePair *qp = NULL;
	IND2Connector *c = new_connector(s);
	struct ctl_msg m;
	ND2_RESULT r;
	ULONG posted = 0, done = 0, bad = 0, depth = 64, inflight = 0, i;
	HRESULT first_bad = 0, st;
	DWORD t0;
	char *src = s->buf + (RECVS + 1) * SLOT;

	s->ad->lpVtbl->CreateQueuePair(s->ad, &IID_IND2QueuePair, (IUnknown *)s->cq, (IUnknown *)s->cq, (void *)0xB3, 16,
				       depth, 1, 1, 0, (void **)&qp);
	if (!qp)
		die("window: CreateQueuePair");
	check(connect_to(s, c, qp, peer, 1) == ND_SUCCESS, "window: connected");
	ctl_recv(s, "window", &m);
	for (i = 0; i < 128; i++)
		src[i] = (char)((i & 0x7f) + 1);
	t0 = GetTickCount();
	while (done < writes) {
		while (posted < writes && inflight < depth) {
			ND2_SGE sge = { src + (posted & 0x7f), 1, s->token };
			st = qp->lpVtbl->Write(qp, (void *)(ULONG_PTR)posted, &sge, 1, m.addr + posted % WIN, m.token, 0);
			if (st != ND_SUCCESS) {
				printf("    note: Write %lu returned %#lx\n", posted, st);
				break;
			}
			posted++;
			inflight++;
		}
		if (!get_one(s, &r, 30000))
			break;
		inflight--;
		done++;
		if (r.Status != ND_SUCCESS || r.RequestType != Nd2RequestTypeWrite) {
			if (!bad++) {
				first_bad = r.Status;
				printf("    note: Write %lu of %lu ended %#lx (type %d)\n", (ULONG)(ULONG_PTR)r.RequestContext,
				       writes, r.Status, (int)r.RequestType);
			}
		}
		if (bad > 4)
			break;
	}
	check(done == writes && !bad, "window: %lu 1-byte RDMA Writes completed ND_SUCCESS (%lu done, %lu failed, first %#lx), %lu ms",
	      writes, done, bad, first_bad, GetTickCount() - t0);
	ctl_send(s, "written", 0, 0);

	ctl_recv(s, "window0", &m);
	{
		ND2_SGE sge = { src, 1, s->token };
		int got_one;

		memset(&r, 0, sizeof(r));
		st = qp->lpVtbl->Write(qp, (void *)0xDE, &sge, 1, m.addr, m.token, 0);
		got_one = st == ND_SUCCESS && get_one(s, &r, 30000);
		check(got_one && r.Status == ND_ACCESS_VIOLATION && r.RequestContext == (void *)0xDE,
		      "window: a Write through the window bound with flags 0: ND_ACCESS_VIOLATION (%#lx, %#lx)", st, r.Status);
	}
	ctl_send(s, "denied", 0, 0);
	ctl_expect(s, "window-done");
	drain(s);
	check(disconnect(s, c) == ND_SUCCESS, "window: Disconnect after the server's");
	check(c->lpVtbl->Release(c) == 0 && qp->lpVtbl->Release(qp) == 0, "window: release the connector and the QP: 0");
}

/* ---- the peer process ends --------------------------------------------------------- */
static void gone_connected(struct side *s, IND2Listener *l, const char *how)
{
	IND2QueuePair *qp = new_qp(s, (void *)0xC1);
	IND2Connector *c;
	OVERLAPPED nd = { 0 };
	HRESULT nst;
	int i, ok, got;
	DWORD t0;

	for (i = 0, ok = 1; i < RECVS; i++)
		ok &= post_recv(s, qp, i) == ND_SUCCESS;
	c = get_request(s, l);
	check(ok && accept_on(s, c, qp) == ND_SUCCESS, "%s: connected, %d Receives posted", how, RECVS);
	check(c->lpVtbl->NotifyDisconnect(c, &nd) == ND_PENDING, "%s: NotifyDisconnect pends", how);
	ctl_send(s, "connected", 0, 0);
	check(ctl_eof(s, 60000), "%s: the client process ended", how);
	t0 = GetTickCount();
	nst = wait_port(s, &nd, 5000);
	check(nst == ND_SUCCESS || nst == STATUS_CONNECTION_DISCONNECTED, "%s: NotifyDisconnect completes (%#lx)", how, nst);
	ok = count_results(s, (void *)0xC1, RECVS, ND_CANCELED, 5000, &got);
	check(ok == RECVS, "%s: every posted Receive ended ND_CANCELED within 5 s (%d of %d, %lu ms)", how, ok, got,
	      GetTickCount() - t0);
	disconnect(s, c);
	check(c->lpVtbl->Release(c) == 0 && qp->lpVtbl->Release(qp) == 0, "%s: release the connector and the QP: 0", how);
}

static void gone_server(struct side *s, const char *ip, const char *peer)
{
	struct sockaddr_in sa = addr_of(ip, PORT);
	IND2Listener *l = NULL;
	IND2QueuePair *qp;
	IND2Connector *c;
	OVERLAPPED ov = { 0 };
	HRESULT st, done;
	int got;

	s->ad->lpVtbl->CreateListener(s->ad, &IID_IND2Listener, s->file, (void **)&l);
	if (!l || l->lpVtbl->Bind(l, (struct sockaddr *)&sa, sizeof(sa)) || l->lpVtbl->Listen(l, 0))
		die("a listener");

	ctl_open(s, ip, peer, 1);
	gone_connected(s, l, "exit");
	closesocket(s->ctl);
	ctl_open(s, ip, peer, 1);
	gone_connected(s, l, "kill");
	closesocket(s->ctl);

	/* The client's request waits here while its process exits. */
	ctl_open(s, ip, peer, 1);
	qp = new_qp(s, (void *)0xC2);
	c = get_request(s, l);
	ctl_send(s, "requested", 0, 0);
	check(ctl_eof(s, 60000), "requested: the client process ended");
	st = c->lpVtbl->Accept(c, (IUnknown *)qp, 4, 4, NULL, 0, &ov);
	done = wait_ov(s, st, &ov, 30000);
	check(st == ND_PENDING && done == ND_CONNECTION_REFUSED,
	      "requested: Accept after the connecting process exited: pends, then ND_CONNECTION_REFUSED (%#lx, then %#lx)",
	      st, done);
	check(c->lpVtbl->Release(c) == 0, "requested: release the connector: 0");
	closesocket(s->ctl);

	/* A new connection works afterwards. */
	check(qp->lpVtbl->Release(qp) == 0, "requested: release the QP: 0");
	qp = new_qp(s, (void *)0xC2);
	ctl_open(s, ip, peer, 1);
	check(post_recv(s, qp, 0) == ND_SUCCESS, "last: a Receive posted");
	c = get_request(s, l);
	check(accept_on(s, c, qp) == ND_SUCCESS, "last: a new connection after all that");
	check(count_results(s, (void *)0xC2, 1, ND_SUCCESS, 30000, &got) == 1, "last: its message arrives");
	ctl_expect(s, "sent");
	disconnect(s, c);
	check(c->lpVtbl->Release(c) == 0 && qp->lpVtbl->Release(qp) == 0, "last: release the connector and the QP: 0");
	closesocket(s->ctl);
	check(l->lpVtbl->Release(l) == 0, "release the listener: 0");
}

static void gone_client(struct side *s, const char *ip, const char *peer, const char *how)
{
	IND2QueuePair *qp = new_qp(s, (void *)0xC3);
	IND2Connector *c = new_connector(s);
	ND2_SGE sge = { s->buf, 8, s->token };
	int got;

	ctl_open(s, ip, peer, 0);
	if (!strcmp(how, "requested")) {
		struct sockaddr_in dst = addr_of(peer, PORT);
		OVERLAPPED ov = { 0 };
		HRESULT st = c->lpVtbl->Connect(c, (IUnknown *)qp, (struct sockaddr *)&dst, sizeof(dst), 4, 4, NULL, 0, &ov);
		check(st == ND_PENDING, "requested: Connect pends");
		ctl_expect(s, "requested");
		printf("%s: exiting with the request pending\n", role);
		ExitProcess(0);
	}
	check(connect_to(s, c, qp, peer, 1) == ND_SUCCESS, "%s: connected", how);
	if (!strcmp(how, "last")) {
		check(qp->lpVtbl->Send(qp, (void *)1, &sge, 1, 0) == ND_SUCCESS &&
			      count_results(s, (void *)0xC3, 1, ND_SUCCESS, 30000, &got) == 1,
		      "last: one message sent");
		ctl_send(s, "sent", 0, 0);
		disconnect(s, c);
		check(c->lpVtbl->Release(c) == 0 && qp->lpVtbl->Release(qp) == 0, "last: release the connector and the QP: 0");
		return;
	}
	ctl_expect(s, "connected");
	if (!strcmp(how, "exit")) {
		printf("%s: exiting while connected\n", role);
		ExitProcess(0);
	}
	printf("ready to be killed\n");
	for (;;)
		Sleep(1000);
}

int main(int argc, char **argv)
{
	struct side s = { 0 };
	WSADATA wsa;
	DWORD t0 = GetTickCount();
	ULONG writes = 20000, pings;
	const char *what;
	char name[40];

	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc < 4) {
		fprintf(stderr, "usage: %s server|client|gone-server|gone-client ADDR PEER [WRITES|HOW]\n", argv[0]);
		return 2;
	}
	what = argv[1];
	snprintf(name, sizeof(name), "nd2peer %s", what);
	role = name;
	WSAStartup(MAKEWORD(2, 2), &wsa);
	open_side(&s, argv[2]);
	if (!strcmp(what, "gone-server")) {
		gone_server(&s, argv[2], argv[3]);
	} else if (!strcmp(what, "gone-client") && argc == 5) {
		gone_client(&s, argv[2], argv[3], argv[4]);
	} else if (!strcmp(what, "server") || !strcmp(what, "client")) {
		if (argc >= 5)
			writes = strtoul(argv[4], NULL, 0);
		pings = argc >= 6 ? strtoul(argv[5], NULL, 0) : writes / 10;
		limits(&s);
		if (!strcmp(what, "server")) {
			struct sockaddr_in sa = addr_of(argv[2], PORT);
			IND2Listener *l = NULL;

			s.ad->lpVtbl->CreateListener(s.ad, &IID_IND2Listener, s.file, (void **)&l);
			if (!l || l->lpVtbl->Bind(l, (struct sockaddr *)&sa, sizeof(sa)) || l->lpVtbl->Listen(l, 0))
				die("a listener");
			ctl_open(&s, argv[2], argv[3], 1);
			flush_server(&s, l);
			refused_server(&s, l);
			overrun_server(&s, l);
			window_server(&s, l, writes);
			rdma_server(&s, l);
			pingpong_server(&s, l, pings);
			check(l->lpVtbl->Release(l) == 0, "release the listener: 0");
		} else {
			bad_destinations(&s, argv[3]);
			ctl_open(&s, argv[2], argv[3], 0);
			flush_client(&s, argv[3]);
			refused_client(&s, argv[3]);
			overrun_client(&s, argv[3]);
			window_client(&s, argv[3], writes);
			rdma_client(&s, argv[3]);
			pingpong_client(&s, argv[3], pings);
		}
		closesocket(s.ctl);
	} else {
		fprintf(stderr, "%s: unknown role %s\n", argv[0], what);
		return 2;
	}
	{
		OVERLAPPED ov = { 0 };
		HRESULT st = s.mr->lpVtbl->Deregister(s.mr, &ov);
		check(wait_ov(&s, st, &ov, 5000) == ND_SUCCESS && s.mr->lpVtbl->Release(s.mr) == 0 &&
			      s.cq->lpVtbl->Release(s.cq) == 0 && s.ad->lpVtbl->Release(s.ad) == 0,
		      "release the region, the CQ and the adapter: 0");
	}
	CloseHandle(s.file);
	CloseHandle(s.port);
	WSACleanup();
	printf("%s: took %lu ms, %d failed\n", role, GetTickCount() - t0, failures);
	return failures ? 1 : 0;
}
#endif

/* Shared receive queues and completion-queue notification semantics of
 * nd2prov.dll on the Soft-RoCE rig, run under ndrun by
 * tests/vm/suites/nd2srq.sh:
 *
 *   nd2srq_rig server ADDR PEER     owns the SRQ and makes every check
 *   nd2srq_rig client ADDR PEER     an agent: opens five connections, then
 *                                   sends what the server asks for over a
 *                                   TCP control connection
 *
 * Connections 0-2 use one SRQ on the server (0 and 1 report receives to
 * one CQ, 2 to a CQ of its own that is left unpolled for a while); 3 is a
 * plain queue pair for the CQ Notify/Resize checks; 4 overruns a tiny CQ.
 * Prints "ok: ..." / "FAIL: ..." per check; exits 1 if any failed. */
#include <winsock2.h>
#include <ws2tcpip.h>
#include <ws2spi.h>
#include <windows.h>
#include <initguid.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ndcatalog.h"
#include "ndcheck.h"
#include "ndctl.h"
#include "ndspi.h"

#define PORT 54830
#define CTL_PORT 54839
#define KEY 0x79
#define CONNS 5
#define SLOTS 128	/* receive slots on the server, send slots per connection on the client */
#define SLOT 256
#define MSG 64
#define QP_CTX(i) ((void *)(ULONG_PTR)(0x5150 + (i)))
#define RECV_CTX(slot) ((void *)(ULONG_PTR)(0x100 + (slot)))
#define STATUS_PENDING_ ((ULONG_PTR)0x103)


struct side {
	IND2Adapter *ad;
	ND2_ADAPTER_INFO info;
	HANDLE file, port;
	IND2MemoryRegion *mr;
	char *buf;
	UINT32 token;
	SOCKET ctl;
	IND2Listener *listener;
	IND2Connector *conn[CONNS];
	IND2QueuePair *qp[CONNS];
};

/* The control connection: the server's commands and the client's answers. */
enum { CMD_SEND = 1, CMD_QUIT };
struct cmd {
	UINT32 op, conn, count, flags;
	UINT32 tag, pad;
};
struct answer {
	UINT32 sent, failed;
	INT32 first_error, pad;
};

/* ---- waiting (wait_port, wait_ov: ndcheck.c) ---------------------------------------- */
/* Up to n results of cq within ms. */
static int get_results(IND2CompletionQueue *cq, ND2_RESULT *r, int n, DWORD ms)
{
	DWORD end = GetTickCount() + ms;
	int got = 0;

	do {
		got += cq->lpVtbl->GetResults(cq, r + got, n - got);
		if (got < n)
			Sleep(1);
	} while (got < n && GetTickCount() < end);
	return got;
}

/* ---- discovery, as ND clients do it ---------------------------------------------------- */
static void open_side(struct side *s, const char *ip)
{
	struct sockaddr_in want = addr_of(ip, 0);
	IND2Provider *p = nd_open_provider(PFL_NETWORKDIRECT_PROVIDER);
	OVERLAPPED ov = { 0 };
	UINT64 id = 0;
	ULONG cb;
	HRESULT st;

	if (p->lpVtbl->ResolveAddress(p, (struct sockaddr *)&want, sizeof(want), &id) != ND_SUCCESS ||
	    p->lpVtbl->OpenAdapter(p, &IID_IND2Adapter, id, (void **)&s->ad) != ND_SUCCESS)
		die("OpenAdapter on the address's adapter");
	p->lpVtbl->Release(p);
	s->info.InfoVersion = ND_VERSION_2;
	cb = sizeof(s->info);
	if (s->ad->lpVtbl->Query(s->ad, &s->info, &cb) != ND_SUCCESS)
		die("Query");
	if (s->ad->lpVtbl->CreateOverlappedFile(s->ad, &s->file) != ND_SUCCESS)
		die("CreateOverlappedFile");
	s->port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 0);
	CreateIoCompletionPort(s->file, s->port, KEY, 0);
	s->buf = VirtualAlloc(NULL, CONNS * SLOTS * SLOT, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
	s->ad->lpVtbl->CreateMemoryRegion(s->ad, &IID_IND2MemoryRegion, s->file, (void **)&s->mr);
	st = s->mr->lpVtbl->Register(s->mr, s->buf, CONNS * SLOTS * SLOT,
				     ND_MR_FLAG_ALLOW_LOCAL_WRITE | ND_MR_FLAG_ALLOW_REMOTE_WRITE, &ov);
	if (wait_ov(s->port, st, &ov, 10000) != ND_SUCCESS)
		die("Register");
	s->token = s->mr->lpVtbl->GetLocalToken(s->mr);
}

static IND2CompletionQueue *new_cq(struct side *s, ULONG depth)
{
	IND2CompletionQueue *cq = NULL;

	if (s->ad->lpVtbl->CreateCompletionQueue(s->ad, &IID_IND2CompletionQueue, s->file, depth, 0, 0, (void **)&cq))
		die("CreateCompletionQueue");
	return cq;
}

static IND2Connector *new_connector(struct side *s)
{
	IND2Connector *c = NULL;

	if (s->ad->lpVtbl->CreateConnector(s->ad, &IID_IND2Connector, s->file, (void **)&c) != ND_SUCCESS)
		die("CreateConnector");
	return c;
}

/* ---- control ---------------------------------------------------------------------------- */
static void ctl_open(struct side *s, const char *ip, const char *peer, int serve)
{
	s->ctl = ctl_connect(ip, peer, CTL_PORT, serve, 120, 120000);
}

static void ctl_cmd(struct side *s, UINT32 op, UINT32 conn, UINT32 count, UINT32 flags)
{
	static UINT32 tag;
	struct cmd c = { op, conn, count, flags, ++tag, 0 };

	if (send(s->ctl, (const char *)&c, sizeof(c), 0) != sizeof(c))
		die("control: send");
}

static struct answer ctl_answer(struct side *s)
{
	struct answer a;

	if (!ctl_read(s->ctl, &a, sizeof(a)))
		die("control: the client's answer");
	return a;
}

/* The client sends count messages on conn and answers once they completed. */
static int send_msgs(struct side *s, UINT32 conn, UINT32 count, UINT32 flags)
{
	struct answer a;

	ctl_cmd(s, CMD_SEND, conn, count, flags);
	a = ctl_answer(s);
	if (a.failed)
		printf("    note: %u of the client's sends on connection %u failed, first %#x\n", a.failed, conn,
		       (unsigned)a.first_error);
	return a.sent == count && !a.failed;
}

/* ---- the client: an agent ---------------------------------------------------------------------- */
/* Every connection disconnected (10 s at most each), its connector and
 * queue pair released. */
static void close_conns(struct side *s)
{
	int i;

	for (i = 0; i < CONNS; i++) {
		OVERLAPPED ov = { 0 };
		HRESULT st = s->conn[i]->lpVtbl->Disconnect(s->conn[i], &ov);

		wait_ov(s->port, st, &ov, 10000);
		s->conn[i]->lpVtbl->Release(s->conn[i]);
		s->qp[i]->lpVtbl->Release(s->qp[i]);
	}
}

static void client(struct side *s, const char *peer)
{
	IND2CompletionQueue *cq = new_cq(s, 1024);
	struct sockaddr_in dst = addr_of(peer, PORT);
	ND2_RESULT r[16];
	struct cmd c;
	int i;

	for (i = 0; i < CONNS; i++) {
		OVERLAPPED ov = { 0 };
		HRESULT st;
		int tries;

		if (s->ad->lpVtbl->CreateQueuePair(s->ad, &IID_IND2QueuePair, (IUnknown *)cq, (IUnknown *)cq, QP_CTX(i), 4,
						   SLOTS, 1, 1, 0, (void **)&s->qp[i]))
			die("CreateQueuePair");
		/* The server may still be starting. */
		for (tries = 0; tries < 120; tries++) {
			s->conn[i] = new_connector(s);
			memset(&ov, 0, sizeof(ov));
			st = s->conn[i]->lpVtbl->Connect(s->conn[i], (IUnknown *)s->qp[i], (struct sockaddr *)&dst,
							 sizeof(dst), 0, 0, NULL, 0, &ov);
			st = wait_ov(s->port, st, &ov, 60000);
			if (st == ND_SUCCESS)
				break;
			s->conn[i]->lpVtbl->Release(s->conn[i]);
			Sleep(500);
		}
		if (st != ND_SUCCESS)
			die("Connect");
		memset(&ov, 0, sizeof(ov));
		st = s->conn[i]->lpVtbl->CompleteConnect(s->conn[i], &ov);
		if (wait_ov(s->port, st, &ov, 30000) != ND_SUCCESS)
			die("CompleteConnect");
	}
	check(1, "%d connections to the server", CONNS);
	while (ctl_read(s->ctl, &c, sizeof(c)) && c.op == CMD_SEND && c.conn < CONNS && c.count <= SLOTS) {
		struct answer a = { 0, 0, 0, 0 };
		UINT32 k, done = 0;
		DWORD end;

		for (k = 0; k < c.count; k++) {
			char *m = s->buf + (c.conn * SLOTS + k) * SLOT;
			ND2_SGE sge = { m, MSG, s->token };
			HRESULT st;

			memset(m, (int)(c.tag + k), MSG);
			m[0] = (char)c.conn;
			m[1] = (char)k;
			m[2] = (char)c.tag;
			st = s->qp[c.conn]->lpVtbl->Send(s->qp[c.conn], (void *)(ULONG_PTR)k, &sge, 1, c.flags);
			if (st != ND_SUCCESS) {
				if (!a.failed++)
					a.first_error = st;
				done++;
			}
		}
		/* An SRQ peer waits for receives with no end (RNR retries). */
		end = GetTickCount() + 30000;
		while (done < c.count && GetTickCount() < end) {
			ULONG n = cq->lpVtbl->GetResults(cq, r, 16), j;

			for (j = 0; j < n; j++) {
				done++;
				if (r[j].Status == ND_SUCCESS)
					a.sent++;
				else if (!a.failed++)
					a.first_error = r[j].Status;
			}
			if (!n)
				Sleep(1);
		}
		if (send(s->ctl, (const char *)&a, sizeof(a), 0) != sizeof(a))
			die("control: answer");
	}
	close_conns(s);
	while (cq->lpVtbl->GetResults(cq, r, 16))
		;
	check(cq->lpVtbl->Release(cq) == 0, "release the client's CQ: 0");
}

/* ---- the server ---------------------------------------------------------------------------- */
struct srv {
	struct side *s;
	IND2SharedReceiveQueue *srq;
	IND2CompletionQueue *scq, *cq2, *icq, *pcq, *ocq;
	char posted[SLOTS];
	int outstanding;	/* receives posted to the SRQ and not yet seen completed */
};

static char *slot_buf(struct srv *v, int slot)
{
	return v->s->buf + slot * SLOT;
}

static HRESULT srq_post(struct srv *v, int n)
{
	int slot;
	HRESULT st = ND_SUCCESS;

	for (slot = 0; slot < SLOTS && n; slot++) {
		ND2_SGE sge = { slot_buf(v, slot), SLOT, v->s->token };

		if (v->posted[slot])
			continue;
		memset(sge.Buffer, 0xEE, SLOT);
		st = v->srq->lpVtbl->Receive(v->srq, RECV_CTX(slot), &sge, 1);
		if (st != ND_SUCCESS)
			return st;
		v->posted[slot] = 1;
		v->outstanding++;
		n--;
	}
	return n ? ND_NO_MORE_ENTRIES : st;
}

/* A receive result: its slot holds a message from connection conn, the
 * queue pair context is that connection's; the slot is free again. */
static int receive_ok(struct srv *v, const ND2_RESULT *r, int conn)
{
	int slot = (int)((ULONG_PTR)r->RequestContext - 0x100);
	const char *m;

	if (r->Status != ND_SUCCESS || r->RequestType != Nd2RequestTypeReceive || slot < 0 || slot >= SLOTS ||
	    !v->posted[slot]) {
		printf("    | result: status %#lx type %d context %p qp %p\n", r->Status, r->RequestType, r->RequestContext,
		       r->QueuePairContext);
		return 0;
	}
	v->posted[slot] = 0;
	v->outstanding--;
	m = slot_buf(v, slot);
	if (r->BytesTransferred != MSG || m[0] != conn || r->QueuePairContext != QP_CTX(conn) ||
	    (unsigned char)m[MSG - 1] != (unsigned char)(m[2] + m[1]) || (unsigned char)m[MSG] != 0xEE) {
		printf("    | slot %d: %lu bytes from connection %d, qp context %p (want %d, %p)\n", slot,
		       r->BytesTransferred, m[0], r->QueuePairContext, conn, QP_CTX(conn));
		return 0;
	}
	return 1;
}

/* n receives of conn on cq, each checked. */
static int receive_n(struct srv *v, IND2CompletionQueue *cq, int conn, int n)
{
	ND2_RESULT r[SLOTS];
	int got = get_results(cq, r, n, 10000), i, good = 0;

	for (i = 0; i < got; i++)
		good += receive_ok(v, &r[i], conn);
	return got == n && good == n;
}

static int still_pending(OVERLAPPED *ov)
{
	return ov->Internal == STATUS_PENDING_;
}

static void srq_create_checks(struct srv *v)
{
	struct side *s = v->s;
	IND2Adapter *ad = s->ad;
	ULONG max = s->info.MaxSharedReceiveQueueDepth;
	IND2SharedReceiveQueue *q = NULL;
	USHORT group = 7;
	KAFFINITY aff = 0;
	ND2_SGE sge[3];
	HRESULT st;
	int i;

	check(max >= 16, "Query: MaxSharedReceiveQueueDepth %lu", max);
	st = ad->lpVtbl->CreateSharedReceiveQueue(ad, &IID_IND2SharedReceiveQueue, s->file, 0, 1, 0, 0, 0, (void **)&q);
	check(st == ND_INVALID_PARAMETER_3, "CreateSharedReceiveQueue(depth 0): ND_INVALID_PARAMETER_3 (%#lx)", st);
	st = ad->lpVtbl->CreateSharedReceiveQueue(ad, &IID_IND2SharedReceiveQueue, s->file, max + 1, 1, 0, 0, 0,
						  (void **)&q);
	check(st == ND_INVALID_PARAMETER_3, "CreateSharedReceiveQueue(depth over the limit): ND_INVALID_PARAMETER_3");
	st = ad->lpVtbl->CreateSharedReceiveQueue(ad, &IID_IND2SharedReceiveQueue, s->file, 8,
						  s->info.MaxReceiveSge + 1, 0, 0, 0, (void **)&q);
	check(st == ND_INVALID_PARAMETER_4, "CreateSharedReceiveQueue(SGEs over the limit): ND_INVALID_PARAMETER_4");
	st = ad->lpVtbl->CreateSharedReceiveQueue(ad, &IID_IND2SharedReceiveQueue, s->file, 8, 1, 9, 0, 0, (void **)&q);
	check(st == ND_INVALID_PARAMETER_5, "CreateSharedReceiveQueue(threshold above the depth): ND_INVALID_PARAMETER_5");

	st = ad->lpVtbl->CreateSharedReceiveQueue(ad, &IID_IND2SharedReceiveQueue, s->file, 8, 2, 0, 0, 0, (void **)&q);
	check(st == ND_SUCCESS, "CreateSharedReceiveQueue(depth 8, 2 SGEs)");
	if (!q)
		die("an SRQ");
	st = q->lpVtbl->GetNotifyAffinity(q, &group, &aff);
	check(st == ND_SUCCESS && group == 0 && aff != 0, "GetNotifyAffinity: group %u affinity %#llx", group,
	      (unsigned long long)aff);
	check(q->lpVtbl->GetNotifyAffinity(q, NULL, &aff) == ND_INVALID_PARAMETER &&
		      q->lpVtbl->GetNotifyAffinity(q, &group, NULL) == ND_INVALID_PARAMETER,
	      "GetNotifyAffinity(NULL ...): ND_INVALID_PARAMETER");

	for (i = 0; i < 3; i++)
		sge[i] = (ND2_SGE){ slot_buf(v, SLOTS - 1 - i), SLOT, s->token };
	st = q->lpVtbl->Receive(q, NULL, sge, 3);
	check(st == ND_DATA_OVERRUN, "Receive with 3 SGEs on a 2-SGE SRQ: ND_DATA_OVERRUN (%#lx)", st);
	sge[1] = sge[0];
	/* A Receive may be larger than MaxTransferLength (clients post their
	 * whole registered buffer), not than the largest message, 2^31 bytes. */
	sge[0].BufferLength = sge[1].BufferLength = 0x40000001u;
	st = q->lpVtbl->Receive(q, NULL, sge, 2);
	check(st == ND_BUFFER_OVERFLOW, "Receive of more than 2^31 bytes in 2 SGEs: ND_BUFFER_OVERFLOW (%#lx)", st);
	for (i = 0; i < 3; i++)
		sge[i] = (ND2_SGE){ slot_buf(v, SLOTS - 1 - i), SLOT, s->token };
	for (i = 0, st = ND_SUCCESS; i < 8 && st == ND_SUCCESS; i++)
		st = q->lpVtbl->Receive(q, (void *)(ULONG_PTR)i, sge, 1);
	check(st == ND_SUCCESS, "8 Receives on a depth-8 SRQ (%#lx after %d)", st, i);
	st = q->lpVtbl->Receive(q, NULL, sge, 1);
	check(st == ND_NO_MORE_ENTRIES, "the 9th: ND_NO_MORE_ENTRIES (%#lx)", st);
	st = q->lpVtbl->Receive(q, NULL, NULL, 0);
	check(st == ND_NO_MORE_ENTRIES, "a 0-SGE 9th too (%#lx)", st);

	st = q->lpVtbl->Modify(q, 4, 0);
	check(st == ND_BUFFER_OVERFLOW, "Modify(depth 4) with 8 outstanding: ND_BUFFER_OVERFLOW (%#lx)", st);
	st = q->lpVtbl->Receive(q, NULL, sge, 1);
	check(st == ND_NO_MORE_ENTRIES, "the queue is unchanged: still full at 8 (%#lx)", st);
	st = q->lpVtbl->Modify(q, s->info.MaxSharedReceiveQueueDepth + 1, 0);
	check(st == ND_INVALID_PARAMETER, "Modify(depth over the limit): ND_INVALID_PARAMETER (%#lx)", st);
	st = q->lpVtbl->Modify(q, 0, 0);
	check(st == ND_SUCCESS, "Modify(0, 0) changes nothing (%#lx)", st);
	st = q->lpVtbl->Modify(q, 64, 0);
	check(st == ND_SUCCESS, "Modify(depth 64) (%#lx)", st);
	for (i = 8, st = ND_SUCCESS; i < 64 && st == ND_SUCCESS; i++)
		st = q->lpVtbl->Receive(q, (void *)(ULONG_PTR)i, sge, 1);
	check(st == ND_SUCCESS, "then 64 Receives fit (%#lx at %d)", st, i);
	st = q->lpVtbl->Receive(q, NULL, sge, 1);
	check(st == ND_NO_MORE_ENTRIES, "and the 65th is ND_NO_MORE_ENTRIES (%#lx)", st);
	st = q->lpVtbl->Modify(q, 0, 65);
	check(st == ND_INVALID_PARAMETER, "Modify(threshold above the depth): ND_INVALID_PARAMETER (%#lx)", st);
	check(q->lpVtbl->Release(q) == 0, "release the SRQ with receives posted: 0");

	/* The deepest queue Query allows can be made, and filled. */
	st = ad->lpVtbl->CreateSharedReceiveQueue(ad, &IID_IND2SharedReceiveQueue, s->file, max, 1, 0, 0, 0, (void **)&q);
	check(st == ND_SUCCESS, "CreateSharedReceiveQueue(MaxSharedReceiveQueueDepth %lu) (%#lx)", max, st);
	if (st == ND_SUCCESS) {
		for (i = 0, st = ND_SUCCESS; i < (int)max && st == ND_SUCCESS; i++)
			st = q->lpVtbl->Receive(q, NULL, sge, 1);
		check(st == ND_SUCCESS && q->lpVtbl->Receive(q, NULL, sge, 1) == ND_NO_MORE_ENTRIES,
		      "it takes %lu Receives, then ND_NO_MORE_ENTRIES (%#lx at %d)", max, st, i);
		check(q->lpVtbl->Release(q) == 0, "and is released: 0");
	}

	/* Already below the threshold when Notify is called: it completes. */
	st = ad->lpVtbl->CreateSharedReceiveQueue(ad, &IID_IND2SharedReceiveQueue, s->file, 16, 1, 4, 0, 0, (void **)&q);
	if (st != ND_SUCCESS)
		die("an SRQ with threshold 4");
	for (i = 0; i < 2; i++)
		q->lpVtbl->Receive(q, NULL, sge, 1);
	{
		OVERLAPPED a = { 0 }, b = { 0 };

		st = q->lpVtbl->Notify(q, &a);
		st = wait_ov(s->port, st, &a, 3000);
		check(st == ND_SUCCESS, "Notify with 2 receives posted and threshold 4 completes ND_SUCCESS (%#lx)", st);
		if (st == 1) {
			/* Its late packet must not be taken for a later request's. */
			q->lpVtbl->CancelOverlappedRequests(q);
			wait_port(s->port, &a, 3000);
		}
		for (i = 0; i < 6; i++)
			q->lpVtbl->Receive(q, NULL, sge, 1);
		st = q->lpVtbl->Notify(q, &a);
		check(st == ND_PENDING && wait_port(s->port, &a, 300) == 1,
		      "Notify with 8 posted and threshold 4 pends (%#lx)", st);
		st = q->lpVtbl->Notify(q, &b);
		check(q->lpVtbl->CancelOverlappedRequests(q) == ND_SUCCESS && (HRESULT)a.Internal == ND_CANCELED &&
			      (HRESULT)b.Internal == ND_CANCELED,
		      "CancelOverlappedRequests: both Notify requests ND_CANCELED before it returned");
		check(wait_port(s->port, &a, 3000) == ND_CANCELED && wait_port(s->port, &b, 3000) == ND_CANCELED,
		      "and their packets arrive");
		st = q->lpVtbl->Notify(q, &a);
		check(q->lpVtbl->Release(q) == 0 && wait_ov(s->port, st, &a, 3000) == ND_CANCELED,
		      "releasing the SRQ completes its Notify ND_CANCELED");
	}
}

/* Accept the client's connections: 0-2 on the SRQ, 3 and 4 plain. */
static void accept_all(struct srv *v, const char *ip)
{
	struct side *s = v->s;
	struct sockaddr_in sa = addr_of(ip, PORT);
	HRESULT st;
	int i;

	s->ad->lpVtbl->CreateListener(s->ad, &IID_IND2Listener, s->file, (void **)&s->listener);
	if (!s->listener || s->listener->lpVtbl->Bind(s->listener, (struct sockaddr *)&sa, sizeof(sa)) ||
	    s->listener->lpVtbl->Listen(s->listener, 0))
		die("a listener");
	v->scq = new_cq(s, 256);
	v->cq2 = new_cq(s, 64);
	v->icq = new_cq(s, 64);
	v->pcq = new_cq(s, 16);
	v->ocq = new_cq(s, 4);
	st = s->ad->lpVtbl->CreateSharedReceiveQueue(s->ad, &IID_IND2SharedReceiveQueue, s->file, 16, 1, 0, 0, 0,
						     (void **)&v->srq);
	if (st != ND_SUCCESS)
		die("the shared SRQ");
	st = s->ad->lpVtbl->CreateQueuePairWithSrq(s->ad, &IID_IND2QueuePair, (IUnknown *)v->scq, (IUnknown *)v->icq,
						   (IUnknown *)v->icq, QP_CTX(9), 8, 1, 0, (void **)&s->qp[0]);
	check(st == ND_INVALID_PARAMETER_4, "CreateQueuePairWithSrq(a CQ as SRQ): ND_INVALID_PARAMETER_4 (%#lx)", st);
	check(srq_post(v, 8) == ND_SUCCESS, "8 receives on the SRQ before any connection");
	for (i = 0; i < CONNS; i++) {
		OVERLAPPED ov = { 0 };
		IUnknown *rcq = (IUnknown *)(i == 2 ? v->cq2 : i == 3 ? v->pcq : i == 4 ? v->ocq : v->scq);

		if (i < 3)
			st = s->ad->lpVtbl->CreateQueuePairWithSrq(s->ad, &IID_IND2QueuePair, rcq, (IUnknown *)v->icq,
								   (IUnknown *)v->srq, QP_CTX(i), 8, 1, 0,
								   (void **)&s->qp[i]);
		else
			st = s->ad->lpVtbl->CreateQueuePair(s->ad, &IID_IND2QueuePair, rcq, (IUnknown *)v->icq, QP_CTX(i),
							    SLOTS, 8, 1, 1, 0, (void **)&s->qp[i]);
		if (st != ND_SUCCESS)
			die("a queue pair");
		s->conn[i] = new_connector(s);
		st = s->listener->lpVtbl->GetConnectionRequest(s->listener, (IUnknown *)s->conn[i], &ov);
		if (wait_ov(s->port, st, &ov, 120000) != ND_SUCCESS)
			die("GetConnectionRequest");
		memset(&ov, 0, sizeof(ov));
		st = s->conn[i]->lpVtbl->Accept(s->conn[i], (IUnknown *)s->qp[i], 0, 0, NULL, 0, &ov);
		if (wait_ov(s->port, st, &ov, 30000) != ND_SUCCESS)
			die("Accept");
	}
	check(1, "%d connections accepted, three on one SRQ", CONNS);
}

static void srq_traffic(struct srv *v)
{
	struct side *s = v->s;
	OVERLAPPED a = { 0 }, b = { 0 };
	ND2_RESULT r[4];
	HRESULT st;
	int i, ok;

	/* Receives posted before the connections serve all of them. */
	ok = send_msgs(s, 0, 2, 0) && receive_n(v, v->scq, 0, 2);
	ok &= send_msgs(s, 1, 3, 0) && receive_n(v, v->scq, 1, 3);
	ok &= send_msgs(s, 0, 1, 0) && receive_n(v, v->scq, 0, 1);
	check(ok, "messages of two queue pairs through one SRQ: each result names its queue pair and the buffer "
		  "that holds its data");

	/* Threshold 3 set by Modify; 8 posted: falls below at the 6th message. */
	srq_post(v, 8 - v->outstanding);
	st = v->srq->lpVtbl->Modify(v->srq, 0, 3);
	check(st == ND_SUCCESS, "Modify(0, threshold 3) (%#lx)", st);
	st = v->srq->lpVtbl->Notify(v->srq, &a);
	check(st == ND_PENDING && wait_port(s->port, &a, 300) == 1, "Notify pends with 8 receives posted (%#lx)", st);
	st = v->srq->lpVtbl->Notify(v->srq, &b);
	ok = send_msgs(s, 1, 5, 0) && receive_n(v, v->scq, 1, 5);
	check(ok && still_pending(&a) && still_pending(&b), "5 messages later (3 left): still pending");
	ok = send_msgs(s, 0, 1, 0) && receive_n(v, v->scq, 0, 1);
	st = wait_port(s->port, &a, 5000);
	check(ok && st == ND_SUCCESS && wait_port(s->port, &b, 5000) == ND_SUCCESS,
	      "the 6th (2 left, below 3): both Notify requests complete ND_SUCCESS (%#lx)", st);

	/* One receive held by a queue pair whose CQ nobody polls must not
	 * stop the others' receives from being reposted, however often. */
	srq_post(v, 8 - v->outstanding);
	ok = send_msgs(s, 2, 1, 0);
	for (i = 0; ok && i < 12; i++) {
		ok = send_msgs(s, 0, 4, 0) && receive_n(v, v->scq, 0, 4);
		st = srq_post(v, 4);
		ok &= st == ND_SUCCESS;
	}
	check(ok, "one receive held on an unpolled CQ, 48 others reposted (%d rounds, last Receive %#lx)", i, st);
	check(receive_n(v, v->cq2, 2, 1), "the held one completes on its own CQ with its queue pair's context");

	/* Empty SRQ: the Send waits for a receive (no RNR failure). */
	ok = 1;
	while (v->outstanding && ok) {
		int n = v->outstanding;
		ok = send_msgs(s, 0, n, 0) && receive_n(v, v->scq, 0, n);
	}
	ctl_cmd(s, CMD_SEND, 1, 1, 0);
	Sleep(2500);
	ok &= srq_post(v, 4) == ND_SUCCESS;
	{
		struct answer an = ctl_answer(s);
		ok &= an.sent == 1 && !an.failed && receive_n(v, v->scq, 1, 1);
	}
	check(ok, "a Send that reached the empty SRQ completes once a receive is posted 2.5 s later");
	ok = send_msgs(s, 1, 2, 0) && receive_n(v, v->scq, 1, 2);
	check(ok, "and that connection still carries messages");

	/* Flush of one queue pair leaves the SRQ's receives to the others. */
	srq_post(v, 8 - v->outstanding);
	st = s->qp[0]->lpVtbl->Flush(s->qp[0]);
	Sleep(200);
	check(st == ND_SUCCESS && v->scq->lpVtbl->GetResults(v->scq, r, 4) == 0,
	      "Flush of an SRQ queue pair: the SRQ's receives stay posted (no result)");
	ok = send_msgs(s, 1, 2, 0) && receive_n(v, v->scq, 1, 2);
	check(ok, "the other queue pairs still receive through them");

	/* The client may release its SRQ while queue pairs use it. */
	check(v->srq->lpVtbl->Release(v->srq) == 0, "release the SRQ while two queue pairs use it: 0");
	v->srq = NULL;
	ok = send_msgs(s, 1, 3, 0) && receive_n(v, v->scq, 1, 3);
	check(ok, "its posted receives still serve them");
}

static void cq_notify(struct srv *v)
{
	struct side *s = v->s;
	IND2QueuePair *qp = s->qp[3];
	IND2CompletionQueue *cq = v->pcq;
	OVERLAPPED a = { 0 }, b = { 0 }, e = { 0 };
	ND2_RESULT r[64];
	HRESULT st;
	int i, ok, n;

	for (i = 0; i < 64; i++) {
		ND2_SGE sge = { slot_buf(v, SLOTS + i), SLOT, s->token };
		if (qp->lpVtbl->Receive(qp, RECV_CTX(SLOTS + i), &sge, 1) != ND_SUCCESS)
			die("receives on the plain queue pair");
	}
	/* SOLICITED: a plain Send leaves it pending, a solicited one ends it. */
	st = cq->lpVtbl->Notify(cq, ND_CQ_NOTIFY_SOLICITED, &a);
	ok = st == ND_PENDING && send_msgs(s, 3, 1, 0);
	check(ok && wait_port(s->port, &a, 500) == 1, "Notify(SOLICITED): a plain Send does not complete it (%#lx)", st);
	ok = send_msgs(s, 3, 1, ND_OP_FLAG_SEND_AND_SOLICIT_EVENT);
	st = wait_port(s->port, &a, 5000);
	check(ok && st == ND_SUCCESS, "a Send with ND_OP_FLAG_SEND_AND_SOLICIT_EVENT does (%#lx)", st);
	n = get_results(cq, r, 2, 5000);
	check(n == 2 && r[0].Status == ND_SUCCESS && r[1].Status == ND_SUCCESS, "both messages in the CQ (%d)", n);

	/* The same when the messages are in the CQ before Notify is called
	 * (the race between GetResults returning 0 and Notify). */
	ok = send_msgs(s, 3, 1, 0);
	Sleep(100);
	st = cq->lpVtbl->Notify(cq, ND_CQ_NOTIFY_SOLICITED, &a);
	check(ok && st == ND_PENDING && wait_port(s->port, &a, 500) == 1,
	      "Notify(SOLICITED) with a plain message already in the CQ: still pending (%#lx)", st);
	ok = send_msgs(s, 3, 1, ND_OP_FLAG_SEND_AND_SOLICIT_EVENT);
	st = wait_port(s->port, &a, 5000);
	check(ok && st == ND_SUCCESS, "then a solicited one completes it (%#lx)", st);
	n = get_results(cq, r, 2, 5000);
	ok = send_msgs(s, 3, 1, 0) && send_msgs(s, 3, 1, ND_OP_FLAG_SEND_AND_SOLICIT_EVENT);
	Sleep(100);
	st = cq->lpVtbl->Notify(cq, ND_CQ_NOTIFY_SOLICITED, &a);
	st = wait_ov(s->port, st, &a, 3000);
	check(n == 2 && ok && st == ND_SUCCESS,
	      "Notify(SOLICITED) with a plain and then a solicited message already in the CQ completes (%#lx)", st);
	n = get_results(cq, r, 3, 1000);
	check(n == 2 && r[0].RequestContext == RECV_CTX(SLOTS + 4) && r[1].RequestContext == RECV_CTX(SLOTS + 5),
	      "and both are returned in order (%d)", n);

	/* ANY issued while SOLICITED is pending: a plain Send completes both. */
	st = cq->lpVtbl->Notify(cq, ND_CQ_NOTIFY_SOLICITED, &a);
	cq->lpVtbl->Notify(cq, ND_CQ_NOTIFY_ANY, &b);
	ok = send_msgs(s, 3, 1, 0);
	check(ok && wait_port(s->port, &b, 5000) == ND_SUCCESS && wait_port(s->port, &a, 5000) == ND_SUCCESS,
	      "Notify(ANY) after Notify(SOLICITED): a plain Send completes both");
	get_results(cq, r, 1, 5000);

	/* Resize: not below what the CQ holds; larger, and more fit. */
	ok = send_msgs(s, 3, 10, 0);
	Sleep(100);
	st = cq->lpVtbl->Resize(cq, 4);
	check(ok && st == ND_BUFFER_OVERFLOW, "Resize(4) with 10 completions queued: ND_BUFFER_OVERFLOW (%#lx)", st);
	check(cq->lpVtbl->Resize(cq, 0) == ND_INVALID_PARAMETER &&
		      cq->lpVtbl->Resize(cq, s->info.MaxCompletionQueueDepth + 1) == ND_INVALID_PARAMETER,
	      "Resize(0) and Resize(over the limit): ND_INVALID_PARAMETER");
	st = cq->lpVtbl->Resize(cq, 64);
	check(st == ND_SUCCESS, "Resize(64) with 10 queued (%#lx)", st);
	st = cq->lpVtbl->Notify(cq, ND_CQ_NOTIFY_ERRORS, &e);
	ok = send_msgs(s, 3, 40, 0);
	Sleep(100);
	n = get_results(cq, r, 50, 5000);
	for (i = 0; i < n; i++)
		if (r[i].Status != ND_SUCCESS || r[i].RequestContext != RECV_CTX(SLOTS + 7 + i) ||
		    r[i].QueuePairContext != QP_CTX(3))
			break;
	check(ok && n == 50 && i == 50 && cq->lpVtbl->GetResults(cq, r, 1) == 0 && still_pending(&e),
	      "then 50 fit on the CQ created with 16, none lost, in order, no error (%d results, %d good)", n, i);

	/* A failed request is a completion, not a CQ error: ANY wakes, ERRORS
	 * does not; CancelOverlappedRequests ends ERRORS. */
	st = cq->lpVtbl->Notify(cq, ND_CQ_NOTIFY_SOLICITED, &b);
	qp->lpVtbl->Flush(qp);
	check(wait_ov(s->port, st, &b, 5000) == ND_SUCCESS, "Flush: the failed receives complete Notify(SOLICITED)");
	st = cq->lpVtbl->Notify(cq, ND_CQ_NOTIFY_ANY, &a);
	st = wait_ov(s->port, st, &a, 5000);
	n = get_results(cq, r, 7, 5000);
	for (i = 0; i < n; i++)
		if (r[i].Status != ND_CANCELED || r[i].RequestType != Nd2RequestTypeReceive ||
		    r[i].RequestContext != RECV_CTX(SLOTS + 57 + i))
			break;
	check(st == ND_SUCCESS && n == 7 && i == 7,
	      "and Notify(ANY) for them; the 7 receives left end ND_CANCELED, in order (%#lx, %d, %d)", st, n, i);
	check(wait_port(s->port, &e, 300) == 1, "Notify(ERRORS) stays pending on failed requests");
	st = cq->lpVtbl->CancelOverlappedRequests(cq);
	check(st == ND_SUCCESS && (HRESULT)e.Internal == ND_CANCELED && wait_port(s->port, &e, 3000) == ND_CANCELED,
	      "CancelOverlappedRequests ends it ND_CANCELED, before returning");
}

/* More completions than a depth-4 CQ holds: a CQ error for ERRORS. */
static void cq_overrun(struct srv *v)
{
	struct side *s = v->s;
	IND2QueuePair *qp = s->qp[4];
	IND2CompletionQueue *cq = v->ocq;
	OVERLAPPED e = { 0 }, a = { 0 };
	HRESULT st, st2;
	int i;

	for (i = 0; i < 32; i++) {
		ND2_SGE sge = { slot_buf(v, 2 * SLOTS + i), SLOT, s->token };
		qp->lpVtbl->Receive(qp, RECV_CTX(i), &sge, 1);
	}
	st = cq->lpVtbl->Notify(cq, ND_CQ_NOTIFY_ERRORS, &e);
	ctl_cmd(s, CMD_SEND, 4, 32, 0);
	ctl_answer(s);
	st = wait_ov(s->port, st, &e, 5000);
	check(st == ND_BUFFER_OVERFLOW, "32 completions on a depth-4 CQ: Notify(ERRORS) completes ND_BUFFER_OVERFLOW (%#lx)",
	      st);
	st2 = cq->lpVtbl->Notify(cq, ND_CQ_NOTIFY_ANY, &a);
	check(st2 == ND_BUFFER_OVERFLOW, "and a later Notify returns ND_BUFFER_OVERFLOW (%#lx)", st2);
}

static void server(struct side *s, const char *ip)
{
	struct srv v;

	memset(&v, 0, sizeof(v));
	v.s = s;
	ND2_RESULT r[16];

	srq_create_checks(&v);
	accept_all(&v, ip);
	srq_traffic(&v);
	cq_notify(&v);
	cq_overrun(&v);
	ctl_cmd(s, CMD_QUIT, 0, 0, 0);
	close_conns(s);
	while (v.scq->lpVtbl->GetResults(v.scq, r, 16) || v.icq->lpVtbl->GetResults(v.icq, r, 16))
		;
	check(v.scq->lpVtbl->Release(v.scq) == 0 && v.cq2->lpVtbl->Release(v.cq2) == 0 &&
		      v.icq->lpVtbl->Release(v.icq) == 0 && v.pcq->lpVtbl->Release(v.pcq) == 0 &&
		      v.ocq->lpVtbl->Release(v.ocq) == 0 && s->listener->lpVtbl->Release(s->listener) == 0,
	      "release the queue pairs (and with them the SRQ), the CQs and the listener: 0");
}

int main(int argc, char **argv)
{
	struct side s = { 0 };
	WSADATA wsa;
	DWORD t0 = GetTickCount();
	OVERLAPPED ov = { 0 };
	const char *role;
	HRESULT st;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc != 4 || (strcmp(argv[1], "server") && strcmp(argv[1], "client"))) {
		fprintf(stderr, "usage: %s server|client ADDR PEER\n", argv[0]);
		return 2;
	}
	role = argv[1];
	ndcheck_name = !strcmp(role, "server") ? "nd2srq server" : "nd2srq client";
	WSAStartup(MAKEWORD(2, 2), &wsa);
	open_side(&s, argv[2]);
	if (!strcmp(role, "server")) {
		ctl_open(&s, argv[2], argv[3], 1);
		server(&s, argv[2]);
	} else {
		ctl_open(&s, argv[2], argv[3], 0);
		client(&s, argv[3]);
	}
	closesocket(s.ctl);
	st = s.mr->lpVtbl->Deregister(s.mr, &ov);
	check(wait_ov(s.port, st, &ov, 5000) == ND_SUCCESS && s.mr->lpVtbl->Release(s.mr) == 0 &&
		      s.ad->lpVtbl->Release(s.ad) == 0,
	      "release the region and the adapter: 0");
	CloseHandle(s.file);
	CloseHandle(s.port);
	WSACleanup();
	printf("%s: took %lu ms, %d failed\n", role, GetTickCount() - t0, ndcheck_failures);
	return ndcheck_failures ? 1 : 0;
}

/* The provider behaviours Microsoft's NetworkDirect SDK tools found (issue
 * 27; docs/ND-CONFORMANCE.md), each reproduced the way the tool meets it,
 * under ndrun in the Soft-RoCE guests (tests/vm/suites/nd2sdk.sh):
 *
 *   nd2sdk_rig server ADDR PEER [PINGS [ROUNDS [yield]]]   the passive side
 *   nd2sdk_rig client ADDR PEER [PINGS [ROUNDS [yield]]]   the active side
 *
 *   bigrecv  ndmw: a Receive whose one SGE is the whole registered buffer
 *            (64 MiB, more than MaxTransferLength) takes a small Send;
 *            Then ndmw's phase 1: a 32 MiB RDMA Read and a 16 MiB RDMA
 *            Write of that region, one request each, every byte checked;
 *   sges     ndmw: a QP as deep as Query allows that asked for 1 SGE per
 *            request takes a Send of 2 (MaxInitiatorSge allows 32);
 *   depth    ndpingpong: queues sized from Query (one CQ of depth
 *            min(MaxCompletionQueueDepth, MaxReceiveQueueDepth) for both
 *            queues of a QP of that depth), every Receive posted, one
 *            reposted after each Receive taken from GetResults, PINGS
 *            round trips: Receive never fails ND_NO_MORE_ENTRIES;
 *   spin     ndrpingpong: each side RDMA-Writes into the other's buffer
 *            through a window over a heap buffer and spins on its own
 *            last byte, taking no completions meanwhile (ROUNDS round
 *            trips at each of 6 sizes, default 50).
 *
 * The processes keep in step over nd2peer's control connection; the
 * helpers are nd2peer_rig.c's.  Prints "ok: ..." / "FAIL: ..." per check;
 * exits 1 if any failed. */
#include <winsock2.h>
#include <windows.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ndspi.h"
#include "nd2peer.h"

#define BIG (64u << 20)
#define SMALL 100
#define BIG_READ (32u << 20)	/* ndmw reads the lower 32 MiB in one request */
#define BIG_WRITE (16u << 20)	/* and writes 16 MiB in one */

static char pat(ULONG i)
{
	return (char)(i * 7 + 3);
}

/* ---- bigrecv ---------------------------------------------------------------- */
static void bigrecv_server(struct side *s, IND2Listener *l)
{
	IND2QueuePair *qp = new_qp(s, (void *)0xB0);
	IND2MemoryRegion *mr = NULL;
	char *buf = VirtualAlloc(NULL, BIG, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
	OVERLAPPED ov = { 0 };
	ND2_SGE sge;
	ND2_RESULT r;
	IND2Connector *c;
	HRESULT st;
	ULONG i, bad = 0;
	int got;

	if (!buf || s->ad->lpVtbl->CreateMemoryRegion(s->ad, &IID_IND2MemoryRegion, s->file, (void **)&mr) != ND_SUCCESS ||
	    wait_ov(s, mr->lpVtbl->Register(mr, buf, BIG, ND_MR_FLAG_ALLOW_LOCAL_WRITE | ND_MR_FLAG_ALLOW_REMOTE_READ |
						ND_MR_FLAG_ALLOW_REMOTE_WRITE, &ov), &ov, 30000) != ND_SUCCESS)
		die("bigrecv: register 64 MiB");
	sge.Buffer = buf;
	sge.BufferLength = BIG;
	sge.MemoryRegionToken = mr->lpVtbl->GetLocalToken(mr);
	st = qp->lpVtbl->Receive(qp, (void *)0xB01, &sge, 1);
	check(st == ND_SUCCESS, "bigrecv: a Receive of the whole 64 MiB region (MaxTransferLength %lu): ND_SUCCESS (%#lx)",
	      s->info.MaxTransferLength, st);
	c = get_request(s, l);
	check(accept_on(s, c, qp) == ND_SUCCESS, "bigrecv: connection accepted");
	got = st == ND_SUCCESS && get_one(s, &r, 60000);
	for (i = 0; got && i < SMALL; i++)
		bad += buf[i] != pat(i);
	check(got && r.Status == ND_SUCCESS && r.BytesTransferred == SMALL && r.RequestContext == (void *)0xB01 && !bad,
	      "bigrecv: the client's %u-byte Send lands in it: ND_SUCCESS, %u bytes, every byte right (%s, %#lx, %lu bytes, "
	      "%lu wrong)", SMALL, SMALL, got ? "completed" : "never completed", got ? r.Status : 0,
	      got ? r.BytesTransferred : 0, bad);
	/* ndmw's phase 1: the peer reads 32 MiB and writes 16 MiB in one
	 * request each. */
	for (i = 0; i < BIG; i++)
		buf[i] = pat(i / 4096 + i);
	ctl_send(s, "bigrdma", (UINT64)(ULONG_PTR)buf, mr->lpVtbl->GetRemoteToken(mr));
	ctl_expect(s, "bigrdma-written");
	for (i = 0, bad = 0; i < BIG_WRITE; i++)
		bad += buf[BIG_READ + i] != (char)~pat(i / 4096 + i);
	check(!bad, "bigrdma: the client's %u-byte RDMA Write landed, every byte right (%lu wrong)", BIG_WRITE, bad);
	ctl_expect(s, "bigrecv-done");
	disconnect(s, c);
	drain(s);
	check(c->lpVtbl->Release(c) == 0 && qp->lpVtbl->Release(qp) == 0, "bigrecv: release the connector and the QP: 0");
	memset(&ov, 0, sizeof(ov));
	wait_ov(s, mr->lpVtbl->Deregister(mr, &ov), &ov, 30000);
	mr->lpVtbl->Release(mr);
	VirtualFree(buf, 0, MEM_RELEASE);
}

/* A 32 MiB RDMA Read and a 16 MiB RDMA Write, one request each, as ndmw's
 * phase 1 does (more than rxe's 8 MiB port figure: see device.c). */
static void bigrdma_client(struct side *s, IND2QueuePair *qp)
{
	char *mine = VirtualAlloc(NULL, BIG_READ, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
	IND2MemoryRegion *mr = NULL;
	OVERLAPPED ov = { 0 };
	struct ctl_msg m;
	ND2_SGE sge;
	ND2_RESULT r;
	HRESULT st;
	ULONG i, bad = 0;
	int got;

	if (!mine || s->ad->lpVtbl->CreateMemoryRegion(s->ad, &IID_IND2MemoryRegion, s->file, (void **)&mr) != ND_SUCCESS ||
	    wait_ov(s, mr->lpVtbl->Register(mr, mine, BIG_READ, ND_MR_FLAG_ALLOW_LOCAL_WRITE | ND_MR_FLAG_RDMA_READ_SINK, &ov),
		    &ov, 30000) != ND_SUCCESS)
		die("bigrdma: register 32 MiB");
	ctl_recv(s, "bigrdma", &m);
	sge.Buffer = mine;
	sge.BufferLength = BIG_READ;
	sge.MemoryRegionToken = mr->lpVtbl->GetLocalToken(mr);
	st = qp->lpVtbl->Read(qp, (void *)0xBD, &sge, 1, m.addr, m.token, 0);
	got = st == ND_SUCCESS && get_one(s, &r, 120000);
	for (i = 0; got && r.Status == ND_SUCCESS && i < BIG_READ; i++)
		bad += mine[i] != pat(i / 4096 + i);
	check(got && r.Status == ND_SUCCESS && !bad,
	      "bigrdma: an RDMA Read of %u bytes in one request (MaxTransferLength %lu): ND_SUCCESS, every byte right "
	      "(%#lx, then %s %#lx, %lu wrong)", BIG_READ, s->info.MaxTransferLength, st, got ? "completed" : "not completed",
	      got ? r.Status : 0, bad);
	for (i = 0; i < BIG_WRITE; i++)
		mine[i] = (char)~pat(i / 4096 + i);
	sge.BufferLength = BIG_WRITE;
	st = qp->lpVtbl->Write(qp, (void *)0xBE, &sge, 1, m.addr + BIG_READ, m.token, 0);
	got = st == ND_SUCCESS && get_one(s, &r, 120000);
	check(got && r.Status == ND_SUCCESS, "bigrdma: an RDMA Write of %u bytes in one request: ND_SUCCESS (%#lx, then %s %#lx)",
	      BIG_WRITE, st, got ? "completed" : "not completed", got ? r.Status : 0);
	ctl_send(s, "bigrdma-written", 0, 0);
	memset(&ov, 0, sizeof(ov));
	wait_ov(s, mr->lpVtbl->Deregister(mr, &ov), &ov, 30000);
	mr->lpVtbl->Release(mr);
	VirtualFree(mine, 0, MEM_RELEASE);
}

static void bigrecv_client(struct side *s, const char *peer)
{
	IND2QueuePair *qp = new_qp(s, (void *)0xB1);
	IND2Connector *c = new_connector(s);
	ND2_SGE sge = { s->buf + RECVS * SLOT, SMALL, s->token };
	ND2_RESULT r;
	HRESULT st;
	ULONG i;
	int got;

	for (i = 0; i < SMALL; i++)
		((char *)sge.Buffer)[i] = pat(i);
	check(connect_to(s, c, qp, peer, 1) == ND_SUCCESS, "bigrecv: connected");
	st = qp->lpVtbl->Send(qp, (void *)0xB11, &sge, 1, 0);
	got = st == ND_SUCCESS && get_one(s, &r, 60000);
	check(got && r.Status == ND_SUCCESS, "bigrecv: a %u-byte Send into the server's 64 MiB Receive: ND_SUCCESS (%#lx, %s %#lx)",
	      SMALL, st, got ? "completed" : "never completed", got ? r.Status : 0);
	bigrdma_client(s, qp);
	ctl_send(s, "bigrecv-done", 0, 0);
	disconnect(s, c);
	drain(s);
	check(c->lpVtbl->Release(c) == 0 && qp->lpVtbl->Release(qp) == 0, "bigrecv: release the connector and the QP: 0");
}

/* ---- sges ------------------------------------------------------------------- */
/* ndmw's QPs: both depths min(MaxCompletionQueueDepth, MaxReceiveQueueDepth),
 * 1 SGE asked for each queue; its first Send has 2 SGEs (1 KiB of data and
 * a 16-byte peer record), which the adapter's MaxInitiatorSge allows
 * (CLIENT-BEHAVIOR.md: be lenient where the hardware allows). */
static IND2QueuePair *deep_qp(struct side *s, IND2CompletionQueue **cq, void *ctx)
{
	ULONG d = s->info.MaxCompletionQueueDepth < s->info.MaxReceiveQueueDepth ? s->info.MaxCompletionQueueDepth
										  : s->info.MaxReceiveQueueDepth;
	IND2QueuePair *qp = NULL;
	HRESULT st;

	st = s->ad->lpVtbl->CreateCompletionQueue(s->ad, &IID_IND2CompletionQueue, s->file, s->info.MaxCompletionQueueDepth, 0, 0,
						  (void **)cq);
	if (st == ND_SUCCESS)
		st = s->ad->lpVtbl->CreateQueuePair(s->ad, &IID_IND2QueuePair, (IUnknown *)*cq, (IUnknown *)*cq, ctx, d, d, 1, 1, 0,
						     (void **)&qp);
	check(st == ND_SUCCESS, "sges: a QP of depth %lu, 1 SGE asked for each queue (%#lx)", d, st);
	if (st != ND_SUCCESS)
		die("sges: the QP");
	return qp;
}

static void sges_server(struct side *s, IND2Listener *l)
{
	IND2CompletionQueue *cq = NULL;
	IND2QueuePair *qp = deep_qp(s, &cq, (void *)0x5E);
	ND2_SGE sge = { s->buf + RECVS * SLOT, 1040, s->token };
	IND2Connector *c;
	ND2_RESULT r;
	HRESULT st;
	int got;

	st = qp->lpVtbl->Receive(qp, (void *)0x5E1, &sge, 1);
	c = get_request(s, l);
	check(st == ND_SUCCESS && accept_on(s, c, qp) == ND_SUCCESS, "sges: a 1040-byte Receive posted, connection accepted");
	got = get_result(cq, &r, 60000);
	check(got && r.Status == ND_SUCCESS && r.BytesTransferred == 1040,
	      "sges: the client's 2-SGE Send arrives whole (%s %#lx, %lu bytes)", got ? "completed" : "never completed",
	      got ? r.Status : 0, got ? r.BytesTransferred : 0);
	ctl_expect(s, "sges-done");
	disconnect(s, c);
	while (cq->lpVtbl->GetResults(cq, &r, 1) == 1)
		;
	check(c->lpVtbl->Release(c) == 0 && qp->lpVtbl->Release(qp) == 0 && cq->lpVtbl->Release(cq) == 0,
	      "sges: release the connector, the QP and the CQ: 0");
}

static void sges_client(struct side *s, const char *peer)
{
	IND2CompletionQueue *cq = NULL;
	IND2QueuePair *qp = deep_qp(s, &cq, (void *)0x5F);
	IND2Connector *c = new_connector(s);
	ND2_SGE two[2] = { { s->buf + RECVS * SLOT, 1024, s->token }, { s->buf + RECVS * SLOT + 2048, 16, s->token } };
	ND2_RESULT r;
	HRESULT st;
	int got;

	check(connect_to(s, c, qp, peer, 1) == ND_SUCCESS, "sges: connected");
	st = qp->lpVtbl->Send(qp, (void *)0x5F1, two, 2, 0);
	got = st == ND_SUCCESS && get_result(cq, &r, 60000);
	check(got && r.Status == ND_SUCCESS,
	      "sges: a Send of 2 SGEs on the QP that asked for 1 (MaxInitiatorSge %lu): ND_SUCCESS, completes ND_SUCCESS "
	      "(%#lx, then %s %#lx)", s->info.MaxInitiatorSge, st, got ? "completed" : "not completed", got ? r.Status : 0);
	ctl_send(s, "sges-done", 0, 0);
	disconnect(s, c);
	while (cq->lpVtbl->GetResults(cq, &r, 1) == 1)
		;
	check(c->lpVtbl->Release(c) == 0 && qp->lpVtbl->Release(qp) == 0 && cq->lpVtbl->Release(cq) == 0,
	      "sges: release the connector, the QP and the CQ: 0");
}

/* ---- depth ------------------------------------------------------------------ */
#define PP_BUF ((4u << 20) + 40)	/* ndpingpong's buffer: 4 MiB and a 40-byte header */

struct pp {
	IND2CompletionQueue *cq;
	IND2QueuePair *qp;
	IND2MemoryRegion *mr;
	char *buf;
	ULONG depth, inline_max;
	int recv_done, send_done, failed;
};

/* The queues as ndpingpong sizes them: one CQ for both queues of a QP
 * whose depths are both the CQ's, from Query's limits. */
static void pp_open(struct side *s, struct pp *p, ULONG initiator_limit)
{
	OVERLAPPED ov = { 0 };
	HRESULT st;

	memset(p, 0, sizeof(*p));
	p->depth = s->info.MaxCompletionQueueDepth < initiator_limit ? s->info.MaxCompletionQueueDepth : initiator_limit;
	p->inline_max = s->info.InlineRequestThreshold;
	p->buf = VirtualAlloc(NULL, PP_BUF, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
	if (!p->buf || s->ad->lpVtbl->CreateMemoryRegion(s->ad, &IID_IND2MemoryRegion, s->file, (void **)&p->mr) ||
	    wait_ov(s, p->mr->lpVtbl->Register(p->mr, p->buf, PP_BUF, ND_MR_FLAG_ALLOW_LOCAL_WRITE, &ov), &ov, 30000))
		die("depth: register the buffer");
	st = s->ad->lpVtbl->CreateCompletionQueue(s->ad, &IID_IND2CompletionQueue, s->file, p->depth, 0, 0, (void **)&p->cq);
	if (st == ND_SUCCESS)
		st = s->ad->lpVtbl->CreateQueuePair(s->ad, &IID_IND2QueuePair, (IUnknown *)p->cq, (IUnknown *)p->cq, (void *)0xD0,
						     p->depth, p->depth, 1, 1, p->inline_max, (void **)&p->qp);
	check(st == ND_SUCCESS, "depth: a CQ of depth %lu and a QP of %lu Receives and %lu initiator requests, 1 SGE each (%#lx)",
	      p->depth, p->depth, p->depth, st);
	if (st != ND_SUCCESS)
		die("depth: the queues");
}

/* Every Receive the depth allows, as ndpingpong posts them: one SGE of
 * the whole buffer. */
static HRESULT pp_recv(struct pp *p)
{
	ND2_SGE sge = { p->buf, PP_BUF, p->mr->lpVtbl->GetLocalToken(p->mr) };

	return p->qp->lpVtbl->Receive(p->qp, &p->recv_done, &sge, 1);
}

static void pp_fill(struct pp *p, const char *who)
{
	HRESULT st = ND_SUCCESS;
	ULONG i;

	for (i = 0; i < p->depth && (st = pp_recv(p)) == ND_SUCCESS; i++)
		;
	check(st == ND_SUCCESS, "depth: %s posts %lu Receives, its receive queue's depth (%lu taken, then %#lx)", who, p->depth, i,
	      st);
}

/* One result, as ndpingpong takes them: GetResults(1), the request's flag set. */
static int pp_wait(struct pp *p, int *flag, DWORD ms)
{
	DWORD end = GetTickCount() + ms;
	ND2_RESULT r;

	while (!*flag) {
		if (p->cq->lpVtbl->GetResults(p->cq, &r, 1) == 1) {
			if (r.Status != ND_SUCCESS) {
				printf("    note: a request (type %d) ended %#lx\n", (int)r.RequestType, r.Status);
				p->failed = 1;
				return 0;
			}
			*(int *)r.RequestContext = 1;
		} else if ((LONG)(GetTickCount() - end) > 0) {
			return 0;
		}
	}
	*flag = 0;
	return 1;
}

static HRESULT pp_send(struct pp *p, ULONG len)
{
	ND2_SGE sge = { p->buf, len, p->mr->lpVtbl->GetLocalToken(p->mr) };

	return p->qp->lpVtbl->Send(p->qp, &p->send_done, &sge, 1, len < p->inline_max ? ND_OP_FLAG_INLINE : 0);
}

static void pp_close(struct side *s, struct pp *p, IND2Connector *c)
{
	OVERLAPPED ov = { 0 };

	disconnect(s, c);
	while (p->cq->lpVtbl->GetResults(p->cq, &(ND2_RESULT){ 0 }, 1) == 1)
		;
	check(c->lpVtbl->Release(c) == 0 && p->qp->lpVtbl->Release(p->qp) == 0 && p->cq->lpVtbl->Release(p->cq) == 0,
	      "depth: release the connector, the QP and the CQ: 0");
	wait_ov(s, p->mr->lpVtbl->Deregister(p->mr, &ov), &ov, 30000);
	p->mr->lpVtbl->Release(p->mr);
	VirtualFree(p->buf, 0, MEM_RELEASE);
}

/* ndpingpong connects with read limits 0 both ways (no RDMA Read). */
static HRESULT accept0(struct side *s, IND2Connector *c, IND2QueuePair *qp)
{
	OVERLAPPED ov = { 0 };

	return wait_ov(s, c->lpVtbl->Accept(c, (IUnknown *)qp, 0, 0, NULL, 0, &ov), &ov, 30000);
}

static HRESULT connect0(struct side *s, IND2Connector *c, IND2QueuePair *qp, const char *peer)
{
	struct sockaddr_in dst = addr_of(peer, PORT);
	OVERLAPPED ov = { 0 };
	HRESULT st = c->lpVtbl->Connect(c, (IUnknown *)qp, (struct sockaddr *)&dst, sizeof(dst), 0, 0, NULL, 0, &ov);

	if ((st = wait_ov(s, st, &ov, 60000)) != ND_SUCCESS)
		return st;
	memset(&ov, 0, sizeof(ov));
	return wait_ov(s, c->lpVtbl->CompleteConnect(c, &ov), &ov, 30000);
}

/* The pong side: a Receive reposted after each one taken, then the echo. */
static void depth_server(struct side *s, IND2Listener *l, ULONG pings)
{
	struct pp p;
	IND2Connector *c;
	HRESULT st = ND_SUCCESS;
	ULONG i;

	pp_open(s, &p, s->info.MaxReceiveQueueDepth);
	pp_fill(&p, "the server");
	c = get_request(s, l);
	check(accept0(s, c, p.qp) == ND_SUCCESS, "depth: connection accepted, read limits 0");
	for (i = 0; i < pings; i++) {
		if (!pp_wait(&p, &p.recv_done, 60000))
			break;
		if ((st = pp_recv(&p)) != ND_SUCCESS)
			break;
		if ((st = pp_send(&p, i % 64 + 1)) != ND_SUCCESS || !pp_wait(&p, &p.send_done, 60000))
			break;
	}
	check(i == pings && st == ND_SUCCESS,
	      "depth: %lu round trips, a Receive reposted after each one GetResults took: never ND_NO_MORE_ENTRIES "
	      "(%lu done, last status %#lx)", pings, i, st);
	ctl_expect(s, "depth-done");
	pp_close(s, &p, c);
}

static void depth_client(struct side *s, const char *peer, ULONG pings)
{
	struct pp p;
	IND2Connector *c = new_connector(s);
	HRESULT st = ND_SUCCESS;
	ULONG i;

	pp_open(s, &p, s->info.MaxInitiatorQueueDepth);
	check(connect0(s, c, p.qp, peer) == ND_SUCCESS, "depth: connected, read limits 0");
	pp_fill(&p, "the client");
	for (i = 0; i < pings; i++) {
		if ((st = pp_send(&p, i % 64 + 1)) != ND_SUCCESS || !pp_wait(&p, &p.send_done, 60000))
			break;
		if (!pp_wait(&p, &p.recv_done, 60000))
			break;
		if ((st = pp_recv(&p)) != ND_SUCCESS)
			break;
	}
	check(i == pings && st == ND_SUCCESS, "depth: %lu round trips, a Receive reposted after each (%lu done, last status %#lx)",
	      pings, i, st);
	ctl_send(s, "depth-done", 0, 0);
	pp_close(s, &p, c);
}

/* ---- spin -------------------------------------------------------------------- */
/* ndrpingpong: a heap buffer of 4 MiB + 40 + two 16-byte peer records,
 * registered for remote writes; the peer records go by Send, the server's
 * after it bound a window over the whole buffer; then each side Writes
 * size bytes (INLINE below InlineRequestThreshold) whose last byte is the
 * round's mark and spins on its own buffer's byte at the same offset,
 * taking no completions until the peer's mark is there.  With "yield" (one
 * guest) the spin yields the vCPU (SwitchToThread, no provider call): two
 * processes spinning on one vCPU would otherwise take turns at scheduler
 * ticks. */
#define SP_BUF ((4u << 20) + 40 + 32)
#define SP_INFO ((4u << 20) + 40)

struct sp_info {
	UINT32 token;
	UINT32 pad;
	UINT64 addr;
};

struct sp {
	char *buf;
	volatile char *vbuf;
	IND2MemoryRegion *mr;
	IND2MemoryWindow *mw;
	IND2QueuePair *qp;
	ND2_SGE sge;
	UINT64 raddr;
	UINT32 rtoken;
	ULONG inline_max;
	int yield;
};

static void sp_open(struct side *s, struct sp *p, void *ctx)
{
	OVERLAPPED ov = { 0 };

	memset(p, 0, sizeof(*p));
	p->buf = HeapAlloc(GetProcessHeap(), HEAP_ZERO_MEMORY, SP_BUF);
	p->vbuf = p->buf;
	p->inline_max = s->info.InlineRequestThreshold;
	if (!p->buf || s->ad->lpVtbl->CreateMemoryRegion(s->ad, &IID_IND2MemoryRegion, s->file, (void **)&p->mr) ||
	    wait_ov(s, p->mr->lpVtbl->Register(p->mr, p->buf, SP_BUF, ND_MR_FLAG_ALLOW_LOCAL_WRITE | ND_MR_FLAG_ALLOW_REMOTE_WRITE, &ov),
		    &ov, 30000))
		die("spin: register the heap buffer");
	p->qp = new_qp(s, ctx);
	p->sge.MemoryRegionToken = p->mr->lpVtbl->GetLocalToken(p->mr);
}

static HRESULT sp_post_info(struct sp *p)
{
	ND2_SGE sge = { p->buf + SP_INFO, sizeof(struct sp_info), p->sge.MemoryRegionToken };

	return p->qp->lpVtbl->Receive(p->qp, (void *)0x5A, &sge, 1);
}

/* Binds the window over the whole buffer and sends its token and address. */
static int sp_send_info(struct side *s, struct sp *p)
{
	struct sp_info *mine = (struct sp_info *)(p->buf + SP_INFO + sizeof(struct sp_info));
	ND2_SGE sge = { mine, sizeof(*mine), p->sge.MemoryRegionToken };
	ND2_RESULT r;
	HRESULT st;

	s->ad->lpVtbl->CreateMemoryWindow(s->ad, &IID_IND2MemoryWindow, (void **)&p->mw);
	st = p->mw ? p->qp->lpVtbl->Bind(p->qp, (void *)0xB, (IUnknown *)p->mr, (IUnknown *)p->mw, p->buf, SP_BUF,
					 ND_OP_FLAG_ALLOW_WRITE) : 1;
	if (st != ND_SUCCESS || !get_one(s, &r, 10000) || r.Status != ND_SUCCESS)
		return 0;
	mine->token = p->mw->lpVtbl->GetRemoteToken(p->mw);
	mine->addr = (UINT64)(ULONG_PTR)p->buf;
	return p->qp->lpVtbl->Send(p->qp, (void *)0x5E, &sge, 1, 0) == ND_SUCCESS;
}

static void sp_take_info(struct sp *p)
{
	struct sp_info *peer = (struct sp_info *)(p->buf + SP_INFO);

	p->raddr = peer->addr;
	p->rtoken = peer->token;
}

/* The peer's mark at off, within ms; spinning on memory only. */
static int sp_spin(struct sp *p, ULONG off, char mark, DWORD ms)
{
	DWORD t0 = GetTickCount();
	ULONG n = 0;

	while (p->vbuf[off] != mark) {
		if (p->yield)
			SwitchToThread();
		if (!(++n & 0xFFF) && GetTickCount() - t0 > ms)
			return 0;
	}
	return 1;
}

static HRESULT sp_write(struct side *s, struct sp *p, ULONG size, char mark)
{
	ND2_RESULT r;
	HRESULT st;

	p->buf[size - 1] = mark;
	p->sge.Buffer = p->buf;
	p->sge.BufferLength = size;
	st = p->qp->lpVtbl->Write(p->qp, (void *)0x3E, &p->sge, 1, p->raddr, p->rtoken,
				 size < p->inline_max ? ND_OP_FLAG_INLINE : 0);
	if (st != ND_SUCCESS)
		return st;
	return get_one(s, &r, 30000) ? r.Status : 1;
}

/* rounds round trips at each of sizes; the client writes first. */
static void sp_run(struct side *s, struct sp *p, int client, ULONG rounds)
{
	static const ULONG sizes[] = { 40, 1, 64, 512, 4096, 65536 };
	ULONG k, i, done = 0;
	HRESULT st = ND_SUCCESS;
	int ok = 1;

	for (k = 0; ok && k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		for (i = 0; ok && i < rounds; i++) {
			char mine = (char)(client ? 2 * (i % 60) + 1 : 2 * (i % 60) + 2);
			char theirs = (char)(client ? mine + 1 : mine - 1);

			if (client) {
				ok = (st = sp_write(s, p, sizes[k], mine)) == ND_SUCCESS && sp_spin(p, sizes[k] - 1, theirs, 30000);
			} else {
				ok = sp_spin(p, sizes[k] - 1, theirs, 30000) && (st = sp_write(s, p, sizes[k], mine)) == ND_SUCCESS;
			}
			done += ok;
		}
	}
	check(ok, "spin: %lu round trips of RDMA Writes through the peer's window (40 B to 64 KiB), each side spinning on "
	      "its own buffer for the peer's last byte (%lu done, %s%s, %#lx)", rounds * k, done,
	      ok ? "all landed" : "the peer's byte never came or a Write failed", p->yield ? ", yielding" : "", st);
}

static void sp_close(struct side *s, struct sp *p, IND2Connector *c)
{
	OVERLAPPED ov = { 0 };

	disconnect(s, c);
	drain(s);
	check(c->lpVtbl->Release(c) == 0 && p->mw->lpVtbl->Release(p->mw) == 0 && p->qp->lpVtbl->Release(p->qp) == 0,
	      "spin: release the connector, the window and the QP: 0");
	wait_ov(s, p->mr->lpVtbl->Deregister(p->mr, &ov), &ov, 30000);
	p->mr->lpVtbl->Release(p->mr);
	HeapFree(GetProcessHeap(), 0, p->buf);
}

static void spin_server(struct side *s, IND2Listener *l, ULONG rounds, int yield)
{
	struct sp p;
	IND2Connector *c;
	ND2_RESULT r;
	int i;

	sp_open(s, &p, (void *)0x51);
	p.yield = yield;
	sp_post_info(&p);
	c = get_request(s, l);
	check(accept_on(s, c, p.qp) == ND_SUCCESS, "spin: connection accepted");
	i = get_one(s, &r, 60000) && r.Status == ND_SUCCESS && r.RequestContext == (void *)0x5A;
	i = i && sp_send_info(s, &p) && get_one(s, &r, 30000) && r.Status == ND_SUCCESS;
	check(i, "spin: the client's record came, the window bound over the heap buffer, ours sent");
	sp_take_info(&p);
	if (i)
		sp_run(s, &p, 0, rounds);
	ctl_expect(s, "spin-done");
	sp_close(s, &p, c);
}

static void spin_client(struct side *s, const char *peer, ULONG rounds, int yield)
{
	struct sp p;
	IND2Connector *c = new_connector(s);
	ND2_RESULT r;
	int i, n = 0, send_ok = 0, recv_ok = 0;

	sp_open(s, &p, (void *)0x52);
	p.yield = yield;
	sp_post_info(&p);
	check(connect_to(s, c, p.qp, peer, 1) == ND_SUCCESS, "spin: connected");
	i = sp_send_info(s, &p);
	/* Our Send's completion and the server's record, in either order. */
	while (i && n < 2 && get_one(s, &r, 60000)) {
		n++;
		send_ok |= r.RequestContext == (void *)0x5E && r.Status == ND_SUCCESS;
		recv_ok |= r.RequestContext == (void *)0x5A && r.Status == ND_SUCCESS;
	}
	check(send_ok && recv_ok, "spin: the window bound over the heap buffer, our record sent, the server's came");
	sp_take_info(&p);
	if (send_ok && recv_ok)
		sp_run(s, &p, 1, rounds);
	ctl_send(s, "spin-done", 0, 0);
	sp_close(s, &p, c);
}

/* ---- main ------------------------------------------------------------------------ */
int main(int argc, char **argv)
{
	struct side s = { 0 };
	WSADATA wsa;
	ULONG pings, rounds;
	int yield;
	char name[40];

	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc < 4 || (strcmp(argv[1], "server") && strcmp(argv[1], "client"))) {
		fprintf(stderr, "usage: %s server|client ADDR PEER [PINGS [ROUNDS [yield]]]\n", argv[0]);
		return 2;
	}
	snprintf(name, sizeof(name), "nd2sdk %s", argv[1]);
	role = name;
	pings = argc >= 5 ? strtoul(argv[4], NULL, 0) : 2000;
	rounds = argc >= 6 ? strtoul(argv[5], NULL, 0) : 50;
	yield = argc >= 7 && !strcmp(argv[6], "yield");
	WSAStartup(MAKEWORD(2, 2), &wsa);
	open_side(&s, argv[2]);
	if (!strcmp(argv[1], "server")) {
		struct sockaddr_in sa = addr_of(argv[2], PORT);
		IND2Listener *l = NULL;

		if (s.ad->lpVtbl->CreateListener(s.ad, &IID_IND2Listener, s.file, (void **)&l) != ND_SUCCESS ||
		    l->lpVtbl->Bind(l, (struct sockaddr *)&sa, sizeof(sa)) != ND_SUCCESS || l->lpVtbl->Listen(l, 8) != ND_SUCCESS)
			die("CreateListener, Bind and Listen");
		ctl_open(&s, argv[2], argv[3], 1);
		bigrecv_server(&s, l);
		sges_server(&s, l);
		depth_server(&s, l, pings);
		spin_server(&s, l, rounds, yield);
		check(l->lpVtbl->Release(l) == 0, "release the listener: 0");
	} else {
		ctl_open(&s, argv[2], argv[3], 0);
		bigrecv_client(&s, argv[3]);
		sges_client(&s, argv[3]);
		depth_client(&s, argv[3], pings);
		spin_client(&s, argv[3], rounds, yield);
	}
	closesocket(s.ctl);
	return failures ? 1 : 0;
}

/* The nd2status rig's checks of what issue 15 left open: a queue pair and
 * a memory window released, in either order, while the window is bound
 * (each release prompt, the window and its region usable as the docs say
 * afterwards); a Read of a peer that granted no inbound Reads; and the
 * sender's status for a Send too large for the peer's Receive. */
#include <winsock2.h>
#include <ws2tcpip.h>
#include <windows.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nd2status.h"

#define STATUS_DATA_ERROR ((HRESULT)0xC000003EL)	/* CLIENT-BEHAVIOR.md; not an ND_ name */
#define RELEASE_MS 2000	/* a release that waits for the device is a bug */

/* Release's count and how long it took. */
static ULONG timed_release(IUnknown *u, DWORD *ms)
{
	DWORD t0 = GetTickCount();
	ULONG n = u->lpVtbl->Release(u);

	*ms = GetTickCount() - t0;
	return n;
}

static HRESULT deregister(IND2MemoryRegion *m)
{
	OVERLAPPED ov = { 0 };

	return wait(m->lpVtbl->Deregister(m, &ov), &ov);
}

static HRESULT register_buf(IND2MemoryRegion *m, char *p, SIZE_T n)
{
	OVERLAPPED ov = { 0 };

	return wait(m->lpVtbl->Register(m, p, n, ND_MR_FLAG_ALLOW_LOCAL_WRITE | ND_MR_FLAG_ALLOW_REMOTE_READ, &ov), &ov);
}

/* Bind w to m's first 4 KiB at ro through q, and reap its result. */
static HRESULT bind_window(IND2QueuePair *q, IND2CompletionQueue *c, IND2MemoryRegion *m, IND2MemoryWindow *w,
			   char *at, void *ctx)
{
	ND2_RESULT r;
	HRESULT st = q->lpVtbl->Bind(q, ctx, IU(m), IU(w), at, 4096, ND_OP_FLAG_ALLOW_READ);

	if (st != ND_SUCCESS)
		return st;
	if (!get_result(c, &r, 5000))
		return 1;
	return r.RequestContext == ctx ? r.Status : 2;
}

/* A window bound through a queue pair keeps a reference on it in rxe:
 * destroying the QP first waited for it until the kernel gave up (about
 * 50 s, a warning in its log). */
static void release_bound(IND2CompletionQueue *qa_cq, IND2CompletionQueue *qp_cq)
{
	char *area = buf + 40960;	/* 4 KiB of the rig's buffer nobody else uses */
	IND2QueuePair *qa, *qp;
	IND2MemoryRegion *ro;
	IND2MemoryWindow *mw;
	ND2_SGE into = { buf + 45056, 64, lkey };
	ND2_RESULT r;
	struct conn cn;
	DWORD ms;
	ULONG n;
	HRESULT st;
	int i;

	if (ad->lpVtbl->CreateMemoryRegion(ad, &IID_IND2MemoryRegion, file, (void **)&ro) ||
	    ad->lpVtbl->CreateMemoryWindow(ad, &IID_IND2MemoryWindow, (void **)&mw))
		die("a region and a window");
	if (register_buf(ro, area, 4096) != ND_SUCCESS)
		die("Register 4 KiB");

	/* The queue pair first, the window still bound through it. */
	qa = make_qp(qa_cq, (void *)0x1A1, 8, 4, 1, 0);
	qp = make_qp(qp_cq, (void *)0x1A2, 8, 4, 1, 0);
	connect_pair(&cn, PORT + 20, qa, qp);
	st = bind_window(qp, qp_cq, ro, mw, area, (void *)0x1A3);
	check(st == ND_SUCCESS, "release: Bind a window (%#lx)", st);
	close_pair(&cn);
	drain(qp_cq, 500, NULL);
	drain(qa_cq, 500, NULL);
	n = timed_release(IU(qp), &ms);
	check(n == 0 && ms < RELEASE_MS, "release: QueuePair::Release with a window still bound through it: "
	      "0 within %d ms (%lu after %lu ms)", RELEASE_MS, n, ms);
	qa->lpVtbl->Release(qa);
	st = deregister(ro);
	check(st == ND_SUCCESS, "release: MemoryRegion::Deregister once the window's queue pair is gone: "
	      "ND_SUCCESS, the window is no longer bound (%#lx)", st);
	if (st == ND_SUCCESS && register_buf(ro, area, 4096) != ND_SUCCESS)
		die("Register the 4 KiB again");

	/* The same window bound again through a new queue pair, and used. */
	qa = make_qp(qa_cq, (void *)0x1B1, 8, 4, 1, 0);
	qp = make_qp(qp_cq, (void *)0x1B2, 8, 4, 1, 0);
	connect_pair(&cn, PORT + 21, qa, qp);
	st = bind_window(qp, qp_cq, ro, mw, area, (void *)0x1B3);
	check(st == ND_SUCCESS, "release: the window binds again through another queue pair (%#lx)", st);
	memset(area, 'w', 64);
	memset(into.Buffer, 0, 64);
	st = qa->lpVtbl->Read(qa, (void *)0x1B4, &into, 1, (UINT64)(ULONG_PTR)area, mw->lpVtbl->GetRemoteToken(mw), 0);
	r.Status = 1;
	i = st == ND_SUCCESS && get_result(qa_cq, &r, 5000);
	check(i && r.Status == ND_SUCCESS && !memcmp(into.Buffer, area, 64),
	      "release: a Read through the rebound window: ND_SUCCESS, the data read (%#lx, then %#lx)", st, r.Status);
	st = deregister(ro);
	check(st == ND_DEVICE_BUSY, "release: MemoryRegion::Deregister with the window bound again: ND_DEVICE_BUSY (%#lx)",
	      st);

	/* Now the window first, through a queue pair still connected. */
	n = timed_release(IU(mw), &ms);
	check(n == 0 && ms < RELEASE_MS, "release: MemoryWindow::Release while bound through a connected queue pair: "
	      "0 within %d ms (%lu after %lu ms)", RELEASE_MS, n, ms);
	st = deregister(ro);
	check(st == ND_SUCCESS, "release: MemoryRegion::Deregister once the bound window is released: ND_SUCCESS (%#lx)",
	      st);
	close_pair(&cn);
	drain(qp_cq, 500, NULL);
	drain(qa_cq, 500, NULL);
	n = timed_release(IU(qp), &ms);
	check(n == 0 && ms < RELEASE_MS, "release: then its queue pair: 0 within %d ms (%lu after %lu ms)", RELEASE_MS,
	      n, ms);
	qa->lpVtbl->Release(qa);
	check(ro->lpVtbl->Release(ro) == 0, "release: the region: 0");
}

/* IND2Connector: the inbound limit is "the maximum number of in-flight RDMA
 * Read requests the caller will support from the peer ... may be zero if
 * you do not support Read requests from the peer"; a Read of such a peer
 * fails there, "the request caused an error on the remote queue pair". */
static void zero_read_limit(IND2CompletionQueue *qa_cq, IND2CompletionQueue *qp_cq)
{
	IND2QueuePair *qa, *qp;
	ND2_SGE into = { buf + 45056, 64, lkey }, from = { buf + 45120, 64, lkey };
	ND2_RESULT r;
	struct conn cn;
	ULONG in = 99, out = 99;
	HRESULT st;
	int i;

	qa = make_qp(qa_cq, (void *)0x2A1, 8, 4, 1, 0);
	qp = make_qp(qp_cq, (void *)0x2A2, 8, 4, 1, 0);
	/* The accepting side takes no Reads and may read 4 of the other's. */
	connect_limits(&cn, PORT + 22, qa, qp, 4, 4, 0, 4);
	st = cn.act->lpVtbl->GetReadLimits(cn.act, &in, &out);
	check(st == ND_SUCCESS && in == 4 && out == 0,
	      "read limit 0: GetReadLimits after the peer accepted with inbound 0: in 4, out 0 (%#lx, %lu/%lu)", st, in, out);
	memset(buf + 45120, 'p', 64);
	st = qp->lpVtbl->Read(qp, (void *)0x2A3, &into, 1, (UINT64)(ULONG_PTR)(buf + 45120), mr->lpVtbl->GetRemoteToken(mr), 0);
	r.Status = 1;
	i = st == ND_SUCCESS && get_result(qp_cq, &r, 5000);
	check(i && r.Status == ND_SUCCESS, "read limit 0: the side granted 4 reads: a Read completes ND_SUCCESS "
	      "(%#lx, then %#lx)", st, r.Status);
	st = qa->lpVtbl->Read(qa, (void *)0x2A4, &into, 1, (UINT64)(ULONG_PTR)(buf + 45120), mr->lpVtbl->GetRemoteToken(mr), 0);
	r.Status = 1;
	r.RequestContext = NULL;
	i = st == ND_SUCCESS && get_result(qa_cq, &r, 30000);
	check(i && r.Status == ND_REMOTE_ERROR && r.RequestContext == (void *)0x2A4 && r.RequestType == Nd2RequestTypeRead,
	      "read limit 0: a Read of the peer that granted 0 inbound Reads: ND_SUCCESS, completes ND_REMOTE_ERROR "
	      "(%#lx, then %s %#lx)", st, i ? "completed" : "never completed", r.Status);
	st = qa->lpVtbl->Write(qa, (void *)0x2A5, &from, 1, (UINT64)(ULONG_PTR)(buf + 45184), mr->lpVtbl->GetRemoteToken(mr), 0);
	r.Status = 1;
	i = st == ND_SUCCESS && get_result(qa_cq, &r, 5000);
	check(i && r.Status == ND_CANCELED, "read limit 0: the failed Read ended the connection: a Write after it completes "
	      "ND_CANCELED (%#lx, then %s %#lx)", st, i ? "completed" : "never completed", r.Status);
	close_pair(&cn);
	drain(qp_cq, 500, NULL);
	drain(qa_cq, 500, NULL);
	check(qa->lpVtbl->Release(qa) == 0 && qp->lpVtbl->Release(qp) == 0, "read limit 0: release both QPs: 0");
}

/* CLIENT-BEHAVIOR.md: the receiver's Receive completes ND_DATA_OVERRUN,
 * the sender's Send ND_SUCCESS or STATUS_DATA_ERROR (the Receive page:
 * "the Send request fails and the connection is terminated").  One
 * packet, many packets (rxe's MTU is 1 KiB), and inline. */
static void oversized_send(IND2CompletionQueue *qa_cq, IND2CompletionQueue *qp_cq, USHORT p, ULONG len, ULONG flags,
			   const char *what)
{
	IND2QueuePair *qa, *qp;
	ND2_SGE small = { buf + 45056, 8, lkey }, big = { buf + 49152, len, lkey };
	ND2_RESULT r;
	struct conn cn;
	HRESULT st;
	int i;

	qa = make_qp(qa_cq, (void *)0x3A1, 8, 4, 1, flags ? len : 0);
	qp = make_qp(qp_cq, (void *)0x3A2, 8, 4, 1, 0);
	st = qp->lpVtbl->Receive(qp, (void *)0x3A3, &small, 1);
	connect_pair(&cn, p, qa, qp);
	memset(big.Buffer, 's', len);
	st |= qa->lpVtbl->Send(qa, (void *)0x3A4, &big, 1, flags);
	r.Status = 1;
	i = st == ND_SUCCESS && get_result(qp_cq, &r, 10000);
	check(i && r.Status == ND_DATA_OVERRUN && r.RequestContext == (void *)0x3A3,
	      "oversized Send (%s): the 8-byte Receive completes ND_DATA_OVERRUN (%#lx, then %#lx)", what, st, r.Status);
	r.Status = 1;
	i = get_result(qa_cq, &r, 30000);
	check(i && r.RequestContext == (void *)0x3A4 && r.RequestType == Nd2RequestTypeSend &&
		      (r.Status == STATUS_DATA_ERROR || r.Status == ND_SUCCESS),
	      "oversized Send (%s): the Send completes STATUS_DATA_ERROR or ND_SUCCESS, not ND_CANCELED (%s %#lx)",
	      what, i ? "completed" : "never completed", r.Status);
	close_pair(&cn);
	drain(qp_cq, 500, NULL);
	drain(qa_cq, 500, NULL);
	check(qa->lpVtbl->Release(qa) == 0 && qp->lpVtbl->Release(qp) == 0, "oversized Send (%s): release both QPs: 0", what);
}

void release_codes(void)
{
	IND2CompletionQueue *qa_cq, *qp_cq;

	if (ad->lpVtbl->CreateCompletionQueue(ad, &IID_IND2CompletionQueue, file, 64, 0, 0, (void **)&qa_cq) ||
	    ad->lpVtbl->CreateCompletionQueue(ad, &IID_IND2CompletionQueue, file, 64, 0, 0, (void **)&qp_cq))
		die("two CQs");
	release_bound(qa_cq, qp_cq);
	zero_read_limit(qa_cq, qp_cq);
	oversized_send(qa_cq, qp_cq, PORT + 23, 100, 0, "100 bytes");
	oversized_send(qa_cq, qp_cq, PORT + 24, 16384, 0, "16 KiB, 16 packets");
	if (info.MaxInlineDataSize >= 100)
		oversized_send(qa_cq, qp_cq, PORT + 25, 100, ND_OP_FLAG_INLINE, "100 bytes inline");
	check(qa_cq->lpVtbl->Release(qa_cq) == 0 && qp_cq->lpVtbl->Release(qp_cq) == 0, "release: both CQs: 0");
}

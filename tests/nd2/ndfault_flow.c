/* A traffic flow on one connection for the fault rig (ndfault_rig.c) and
 * the soak: Sends into the peer's Receives, RDMA Writes into and Reads from
 * the peer's target region, with a bounded number of each in flight, the
 * Receives reposted as they complete.  Results are reaped one at a time;
 * when the CQ is empty the flow waits on the port for a Notify, so a wait
 * that is never woken shows up as a deadline missed. */
#include <winsock2.h>
#include <windows.h>
#include <stdio.h>
#include <string.h>

#include "ndspi.h"
#include "nd2peer.h"
#include "ndfault.h"

static const char *const type_name[] = { "receive", "send", "bind", "invalidate", "read", "write" };

const char *flow_type(int t)
{
	return t >= 0 && t < 6 ? type_name[t] : "?";
}

void flow_init(struct flow *f, struct side *s, void *ctx, ULONG depth)
{
	flow_init_rcq(f, s, ctx, depth, NULL);
}

void flow_init_rcq(struct flow *f, struct side *s, void *ctx, ULONG depth, IND2CompletionQueue *rcq)
{
	OVERLAPPED ov = { 0 };
	HRESULT st;

	memset(f, 0, sizeof(*f));
	f->s = s;
	f->ctx = ctx;
	f->rcq = rcq;
	f->depth = depth;
	f->mem = VirtualAlloc(NULL, FLOW_MEM, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
	if (!f->mem)
		die("flow: VirtualAlloc");
	memset(f->mem, 0x5a, FLOW_MEM);
	if (s->ad->lpVtbl->CreateMemoryRegion(s->ad, &IID_IND2MemoryRegion, s->file, (void **)&f->mr) != ND_SUCCESS)
		die("flow: CreateMemoryRegion");
	st = f->mr->lpVtbl->Register(f->mr, f->mem, FLOW_MEM,
				     ND_MR_FLAG_ALLOW_LOCAL_WRITE | ND_MR_FLAG_ALLOW_REMOTE_READ |
					     ND_MR_FLAG_ALLOW_REMOTE_WRITE,
				     &ov);
	if (wait_ov(s, st, &ov, 5000) != ND_SUCCESS)
		die("flow: Register");
	f->tok = f->mr->lpVtbl->GetLocalToken(f->mr);
	if (s->ad->lpVtbl->CreateQueuePair(s->ad, &IID_IND2QueuePair, (IUnknown *)(rcq ? rcq : s->cq), (IUnknown *)s->cq, ctx,
					   FLOW_RECVS, depth, 1, 1, 0, (void **)&f->qp) != ND_SUCCESS)
		die("flow: CreateQueuePair");
}

/* The peer's target, exchanged over the control connection once connected. */
void flow_trade(struct flow *f, int first)
{
	struct ctl_msg m;

	if (first)
		ctl_send(f->s, "target", (UINT64)(ULONG_PTR)f->mem, f->mr->lpVtbl->GetRemoteToken(f->mr));
	if (!ctl_recv(f->s, "target", &m))
		die("flow: the peer's target");
	if (!first)
		ctl_send(f->s, "target", (UINT64)(ULONG_PTR)f->mem, f->mr->lpVtbl->GetRemoteToken(f->mr));
	f->raddr = m.addr;
	f->rtok = m.token;
}

HRESULT flow_recv(struct flow *f, int slot)
{
	ND2_SGE sge = { f->s->buf + slot * SLOT, SLOT, f->s->token };
	HRESULT st = f->qp->lpVtbl->Receive(f->qp, (void *)(ULONG_PTR)(FLOW_RECV_TAG | slot), &sge, 1);

	if (st == ND_SUCCESS)
		f->rq_out++;
	return st;
}

/* Post what the mix allows until the queue is full. */
HRESULT flow_pump(struct flow *f)
{
	while (f->sq_out < f->depth) {
		ULONG n = f->seq % 3, off = (f->seq % 32) * FLOW_CHUNK;
		ND2_SGE sge = { f->mem + off, FLOW_CHUNK, f->tok };
		void *rc = (void *)(ULONG_PTR)f->seq;
		HRESULT st;

		if (n == 0 && (!(f->kinds & FLOW_SEND) || f->in_send >= FLOW_SENDS))
			n = 1;
		if (n == 1 && !(f->kinds & FLOW_WRITE))
			n = 2;
		if (n == 2 && !(f->kinds & FLOW_READ))
			n = (f->kinds & FLOW_WRITE) ? 1 : 3;
		if (n == 0) {
			sge.BufferLength = 256;
			st = f->qp->lpVtbl->Send(f->qp, rc, &sge, 1, 0);
			f->in_send += st == ND_SUCCESS;
		} else if (n == 1) {
			st = f->qp->lpVtbl->Write(f->qp, rc, &sge, 1, f->raddr + off, f->rtok, 0);
		} else if (n == 2) {
			/* Reads land in the upper half, read from the peer's. */
			sge.Buffer = f->mem + FLOW_MEM / 2 + off;
			st = f->qp->lpVtbl->Read(f->qp, rc, &sge, 1, f->raddr + FLOW_MEM / 2 + off, f->rtok, 0);
		} else {
			return ND_SUCCESS;	/* nothing left to post now */
		}
		f->seq++;
		if (st != ND_SUCCESS)
			return st;
		f->sq_out++;
	}
	return ND_SUCCESS;
}

static void account(struct flow *f, const ND2_RESULT *r)
{
	int t = (int)r->RequestType;

	if (r->QueuePairContext != f->ctx) {
		printf("    note: a result of another queue pair (%p, type %d, %#lx)\n", r->QueuePairContext, t, r->Status);
		return;
	}
	if (t < 0 || t > 5)
		t = 2;
	if (t == Nd2RequestTypeReceive)
		f->rq_out--;
	else
		f->sq_out--;
	if (t == Nd2RequestTypeSend)
		f->in_send--;
	if (r->Status == ND_SUCCESS) {
		f->ok[t]++;
		if (t != Nd2RequestTypeReceive && f->err_sq)
			f->ok_after_err++;
		if (t == Nd2RequestTypeReceive && f->reposting)
			flow_recv(f, (int)((ULONG_PTR)r->RequestContext & 0xff));
		return;
	}
	if (!f->err[t]++)
		f->first_err[t] = r->Status;
	if (t != Nd2RequestTypeReceive && !f->err_sq++) {
		f->out_at_fail = f->sq_out + 1;
		f->sq_err_tick = GetTickCount();
	}
	if (!f->first_err_tick)
		f->first_err_tick = GetTickCount();
}

/* One result, waiting up to ms for it; 0 when none came. */
int flow_reap(struct flow *f, DWORD ms)
{
	IND2CompletionQueue *cq = f->s->cq;
	DWORD end = GetTickCount() + ms;
	ND2_RESULT r;
	int rcq_only = 0;

	for (;;) {
		DWORD now = GetTickCount(), bytes, wait;
		ULONG_PTR key;
		OVERLAPPED *got = NULL;

		if ((!rcq_only && cq->lpVtbl->GetResults(cq, &r, 1) == 1) ||
		    (f->rcq && f->rcq->lpVtbl->GetResults(f->rcq, &r, 1) == 1)) {
			account(f, &r);
			return 1;
		}
		rcq_only = 0;
		if (!f->armed && !f->notify_err) {
			HRESULT st;

			memset(&f->nov, 0, sizeof(f->nov));
			st = cq->lpVtbl->Notify(cq, ND_CQ_NOTIFY_ANY, &f->nov);
			if (st == ND_PENDING || st == ND_SUCCESS) {
				f->armed = 1;
			} else {
				f->notify_err = st;
				printf("    note: %s: Notify returned %#lx\n", role, st);
			}
			/* Results that came before the Notify: no wake-up for them. */
			continue;
		}
		if ((LONG)(end - now) <= 0)
			return 0;
		/* Without a Notify (refused) the CQ is polled; other packets
		 * still arrive on the port.  The Receives' own CQ wakes another
		 * thread on another port (survivor_xfer's waiter): it is polled
		 * every 50 ms, the flow's CQ still only after its Notify, so a
		 * wake-up lost there still shows. */
		wait = f->armed ? end - now : 10;
		if (f->rcq && f->armed && wait > 50)
			wait = 50;
		GetQueuedCompletionStatus(f->s->port, &bytes, &key, &got, wait);
		if (!got) {
			if (f->armed && wait == end - now)
				return 0;
			rcq_only = f->armed;
			continue;
		}
		if (got == &f->nov) {
			f->armed = 0;
			f->wakes++;
			if ((HRESULT)f->nov.Internal != ND_SUCCESS) {
				if (!f->notify_status)
					printf("    note: %s: the CQ's Notify completed %#lx\n", role, (HRESULT)f->nov.Internal);
				f->notify_status = (HRESULT)f->nov.Internal;
			}
		} else if (got == &f->dov) {
			f->disc = 1;
			f->disc_status = (HRESULT)f->dov.Internal;
			f->disc_tick = GetTickCount();
		} else if (f->extra && got == f->extra) {
			f->extra_done = 1;
			f->extra_tick = GetTickCount();
		}
	}
}

/* NotifyDisconnect on the flow's connector, its packet reaped by flow_reap. */
void flow_watch(struct flow *f, IND2Connector *c)
{
	HRESULT st;

	f->c = c;
	memset(&f->dov, 0, sizeof(f->dov));
	st = c->lpVtbl->NotifyDisconnect(c, &f->dov);
	if (st != ND_PENDING)
		printf("    note: %s: NotifyDisconnect returned %#lx\n", role, st);
}

/* After a fault's first sign (the peer process's end, the disconnect, a
 * Receive flushed), the requests then outstanding may still all succeed:
 * the dying peer's queue pair can answer them before it goes, and our own
 * QP moves to error only when the disconnect comes.  So the queue is kept
 * full until an initiator request fails or a post is refused: at the
 * moment the connection really ends requests are outstanding, and those
 * posted after it must fail (flushed, or ND_IO_TIMEOUT once the transport
 * gives up).  Receives are reposted meanwhile, so one is posted when the
 * QP fails.  1 when a request failed or was refused by end (a tick count). */
int flow_fail_after(struct flow *f, DWORD end)
{
	HRESULT st;
	ULONG before;
	LONG left;

	while (!f->err_sq && !f->refused && (left = (LONG)(end - GetTickCount())) > 0) {
		before = f->sq_out;
		st = flow_pump(f);
		f->posted_after += f->sq_out - before;
		if (st != ND_SUCCESS) {
			f->refused = st;
			printf("    note: %s: a post after the fault refused: %#lx\n", role, st);
			break;
		}
		flow_reap(f, left < 200 ? (DWORD)left : 200);
	}
	return f->err_sq || f->refused;
}

/* After the fault: nothing posted any more, every outstanding request and
 * the disconnect notification reaped by end (a tick count); 1 when all came. */
int flow_settle(struct flow *f, DWORD end, int want_disc)
{
	int all;

	while ((f->sq_out || f->rq_out || (want_disc && !f->disc)) && (LONG)(end - GetTickCount()) > 0)
		flow_reap(f, end - GetTickCount());
	/* The Notify armed last is still pending: the CQ is empty now. */
	all = !f->sq_out && !f->rq_out && (!want_disc || f->disc);
	if (f->sq_out || f->rq_out)
		flow_late(f);
	return all;
}

/* The deadline passed with requests outstanding: were their results
 * late, or there without a wake-up?  Polled for 30 s more, for the
 * report only (the caller's check has failed already). */
void flow_late(struct flow *f)
{
	ULONG left = f->sq_out + f->rq_out, got = 0;
	DWORD t0 = GetTickCount(), first = 0, last = 0;
	ND2_RESULT r;

	while ((f->sq_out || f->rq_out) && GetTickCount() - t0 < 30000) {
		if (f->s->cq->lpVtbl->GetResults(f->s->cq, &r, 1) == 1 ||
		    (f->rcq && f->rcq->lpVtbl->GetResults(f->rcq, &r, 1) == 1)) {
			account(f, &r);
			last = GetTickCount() - t0;
			if (!got++)
				first = last;
			continue;
		}
		Sleep(10);
	}
	printf("    note: %s: after the deadline, polling found %lu of the %lu results left, the first after %lu ms, the last after %lu ms\n",
	       role, got, left, first, last);
}

void flow_report(struct flow *f, const char *what)
{
	int t;

	printf("    note: %s: %s:", role, what);
	for (t = 0; t < 6; t++)
		if (f->ok[t] || f->err[t])
			printf(" %s %lu ok %lu failed (first %#lx);", flow_type(t), f->ok[t], f->err[t], f->first_err[t]);
	printf(" %lu wake-ups, outstanding %lu + %lu\n", f->wakes, f->sq_out, f->rq_out);
}

/* Release what the flow made; 1 when every count reached 0. */
int flow_release(struct flow *f)
{
	OVERLAPPED ov = { 0 };
	HRESULT st;
	int ok = 1;

	if (f->armed) {
		/* Cancel the Notify so its packet does not outlive the flow. */
		f->s->cq->lpVtbl->CancelOverlappedRequests(f->s->cq);
		wait_port(f->s, &f->nov, 5000);
		f->armed = 0;
	}
	if (f->qp)
		ok &= f->qp->lpVtbl->Release(f->qp) == 0;
	st = f->mr->lpVtbl->Deregister(f->mr, &ov);
	st = st == ND_PENDING ? wait_port(f->s, &ov, 5000) : st;
	if (st != ND_SUCCESS && st != ND_DEVICE_REMOVED) {
		printf("    note: %s: Deregister: %#lx\n", role, st);
		ok = 0;
	}
	ok &= f->mr->lpVtbl->Release(f->mr) == 0;
	VirtualFree(f->mem, 0, MEM_RELEASE);
	f->qp = NULL;
	f->mr = NULL;
	return ok;
}

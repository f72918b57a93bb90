/* Faults under ndrun in the Soft-RoCE guests (tests/vm/suites/ndfault.sh):
 *
 *   ndfault_rig survivor serve|connect ADDR PEER
 *   ndfault_rig victim serve|connect ADDR PEER requested|connected|xfer
 *   ndfault_rig fresh serve|connect ADDR PEER
 *   ndfault_rig link serve|connect ADDR PEER
 *   ndfault_rig remove serve|connect ADDR PEER
 *
 * The survivor meets three victims in turn, each killed with SIGKILL by the
 * suite once it printed "ready to be killed": while the connection request
 * waits (the survivor's Accept, or its Connect, must then fail), between
 * Connect and CompleteConnect (the pending Accept, or the CompleteConnect,
 * must fail), and in the middle of a two-way stream of Sends, RDMA Writes
 * and Reads (every request outstanding on the survivor completes with an
 * error within 5 s, its waiters wake, NotifyDisconnect fires).  Then a
 * fresh peer process connects and a message goes each way, bytes checked.
 *
 * link: both guests stream until B's suite cuts B's link (ip link set
 * down); each side's outstanding requests must all end with errors, its
 * waiter woken, and the program ends.  remove: both processes on one guest
 * stream until the suite deletes rxe0 (rdma link delete): every request
 * ends with an error, NotifyDisconnect and the listener's pending
 * GetConnectionRequest complete ND_DEVICE_REMOVED, new objects are refused
 * with ND_DEVICE_REMOVED, and everything releases to 0.
 * Prints "ok: ..." / "FAIL: ..." per check; exits 1 if any failed. */
#include <winsock2.h>
#include <windows.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ndspi.h"
#include "nd2peer.h"
#include "ndfault.h"

/* After the peer's death, by issue 15: errors within 5 s. */
#define SETTLE_MS 5000

static volatile LONG gone_tick;

/* Watches the control connection: its end is the peer process's end. */
static DWORD WINAPI watch_ctl(void *arg)
{
	struct side *s = arg;
	char c;
	int n;

	for (;;) {
		n = recv(s->ctl, &c, 1, 0);
		if (n == 0 || (n < 0 && WSAGetLastError() != WSAETIMEDOUT))
			break;
	}
	InterlockedExchange(&gone_tick, (LONG)(GetTickCount() | 1));
	return 0;
}

static HANDLE start_watch(struct side *s)
{
	InterlockedExchange(&gone_tick, 0);
	return CreateThread(NULL, 0, watch_ctl, s, 0, NULL);
}

static void ready_to_die(void)
{
	printf("ready to be killed\n");
	for (;;)
		Sleep(1000);
}

static IND2Listener *listen_on(struct side *s, const char *ip)
{
	struct sockaddr_in sa = addr_of(ip, PORT);
	IND2Listener *l = NULL;

	s->ad->lpVtbl->CreateListener(s->ad, &IID_IND2Listener, s->file, (void **)&l);
	if (!l || l->lpVtbl->Bind(l, (struct sockaddr *)&sa, sizeof(sa)) || l->lpVtbl->Listen(l, 0))
		die("a listener");
	return l;
}

/* A Disconnect that may fail (the peer is gone), bounded. */
static HRESULT try_disconnect(struct side *s, IND2Connector *c)
{
	OVERLAPPED ov = { 0 };
	HRESULT st = c->lpVtbl->Disconnect(c, &ov);

	if (st == ND_PENDING) {
		st = wait_port(s, &ov, 10000);
		if (st == 1) {
			c->lpVtbl->CancelOverlappedRequests(c);
			wait_port(s, &ov, 5000);
		}
	}
	return st;
}

/* ---- mid-connect --------------------------------------------------------------- */
/* The victim connecting is killed while its request waits for our Accept. */
static void requested_serve(struct side *s, IND2Listener *l)
{
	IND2QueuePair *qp = new_qp(s, (void *)0xA1);
	IND2Connector *c = get_request(s, l);
	OVERLAPPED ov = { 0 };
	HRESULT st, done = 1;
	DWORD t0;

	ctl_send(s, "requested", 0, 0);
	check(ctl_eof(s, 120000), "requested: the connecting process was killed");
	t0 = GetTickCount();
	st = c->lpVtbl->Accept(c, (IUnknown *)qp, 4, 4, NULL, 0, &ov);
	done = st == ND_PENDING ? wait_port(s, &ov, SETTLE_MS) : st;
	check(done == ND_CONNECTION_REFUSED,
	      "requested: Accept of the killed process's request: ND_CONNECTION_REFUSED within 5 s (%#lx, then %#lx, %lu ms)",
	      st, done, GetTickCount() - t0);
	if (done == 1) {
		c->lpVtbl->CancelOverlappedRequests(c);
		wait_port(s, &ov, 5000);
	}
	check(c->lpVtbl->Release(c) == 0 && qp->lpVtbl->Release(qp) == 0, "requested: release the connector and the QP: 0");
}

/* The victim serving is killed while it holds our request. */
static void requested_connect(struct side *s, const char *peer)
{
	IND2QueuePair *qp = new_qp(s, (void *)0xA2);
	IND2Connector *c = new_connector(s);
	struct sockaddr_in dst = addr_of(peer, PORT);
	OVERLAPPED ov = { 0 };
	HRESULT st, done;
	DWORD t0;

	st = c->lpVtbl->Connect(c, (IUnknown *)qp, (struct sockaddr *)&dst, sizeof(dst), 4, 4, NULL, 0, &ov);
	check(st == ND_PENDING, "requested: Connect pends (%#lx)", st);
	check(ctl_eof(s, 120000), "requested: the listening process was killed holding the request");
	t0 = GetTickCount();
	done = st == ND_PENDING ? wait_port(s, &ov, SETTLE_MS) : st;
	check(done != 1 && done != ND_SUCCESS && done != ND_PENDING,
	      "requested: the Connect fails within 5 s of the killing (%#lx, %lu ms)", done, GetTickCount() - t0);
	if (done == 1) {
		c->lpVtbl->CancelOverlappedRequests(c);
		wait_port(s, &ov, 5000);
	}
	check(c->lpVtbl->Release(c) == 0 && qp->lpVtbl->Release(qp) == 0, "requested: release the connector and the QP: 0");
}

/* Our Accept pends; the victim's Connect completed, then it is killed
 * before its CompleteConnect. */
static void connected_serve(struct side *s, IND2Listener *l)
{
	IND2QueuePair *qp = new_qp(s, (void *)0xA3);
	IND2Connector *c = get_request(s, l);
	OVERLAPPED ov = { 0 };
	HRESULT st, done;
	DWORD t0;

	st = c->lpVtbl->Accept(c, (IUnknown *)qp, 4, 4, NULL, 0, &ov);
	check(st == ND_PENDING, "connected: Accept pends for the CompleteConnect (%#lx)", st);
	check(ctl_eof(s, 120000), "connected: the connecting process was killed before its CompleteConnect");
	t0 = GetTickCount();
	done = st == ND_PENDING ? wait_port(s, &ov, SETTLE_MS) : st;
	check(done != 1 && done != ND_SUCCESS && done != ND_PENDING,
	      "connected: the pending Accept fails within 5 s of the killing (%#lx, %lu ms)", done, GetTickCount() - t0);
	if (done == 1) {
		c->lpVtbl->CancelOverlappedRequests(c);
		wait_port(s, &ov, 5000);
	}
	check(c->lpVtbl->Release(c) == 0 && qp->lpVtbl->Release(qp) == 0, "connected: release the connector and the QP: 0");
}

/* The victim serving is killed with its Accept pending; our Connect has
 * completed, CompleteConnect comes after the killing. */
static void connected_connect(struct side *s, const char *peer)
{
	IND2QueuePair *qp = new_qp(s, (void *)0xA4);
	IND2Connector *c = new_connector(s);
	OVERLAPPED ov = { 0 }, nd = { 0 };
	HRESULT st, done;
	DWORD t0;
	int got, ok;

	check(post_recv(s, qp, 0) == ND_SUCCESS, "connected: a Receive posted");
	st = connect_to(s, c, qp, peer, 0);
	check(ctl_eof(s, 120000), "connected: the listening process was killed with its Accept pending");
	t0 = GetTickCount();
	if (st != ND_SUCCESS) {
		/* Its REJ came before the Connect's answer: also a clean end. */
		check(1, "connected: the Connect itself failed (%#lx)", st);
		ok = count_results(s, (void *)0xA4, 1, ND_CANCELED, SETTLE_MS, &got);
	} else {
		st = c->lpVtbl->CompleteConnect(c, &ov);
		done = st == ND_PENDING ? wait_port(s, &ov, SETTLE_MS) : st;
		if (done == ND_SUCCESS) {
			/* Connected to a dead peer: the connection must drop. */
			st = c->lpVtbl->NotifyDisconnect(c, &nd);
			done = st == ND_PENDING ? wait_port(s, &nd, SETTLE_MS - (GetTickCount() - t0)) : st;
			check(done != 1, "connected: CompleteConnect succeeded, then NotifyDisconnect fired (%#lx)", done);
		} else {
			check(done != 1, "connected: CompleteConnect fails (%#lx)", done);
		}
		if (done == 1) {
			c->lpVtbl->CancelOverlappedRequests(c);
			wait_port(s, &ov, 5000);
			wait_port(s, &nd, 5000);
		}
		ok = count_results(s, (void *)0xA4, 1, ND_CANCELED, SETTLE_MS, &got);
	}
	check(got == 1 && (LONG)(GetTickCount() - t0) <= SETTLE_MS,
	      "connected: the posted Receive ended with an error within 5 s (%d ND_CANCELED of %d, %lu ms)", ok, got,
	      GetTickCount() - t0);
	try_disconnect(s, c);
	check(c->lpVtbl->Release(c) == 0 && qp->lpVtbl->Release(qp) == 0, "connected: release the connector and the QP: 0");
}

/* ---- a connection with traffic ------------------------------------------------- */
static IND2Connector *flow_connect(struct flow *f, IND2Listener *l, const char *peer, ULONG kinds)
{
	IND2Connector *c;
	int i, ok = 1;

	f->kinds = kinds;
	f->reposting = 1;
	for (i = 0; i < FLOW_RECVS; i++)
		ok &= flow_recv(f, i) == ND_SUCCESS;
	if (l) {
		c = get_request(f->s, l);
		ok &= accept_on(f->s, c, f->qp) == ND_SUCCESS;
	} else {
		c = new_connector(f->s);
		ok &= connect_to(f->s, c, f->qp, peer, 1) == ND_SUCCESS;
	}
	if (!ok)
		die("connecting the flow");
	flow_trade(f, l != NULL);
	flow_watch(f, c);
	return c;
}

/* The victim's end: stream until killed.  It sends nothing, so the
 * survivor's Receives stay posted and its waiter on them asleep. */
static void victim_xfer(struct side *s, IND2Listener *l, const char *peer)
{
	struct flow f;
	HRESULT st;

	flow_init(&f, s, (void *)0xE2, 48);
	flow_connect(&f, l, peer, FLOW_WRITE | FLOW_READ);
	for (;;) {
		st = flow_pump(&f);
		if (st != ND_SUCCESS)
			die("victim: a post failed");
		flow_reap(&f, 200);
		if (f.err_sq || f.err[0]) {
			flow_report(&f, "victim");
			die("victim: a request failed before the killing");
		}
		if (f.ok[1] + f.ok[4] + f.ok[5] >= 200 && f.ok[0] >= 20 && !f.first_err_tick)
			break;
	}
	printf("ready to be killed\n");
	for (;;) {
		flow_pump(&f);
		flow_reap(&f, 200);
	}
}

/* A thread asleep in a Notify on the Receives' CQ, on a port of its own. */
struct waiter {
	IND2CompletionQueue *cq;
	HANDLE port;
	OVERLAPPED ov;
	HRESULT armed, status;
	volatile LONG woke;
};

static DWORD WINAPI wait_receives(void *arg)
{
	struct waiter *w = arg;
	OVERLAPPED *got = NULL;
	ULONG_PTR key;
	DWORD bytes;

	w->armed = w->cq->lpVtbl->Notify(w->cq, ND_CQ_NOTIFY_ANY, &w->ov);
	if (w->armed != ND_PENDING)
		return 0;
	GetQueuedCompletionStatus(w->port, &bytes, &key, &got, 300000);
	if (got == &w->ov) {
		w->status = (HRESULT)w->ov.Internal;
		InterlockedExchange(&w->woke, (LONG)(GetTickCount() | 1));
	}
	return 0;
}

/* The survivor's end: stream until the peer dies, then all must settle. */
static void survivor_xfer(struct side *s, IND2Listener *l, const char *peer)
{
	struct flow f;
	struct waiter wt = { 0 };
	IND2Connector *c;
	HANDLE file = NULL, wth;
	DWORD t0, start;
	HANDLE w;
	int all, t;

	if (s->ad->lpVtbl->CreateOverlappedFile(s->ad, &file) != ND_SUCCESS ||
	    !(wt.port = CreateIoCompletionPort(file, NULL, KEY, 0)) ||
	    s->ad->lpVtbl->CreateCompletionQueue(s->ad, &IID_IND2CompletionQueue, file, 64, 0, 0, (void **)&wt.cq) != ND_SUCCESS)
		die("xfer: a completion queue for the Receives, on a port of its own");
	flow_init_rcq(&f, s, (void *)0xE1, 48, wt.cq);
	c = flow_connect(&f, l, peer, FLOW_ALL);
	wth = CreateThread(NULL, 0, wait_receives, &wt, 0, NULL);
	w = start_watch(s);
	start = GetTickCount();
	/* The first sign of the killing: the control connection's end, the
	 * peer's disconnect (its kernel ends its connection), or a failure. */
	while (!gone_tick && !f.disc && !f.first_err_tick && GetTickCount() - start < 120000) {
		flow_pump(&f);
		flow_reap(&f, 200);
	}
	t0 = GetTickCount();
	check(f.ok[1] && f.ok[4] && f.ok[5] && !f.ok[0] && !f.err[0],
	      "xfer: traffic flowed before the killing, the Receives untouched (%lu sends, %lu writes, %lu reads ok; %lu receives)",
	      f.ok[1], f.ok[5], f.ok[4], f.ok[0] + f.err[0]);
	f.reposting = 0;
	printf("    note: %s: at the first sign: %lu requests and %lu Receives outstanding\n", role, f.sq_out, f.rq_out);
	all = flow_settle(&f, t0 + SETTLE_MS, 1);
	while (!gone_tick && (LONG)(t0 + SETTLE_MS - GetTickCount()) > 0)
		Sleep(10);
	check(gone_tick != 0, "xfer: the streaming peer was killed (%lu ms of traffic)", t0 - start);
	flow_report(&f, "xfer");
	check(all, "xfer: within 5 s of the killing every outstanding request completed and NotifyDisconnect fired "
		   "(%lu + %lu still outstanding, disconnect %s, %lu ms)",
	      f.sq_out, f.rq_out, f.disc ? "seen" : "not seen", GetTickCount() - t0);
	check(f.err[0] == FLOW_RECVS && !f.rq_out, "xfer: all %d posted Receives ended with errors (%lu failed)", FLOW_RECVS,
	      f.err[0]);
	check(f.err_sq > 0 && !f.ok_after_err, "xfer: Sends, Writes and Reads outstanding ended with errors, none succeeded "
					     "after the first failure (%lu failed, %lu ok after)",
	      f.err_sq, f.ok_after_err);
	for (t = 1; t < 6; t++)
		if (f.err[t] && f.first_err[t] != ND_CANCELED && f.first_err[t] != ND_IO_TIMEOUT &&
		    f.first_err[t] != ND_REMOTE_ERROR)
			check(0, "xfer: %ss failed with a status of the ND2_RESULT table (%#lx)", flow_type(t), f.first_err[t]);
	while (!wt.woke && (LONG)(t0 + SETTLE_MS - GetTickCount()) > 0)
		Sleep(10);
	check(wt.armed == ND_PENDING && wt.woke && wt.status == ND_SUCCESS && (LONG)((DWORD)wt.woke - t0) <= SETTLE_MS,
	      "xfer: the thread asleep in the Receives' CQ Notify woke, ND_SUCCESS, within 5 s (%#lx, %#lx, %s)", wt.armed,
	      wt.status, wt.woke ? "woke" : "still asleep");
	if (!wt.woke) {
		wt.cq->lpVtbl->CancelOverlappedRequests(wt.cq);
		WaitForSingleObject(wth, 5000);
	}
	WaitForSingleObject(wth, 5000);
	CloseHandle(wth);
	check(f.disc_status == ND_SUCCESS || f.disc_status == STATUS_CONNECTION_DISCONNECTED,
	      "xfer: NotifyDisconnect's status (%#lx)", f.disc_status);
	try_disconnect(s, c);
	check(c->lpVtbl->Release(c) == 0 && flow_release(&f) && wt.cq->lpVtbl->Release(wt.cq) == 0,
	      "xfer: release the connector, the QP, the region and the Receives' CQ: 0");
	CloseHandle(file);
	CloseHandle(wt.port);
	WaitForSingleObject(w, 5000);
	CloseHandle(w);
}

/* ---- a fresh peer: one message each way ---------------------------------------- */
static char pattern(int who, ULONG i)
{
	return (char)(i * 7 + who * 31 + 1);
}

static void fresh(struct side *s, IND2Listener *l, const char *peer)
{
	struct flow f;
	IND2Connector *c;
	ND2_SGE sge;
	ULONG i, bad = 0;
	int me = l ? 1 : 2;
	DWORD end;

	flow_init(&f, s, (void *)0xE3, 8);
	f.reposting = 0;
	check(flow_recv(&f, 0) == ND_SUCCESS, "fresh: a Receive posted");
	if (l) {
		c = get_request(s, l);
		check(accept_on(s, c, f.qp) == ND_SUCCESS, "fresh: a new connection accepted");
	} else {
		c = new_connector(s);
		check(connect_to(s, c, f.qp, peer, 1) == ND_SUCCESS, "fresh: a new connection made");
	}
	for (i = 0; i < 1000; i++)
		f.mem[i] = pattern(me, i);
	sge = (ND2_SGE){ f.mem, 1000, f.tok };
	f.sq_out++;
	check(f.qp->lpVtbl->Send(f.qp, (void *)1, &sge, 1, 0) == ND_SUCCESS, "fresh: Send 1000 bytes");
	end = GetTickCount() + 30000;
	while ((f.sq_out || f.rq_out) && (LONG)(end - GetTickCount()) > 0)
		flow_reap(&f, end - GetTickCount());
	for (i = 0; i < 1000; i++)
		bad += s->buf[i] != pattern(3 - me, i);
	check(f.ok[1] == 1 && f.ok[0] == 1 && !bad, "fresh: a message each way, every byte checked (%lu sent, %lu received, %lu bad)",
	      f.ok[1], f.ok[0], bad);
	ctl_send(s, "done", 0, 0);
	ctl_expect(s, "done");
	check(try_disconnect(s, c) == ND_SUCCESS, "fresh: Disconnect");
	check(c->lpVtbl->Release(c) == 0 && flow_release(&f), "fresh: release the connector, the QP and the region: 0");
}

/* ---- the peer guest's link cut --------------------------------------------------- */
static void link_cut(struct side *s, IND2Listener *l, const char *peer)
{
	struct flow f;
	IND2Connector *c;
	DWORD start, t0;
	int all;

	flow_init(&f, s, (void *)0xE4, 48);
	c = flow_connect(&f, l, peer, FLOW_ALL);
	/* The control connection rides the same link: nothing more on it. */
	start = GetTickCount();
	while (!f.err_sq && !f.err[0] && !f.disc && GetTickCount() - start < 120000) {
		flow_pump(&f);
		flow_reap(&f, 200);
		if (!l && f.ok[1] + f.ok[4] + f.ok[5] >= 200 && f.ok[0] >= 20 && !f.extra_tick) {
			printf("ready to cut the link\n");
			f.extra_tick = 1;
		}
	}
	t0 = GetTickCount();
	check(f.err_sq || f.err[0] || f.disc, "link: the cut was noticed (%lu ms of traffic)", t0 - start);
	f.reposting = 0;
	printf("    note: %s: at the first failure: %lu requests and %lu Receives outstanding\n", role, f.sq_out, f.rq_out);
	/* The transport's retries take their time; 60 s is far beyond them. */
	all = flow_settle(&f, t0 + 60000, 0);
	flow_report(&f, "link");
	check(all, "link: every outstanding request completed within 60 s of the first failure (%lu + %lu left, %lu ms)",
	      f.sq_out, f.rq_out, GetTickCount() - t0);
	check(f.err[0] >= 1 && f.err_sq >= 1 && !f.ok_after_err,
	      "link: requests and Receives ended with errors, none succeeded after the first failure (%lu, %lu, %lu)", f.err_sq,
	      f.err[0], f.ok_after_err);
	check(f.wakes > 0 && !f.notify_err, "link: the CQ's Notify woke the waiting thread (%lu wake-ups)", f.wakes);
	/* No Disconnect: its request could not cross the link; release ends it. */
	if (!f.disc) {
		c->lpVtbl->CancelOverlappedRequests(c);
		f.extra = NULL;
		wait_port(s, &f.dov, 5000);
	}
	check(c->lpVtbl->Release(c) == 0 && flow_release(&f), "link: release the connector, the QP and the region: 0");
}

/* ---- the device removed ----------------------------------------------------------- */
static void removed(struct side *s, IND2Listener *l, const char *peer)
{
	struct flow f;
	IND2Connector *c, *c2 = NULL;
	IND2QueuePair *qp2 = NULL;
	IND2MemoryRegion *mr2 = NULL;
	OVERLAPPED gov = { 0 }, rov = { 0 };
	struct waiter wt = { 0 };
	HANDLE file = NULL, wth;
	DWORD start, t0;
	HRESULT st;
	int all, refused;

	/* A CQ no request ever reaches, a thread asleep in its Notify: the
	 * device raises no event for it, so only the provider's sweep of a
	 * removed device can wake it. */
	if (s->ad->lpVtbl->CreateOverlappedFile(s->ad, &file) != ND_SUCCESS ||
	    !(wt.port = CreateIoCompletionPort(file, NULL, KEY, 0)) ||
	    s->ad->lpVtbl->CreateCompletionQueue(s->ad, &IID_IND2CompletionQueue, file, 16, 0, 0, (void **)&wt.cq) != ND_SUCCESS)
		die("remove: an idle completion queue on a port of its own");
	wth = CreateThread(NULL, 0, wait_receives, &wt, 0, NULL);
	start = GetTickCount();
	while (!wt.armed && GetTickCount() - start < 5000)
		Sleep(1);
	check(wt.armed == ND_PENDING, "remove: a Notify on an idle CQ pends before the removal (%#lx)", wt.armed);
	flow_init(&f, s, (void *)0xE5, 48);
	c = flow_connect(&f, l, peer, FLOW_ALL);
	if (l) {
		/* A second request waits on the listener. */
		c2 = new_connector(s);
		st = l->lpVtbl->GetConnectionRequest(l, (IUnknown *)c2, &gov);
		check(st == ND_PENDING, "remove: a GetConnectionRequest pends (%#lx)", st);
		f.extra = &gov;
	}
	start = GetTickCount();
	while (!f.err_sq && !f.err[0] && !f.disc && !f.notify_status && !f.extra_done && GetTickCount() - start < 120000) {
		flow_pump(&f);
		flow_reap(&f, 200);
		if (!l && f.ok[1] + f.ok[4] + f.ok[5] >= 200 && f.ok[0] >= 20 && !f.first_err_tick && !f.extra_tick) {
			printf("ready to remove the device\n");
			f.extra_tick = 1;
		}
	}
	t0 = GetTickCount();
	check(f.err_sq || f.err[0] || f.disc || f.notify_status || f.extra_done, "remove: the removal was noticed (%lu ms of traffic)",
	      t0 - start);
	f.reposting = 0;
	/* The CQ's Notify ends the loop at once now, maybe with every
	 * request reaped: requests posted after the removal must fail too,
	 * refused or completed with an error. */
	refused = 0;
	if (!f.sq_out && !f.err_sq) {
		st = flow_pump(&f);
		refused = st != ND_SUCCESS;
		printf("    note: remove: nothing outstanding when the removal was noticed: %lu requests posted after it (%#lx)\n",
		       f.sq_out, st);
	}
	all = flow_settle(&f, t0 + 10000, 1);
	while (l && !f.extra_done && (LONG)(t0 + 10000 - GetTickCount()) > 0)
		flow_reap(&f, t0 + 10000 - GetTickCount());
	flow_report(&f, "remove");
	check(all, "remove: within 10 s every outstanding request completed and NotifyDisconnect fired (%lu + %lu left, %lu ms)",
	      f.sq_out, f.rq_out, GetTickCount() - t0);
	check(f.err[0] >= 1 && (f.err_sq >= 1 || refused) && !f.ok_after_err,
	      "remove: requests and Receives ended with errors, none succeeded after the first failure (%lu, %lu, %lu%s)",
	      f.err_sq, f.err[0], f.ok_after_err, refused ? ", new requests refused" : "");
	/* The peer's connection may have gone first, with the peer's id. */
	check(f.disc_status == ND_DEVICE_REMOVED || f.disc_status == ND_SUCCESS,
	      "remove: NotifyDisconnect completed, ND_DEVICE_REMOVED or (the peer's end first) ND_SUCCESS (%#lx)", f.disc_status);
	if (l)
		check(f.extra_done && (HRESULT)gov.Internal == ND_DEVICE_REMOVED,
		      "remove: the pending GetConnectionRequest completed ND_DEVICE_REMOVED (%s, %#lx)", f.extra_done ? "done" : "pending",
		      (HRESULT)gov.Internal);
	while (!wt.woke && (LONG)(t0 + 5000 - GetTickCount()) > 0)
		Sleep(10);
	check(wt.woke && wt.status == ND_DEVICE_REMOVED && (LONG)((DWORD)wt.woke - t0) <= 5000,
	      "remove: the Notify armed on the idle CQ completed ND_DEVICE_REMOVED within 5 s (%#lx, %s)", wt.status,
	      wt.woke ? "woke" : "still asleep");
	if (!wt.woke)
		wt.cq->lpVtbl->CancelOverlappedRequests(wt.cq);
	WaitForSingleObject(wth, 5000);
	CloseHandle(wth);
	wt.armed = 0;
	st = wt.cq->lpVtbl->Notify(wt.cq, ND_CQ_NOTIFY_ANY, &wt.ov);
	check(st == ND_DEVICE_REMOVED, "remove: a Notify on the idle CQ afterwards: ND_DEVICE_REMOVED (%#lx)", st);
	if (st == ND_PENDING) {
		OVERLAPPED *got;
		ULONG_PTR key;
		DWORD bytes;

		wt.cq->lpVtbl->CancelOverlappedRequests(wt.cq);
		GetQueuedCompletionStatus(wt.port, &bytes, &key, &got, 5000);
	}
	check(wt.cq->lpVtbl->Release(wt.cq) == 0, "remove: release the idle CQ: 0");
	CloseHandle(file);
	CloseHandle(wt.port);
	/* A Notify asked for after the removal is refused instead. */
	check(f.wakes > 0 || f.notify_err == ND_DEVICE_REMOVED,
	      "remove: the CQ's Notify woke the waiting thread, or was refused with ND_DEVICE_REMOVED (%lu wake-ups, %#lx)",
	      f.wakes, f.notify_err);
	/* Only cleanup succeeds now. */
	st = s->ad->lpVtbl->CreateQueuePair(s->ad, &IID_IND2QueuePair, (IUnknown *)s->cq, (IUnknown *)s->cq, NULL, 4, 4, 1, 1,
					    0, (void **)&qp2);
	check(st == ND_DEVICE_REMOVED, "remove: CreateQueuePair afterwards: ND_DEVICE_REMOVED (%#lx)", st);
	if (qp2)
		qp2->lpVtbl->Release(qp2);
	s->ad->lpVtbl->CreateMemoryRegion(s->ad, &IID_IND2MemoryRegion, s->file, (void **)&mr2);
	if (mr2) {
		st = mr2->lpVtbl->Register(mr2, s->buf, 4096, ND_MR_FLAG_ALLOW_LOCAL_WRITE, &rov);
		if (st == ND_PENDING)
			st = wait_port(s, &rov, 5000);
		check(st == ND_DEVICE_REMOVED, "remove: Register afterwards: ND_DEVICE_REMOVED (%#lx)", st);
		mr2->lpVtbl->Release(mr2);
	} else {
		check(1, "remove: CreateMemoryRegion afterwards refused");
	}
	st = try_disconnect(s, c);
	check(st == ND_SUCCESS || st == ND_DEVICE_REMOVED, "remove: Disconnect afterwards: success or ND_DEVICE_REMOVED (%#lx)", st);
	check(c->lpVtbl->Release(c) == 0 && flow_release(&f), "remove: release the connector, the QP and the region: 0");
	if (c2)
		check(c2->lpVtbl->Release(c2) == 0, "remove: release the waiting connector: 0");
}

int main(int argc, char **argv)
{
	struct side s = { 0 };
	IND2Listener *l = NULL;
	const char *what, *ip, *peer;
	char name[64];
	WSADATA wsa;
	int serve;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc < 5 || (strcmp(argv[2], "serve") && strcmp(argv[2], "connect"))) {
		fprintf(stderr, "usage: %s survivor|victim|fresh|link|remove serve|connect ADDR PEER [STEP]\n", argv[0]);
		return 2;
	}
	what = argv[1];
	serve = !strcmp(argv[2], "serve");
	ip = argv[3];
	peer = argv[4];
	snprintf(name, sizeof(name), "fault %s-%s%s%s", what, argv[2], argc > 5 ? "-" : "", argc > 5 ? argv[5] : "");
	role = name;
	WSAStartup(MAKEWORD(2, 2), &wsa);
	open_side(&s, ip);
	if (serve)
		l = listen_on(&s, ip);
	if (!strcmp(what, "survivor")) {
		ctl_open(&s, ip, peer, serve);
		if (serve)
			requested_serve(&s, l);
		else
			requested_connect(&s, peer);
		closesocket(s.ctl);
		ctl_open(&s, ip, peer, serve);
		if (serve)
			connected_serve(&s, l);
		else
			connected_connect(&s, peer);
		closesocket(s.ctl);
		ctl_open(&s, ip, peer, serve);
		survivor_xfer(&s, l, peer);
		closesocket(s.ctl);
		ctl_open(&s, ip, peer, serve);
		fresh(&s, l, peer);
		closesocket(s.ctl);
	} else if (!strcmp(what, "victim") && argc == 6) {
		ctl_open(&s, ip, peer, serve);
		if (!strcmp(argv[5], "xfer")) {
			victim_xfer(&s, l, peer);
		} else if (!strcmp(argv[5], "requested")) {
			if (serve) {
				get_request(&s, l);
			} else {
				IND2QueuePair *qp = new_qp(&s, NULL);
				IND2Connector *c = new_connector(&s);
				struct sockaddr_in dst = addr_of(peer, PORT);
				static OVERLAPPED ov;

				check(c->lpVtbl->Connect(c, (IUnknown *)qp, (struct sockaddr *)&dst, sizeof(dst), 4, 4, NULL, 0,
							 &ov) == ND_PENDING,
				      "requested: Connect pends");
				ctl_expect(&s, "requested");
			}
			ready_to_die();
		} else if (!strcmp(argv[5], "connected")) {
			IND2QueuePair *qp = new_qp(&s, NULL);

			if (serve) {
				IND2Connector *c = get_request(&s, l);
				static OVERLAPPED ov;

				check(c->lpVtbl->Accept(c, (IUnknown *)qp, 4, 4, NULL, 0, &ov) == ND_PENDING, "connected: Accept pends");
			} else {
				check(connect_to(&s, new_connector(&s), qp, peer, 0) == ND_SUCCESS, "connected: Connect completes");
			}
			ready_to_die();
		}
		fprintf(stderr, "%s: unknown step %s\n", argv[0], argv[5]);
		return 2;
	} else if (!strcmp(what, "fresh")) {
		ctl_open(&s, ip, peer, serve);
		fresh(&s, l, peer);
		closesocket(s.ctl);
	} else if (!strcmp(what, "link")) {
		ctl_open(&s, ip, peer, serve);
		link_cut(&s, l, peer);
		closesocket(s.ctl);
	} else if (!strcmp(what, "remove")) {
		ctl_open(&s, ip, peer, serve);
		removed(&s, l, peer);
		closesocket(s.ctl);
	} else {
		fprintf(stderr, "%s: unknown role %s\n", argv[0], what);
		return 2;
	}
	if (l)
		check(l->lpVtbl->Release(l) == 0, "release the listener: 0");
	{
		OVERLAPPED ov = { 0 };
		HRESULT st = s.mr->lpVtbl->Deregister(s.mr, &ov);

		st = st == ND_PENDING ? wait_port(&s, &ov, 5000) : st;
		check((st == ND_SUCCESS || (st == ND_DEVICE_REMOVED && !strcmp(what, "remove"))) &&
			      s.mr->lpVtbl->Release(s.mr) == 0 && s.cq->lpVtbl->Release(s.cq) == 0 &&
			      s.ad->lpVtbl->Release(s.ad) == 0,
		      "release the region, the CQ and the adapter: 0 (%#lx)", st);
	}
	CloseHandle(s.file);
	CloseHandle(s.port);
	WSACleanup();
	printf("%s: %d failed\n", role, failures);
	return failures ? 1 : 0;
}

/* Wake sources of a completion port (core/iocp.h): a lone waiter polls
 * the source's fd and drains it itself while the source's own reader (a
 * fake of the ND provider's event thread: epoll, a lock, the same drain)
 * stands aside: either it stops watching the fd while claimed, or (as
 * the provider does) it watches it with EPOLLEXCLUSIVE behind the port's
 * epoll, and the kernel picks who is woken.  What must hold: every event reaches the port exactly
 * once, whoever reads it, including events that arrive while the fd
 * changes hands; with two waiters, on timeout, after the source died;
 * and the references and claims balance. */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <stdio.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <cmocka.h>

#define WIN32_NO_STATUS
#include "core/handle.h"
#include "core/iocp.h"
#include "core/thread.h"
#include "win32_helper.h"
#undef WIN32_NO_STATUS
#include <ntstatus.h>

/* The fake provider: chan is the "completion channel" (an eventfd whose
 * count is the number of events), read by the fake event thread through
 * ep unless a waiter claimed it.  lock plays nd_ev_lock. */
struct fake {
	struct object *port;
	struct iocp_source *att;
	int chan, ep, stop;
	pthread_t thread;
	pthread_mutex_t lock;
	int claims;		/* lock */
	bool exclusive;		/* the reader's watch: EPOLLEXCLUSIVE, never stopped */
	bool behind;		/* lock: exclusive, and moved behind the port's */
	pid_t reader_tid;	/* the fake event thread's, for its context switches */
	bool dead;		/* lock */
	int refs;		/* atomic */
	int claim_calls, unclaim_calls;	/* atomic */
	int by_waiter, by_thread;	/* events drained by each (atomic) */
	pthread_t waiter_tid;
	/* Injections: an event written inside claim before the fd leaves
	 * the reader, or inside unclaim just before it returns to it. */
	bool event_in_claim, event_in_unclaim;
};

static void raise_event(struct fake *f)
{
	uint64_t one = 1;

	assert_int_equal(write(f->chan, &one, sizeof(one)), sizeof(one));
}

/* lock held: each event becomes one packet. */
static void drain_locked(struct fake *f, bool waiter)
{
	uint64_t v;

	while (read(f->chan, &v, sizeof(v)) == sizeof(v)) {
		__atomic_fetch_add(waiter ? &f->by_waiter : &f->by_thread, (int)v, __ATOMIC_RELAXED);
		while (v--)
			assert_true(iocp_post(f->port, 7, NULL, 0, 0));
	}
}

static void *fake_event_thread(void *arg)
{
	struct fake *f = arg;
	struct epoll_event ev[4];

	__atomic_store_n(&f->reader_tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	for (;;) {
		int i, n = epoll_wait(f->ep, ev, 4, -1);

		for (i = 0; i < n; i++) {
			if (ev[i].data.fd == f->stop)
				return NULL;
			pthread_mutex_lock(&f->lock);
			if (!f->dead)
				drain_locked(f, false);
			pthread_mutex_unlock(&f->lock);
		}
	}
}

static void watch(struct fake *f, bool on)
{
	struct epoll_event e = { .events = EPOLLIN, .data.fd = f->chan };

	assert_int_equal(epoll_ctl(f->ep, on ? EPOLL_CTL_ADD : EPOLL_CTL_DEL, f->chan, &e), 0);
}

static bool f_claim(void *ctx)
{
	struct fake *f = ctx;
	bool ok;

	__atomic_fetch_add(&f->claim_calls, 1, __ATOMIC_RELAXED);
	if (f->event_in_claim)
		raise_event(f);
	pthread_mutex_lock(&f->lock);
	ok = !f->dead;
	if (ok && f->exclusive) {
		/* As nd_ev_watch_behind: once, DEL and ADD to the end of the
		 * fd's wait queue, behind the port's epoll. */
		if (!f->behind) {
			struct epoll_event e = { .events = EPOLLIN | EPOLLEXCLUSIVE, .data.fd = f->chan };

			assert_int_equal(epoll_ctl(f->ep, EPOLL_CTL_DEL, f->chan, NULL), 0);
			assert_int_equal(epoll_ctl(f->ep, EPOLL_CTL_ADD, f->chan, &e), 0);
			f->behind = true;
		}
	} else if (ok && f->claims++ == 0) {
		watch(f, false);
	}
	pthread_mutex_unlock(&f->lock);
	return ok;
}

static void f_unclaim(void *ctx)
{
	struct fake *f = ctx;

	__atomic_fetch_add(&f->unclaim_calls, 1, __ATOMIC_RELAXED);
	if (f->event_in_unclaim)
		raise_event(f);
	pthread_mutex_lock(&f->lock);
	if (!f->dead && --f->claims == 0)
		watch(f, true);
	pthread_mutex_unlock(&f->lock);
}

static bool f_drain(void *ctx)
{
	struct fake *f = ctx;
	bool live;

	f->waiter_tid = pthread_self();
	pthread_mutex_lock(&f->lock);
	live = !f->dead;
	if (live)
		drain_locked(f, true);
	pthread_mutex_unlock(&f->lock);
	return live;
}

static void f_hold(void *ctx)
{
	__atomic_fetch_add(&((struct fake *)ctx)->refs, 1, __ATOMIC_RELAXED);
}

static void f_release(void *ctx)
{
	assert_true(__atomic_sub_fetch(&((struct fake *)ctx)->refs, 1, __ATOMIC_RELAXED) >= 0);
}

static const struct iocp_source_ops f_ops = {
	.claim = f_claim, .unclaim = f_unclaim, .drain = f_drain, .hold = f_hold, .release = f_release,
};

/* The provider's: nothing to give back. */
static const struct iocp_source_ops f_ops_exclusive = {
	.claim = f_claim, .unclaim = NULL, .drain = f_drain, .hold = f_hold, .release = f_release,
};

/* The fake event thread's /proc status file, open. */
static FILE *reader_status(const struct fake *f)
{
	char path[64];
	FILE *st;

	snprintf(path, sizeof(path), "/proc/self/task/%d/status", (int)__atomic_load_n(&f->reader_tid, __ATOMIC_ACQUIRE));
	st = fopen(path, "r");
	assert_non_null(st);
	return st;
}

/* How often the fake event thread slept and was woken: a wake-up that
 * finds the fd drained already puts it back to sleep inside epoll_wait,
 * unseen by the thread itself. */
static long reader_switches(const struct fake *f)
{
	char line[128];
	long n = -1;
	FILE *st = reader_status(f);

	while (fgets(line, sizeof(line), st))
		if (sscanf(line, "voluntary_ctxt_switches: %ld", &n) == 1)
			break;
	fclose(st);
	assert_true(n >= 0);
	return n;
}

/* Waits for the fake event thread to have told its tid and gone to sleep
 * (in epoll_wait, state S): on a loaded machine it may not have run at
 * all when pthread_create returns, and the tests read its status. */
static void reader_wait_asleep(const struct fake *f)
{
	char line[128], state = 0;

	while (!__atomic_load_n(&f->reader_tid, __ATOMIC_ACQUIRE))
		sched_yield();
	while (state != 'S') {
		FILE *st = reader_status(f);

		while (fgets(line, sizeof(line), st))
			if (sscanf(line, "State: %c", &state) == 1)
				break;
		fclose(st);
		if (state != 'S')
			usleep(1000);
	}
}

static void fake_start_as(struct fake *f, struct object *port, bool exclusive)
{
	struct epoll_event e = { .events = EPOLLIN };

	memset(f, 0, sizeof(*f));
	f->port = port;
	f->exclusive = exclusive;
	pthread_mutex_init(&f->lock, NULL);
	f->chan = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	f->stop = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	f->ep = epoll_create1(EPOLL_CLOEXEC);
	assert_true(f->chan >= 0 && f->stop >= 0 && f->ep >= 0);
	e.data.fd = f->stop;
	assert_int_equal(epoll_ctl(f->ep, EPOLL_CTL_ADD, f->stop, &e), 0);
	watch(f, true);
	assert_int_equal(pthread_create(&f->thread, NULL, fake_event_thread, f), 0);
	reader_wait_asleep(f);
	f->att = iocp_source_attach(port, f->chan, exclusive ? &f_ops_exclusive : &f_ops, f);
	assert_non_null(f->att);
	assert_int_equal(f->refs, 1);
}

/* Detaches, stops the thread; every reference and claim is back. */
static void fake_stop(struct fake *f)
{
	uint64_t one = 1;

	if (f->att)
		iocp_source_detach(f->att);
	assert_int_equal(write(f->stop, &one, sizeof(one)), sizeof(one));
	pthread_join(f->thread, NULL);
	assert_int_equal(f->refs, 0);
	if (!f->exclusive)
		assert_int_equal(f->claim_calls, f->unclaim_calls);
	if (!f->dead)
		assert_int_equal(f->claims, 0);
	close(f->chan);
	close(f->stop);
	close(f->ep);
	pthread_mutex_destroy(&f->lock);
}

/* Every test's port and its fake source, made and checked by the fixture
 * (rig_setup, rig_teardown). */
struct rig {
	struct object *port;
	struct fake f;
};

static int rig_setup_as(void **state, bool exclusive)
{
	struct rig *r = calloc(1, sizeof(*r));

	assert_non_null(r);
	r->port = iocp_create(8);
	assert_non_null(r->port);
	fake_start_as(&r->f, r->port, exclusive);
	*state = r;
	return 0;
}

static int rig_setup(void **state)
{
	return rig_setup_as(state, false);
}

/* The provider's way of standing aside: the event thread's watch behind
 * the port's epoll (EPOLLEXCLUSIVE). */
static int rig_setup_exclusive(void **state)
{
	return rig_setup_as(state, true);
}

static int rig_teardown(void **state)
{
	struct rig *r = *state;

	fake_stop(&r->f);
	object_unref(r->port);
	free(r);
	return 0;
}

struct waiter {
	struct object *port;
	DWORD timeout, result;
	bool alertable;
	ULONG_PTR key;
	int loops;	/* > 0: dequeue this many packets, one wait each */
	int got;
};

static DWORD WINAPI waiter_main(void *arg)
{
	struct waiter *w = arg;
	OVERLAPPED_ENTRY e;
	ULONG n;

	do {
		w->result = iocp_remove(w->port, &e, 1, &n, w->timeout, w->alertable);
		if (w->result != WAIT_OBJECT_0)
			break;
		w->key = e.lpCompletionKey;
		w->got++;
	} while (w->got < w->loops);
	iocp_thread_exit();
	return 0;
}

static HANDLE start_waiter(struct waiter *w)
{
	HANDLE t = CreateThread(NULL, 0, waiter_main, w, 0, NULL);

	assert_non_null(t);
	return t;
}

/* Test-side only: bounded wait until the port has n waiters. */
static void expect_waiters(struct object *port, unsigned int n)
{
	unsigned int w = 0;

	for (int i = 0; i < 5000; i++) {
		iocp_get_counts(port, &w, NULL, NULL);
		if (w == n)
			break;
		Sleep(1);
	}
	assert_int_equal(w, n);
}

static void expect_claims(struct fake *f, int n)
{
	for (int i = 0; i < 5000 && __atomic_load_n(&f->claim_calls, __ATOMIC_RELAXED) < n; i++)
		Sleep(1);
	assert_int_equal(__atomic_load_n(&f->claim_calls, __ATOMIC_RELAXED), n);
}

/* A lone waiter: the event is drained on the waiter's own thread, and
 * the event thread never ran. */
static void test_lone_waiter_drains(void **state)
{
	struct rig *rig = *state;
	struct object *port = rig->port;
	struct fake *f = &rig->f;
	struct waiter w = { .port = port, .timeout = 10000 };
	HANDLE t;

	t = start_waiter(&w);
	expect_waiters(port, 1);
	expect_claims(f, 1);
	raise_event(f);
	assert_int_equal(WaitForSingleObject(t, 10000), WAIT_OBJECT_0);
	assert_int_equal(w.result, WAIT_OBJECT_0);
	assert_int_equal(w.key, 7);
	assert_int_equal(f->by_waiter, 1);
	assert_int_equal(f->by_thread, 0);
	assert_int_equal(f->unclaim_calls, 1);
	assert_int_equal(f->refs, 1); /* the port's */
	/* With no waiter the event thread reads it again. */
	raise_event(f);
	for (int i = 0; i < 5000 && !__atomic_load_n(&f->by_thread, __ATOMIC_RELAXED); i++)
		Sleep(1);
	assert_int_equal(f->by_thread, 1);
	CloseHandle(t);
}

/* A source's ctx is the owner's business, NULL included: its events are
 * told apart from the port's own wake-ups all the same. */
static struct fake *null_ctx_fake;
static bool n_claim(void *ctx) { return f_claim(null_ctx_fake); }
static bool n_drain(void *ctx) { return f_drain(null_ctx_fake); }
static void n_hold(void *ctx) { f_hold(null_ctx_fake); }
static void n_release(void *ctx) { f_release(null_ctx_fake); }
static const struct iocp_source_ops n_ops = {
	.claim = n_claim, .unclaim = NULL, .drain = n_drain, .hold = n_hold, .release = n_release,
};

static void test_null_ctx(void **state)
{
	struct object *port = iocp_create(8);
	struct waiter w = { .port = port, .timeout = 10000 };
	struct fake f;
	HANDLE t;

	fake_start_as(&f, port, true);
	iocp_source_detach(f.att);
	null_ctx_fake = &f;
	f.att = iocp_source_attach(port, f.chan, &n_ops, NULL);
	assert_non_null(f.att);
	t = start_waiter(&w);
	expect_waiters(port, 1);
	for (int i = 0; i < 5000 && !__atomic_load_n(&f.behind, __ATOMIC_ACQUIRE); i++)
		Sleep(1);
	Sleep(50);	/* asleep in epoll_wait by now: the event is the waiter's */
	raise_event(&f);
	assert_int_equal(WaitForSingleObject(t, 10000), WAIT_OBJECT_0);
	assert_int_equal(w.result, WAIT_OBJECT_0);
	assert_int_equal(f.by_waiter, 1);
	CloseHandle(t);
	fake_stop(&f);
	object_unref(port);
}

/* An event already pending when the waiter claims the fd, and one that
 * arrives inside the claim: both reach the port (whoever reads them). */
static void test_event_at_claim(void **state)
{
	struct rig *rig = *state;
	struct object *port = rig->port;
	struct fake *f = &rig->f;
	struct waiter w = { .port = port, .timeout = 10000, .loops = 2 };
	HANDLE t;

	f->event_in_claim = true;
	t = start_waiter(&w);
	assert_int_equal(WaitForSingleObject(t, 10000), WAIT_OBJECT_0);
	assert_int_equal(w.result, WAIT_OBJECT_0);
	assert_int_equal(w.got, 2);
	assert_int_equal(f->by_waiter + f->by_thread, f->claim_calls);
	CloseHandle(t);
}

/* An event arriving while the waiter gives the fd back (after its own
 * packet) is left to the event thread, which queues it. */
static void test_event_at_unclaim(void **state)
{
	struct rig *rig = *state;
	struct object *port = rig->port;
	struct fake *f = &rig->f;
	struct waiter w = { .port = port, .timeout = 10000 };
	OVERLAPPED_ENTRY e;
	HANDLE t;
	ULONG n;

	f->event_in_unclaim = true;
	t = start_waiter(&w);
	expect_claims(f, 1);
	assert_true(iocp_post(port, 9, NULL, 0, 0)); /* wakes the poller through the eventfd */
	assert_int_equal(WaitForSingleObject(t, 10000), WAIT_OBJECT_0);
	assert_int_equal(w.result, WAIT_OBJECT_0);
	assert_int_equal(w.key, 9);
	f->event_in_unclaim = false;
	/* Not lost: the event thread reads it once the fd is back, and
	 * queues its packet (or this wait, polling in turn, reads it). */
	assert_int_equal(iocp_remove(port, &e, 1, &n, 10000, false), WAIT_OBJECT_0);
	assert_int_equal(e.lpCompletionKey, 7);
	assert_int_equal(f->by_thread + f->by_waiter, 1);
	iocp_thread_exit();
	CloseHandle(t);
}

/* Timeout: the poller leaves with WAIT_TIMEOUT, gives everything back,
 * and the next waiter polls again. */
static void test_timeout(void **state)
{
	struct rig *rig = *state;
	struct object *port = rig->port;
	struct fake *f = &rig->f;
	OVERLAPPED_ENTRY e;
	ULONG n;

	assert_int_equal(iocp_remove(port, &e, 1, &n, 30, false), WAIT_TIMEOUT);
	assert_int_equal(n, 0);
	assert_int_equal(f->claim_calls, 1);
	assert_int_equal(f->unclaim_calls, 1);
	assert_int_equal(f->refs, 1);
	expect_waiters(port, 0);
	assert_int_equal(iocp_remove(port, &e, 1, &n, 10, false), WAIT_TIMEOUT);
	assert_int_equal(f->claim_calls, 2);
	raise_event(f);
	assert_int_equal(iocp_remove(port, &e, 1, &n, 10000, false), WAIT_OBJECT_0);
	assert_int_equal(f->by_waiter + f->by_thread, 1);
	iocp_thread_exit();
}

/* Two waiters: only the first polls; the second sleeps on its futex and,
 * being the most recent, gets the packet the poller drains; then the
 * poller gets the next one. */
static void test_two_waiters(void **state)
{
	struct rig *rig = *state;
	struct object *port = rig->port;
	struct fake *f = &rig->f;
	struct waiter a = { .port = port, .timeout = 10000 }, b = a;
	HANDLE ta, tb;

	ta = start_waiter(&a);
	expect_waiters(port, 1);
	expect_claims(f, 1);
	tb = start_waiter(&b);
	expect_waiters(port, 2);
	assert_int_equal(f->claim_calls, 1);
	raise_event(f);
	assert_int_equal(WaitForSingleObject(tb, 10000), WAIT_OBJECT_0);
	assert_int_equal(b.result, WAIT_OBJECT_0);
	assert_int_equal(f->by_waiter, 1); /* a drained it for b */
	expect_waiters(port, 1);
	raise_event(f);
	assert_int_equal(WaitForSingleObject(ta, 10000), WAIT_OBJECT_0);
	assert_int_equal(a.result, WAIT_OBJECT_0);
	assert_int_equal(f->by_waiter + f->by_thread, 2);
	CloseHandle(ta);
	CloseHandle(tb);
}

/* The source dies (its CQ destroyed) while a waiter polls it: the
 * waiter stops using it and still gets a later post; the detach does not
 * free what the waiter holds. */
static void test_source_dies(void **state)
{
	struct rig *rig = *state;
	struct object *port = rig->port;
	struct fake *f = &rig->f;
	struct waiter w = { .port = port, .timeout = 10000 };
	HANDLE t;

	t = start_waiter(&w);
	expect_claims(f, 1);
	pthread_mutex_lock(&f->lock);
	f->dead = true;
	pthread_mutex_unlock(&f->lock);
	iocp_source_detach(f->att);
	f->att = NULL;
	assert_int_equal(__atomic_load_n(&f->refs, __ATOMIC_RELAXED), 1); /* the waiter's */
	raise_event(f);	/* readable: its drain says gone */
	Sleep(20);
	assert_int_equal(f->by_waiter + f->by_thread, 0);
	assert_true(iocp_post(port, 3, NULL, 0, 0));
	assert_int_equal(WaitForSingleObject(t, 10000), WAIT_OBJECT_0);
	assert_int_equal(w.result, WAIT_OBJECT_0);
	assert_int_equal(w.key, 3);
	assert_int_equal(f->refs, 0);
	CloseHandle(t);
}

/* Closing the port's last handle ends a polling wait (through the
 * eventfd) with WAIT_ABANDONED_0. */
static void test_close_while_polling(void **state)
{
	struct rig *rig = *state;
	struct object *port = rig->port;
	struct fake *f = &rig->f;
	HANDLE h = handle_create(port, 0, 0);
	struct waiter w = { .port = port, .timeout = 10000 };
	HANDLE t;

	assert_non_null(h);
	t = start_waiter(&w);
	expect_claims(f, 1);
	assert_true(CloseHandle(h));
	assert_int_equal(WaitForSingleObject(t, 10000), WAIT_OBJECT_0);
	assert_int_equal(w.result, WAIT_ABANDONED_0);
	assert_int_equal(f->unclaim_calls, 1);
	CloseHandle(t);
}

static void WINAPI apc_fn(ULONG_PTR arg)
{
	*(int *)arg += 1;
}

/* An APC ends an alertable polling wait (through the eventfd). */
static void test_alert_while_polling(void **state)
{
	struct rig *rig = *state;
	struct object *port = rig->port;
	struct fake *f = &rig->f;
	struct waiter w = { .port = port, .timeout = 10000, .alertable = true };
	int ran = 0;
	HANDLE t;

	t = start_waiter(&w);
	expect_claims(f, 1);
	assert_true(QueueUserAPC(apc_fn, t, (ULONG_PTR)&ran));
	assert_int_equal(WaitForSingleObject(t, 10000), WAIT_OBJECT_0);
	assert_int_equal(w.result, WAIT_IO_COMPLETION);
	assert_int_equal(ran, 1);
	assert_int_equal(f->unclaim_calls, 1);
	CloseHandle(t);
}

/* The hand-over under load: a ping-pong where the "peer" raises the next
 * event at a varying moment after the waiter's previous return (before,
 * during or after it claims the fd again), racing the event thread.
 * Every event must come back as exactly one packet, none late. */
struct pinger {
	struct fake *f;
	volatile LONG *round;
	int rounds;
};

static DWORD WINAPI pinger_main(void *arg)
{
	struct pinger *p = arg;

	for (int i = 0; i < p->rounds; i++) {
		/* Wait for the waiter to finish round i, then a varying
		 * delay of 0..~60 µs. */
		while (*p->round < i)
			sched_yield();
		for (volatile int spin = 0; spin < (i * 7919) % 20000; spin++)
			;
		raise_event(p->f);
	}
	return 0;
}

/* Until the next event's packet is queued: no one polls, so the event
 * thread read it. */
static void wait_queued(struct object *port)
{
	unsigned int q = 0;

	for (int i = 0; i < 100000 && !q; i++) {
		iocp_get_counts(port, NULL, NULL, &q);
		if (!q)
			usleep(100);
	}
	assert_int_equal(q, 1);
}

static void handover_race(void **state, bool exclusive)
{
	struct rig *rig = *state;
	struct object *port = rig->port;
	struct fake *f = &rig->f;
	enum { ROUNDS = 4000 };
	volatile LONG round = 0;
	struct pinger p;
	OVERLAPPED_ENTRY e;
	HANDLE t;
	ULONG n;

	long switches;

	p = (struct pinger){ .f = f, .round = &round, .rounds = ROUNDS };
	t = CreateThread(NULL, 0, pinger_main, &p, 0, NULL);
	assert_non_null(t);
	for (int i = 0; i < ROUNDS; i++) {
		DWORD r = iocp_remove(port, &e, 1, &n, 10000, false);

		if (r != WAIT_OBJECT_0)
			fail_msg("round %d: no packet within 10 s (result %lu): a lost wake-up", i, (unsigned long)r);
		assert_int_equal(n, 1);
		InterlockedIncrement(&round);
		/* Sometimes the event lands while no one waits (the event
		 * thread's), sometimes while this thread claims or polls. */
		if (i % 8 == 0)
			wait_queued(port);	/* the event thread's for sure */
		else
			for (volatile int spin = 0; spin < (i * 3571) % 30000; spin++)
				;
	}
	assert_int_equal(WaitForSingleObject(t, 10000), WAIT_OBJECT_0);
	/* Nothing extra either. */
	assert_int_equal(iocp_remove(port, &e, 1, &n, 0, false), WAIT_TIMEOUT);
	assert_int_equal(f->by_waiter + f->by_thread, ROUNDS);
	switches = reader_switches(f);
	print_message("hand-over race (%s): %d events, %d drained by the waiter, %d by the event thread, "
		      "which was woken %ld times\n", exclusive ? "exclusive watch" : "claimed", ROUNDS,
		      f->by_waiter, f->by_thread, switches);
	/* The waiter read some (the event thread every eighth at least). */
	assert_true(f->by_waiter > 0);
	assert_true(f->by_thread >= ROUNDS / 8);
	iocp_thread_exit();
	CloseHandle(t);
}

static void test_handover_race(void **state)
{
	handover_race(state, false);
}

/* The same with the provider's way of standing aside. */
static void test_handover_race_exclusive(void **state)
{
	handover_race(state, true);
}

static void *raise_later(void *arg)
{
	usleep(20000);	/* the waiter and the reader both asleep by then */
	raise_event(arg);
	return NULL;
}

/* The point of the exclusive watch: an event that comes while the lone
 * waiter sleeps wakes that waiter, which drains it, and not the reader
 * too (with both woken, the reader would wake in every round and go
 * back to sleep inside epoll_wait, the fd drained). */
static void test_exclusive_wakes_waiter_only(void **state)
{
	enum { ROUNDS = 20 };
	struct rig *rig = *state;
	struct object *port = rig->port;
	struct fake *f = &rig->f;
	OVERLAPPED_ENTRY e;
	int woken = 0;
	ULONG n;

	for (int i = 0; i < ROUNDS; i++) {
		long before;
		pthread_t t;

		usleep(10000);	/* the reader settled */
		before = reader_switches(f);
		assert_int_equal(pthread_create(&t, NULL, raise_later, f), 0);
		assert_int_equal(iocp_remove(port, &e, 1, &n, 10000, false), WAIT_OBJECT_0);
		pthread_join(t, NULL);
		usleep(10000);
		if (reader_switches(f) != before)
			woken++;
	}
	print_message("exclusive watch: the reader was woken in %d of %d rounds\n", woken, ROUNDS);
	assert_int_equal(f->by_waiter, ROUNDS);
	assert_true(woken <= 2);
	iocp_thread_exit();
}

/* A port without sources never calls into one; attaching to a closed
 * port fails. */
static void test_attach_rules(void **state)
{
	struct rig *rig = *state;
	struct object *port = rig->port;
	struct fake *f = &rig->f;
	HANDLE h = handle_create(port, 0, 0);

	assert_non_null(h);
	iocp_source_detach(f->att);
	f->att = NULL;
	assert_int_equal(f->refs, 0);
	assert_true(CloseHandle(h));
	assert_null(iocp_source_attach(port, f->chan, &f_ops, f));
	assert_int_equal(f->refs, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_lone_waiter_drains, rig_setup, rig_teardown),
		cmocka_unit_test_setup_teardown(test_event_at_claim, rig_setup, rig_teardown),
		cmocka_unit_test_setup_teardown(test_event_at_unclaim, rig_setup, rig_teardown),
		cmocka_unit_test_setup_teardown(test_timeout, rig_setup, rig_teardown),
		cmocka_unit_test_setup_teardown(test_two_waiters, rig_setup, rig_teardown),
		cmocka_unit_test_setup_teardown(test_source_dies, rig_setup, rig_teardown),
		cmocka_unit_test_setup_teardown(test_close_while_polling, rig_setup, rig_teardown),
		cmocka_unit_test_setup_teardown(test_alert_while_polling, rig_setup, rig_teardown),
		cmocka_unit_test_setup_teardown(test_handover_race, rig_setup, rig_teardown),
		cmocka_unit_test_setup_teardown(test_handover_race_exclusive, rig_setup_exclusive, rig_teardown),
		cmocka_unit_test_setup_teardown(test_exclusive_wakes_waiter_only, rig_setup_exclusive, rig_teardown),
		cmocka_unit_test(test_null_ctx),
		cmocka_unit_test_setup_teardown(test_attach_rules, rig_setup, rig_teardown),
	};

	return cmocka_run_group_tests(tests, win32_test_setup, win32_test_teardown);
}

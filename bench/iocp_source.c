/* The event thread's hop, measured on the host (no RDMA device needed).
 *
 * A stand-in for an ND CQ: an eventfd "completion channel" and a reader
 * thread that epolls it and posts one packet per event to a port, as
 * the provider's event thread completes a Notify.  A ping-pong: the
 * peer raises an event and sleeps on a futex; the waiter dequeues the
 * packet from the port and wakes the peer.  "hop": the reader thread
 * reads every event (what blocking ND2 did before issue 16); "direct":
 * the channel is attached to the port as a wake source (core/iocp.h) and
 * the waiter reads it itself, the reader's watch moved behind the port's
 * with EPOLLEXCLUSIVE as the provider's claim does (cq_wake.c).  Everything runs on one CPU, as the rig's
 * blocking pairs do, so the figure is the hand-offs and not a second
 * CPU's idle exit.  Prints ns per round trip, medians of interleaved
 * runs, and the ratio direct/hop. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "core/futex.h"
#include "core/handle.h"
#include "core/iocp.h"

#define ROUNDS 20000
#define RUNS 7

static struct object *port;
static int chan, ep, stop_fd;
static pthread_mutex_t ev_lock = PTHREAD_MUTEX_INITIALIZER;
static bool behind;	/* the reader's watch is exclusive, behind the port's */
static _Atomic uint32_t pong;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ev_lock held. */
static void drain_locked(void)
{
	uint64_t v;

	while (read(chan, &v, sizeof(v)) == sizeof(v))
		while (v--)
			if (!iocp_post(port, 1, NULL, 0, 0))
				abort();
}

static void watch(bool exclusive)
{
	struct epoll_event e = { .events = EPOLLIN | (exclusive ? EPOLLEXCLUSIVE : 0), .data.fd = chan };

	epoll_ctl(ep, EPOLL_CTL_DEL, chan, NULL);
	if (epoll_ctl(ep, EPOLL_CTL_ADD, chan, &e))
		abort();
}

static void *reader(void *arg)
{
	struct epoll_event ev[4];

	for (;;) {
		int i, n = epoll_wait(ep, ev, 4, -1);

		for (i = 0; i < n; i++) {
			if (ev[i].data.fd == stop_fd)
				return NULL;
			pthread_mutex_lock(&ev_lock);
			drain_locked();
			pthread_mutex_unlock(&ev_lock);
		}
	}
}

static bool s_claim(void *ctx)
{
	pthread_mutex_lock(&ev_lock);
	if (!behind) {
		watch(true);
		behind = true;
	}
	pthread_mutex_unlock(&ev_lock);
	return true;
}

static bool s_drain(void *ctx)
{
	pthread_mutex_lock(&ev_lock);
	drain_locked();
	pthread_mutex_unlock(&ev_lock);
	return true;
}

static void s_ref(void *ctx)
{
}

static const struct iocp_source_ops ops = {
	.claim = s_claim, .unclaim = NULL, .drain = s_drain, .hold = s_ref, .release = s_ref,
};

static void *peer(void *arg)
{
	uint64_t one = 1;

	for (uint32_t i = 1; i <= ROUNDS; i++) {
		if (write(chan, &one, sizeof(one)) != sizeof(one))
			abort();
		while (atomic_load(&pong) != i)
			futex_wait(&pong, i - 1, NULL);
	}
	return NULL;
}

static double run(bool direct)
{
	struct iocp_source *src = NULL;
	OVERLAPPED_ENTRY e;
	pthread_t t;
	double t0;
	ULONG n;

	port = iocp_create(1);
	/* Each port's epoll is new: the reader's watch goes behind it again. */
	pthread_mutex_lock(&ev_lock);
	behind = false;
	pthread_mutex_unlock(&ev_lock);
	if (direct && !(src = iocp_source_attach(port, chan, &ops, NULL)))
		abort();
	atomic_store(&pong, 0);
	t0 = now();
	pthread_create(&t, NULL, peer, NULL);
	for (uint32_t i = 1; i <= ROUNDS; i++) {
		if (iocp_remove(port, &e, 1, &n, 10000, false) != WAIT_OBJECT_0) {
			fprintf(stderr, "iocp_source: round %u: no packet\n", i);
			exit(1);
		}
		atomic_store(&pong, i);
		futex_wake(&pong, 1);
	}
	pthread_join(t, NULL);
	t0 = now() - t0;
	iocp_thread_exit();
	if (src)
		iocp_source_detach(src);
	object_unref(port);
	return t0 * 1e9 / ROUNDS;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(void)
{
	struct epoll_event e = { .events = EPOLLIN };
	double d[RUNS], h[RUNS];
	cpu_set_t one;
	pthread_t r;
	uint64_t v = 1;

	/* The last CPU, as bench/run pins its ping-pongs. */
	CPU_ZERO(&one);
	CPU_SET(sysconf(_SC_NPROCESSORS_ONLN) - 1, &one);
	sched_setaffinity(0, sizeof(one), &one);
	chan = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	stop_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	ep = epoll_create1(EPOLL_CLOEXEC);
	e.data.fd = stop_fd;
	if (chan < 0 || stop_fd < 0 || ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, stop_fd, &e))
		return 1;
	watch(false);
	pthread_create(&r, NULL, reader, NULL);
	run(false); /* warm-up */
	run(true);
	for (int i = 0; i < RUNS; i++) {
		/* Interleaved, alternating which goes first. */
		if (i % 2) {
			d[i] = run(true);
			h[i] = run(false);
		} else {
			h[i] = run(false);
			d[i] = run(true);
		}
	}
	if (write(stop_fd, &v, sizeof(v)) != sizeof(v))
		return 1;
	pthread_join(r, NULL);
	qsort(d, RUNS, sizeof(d[0]), cmp);
	qsort(h, RUNS, sizeof(h[0]), cmp);
	printf("bench: nd2-style channel -> port -> waiter round trip ours=%.0fns baseline=%.0fns (through a reader thread) "
	       "ratio=%.3f spread=%.0f..%.0f/%.0f..%.0f\n",
	       d[RUNS / 2], h[RUNS / 2], d[RUNS / 2] / h[RUNS / 2], d[0], d[RUNS - 1], h[0], h[RUNS - 1]);
	return 0;
}

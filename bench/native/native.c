/* The native limits bench/run compares winbench.exe with: the same
 * operations written for Linux directly, same command line, same output.
 *
 *   native CPU REPS MS [TEST...]
 *
 * post_dequeue, gqcsex64: a mutex + condition-variable FIFO of malloc'ed
 *   nodes used by one thread (push then pop; 64 pushes then one locked
 *   pass popping 64), the plainest correct queue.
 * futex_pingpong: two threads hand a turn back and forth, each sleeping
 *   on its own futex word; the waiter announces that it sleeps, so the
 *   other side calls FUTEX_WAKE only when someone sleeps: one wake and
 *   one wait per hand-off, the least the kernel allows.
 * eventfd_pingpong: the same over two eventfds (blocking read/write).
 * pipe: write then read 64 bytes through a Linux pipe.
 *
 * CPU >= 0 pins both threads to that CPU, as winbench.exe does. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>

#define CHUNK 256

static int pin_cpu = -1;

static void die(const char *what)
{
	fprintf(stderr, "native: %s failed: %s\n", what, strerror(errno));
	exit(1);
}

static void pin(void)
{
	cpu_set_t set;

	if (pin_cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(pin_cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Operations of the last timed() run, printed after its figure (strace
 * and perf counts divide by it). */
static unsigned long long last_ops;

static double timed(void (*chunk)(void), unsigned int ms)
{
	double t0 = now_ns(), end = t0 + ms * 1e6, t;
	unsigned long long ops = 0;

	do {
		chunk();
		ops += CHUNK;
	} while ((t = now_ns()) < end);
	last_ops = ops;
	return (t - t0) / ops;
}

/* ---- mutex + condvar FIFO, one thread ---- */
struct node {
	struct node *next;
	uintptr_t value;
};
static struct node *head, **tail = &head;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static uintptr_t seq;

static void push(uintptr_t v)
{
	struct node *n = malloc(sizeof(*n));

	if (!n)
		die("malloc");
	n->next = NULL;
	n->value = v;
	pthread_mutex_lock(&lock);
	*tail = n;
	tail = &n->next;
	pthread_cond_signal(&cond);
	pthread_mutex_unlock(&lock);
}

/* Pops up to max values into out; blocks while the queue is empty. */
static unsigned int pop(uintptr_t *out, unsigned int max)
{
	unsigned int n = 0;

	pthread_mutex_lock(&lock);
	while (!head)
		pthread_cond_wait(&cond, &lock);
	while (n < max && head) {
		struct node *p = head;

		head = p->next;
		if (!head)
			tail = &head;
		out[n++] = p->value;
		free(p);
	}
	pthread_mutex_unlock(&lock);
	return n;
}

static void queue1_chunk(void)
{
	uintptr_t v;

	for (int i = 0; i < CHUNK; i++) {
		push(++seq);
		if (pop(&v, 1) != 1 || v != seq) {
			fprintf(stderr, "native: queue lost a value\n");
			exit(1);
		}
	}
}

static void queue64_chunk(void)
{
	uintptr_t v[64];

	for (int round = 0; round < CHUNK / 64; round++) {
		uintptr_t first = seq + 1;
		unsigned int got = 0;

		for (int i = 0; i < 64; i++)
			push(++seq);
		while (got < 64)
			got += pop(v + got, 64 - got);
		for (unsigned int i = 0; i < 64; i++)
			if (v[i] != first + i) {
				fprintf(stderr, "native: batch out of order\n");
				exit(1);
			}
	}
}

static double post_dequeue(unsigned int ms) { return timed(queue1_chunk, ms); }
static double gqcsex64(unsigned int ms) { return timed(queue64_chunk, ms); }

/* ---- futex hand-off between two threads ---- */
enum { EMPTY, POSTED, SLEEPING };
static _Atomic uint32_t slot_ping, slot_pong;
static atomic_bool stop;

static void give(_Atomic uint32_t *slot)
{
	if (atomic_exchange(slot, POSTED) == SLEEPING)
		syscall(SYS_futex, slot, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void take(_Atomic uint32_t *slot)
{
	for (;;) {
		uint32_t v = EMPTY;

		if (atomic_compare_exchange_strong(slot, &v, SLEEPING))
			v = SLEEPING;
		if (v == POSTED) {
			atomic_store(slot, EMPTY);
			return;
		}
		syscall(SYS_futex, slot, FUTEX_WAIT_PRIVATE, SLEEPING, NULL, NULL, 0);
	}
}

static void *futex_echo(void *arg)
{
	pin();
	for (;;) {
		take(&slot_ping);
		if (atomic_load(&stop))
			return NULL;
		give(&slot_pong);
	}
}

static void futex_chunk(void)
{
	for (int i = 0; i < CHUNK; i++) {
		give(&slot_ping);
		take(&slot_pong);
	}
}

static double futex_pingpong(unsigned int ms)
{
	pthread_t t;
	double r;

	atomic_store(&stop, false);
	if ((errno = pthread_create(&t, NULL, futex_echo, NULL)))
		die("pthread_create");
	r = timed(futex_chunk, ms);
	atomic_store(&stop, true);
	give(&slot_ping);
	pthread_join(t, NULL);
	return r;
}

/* ---- eventfd hand-off between two threads ---- */
static int efd_ping, efd_pong;

static void efd_give(int fd)
{
	uint64_t one = 1;

	if (write(fd, &one, sizeof(one)) != sizeof(one))
		die("eventfd write");
}

static void efd_take(int fd)
{
	uint64_t v;

	if (read(fd, &v, sizeof(v)) != sizeof(v) || v != 1)
		die("eventfd read");
}

static void *eventfd_echo(void *arg)
{
	pin();
	for (;;) {
		efd_take(efd_ping);
		if (atomic_load(&stop))
			return NULL;
		efd_give(efd_pong);
	}
}

static void eventfd_chunk(void)
{
	for (int i = 0; i < CHUNK; i++) {
		efd_give(efd_ping);
		efd_take(efd_pong);
	}
}

static double eventfd_pingpong(unsigned int ms)
{
	pthread_t t;
	double r;

	efd_ping = eventfd(0, EFD_CLOEXEC);
	efd_pong = eventfd(0, EFD_CLOEXEC);
	if (efd_ping < 0 || efd_pong < 0)
		die("eventfd");
	atomic_store(&stop, false);
	if ((errno = pthread_create(&t, NULL, eventfd_echo, NULL)))
		die("pthread_create");
	r = timed(eventfd_chunk, ms);
	atomic_store(&stop, true);
	efd_give(efd_ping);
	pthread_join(t, NULL);
	close(efd_ping);
	close(efd_pong);
	return r;
}

/* ---- pipe write + read ---- */
static int pipe_fd[2];

static void pipe_chunk(void)
{
	char out[64], in[64];

	for (int i = 0; i < CHUNK; i++) {
		memset(out, (int)(++seq & 0xff), sizeof(out));
		if (write(pipe_fd[1], out, sizeof(out)) != sizeof(out))
			die("pipe write");
		if (read(pipe_fd[0], in, sizeof(in)) != sizeof(in) || memcmp(in, out, sizeof(in)))
			die("pipe read");
	}
}

static double pipe_rw(unsigned int ms)
{
	double r;

	if (pipe(pipe_fd))
		die("pipe");
	r = timed(pipe_chunk, ms);
	close(pipe_fd[0]);
	close(pipe_fd[1]);
	return r;
}

static const struct test {
	const char *name;
	double (*fn)(unsigned int ms);
} tests[] = {
	{ "post_dequeue", post_dequeue },
	{ "gqcsex64", gqcsex64 },
	{ "futex_pingpong", futex_pingpong },
	{ "eventfd_pingpong", eventfd_pingpong },
	{ "pipe", pipe_rw },
};

#define NTESTS (sizeof(tests) / sizeof(tests[0]))

int main(int argc, char **argv)
{
	unsigned int ms;
	int reps;

	if (argc < 4) {
		fprintf(stderr, "usage: native CPU REPS MS [TEST...]\n");
		return 2;
	}
	pin_cpu = atoi(argv[1]);
	reps = atoi(argv[2]);
	ms = (unsigned int)atoi(argv[3]);
	pin();
	for (size_t t = 0; t < NTESTS; t++) {
		int want = argc == 4;

		for (int i = 4; i < argc; i++)
			want |= !strcmp(argv[i], tests[t].name);
		if (!want)
			continue;
		tests[t].fn(ms / 4 ? ms / 4 : 1);
		fprintf(stderr, "warm-up %s %llu\n", tests[t].name, last_ops);
		for (int r = 0; r < reps; r++)
			{
			double ns = tests[t].fn(ms);

			printf("%s %.1f %llu\n", tests[t].name, ns, last_ops);
		}
		fflush(stdout);
	}
	return 0;
}

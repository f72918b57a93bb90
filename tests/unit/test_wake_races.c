/* Races the one-hand-off wake path creates (core/wait.c, core/iocp.c): a
 * waiter is ended under the lock and woken after it, and leaves without
 * retaking the lock.  Each test repeats a race many times and checks the
 * Windows rule that must hold whichever side wins:
 *  - a wait timing out just as its object is signaled either consumed
 *    the auto-reset event (WAIT_OBJECT_0) or left it set (WAIT_TIMEOUT);
 *  - a GetQueuedCompletionStatus timing out just as a packet is posted
 *    either took it or left it queued; never lost, never twice;
 *  - CloseHandle on a port while posts race in: every waiter returns,
 *    with a packet or ERROR_ABANDONED_WAIT_0, none times out;
 *  - an APC and a packet racing for an alertable port wait: the wait
 *    ends with one of them, the other is kept (the packet stays queued,
 *    the APC runs at the next alertable wait); the same for an APC
 *    racing the wait's timeout;
 *  - an auto-reset event waited on twice in one wait-any by several
 *    threads: each SetEvent wakes exactly one of them.
 * How often each side won is printed; which one wins is up to timing. */
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <cmocka.h>

#include "core/handle.h"
#include "core/iocp.h"
#include "win32_helper.h"

#define ROUNDS 600

static void spin_us(long us)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000000 + (t.tv_nsec - t0.tv_nsec) / 1000 < us);
}

/* Around the waiter's 1 ms timeout: 0 to 2 ms, in 50 us steps. */
static long jitter_us(int round)
{
	return (round * 7 % 41) * 50;
}

/* One helper thread that runs step() each time go is released. */
struct stepper {
	HANDLE go, done, thread;
	void (*step)(struct stepper *s);
	volatile bool quit;
	DWORD result, error, count;
	ULONG_PTR key;
	HANDLE obj;
};

static DWORD WINAPI stepper_main(void *arg)
{
	struct stepper *s = arg;

	for (;;) {
		if (WaitForSingleObject(s->go, 20000) != WAIT_OBJECT_0)
			return 1;
		if (s->quit)
			return 0;
		s->step(s);
		ReleaseSemaphore(s->done, 1, NULL);
	}
}

static void stepper_start(struct stepper *s, void (*step)(struct stepper *s), HANDLE obj)
{
	s->go = CreateSemaphoreA(NULL, 0, 1, NULL);
	s->done = CreateSemaphoreA(NULL, 0, 1, NULL);
	s->step = step;
	s->obj = obj;
	s->quit = false;
	s->thread = CreateThread(NULL, 0, stepper_main, s, 0, NULL);
	assert_non_null(s->thread);
}

static void stepper_go(struct stepper *s)
{
	assert_true(ReleaseSemaphore(s->go, 1, NULL));
}

static void stepper_wait(struct stepper *s)
{
	assert_int_equal(WaitForSingleObject(s->done, 10000), WAIT_OBJECT_0);
}

static void stepper_stop(struct stepper *s)
{
	DWORD code;

	s->quit = true;
	stepper_go(s);
	assert_int_equal(WaitForSingleObject(s->thread, 10000), WAIT_OBJECT_0);
	assert_true(GetExitCodeThread(s->thread, &code));
	assert_int_equal(code, 0);
	CloseHandle(s->thread);
	CloseHandle(s->go);
	CloseHandle(s->done);
}

static void wait_1ms(struct stepper *s)
{
	s->result = WaitForSingleObject(s->obj, 1);
}

static void test_event_timeout_vs_set(void **state)
{
	HANDLE ev = CreateEventA(NULL, FALSE, FALSE, NULL);
	struct stepper s;
	int got = 0, timed_out = 0;

	stepper_start(&s, wait_1ms, ev);
	for (int i = 0; i < ROUNDS; i++) {
		stepper_go(&s);
		spin_us(jitter_us(i));
		assert_true(SetEvent(ev));
		stepper_wait(&s);
		if (s.result == WAIT_OBJECT_0) {
			got++;
			/* Consumed by the waiter, by it alone. */
			assert_int_equal(WaitForSingleObject(ev, 0), WAIT_TIMEOUT);
		} else {
			assert_int_equal(s.result, WAIT_TIMEOUT);
			timed_out++;
			/* Timed out: the event is still set. */
			assert_int_equal(WaitForSingleObject(ev, 0), WAIT_OBJECT_0);
		}
	}
	stepper_stop(&s);
	CloseHandle(ev);
	print_message("event: %d woken, %d timed out\n", got, timed_out);
}

static void dequeue_1ms(struct stepper *s)
{
	OVERLAPPED *ov = (OVERLAPPED *)1;
	DWORD bytes;

	s->key = 0;
	s->result = GetQueuedCompletionStatus(s->obj, &bytes, &s->key, &ov, 1);
	s->error = s->result ? 0 : GetLastError();
	if (!s->result && ov)
		s->error = 0xbad; /* a failed dequeue must clear *ov */
}

static void test_port_timeout_vs_post(void **state)
{
	HANDLE port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 8);
	struct stepper s;
	int got = 0, timed_out = 0;

	stepper_start(&s, dequeue_1ms, port);
	for (int i = 0; i < ROUNDS; i++) {
		OVERLAPPED *ov;
		ULONG_PTR key;
		DWORD bytes;

		stepper_go(&s);
		spin_us(jitter_us(i));
		assert_true(PostQueuedCompletionStatus(port, i, i + 1, NULL));
		stepper_wait(&s);
		if (s.result) {
			got++;
			assert_int_equal(s.key, i + 1);
			assert_false(GetQueuedCompletionStatus(port, &bytes, &key, &ov, 0));
			assert_int_equal(GetLastError(), WAIT_TIMEOUT);
		} else {
			timed_out++;
			assert_int_equal(s.error, WAIT_TIMEOUT);
			/* The packet waits in the queue, once. */
			assert_true(GetQueuedCompletionStatus(port, &bytes, &key, &ov, 0));
			assert_int_equal(key, i + 1);
		}
	}
	stepper_stop(&s);
	CloseHandle(port);
	print_message("port: %d woken, %d timed out\n", got, timed_out);
}

#define CLOSE_WAITERS 3

struct close_waiter {
	HANDLE port, thread;
	BOOL ret;
	DWORD error;
};

static DWORD WINAPI close_waiter_main(void *arg)
{
	struct close_waiter *w = arg;
	OVERLAPPED *ov;
	ULONG_PTR key;
	DWORD bytes;

	w->ret = GetQueuedCompletionStatus(w->port, &bytes, &key, &ov, 5000);
	w->error = w->ret ? 0 : GetLastError();
	return 0;
}

static void *post_two(void *arg)
{
	iocp_post(arg, 1, NULL, 0, 0);
	iocp_post(arg, 2, NULL, 0, 0);
	return NULL;
}

static void expect_port_waiters(struct object *port, unsigned int n)
{
	unsigned int w = 0;

	for (int i = 0; i < 5000; i++) {
		iocp_get_counts(port, &w, NULL, NULL);
		if (w == n)
			return;
		Sleep(1);
	}
	fail_msg("%u waiters on the port, want %u", w, n);
}

static void test_close_port_vs_post(void **state)
{
	int packets = 0, abandoned = 0;

	for (int i = 0; i < ROUNDS / 4; i++) {
		struct close_waiter w[CLOSE_WAITERS];
		struct object *obj;
		pthread_t poster;
		HANDLE port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, CLOSE_WAITERS);

		obj = handle_get(port, &iocp_ops);
		assert_non_null(obj);
		for (int j = 0; j < CLOSE_WAITERS; j++) {
			w[j].port = port;
			w[j].thread = CreateThread(NULL, 0, close_waiter_main, &w[j], 0, NULL);
			assert_non_null(w[j].thread);
		}
		expect_port_waiters(obj, CLOSE_WAITERS);
		assert_int_equal(pthread_create(&poster, NULL, post_two, obj), 0);
		if (i & 1)
			spin_us(i % 20);
		assert_true(CloseHandle(port));
		pthread_join(poster, NULL);
		for (int j = 0; j < CLOSE_WAITERS; j++) {
			assert_int_equal(WaitForSingleObject(w[j].thread, 10000), WAIT_OBJECT_0);
			CloseHandle(w[j].thread);
			if (w[j].ret) {
				packets++;
			} else {
				assert_int_equal(w[j].error, ERROR_ABANDONED_WAIT_0);
				abandoned++;
			}
		}
		object_unref(obj);
	}
	print_message("close: %d packets, %d abandoned waits\n", packets, abandoned);
}

static volatile LONG apc_runs;
static HANDLE both_queued;

static void CALLBACK count_apc(ULONG_PTR data)
{
	__atomic_add_fetch(&apc_runs, 1, __ATOMIC_SEQ_CST);
}

static void alertable_dequeue(struct stepper *s)
{
	OVERLAPPED_ENTRY e;
	ULONG n = 0;

	s->result = GetQueuedCompletionStatusEx(s->obj, &e, 1, &n, 5000, TRUE);
	s->error = s->result ? 0 : GetLastError();
	s->count = n;
	/* Whatever did not end the wait still happens: a pending APC runs
	 * at the next alertable wait (once the APC is surely queued). */
	WaitForSingleObject(both_queued, 10000);
	SleepEx(0, TRUE);
}

static void test_alert_vs_post(void **state)
{
	HANDLE port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 8);
	struct object *obj = handle_get(port, &iocp_ops);
	int by_packet = 0, by_apc = 0;
	struct stepper s;

	both_queued = CreateSemaphoreA(NULL, 0, 1, NULL);
	stepper_start(&s, alertable_dequeue, port);
	for (int i = 0; i < ROUNDS / 2; i++) {
		OVERLAPPED *ov;
		ULONG_PTR key;
		DWORD bytes;

		apc_runs = 0;
		stepper_go(&s);
		expect_port_waiters(obj, 1);
		if (i & 1) {
			assert_true(QueueUserAPC(count_apc, s.thread, 0));
			assert_true(PostQueuedCompletionStatus(port, 0, i + 1, NULL));
		} else {
			assert_true(PostQueuedCompletionStatus(port, 0, i + 1, NULL));
			assert_true(QueueUserAPC(count_apc, s.thread, 0));
		}
		ReleaseSemaphore(both_queued, 1, NULL);
		stepper_wait(&s);
		assert_int_equal(apc_runs, 1);
		if (s.result) {
			by_packet++;
			assert_int_equal(s.count, 1);
			assert_false(GetQueuedCompletionStatus(port, &bytes, &key, &ov, 0));
		} else {
			by_apc++;
			assert_int_equal(s.error, WAIT_IO_COMPLETION);
			assert_true(GetQueuedCompletionStatus(port, &bytes, &key, &ov, 0));
			assert_int_equal(key, i + 1);
		}
	}
	stepper_stop(&s);
	CloseHandle(both_queued);
	object_unref(obj);
	CloseHandle(port);
	print_message("alertable port wait: %d ended by the packet, %d by the APC\n", by_packet, by_apc);
}

static void alertable_dequeue_1ms(struct stepper *s)
{
	OVERLAPPED_ENTRY e;
	ULONG n = 0;

	s->result = GetQueuedCompletionStatusEx(s->obj, &e, 1, &n, 1, TRUE);
	s->error = s->result ? 0 : GetLastError();
	WaitForSingleObject(both_queued, 10000);
	s->count = apc_runs; /* run by the wait itself */
	SleepEx(0, TRUE);
}

static void test_alertable_timeout_vs_apc(void **state)
{
	HANDLE port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 8);
	int by_apc = 0, timed_out = 0;
	struct stepper s;

	both_queued = CreateSemaphoreA(NULL, 0, 1, NULL);
	stepper_start(&s, alertable_dequeue_1ms, port);
	for (int i = 0; i < ROUNDS; i++) {
		apc_runs = 0;
		stepper_go(&s);
		spin_us(jitter_us(i));
		assert_true(QueueUserAPC(count_apc, s.thread, 0));
		ReleaseSemaphore(both_queued, 1, NULL);
		stepper_wait(&s);
		assert_false(s.result);
		/* Once, either in the wait it ended or at the next one. */
		assert_int_equal(apc_runs, 1);
		if (s.error == WAIT_IO_COMPLETION) {
			assert_int_equal(s.count, 1);
			by_apc++;
		} else {
			assert_int_equal(s.error, WAIT_TIMEOUT);
			timed_out++;
		}
	}
	stepper_stop(&s);
	CloseHandle(both_queued);
	CloseHandle(port);
	print_message("alertable port wait: %d ended by the APC, %d timed out\n", by_apc, timed_out);
}

#define DUP_WAITERS 4
#define DUP_SETS 3000

static HANDLE dup_ev, dup_stop;
static volatile LONG dup_woken, dup_failed;

static DWORD WINAPI dup_waiter(void *arg)
{
	HANDLE h[3] = { dup_ev, dup_ev, dup_stop };

	for (;;) {
		DWORD r = WaitForMultipleObjects(3, h, FALSE, 10000);

		if (r == WAIT_OBJECT_0 + 2)
			return 0;
		if (r == WAIT_OBJECT_0)
			__atomic_add_fetch(&dup_woken, 1, __ATOMIC_SEQ_CST);
		else /* the first of the two entries always wins */
			__atomic_add_fetch(&dup_failed, 1, __ATOMIC_SEQ_CST);
	}
}

static void test_auto_reset_twice_in_wait_any(void **state)
{
	HANDLE t[DUP_WAITERS];
	struct timespec t0, now;

	dup_ev = CreateEventA(NULL, FALSE, FALSE, NULL);
	dup_stop = CreateEventA(NULL, TRUE, FALSE, NULL);
	dup_woken = dup_failed = 0;
	for (int i = 0; i < DUP_WAITERS; i++)
		t[i] = CreateThread(NULL, 0, dup_waiter, NULL, 0, NULL);
	for (LONG i = 0; i < DUP_SETS; i++) {
		assert_true(SetEvent(dup_ev));
		clock_gettime(CLOCK_MONOTONIC, &t0);
		/* One set, one wake: wait for it before setting again, so
		 * that sets do not merge on an already set event. */
		while (__atomic_load_n(&dup_woken, __ATOMIC_SEQ_CST) < i + 1) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			if (now.tv_sec - t0.tv_sec > 5)
				fail_msg("SetEvent %d woke nobody", (int)i);
			sched_yield();
		}
	}
	assert_true(SetEvent(dup_stop));
	assert_int_equal(WaitForMultipleObjects(DUP_WAITERS, t, TRUE, 10000), WAIT_OBJECT_0);
	for (int i = 0; i < DUP_WAITERS; i++)
		CloseHandle(t[i]);
	assert_int_equal(dup_woken, DUP_SETS);
	assert_int_equal(dup_failed, 0);
	/* Every set was consumed by exactly one waiter. */
	assert_int_equal(WaitForSingleObject(dup_ev, 0), WAIT_TIMEOUT);
	CloseHandle(dup_ev);
	CloseHandle(dup_stop);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_event_timeout_vs_set),
		cmocka_unit_test(test_port_timeout_vs_post),
		cmocka_unit_test(test_close_port_vs_post),
		cmocka_unit_test(test_alert_vs_post),
		cmocka_unit_test(test_alertable_timeout_vs_apc),
		cmocka_unit_test(test_auto_reset_twice_in_wait_any),
	};
	return cmocka_run_group_tests(tests, win32_test_setup, win32_test_teardown);
}

/* Completion port stress: producers post, consumers dequeue (one packet
 * at a time and in batches), on plain Linux threads (no TEB, as an ND
 * provider's event thread), two million packets; every packet must arrive exactly once:
 * counts, per-producer sums and a bitmap of seen packets are checked. */
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "core/handle.h"
#include "core/iocp.h"
#include "win32_helper.h"

#define PRODUCERS 4
#define CONSUMERS 4
#define PER_PRODUCER 500000u
#define QUIT_KEY ((ULONG_PTR)-1)

static HANDLE port;
static _Atomic uint64_t seen[PRODUCERS][(PER_PRODUCER + 63) / 64];
static atomic_ulong duplicates, bad_info;

struct consumer {
	pthread_t thread;
	int batch;
	unsigned long count;
	uint64_t sum[PRODUCERS];
};

static void *producer(void *arg)
{
	ULONG_PTR id = (ULONG_PTR)arg;

	for (unsigned int i = 0; i < PER_PRODUCER; i++) {
		/* seq in the OVERLAPPED pointer, a check value in the byte count */
		if (!PostQueuedCompletionStatus(port, i ^ 0x5a5a5a5au, id, (OVERLAPPED *)(uintptr_t)(i + 1)))
			abort();
	}
	return NULL;
}

static bool account(struct consumer *c, ULONG_PTR key, OVERLAPPED *ov, DWORD bytes)
{
	unsigned int seq;

	if (key == QUIT_KEY)
		return false;
	seq = (unsigned int)(uintptr_t)ov - 1;
	if (key >= PRODUCERS || seq >= PER_PRODUCER || bytes != (seq ^ 0x5a5a5a5au)) {
		atomic_fetch_add(&bad_info, 1);
		return true;
	}
	if (atomic_fetch_or(&seen[key][seq / 64], 1ull << (seq % 64)) & (1ull << (seq % 64)))
		atomic_fetch_add(&duplicates, 1);
	c->count++;
	c->sum[key] += seq;
	return true;
}

static void *consumer(void *arg)
{
	struct consumer *c = arg;
	OVERLAPPED_ENTRY e[16];

	for (;;) {
		if (c->batch) {
			ULONG n = 0;

			if (!GetQueuedCompletionStatusEx(port, e, 16, &n, 20000, FALSE))
				return NULL;
			bool quit = false;

			for (ULONG i = 0; i < n; i++) {
				if (account(c, e[i].lpCompletionKey, e[i].lpOverlapped,
					    e[i].dwNumberOfBytesTransferred))
					continue;
				/* One quit packet per consumer: hand back the
				 * others this batch took. */
				if (quit)
					PostQueuedCompletionStatus(port, 0, QUIT_KEY, NULL);
				quit = true;
			}
			if (quit)
				return NULL;
		} else {
			OVERLAPPED *ov;
			ULONG_PTR key;
			DWORD bytes;

			if (!GetQueuedCompletionStatus(port, &bytes, &key, &ov, 20000))
				return NULL;
			if (!account(c, key, ov, bytes))
				return NULL;
		}
	}
}

static void test_many_packets(void **state)
{
	struct consumer cons[CONSUMERS] = { 0 };
	pthread_t prod[PRODUCERS];
	unsigned long total = 0;
	uint64_t want_sum = (uint64_t)PER_PRODUCER * (PER_PRODUCER - 1) / 2;

	port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, CONSUMERS);
	assert_non_null(port);
	for (int i = 0; i < CONSUMERS; i++) {
		cons[i].batch = i & 1;
		assert_int_equal(pthread_create(&cons[i].thread, NULL, consumer, &cons[i]), 0);
	}
	for (uintptr_t i = 0; i < PRODUCERS; i++)
		assert_int_equal(pthread_create(&prod[i], NULL, producer, (void *)i), 0);
	for (int i = 0; i < PRODUCERS; i++)
		pthread_join(prod[i], NULL);
	/* Quit packets come after every data packet (FIFO). */
	for (int i = 0; i < CONSUMERS; i++)
		assert_true(PostQueuedCompletionStatus(port, 0, QUIT_KEY, NULL));
	for (int i = 0; i < CONSUMERS; i++)
		pthread_join(cons[i].thread, NULL);

	assert_int_equal(atomic_load(&duplicates), 0);
	assert_int_equal(atomic_load(&bad_info), 0);
	for (int p = 0; p < PRODUCERS; p++) {
		uint64_t sum = 0;

		for (int i = 0; i < CONSUMERS; i++)
			sum += cons[i].sum[p];
		assert_int_equal(sum, want_sum);
		for (unsigned int w = 0; w < PER_PRODUCER / 64; w++)
			assert_int_equal(atomic_load(&seen[p][w]), UINT64_MAX);
	}
	for (int i = 0; i < CONSUMERS; i++)
		total += cons[i].count;
	assert_int_equal(total, (unsigned long)PRODUCERS * PER_PRODUCER);
	assert_true(CloseHandle(port));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_many_packets),
	};

	return cmocka_run_group_tests(tests, win32_test_setup, win32_test_teardown);
}

/* Completion port stress from PE code: producer threads post, consumer
 * threads dequeue singly and in batches; every packet must come out
 * exactly once (count, per-producer sums, a seen-bitmap).
 *
 * Windows rule checked: a completion port neither loses nor duplicates
 * packets, whatever the number of threads posting and removing. */
#include "test.h"

#define PRODUCERS 4
#define CONSUMERS 4
#define PER_PRODUCER 50000
#define QUIT_KEY ((ULONG_PTR)-1)

static HANDLE port;
static volatile LONG seen[PRODUCERS][PER_PRODUCER / 32 + 1];
static volatile LONG duplicates, garbage;
static volatile LONG64 sums[PRODUCERS];
static volatile LONG total;

static DWORD WINAPI producer(void *arg)
{
	ULONG_PTR id = (ULONG_PTR)arg;

	for (DWORD i = 0; i < PER_PRODUCER; i++)
		if (!PostQueuedCompletionStatus(port, i * 7, id, (OVERLAPPED *)(ULONG_PTR)(i + 1)))
			return 1;
	return 0;
}

/* FALSE for a quit packet. */
static BOOL account(ULONG_PTR key, OVERLAPPED *ov, DWORD bytes)
{
	DWORD seq = (DWORD)(ULONG_PTR)ov - 1;
	LONG bit;

	if (key == QUIT_KEY)
		return FALSE;
	if (key >= PRODUCERS || seq >= PER_PRODUCER || bytes != seq * 7) {
		InterlockedIncrement(&garbage);
		return TRUE;
	}
	bit = 1L << (seq % 32);
	if (InterlockedOr(&seen[key][seq / 32], bit) & bit)
		InterlockedIncrement(&duplicates);
	InterlockedAdd64(&sums[key], seq);
	InterlockedIncrement(&total);
	return TRUE;
}

static DWORD WINAPI consumer(void *arg)
{
	OVERLAPPED_ENTRY e[8];
	OVERLAPPED *ov;
	ULONG_PTR key;
	DWORD bytes;
	ULONG n;

	for (;;) {
		if (arg) {
			BOOL quit = FALSE;

			if (!GetQueuedCompletionStatusEx(port, e, 8, &n, 30000, FALSE))
				return 1;
			for (ULONG i = 0; i < n; i++) {
				if (account(e[i].lpCompletionKey, e[i].lpOverlapped,
					    e[i].dwNumberOfBytesTransferred))
					continue;
				if (quit) /* one quit packet each: give the others back */
					PostQueuedCompletionStatus(port, 0, QUIT_KEY, NULL);
				quit = TRUE;
			}
			if (quit)
				return 0;
		} else {
			if (!GetQueuedCompletionStatus(port, &bytes, &key, &ov, 30000))
				return 1;
			if (!account(key, ov, bytes))
				return 0;
		}
	}
}

int main(void)
{
	HANDLE prod[PRODUCERS], cons[CONSUMERS];
	LONG64 want = (LONG64)PER_PRODUCER * (PER_PRODUCER - 1) / 2;
	DWORD code;
	int i;

	port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, CONSUMERS);
	for (i = 0; i < CONSUMERS; i++)
		cons[i] = CreateThread(NULL, 0, consumer, (void *)(ULONG_PTR)(i & 1), 0, NULL);
	for (i = 0; i < PRODUCERS; i++)
		prod[i] = CreateThread(NULL, 0, producer, (void *)(ULONG_PTR)i, 0, NULL);
	ok(WaitForMultipleObjects(PRODUCERS, prod, TRUE, 60000) == WAIT_OBJECT_0, "producers hung\n");
	for (i = 0; i < CONSUMERS; i++)
		PostQueuedCompletionStatus(port, 0, QUIT_KEY, NULL);
	ok(WaitForMultipleObjects(CONSUMERS, cons, TRUE, 60000) == WAIT_OBJECT_0, "consumers hung\n");
	for (i = 0; i < PRODUCERS; i++) {
		GetExitCodeThread(prod[i], &code);
		ok(code == 0, "producer %d failed\n", i);
		ok(sums[i] == want, "producer %d: sum %lld, want %lld\n", i, sums[i], want);
		for (int w = 0; w < PER_PRODUCER / 32; w++)
			if (seen[i][w] != -1) {
				ok(0, "producer %d: packets missing around %d\n", i, w * 32);
				break;
			}
		CloseHandle(prod[i]);
	}
	for (i = 0; i < CONSUMERS; i++) {
		GetExitCodeThread(cons[i], &code);
		ok(code == 0, "consumer %d timed out\n", i);
		CloseHandle(cons[i]);
	}
	ok(total == PRODUCERS * PER_PRODUCER, "%ld packets, want %d\n", total, PRODUCERS * PER_PRODUCER);
	ok(!duplicates && !garbage, "%ld duplicates, %ld garbled\n", duplicates, garbage);
	CloseHandle(port);
	return test_summary();
}

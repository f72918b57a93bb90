/* WaitOnAddress / WakeByAddressSingle / WakeByAddressAll (synchapi.h,
 * API set api-ms-win-core-synch-l1-2-0).
 *
 * Any address and a value of 1, 2, 4 or 8 bytes can be waited on, so the
 * kernel's 32-bit futex cannot be used on the address itself: waiters
 * queue in a bucket of a hash table keyed by address, each sleeping on
 * its own futex word.  The comparison happens under the bucket lock and
 * wakers take the same lock, so a waker that changed the value before
 * waking cannot slip in between a waiter's comparison and its sleep. */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "core/debug.h"
#include "core/futex.h"
#include "core/list.h"
#include "kernel32/kernel32_private.h"

#define NR_BUCKETS 64

struct addr_waiter {
	struct list entry;
	const volatile void *addr;
	_Atomic uint32_t woken;
};

static struct bucket {
	pthread_mutex_t lock;
	struct list waiters;
} buckets[NR_BUCKETS];
static pthread_once_t buckets_once = PTHREAD_ONCE_INIT;

static void buckets_init(void)
{
	for (unsigned int i = 0; i < NR_BUCKETS; i++) {
		pthread_mutex_init(&buckets[i].lock, NULL);
		list_init(&buckets[i].waiters);
	}
}

static struct bucket *bucket_of(const volatile void *addr)
{
	uintptr_t a = (uintptr_t)addr;

	pthread_once(&buckets_once, buckets_init);
	return &buckets[((a >> 3) ^ (a >> 11)) % NR_BUCKETS];
}

static bool same_value(const volatile void *addr, const void *cmp, SIZE_T size)
{
	switch (size) {
	case 1:
		return *(const volatile uint8_t *)addr == *(const uint8_t *)cmp;
	case 2:
		return *(const volatile uint16_t *)addr == *(const uint16_t *)cmp;
	case 4:
		return *(const volatile uint32_t *)addr == *(const uint32_t *)cmp;
	default:
		return *(const volatile uint64_t *)addr == *(const uint64_t *)cmp;
	}
}

BOOL WINAPI WaitOnAddress(volatile void *addr, void *cmp, SIZE_T size, DWORD ms)
{
	struct addr_waiter w = { .addr = addr };
	struct bucket *b;
	struct timespec deadline;
	bool timed_out = false;

	if (!addr || !cmp || (size != 1 && size != 2 && size != 4 && size != 8)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	b = bucket_of(addr);
	pthread_mutex_lock(&b->lock);
	if (!same_value(addr, cmp, size)) {
		pthread_mutex_unlock(&b->lock);
		return TRUE;
	}
	if (!ms) {
		pthread_mutex_unlock(&b->lock);
		SetLastError(ERROR_TIMEOUT);
		return FALSE;
	}
	list_add_tail(&b->waiters, &w.entry);
	pthread_mutex_unlock(&b->lock);

	if (ms != INFINITE)
		deadline_after_ms(&deadline, ms);
	while (!atomic_load(&w.woken)) {
		if (futex_wait(&w.woken, 0, ms == INFINITE ? NULL : &deadline) == ETIMEDOUT) {
			timed_out = true;
			break;
		}
	}

	pthread_mutex_lock(&b->lock);
	if (!atomic_load(&w.woken))
		list_remove(&w.entry);
	else
		timed_out = false; /* woken at the deadline: a wake, not a timeout */
	pthread_mutex_unlock(&b->lock);
	if (timed_out) {
		SetLastError(ERROR_TIMEOUT);
		return FALSE;
	}
	return TRUE;
}

static void wake(void *addr, bool all)
{
	struct bucket *b = bucket_of(addr);
	struct list *cur, *next;

	pthread_mutex_lock(&b->lock);
	for (cur = b->waiters.next; cur != &b->waiters; cur = next) {
		struct addr_waiter *w = LIST_ENTRY(cur, struct addr_waiter, entry);

		next = cur->next;
		if (w->addr != addr)
			continue;
		list_remove(&w->entry);
		/* w lives on the waiter's stack: it stays valid until we
		 * unlock, since the waiter takes the bucket lock before it
		 * returns. */
		atomic_store(&w->woken, 1);
		futex_wake(&w->woken, 1);
		if (!all)
			break;
	}
	pthread_mutex_unlock(&b->lock);
}

void WINAPI WakeByAddressSingle(void *addr)
{
	wake(addr, false);
}

void WINAPI WakeByAddressAll(void *addr)
{
	wake(addr, true);
}

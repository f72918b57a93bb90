/* WaitOnAddress and WakeByAddress* (synchapi, api-ms-win-core-synch-l1-2):
 * a thread sleeps while a value of 1, 2, 4 or 8 bytes at an address
 * still equals the caller's copy.  Waiters queue per address in a small
 * hashed table of buckets; comparing the value and queueing happen under
 * the bucket's lock, and a waker takes the same lock, so a wake that
 * follows a store to the address is never lost.  Spurious returns are
 * allowed by the contract (callers re-check the value). */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "core/debug.h"
#include "core/list.h"
#include "kernel32/kernel32_private.h"

#define BUCKETS 64

struct addr_waiter {
	struct list entry;
	const volatile void *addr;
	pthread_cond_t cond;
	int woken;
};

static struct bucket {
	pthread_mutex_t lock;
	struct list waiters;
} buckets[BUCKETS];
static pthread_once_t buckets_once = PTHREAD_ONCE_INIT;

static void init_buckets(void)
{
	for (unsigned int i = 0; i < BUCKETS; i++) {
		pthread_mutex_init(&buckets[i].lock, NULL);
		list_init(&buckets[i].waiters);
	}
}

static struct bucket *bucket_of(const volatile void *addr)
{
	uintptr_t a = (uintptr_t)addr;

	pthread_once(&buckets_once, init_buckets);
	return &buckets[((a >> 3) ^ (a >> 11)) % BUCKETS];
}

static int same_value(const volatile void *addr, const void *compare, SIZE_T size)
{
	switch (size) {
	case 1:
		return *(const volatile uint8_t *)addr == *(const uint8_t *)compare;
	case 2:
		return *(const volatile uint16_t *)addr == *(const uint16_t *)compare;
	case 4:
		return *(const volatile uint32_t *)addr == *(const uint32_t *)compare;
	default:
		return *(const volatile uint64_t *)addr == *(const uint64_t *)compare;
	}
}

BOOL WINAPI WaitOnAddress(volatile void *addr, void *compare, SIZE_T size, DWORD timeout)
{
	struct addr_waiter w = { .addr = addr };
	struct bucket *b;
	struct timespec deadline;
	int rc = 0;

	if (!addr || !compare || (size != 1 && size != 2 && size != 4 && size != 8)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	TRACE(sync, "%p size %lu timeout %lu\n", (void *)addr, (unsigned long)size, (unsigned long)timeout);
	b = bucket_of(addr);
	pthread_mutex_lock(&b->lock);
	if (!same_value(addr, compare, size)) {
		pthread_mutex_unlock(&b->lock);
		return TRUE;
	}
	if (!timeout) {
		pthread_mutex_unlock(&b->lock);
		SetLastError(ERROR_TIMEOUT);
		return FALSE;
	}
	if (timeout != INFINITE) {
		clock_gettime(CLOCK_MONOTONIC, &deadline);
		deadline.tv_sec += timeout / 1000;
		deadline.tv_nsec += (long)(timeout % 1000) * 1000000;
		if (deadline.tv_nsec >= 1000000000) {
			deadline.tv_sec++;
			deadline.tv_nsec -= 1000000000;
		}
	}
	pthread_condattr_t attr;
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&w.cond, &attr);
	pthread_condattr_destroy(&attr);
	list_add_tail(&b->waiters, &w.entry);
	while (!w.woken && rc != ETIMEDOUT) {
		if (timeout == INFINITE)
			pthread_cond_wait(&w.cond, &b->lock);
		else
			rc = pthread_cond_timedwait(&w.cond, &b->lock, &deadline);
	}
	if (!w.woken)
		list_remove(&w.entry);
	pthread_mutex_unlock(&b->lock);
	pthread_cond_destroy(&w.cond);
	if (!w.woken) {
		SetLastError(ERROR_TIMEOUT);
		return FALSE;
	}
	return TRUE;
}

/* Wakes one waiter on addr, or all of them; the woken leave the queue. */
static void wake(const volatile void *addr, int all)
{
	struct bucket *b = bucket_of(addr);
	struct list *cur, *next;

	pthread_mutex_lock(&b->lock);
	LIST_FOR_EACH_SAFE(cur, next, &b->waiters) {
		struct addr_waiter *w = LIST_ENTRY(cur, struct addr_waiter, entry);
		if (w->addr != addr)
			continue;
		list_remove(&w->entry);
		w->woken = 1;
		pthread_cond_signal(&w->cond);
		if (!all)
			break;
	}
	pthread_mutex_unlock(&b->lock);
}

void WINAPI WakeByAddressSingle(void *addr)
{
	wake(addr, 0);
}

void WINAPI WakeByAddressAll(void *addr)
{
	wake(addr, 1);
}

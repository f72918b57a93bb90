/* Slim reader/writer locks: one pointer-sized word, whose low 32 bits
 * are the futex word:
 *   bit 31      held exclusively
 *   bit 30      threads may be sleeping (set by them before they sleep)
 *   bits 0-29   shared holders
 * A releaser that leaves the lock free and sees bit 30 clears it and
 * wakes every sleeper; they compete again.  New readers do not pass
 * sleepers, so a waiting writer is not starved by a stream of readers. */
#include <stdint.h>

#include "core/futex.h"
#include "kernel32/kernel32_private.h"

#define SRW_EXCLUSIVE 0x80000000u
#define SRW_WAITERS   0x40000000u
#define SRW_READERS   0x3fffffffu

static uint32_t *word(SRWLOCK *lock)
{
	return (uint32_t *)&lock->Ptr;
}

static bool cas(uint32_t *w, uint32_t *old, uint32_t new)
{
	return __atomic_compare_exchange_n(w, old, new, true, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/* Marks v as having sleepers and sleeps while the word stays so. */
static void sleep_on(uint32_t *w, uint32_t v)
{
	if (!(v & SRW_WAITERS) && !cas(w, &v, v | SRW_WAITERS))
		return;
	futex_wait(w, v | SRW_WAITERS, NULL);
}

VOID WINAPI InitializeSRWLock(PSRWLOCK lock)
{
	lock->Ptr = NULL;
}

BOOLEAN WINAPI TryAcquireSRWLockExclusive(PSRWLOCK lock)
{
	uint32_t v = 0;

	return cas(word(lock), &v, SRW_EXCLUSIVE);
}

VOID WINAPI AcquireSRWLockExclusive(PSRWLOCK lock)
{
	uint32_t *w = word(lock);

	for (;;) {
		uint32_t v = __atomic_load_n(w, __ATOMIC_RELAXED);

		if (!(v & (SRW_EXCLUSIVE | SRW_READERS))) {
			if (cas(w, &v, v | SRW_EXCLUSIVE))
				return;
			continue;
		}
		sleep_on(w, v);
	}
}

static bool try_shared(uint32_t *w, uint32_t v)
{
	if (v & (SRW_EXCLUSIVE | SRW_WAITERS))
		return false;
	return cas(w, &v, v + 1);
}

BOOLEAN WINAPI TryAcquireSRWLockShared(PSRWLOCK lock)
{
	uint32_t *w = word(lock);
	uint32_t v;

	while (!((v = __atomic_load_n(w, __ATOMIC_RELAXED)) & (SRW_EXCLUSIVE | SRW_WAITERS)))
		if (try_shared(w, v))
			return TRUE;
	return FALSE;
}

VOID WINAPI AcquireSRWLockShared(PSRWLOCK lock)
{
	uint32_t *w = word(lock);

	for (;;) {
		uint32_t v = __atomic_load_n(w, __ATOMIC_RELAXED);

		/* Readers also join a lock that only sleeping readers want:
		 * the waiters bit alone then means nothing to wait for. */
		if (!(v & SRW_EXCLUSIVE) && (!(v & SRW_WAITERS) || !(v & SRW_READERS))) {
			if (cas(w, &v, v + 1))
				return;
			continue;
		}
		sleep_on(w, v);
	}
}

VOID WINAPI ReleaseSRWLockExclusive(PSRWLOCK lock)
{
	if (__atomic_exchange_n(word(lock), 0, __ATOMIC_RELEASE) & SRW_WAITERS)
		futex_wake_all(word(lock));
}

VOID WINAPI ReleaseSRWLockShared(PSRWLOCK lock)
{
	uint32_t *w = word(lock);
	uint32_t v = __atomic_sub_fetch(w, 1, __ATOMIC_RELEASE);

	if (v == SRW_WAITERS && __atomic_compare_exchange_n(w, &v, 0, false, __ATOMIC_RELAXED,
							     __ATOMIC_RELAXED))
		futex_wake_all(w);
}

/* The contended halves of core/futexlock.h (the three-state futex
 * mutex: a locker that finds the lock held marks it 2 and sleeps; an
 * unlocker that finds 2 wakes one sleeper, which marks it 2 again, since
 * others may still sleep). */
#include "core/futex.h"
#include "core/futexlock.h"

void __attribute__((ms_abi, noinline)) futex_lock_contended(struct futex_lock *l)
{
	while (atomic_exchange_explicit(&l->word, 2, memory_order_acquire) != 0)
		futex_wait(&l->word, 2, NULL);
}

void __attribute__((ms_abi, noinline)) futex_unlock_contended(struct futex_lock *l)
{
	futex_wake(&l->word, 1);
}

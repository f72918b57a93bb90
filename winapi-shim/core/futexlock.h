/* A futex lock whose uncontended lock and unlock are one atomic
 * instruction each, inline, with no library call.
 *
 * For the locks of hot paths that ms_abi exports inline (the completion
 * port's, core/iocp_fast.h): any call to System V code there (glibc's
 * pthread_mutex_lock among them) makes gcc save and restore xmm6-xmm15
 * in the export's prologue and epilogue, twenty vector moves per call.
 * The contended halves are out of line and ms_abi themselves, so they
 * carry those saves only when they run.
 *
 * The word: 0 free, 1 held, 2 held and someone may sleep on it.  Not
 * recursive, no owner, no priority inheritance: what glibc's default
 * mutex gives, and no spinning either (neither does that mutex). */
#ifndef NDSHIM_FUTEXLOCK_H
#define NDSHIM_FUTEXLOCK_H

#include <stdatomic.h>
#include <stdint.h>

struct futex_lock {
	_Atomic uint32_t word;
};

#define FUTEX_LOCK_INIT { 0 }

void __attribute__((ms_abi)) futex_lock_contended(struct futex_lock *l);
void __attribute__((ms_abi)) futex_unlock_contended(struct futex_lock *l);

static inline void futex_lock_init(struct futex_lock *l)
{
	atomic_init(&l->word, 0);
}

static inline __attribute__((always_inline)) void futex_lock(struct futex_lock *l)
{
	uint32_t free_word = 0;

	if (__builtin_expect(!atomic_compare_exchange_strong_explicit(&l->word, &free_word, 1,
								       memory_order_acquire,
								       memory_order_relaxed), 0))
		futex_lock_contended(l);
}

static inline __attribute__((always_inline)) void futex_unlock(struct futex_lock *l)
{
	if (__builtin_expect(atomic_exchange_explicit(&l->word, 0, memory_order_release) == 2, 0))
		futex_unlock_contended(l);
}

#endif

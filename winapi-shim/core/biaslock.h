/* A lock biased to one thread: the first thread to take it claims it,
 * and while no other thread has taken it since, takes and drops it with
 * plain stores and no atomic read-modify-write; the first other thread
 * to take it revokes the bias for good, and from then on it is a
 * futex_lock for everyone.
 *
 * Why: a locked instruction costs about 4.5 ns on this project's VMs,
 * and a thread that posts to and dequeues from its own completion port
 * takes the port lock twice per packet (core/iocp_fast.h).  A port used
 * by one thread only (the one-thread post + dequeue of
 * docs/PERFORMANCE.md, or one worker on a port its creator only made)
 * keeps its bias; a port shared by threads pays one revocation, a
 * membarrier() system call, and is a plain futex lock after that.
 *
 * How the two sides agree without the owner fencing (the asymmetric
 * Dekker pattern): the owner stores owner_in = 1, then reads revoked; a
 * revoker stores revoked = 1 (under the futex lock), runs
 * membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED), which puts a full
 * barrier into every running thread of the process, then waits for
 * owner_in to read 0.  Either the owner's store of owner_in is visible
 * to the revoker by then, or the owner's read of revoked comes after the
 * barrier and sees 1, and the owner backs off to the futex lock.  Where
 * membarrier is missing (old kernels, valgrind), no lock is biased.
 *
 * The owner is named by the address of a thread variable: a thread that
 * later gets the same address (after the owner exited) only inherits
 * the bias, still one living thread at a time. */
#ifndef NDSHIM_BIASLOCK_H
#define NDSHIM_BIASLOCK_H

#include <stdbool.h>

#include "core/futexlock.h"

struct bias_lock {
	struct futex_lock lock;
	/* &bias_lock_self of the owner, NULL before the first lock; set
	 * once, under the futex lock. */
	_Atomic(const void *) owner;
	_Atomic uint8_t owner_in; /* the owner holds it through the bias */
	_Atomic uint8_t revoked;  /* set once, under the futex lock */
	bool biasable;            /* membarrier is there */
};

extern __thread char bias_lock_self;

void bias_lock_init(struct bias_lock *l);

/* The lock from a thread that is not the owner, or finds the bias
 * revoked: claims the bias if nobody has it yet, else revokes it if that
 * is not done yet (out of line, ms_abi for the same reason as
 * futexlock.h's). */
void __attribute__((ms_abi)) bias_lock_slow(struct bias_lock *l);

static inline __attribute__((always_inline)) bool bias_lock_mine(struct bias_lock *l)
{
	return atomic_load_explicit(&l->owner, memory_order_relaxed) == &bias_lock_self;
}

static inline __attribute__((always_inline)) void bias_lock(struct bias_lock *l)
{
	if (bias_lock_mine(l)) {
		atomic_store_explicit(&l->owner_in, 1, memory_order_relaxed);
		/* The store above and the read below stay in this order in
		 * the code; the revoker's membarrier orders them in the CPU. */
		atomic_signal_fence(memory_order_seq_cst);
		if (__builtin_expect(!atomic_load_explicit(&l->revoked, memory_order_relaxed), 1)) {
			atomic_signal_fence(memory_order_seq_cst);
			return;
		}
		atomic_store_explicit(&l->owner_in, 0, memory_order_release);
	}
	bias_lock_slow(l);
}

static inline __attribute__((always_inline)) void bias_unlock(struct bias_lock *l)
{
	if (atomic_load_explicit(&l->owner_in, memory_order_relaxed) && bias_lock_mine(l)) {
		/* A release store: a plain mov on x86, after every store of
		 * the critical section. */
		atomic_store_explicit(&l->owner_in, 0, memory_order_release);
		return;
	}
	futex_unlock(&l->lock);
}

#endif

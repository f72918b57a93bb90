/* Locks over what Windows keeps in its kernel: handles, waits, ports,
 * I/O requests, pipes, sockets, the address space, the thread list.  A
 * thread suspended on Windows never stops inside its kernel holding such
 * a lock; here SuspendThread stops a thread by a signal, wherever it is,
 * so a thread holding one of these parks only once it has let go of all
 * of them (core/suspend.c).  Locks of what Windows keeps in user mode
 * (heaps, the C runtime, the loader lock) stay plain: a suspended Windows
 * thread may hold those too. */
#ifndef NDSHIM_KLOCK_H
#define NDSHIM_KLOCK_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>

#include "core/futex.h"
#include "core/biaslock.h"
#include "core/futexlock.h"

/* core/suspend.c: how many kernel locks the calling thread holds, and
 * whether a suspension came meanwhile (its signal handler reads and
 * sets them).  Inline, so that hot ms_abi exports call no System V code
 * for them (core/futexlock.h says why that matters). */
extern __thread unsigned int suspend_hold_depth;
extern __thread volatile sig_atomic_t suspend_deferred;
void __attribute__((ms_abi)) suspend_park_deferred(void);

/* The calling thread holds (one more) kernel lock. */
static inline void suspend_hold(void)
{
	suspend_hold_depth++;
	atomic_signal_fence(memory_order_seq_cst);
}

/* It lets one go, and parks now if a suspension came meanwhile. */
static inline void suspend_allow(void)
{
	atomic_signal_fence(memory_order_seq_cst);
	if (!--suspend_hold_depth && __builtin_expect(suspend_deferred, 0))
		suspend_park_deferred();
}

static inline void klock(pthread_mutex_t *m)
{
	suspend_hold();
	pthread_mutex_lock(m);
}

static inline void kunlock(pthread_mutex_t *m)
{
	pthread_mutex_unlock(m);
	suspend_allow();
}

/* kunlock, with the wakes decided under the lock sent before the thread
 * may park. */
static inline void kunlock_wake(pthread_mutex_t *m, struct futex_wakes *wakes)
{
	pthread_mutex_unlock(m);
	futex_wake_flush(wakes);
	suspend_allow();
}

/* The same over a futex_lock, for hot paths that ms_abi exports inline. */
static inline void kflock(struct futex_lock *l)
{
	suspend_hold();
	futex_lock(l);
}

static inline void kfunlock(struct futex_lock *l)
{
	futex_unlock(l);
	suspend_allow();
}

static inline void kfunlock_wake(struct futex_lock *l, struct futex_wakes *wakes)
{
	futex_unlock(l);
	futex_wake_flush(wakes);
	suspend_allow();
}

/* The same over a bias_lock (core/biaslock.h). */
static inline __attribute__((always_inline)) void kblock(struct bias_lock *l)
{
	suspend_hold();
	bias_lock(l);
}

static inline __attribute__((always_inline)) void kbunlock(struct bias_lock *l)
{
	bias_unlock(l);
	suspend_allow();
}

static inline void kbunlock_wake(struct bias_lock *l, struct futex_wakes *wakes)
{
	bias_unlock(l);
	futex_wake_flush(wakes);
	suspend_allow();
}

#endif

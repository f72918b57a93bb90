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

#include "core/futex.h"

/* core/suspend.c: the calling thread holds (one more) kernel lock; lets
 * one go, and parks now if a suspension came meanwhile. */
void suspend_hold(void);
void suspend_allow(void);

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

#endif

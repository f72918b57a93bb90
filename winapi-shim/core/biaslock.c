/* The out-of-line halves of core/biaslock.h. */
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/biaslock.h"
#include "core/debug.h"

__thread char bias_lock_self;

static pthread_once_t membarrier_once = PTHREAD_ONCE_INIT;
static bool membarrier_ok;

static void membarrier_register(void)
{
	/* Registering once lets every later PRIVATE_EXPEDITED call work. */
	membarrier_ok = syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
	TRACE(iocp, "membarrier: %s\n", membarrier_ok ? "registered, port locks biased" : "not available");
}

void bias_lock_init(struct bias_lock *l)
{
	futex_lock_init(&l->lock);
	pthread_once(&membarrier_once, membarrier_register);
	l->owner = membarrier_ok ? &bias_lock_self : NULL;
	atomic_init(&l->owner_in, 0);
	atomic_init(&l->revoked, 0);
}

void __attribute__((ms_abi, noinline)) bias_lock_slow(struct bias_lock *l)
{
	futex_lock(&l->lock);
	/* revoked changes only here, under the futex lock. */
	if (l->owner && !atomic_load_explicit(&l->revoked, memory_order_relaxed)) {
		atomic_store_explicit(&l->revoked, 1, memory_order_relaxed);
		/* Cannot fail once registered (membarrier_ok). */
		syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
		/* The owner inside: its critical sections are short and never
		 * block. */
		while (atomic_load_explicit(&l->owner_in, memory_order_acquire))
			sched_yield();
	}
}

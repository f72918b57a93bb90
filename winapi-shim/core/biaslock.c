/* The out-of-line halves of core/biaslock.h. */
#include <errno.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
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
	l->biasable = membarrier_ok;
	atomic_init(&l->owner, NULL);
	atomic_init(&l->owner_in, 0);
	atomic_init(&l->revoked, 0);
}

void __attribute__((ms_abi, noinline)) bias_lock_slow(struct bias_lock *l)
{
	const void *owner;

	futex_lock(&l->lock);
	/* owner and revoked change only here, under the futex lock.  The
	 * first locker claims the bias: it holds the futex lock this time,
	 * and takes the biased path from the next lock on. */
	if (atomic_load_explicit(&l->revoked, memory_order_relaxed) || !l->biasable)
		return;
	owner = atomic_load_explicit(&l->owner, memory_order_relaxed);
	if (!owner) {
		atomic_store_explicit(&l->owner, &bias_lock_self, memory_order_relaxed);
		return;
	}
	if (owner != &bias_lock_self) {
		atomic_store_explicit(&l->revoked, 1, memory_order_relaxed);
		/* Registered (membarrier_ok), so it cannot fail; if it did,
		 * the owner could be inside unseen: stop rather than race. */
		if (syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0)) {
			ndrun_error("internal error: membarrier failed: %s", strerror(errno));
			abort();
		}
		/* The owner inside: its critical sections are short and never
		 * block. */
		while (atomic_load_explicit(&l->owner_in, memory_order_acquire))
			sched_yield();
	}
}

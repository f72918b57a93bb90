/* Futex wait/wake on a 32-bit word, and CLOCK_MONOTONIC deadlines.
 *
 * Every blocking primitive in ndshim sleeps here: no polling, no sleeps
 * to wait for state. */
#ifndef NDSHIM_FUTEX_H
#define NDSHIM_FUTEX_H

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/syscall.h>

/* Sleeps while *word == val, until woken or the absolute CLOCK_MONOTONIC
 * deadline passes (NULL: no deadline).  0 when woken (or spuriously),
 * else the errno: EAGAIN (value changed), EINTR, ETIMEDOUT. */
static inline int futex_wait(void *word, uint32_t val, const struct timespec *deadline)
{
	/* WAIT_BITSET takes an absolute time on CLOCK_MONOTONIC. */
	if (syscall(SYS_futex, word, FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG, val, deadline, NULL,
		    FUTEX_BITSET_MATCH_ANY) == 0)
		return 0;
	return errno;
}

static inline void futex_wake(void *word, int nr)
{
	syscall(SYS_futex, word, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, nr, NULL, NULL, 0);
}

static inline void futex_wake_all(void *word)
{
	futex_wake(word, INT_MAX);
}

/* *ts = now + ms on CLOCK_MONOTONIC. */
static inline void deadline_after_ms(struct timespec *ts, uint32_t ms)
{
	clock_gettime(CLOCK_MONOTONIC, ts);
	ts->tv_sec += ms / 1000;
	ts->tv_nsec += (long)(ms % 1000) * 1000000;
	if (ts->tv_nsec >= 1000000000) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000;
	}
}

#endif

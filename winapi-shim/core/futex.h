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

/* Wakes decided under a lock and done after it is dropped, so that the
 * woken thread does not run straight into the lock its waker still
 * holds.  Such a wake may reach a word whose waiter has already left (it
 * saw the new value without sleeping, or timed out) and whose memory
 * now holds another futex word: a spurious wake-up, which every futex
 * waiter (ndshim's and glibc's) absorbs by checking its word again. */
struct futex_wakes {
	void *word[8];
	unsigned int n;
};

static inline void futex_wake_later(struct futex_wakes *fw, void *word)
{
	/* Full: wake now; still correct, only the hand-off is not clean. */
	if (fw->n == sizeof(fw->word) / sizeof(fw->word[0]))
		futex_wake(word, 1);
	else
		fw->word[fw->n++] = word;
}

static inline void futex_wake_flush(struct futex_wakes *fw)
{
	for (unsigned int i = 0; i < fw->n; i++)
		futex_wake(fw->word[i], 1);
	fw->n = 0;
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

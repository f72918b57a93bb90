/* core/futexlock.h: the futex lock the completion port's hot path uses,
 * and klock.h's kflock over it.  Mutual exclusion under contention (a
 * counter and an occupancy check), the contended path taken on purpose
 * (a locker that must sleep marks the word 2 and is woken by the
 * unlock), and the suspension hold count kflock keeps. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <time.h>
#include <cmocka.h>

#include "core/futexlock.h"
#include "core/klock.h"

#define NTHREADS 4
#define ITERS 200000

static struct futex_lock lock = FUTEX_LOCK_INIT;
static unsigned long counter;
static atomic_int inside, overlaps;

static void *worker(void *arg)
{
	bool use_klock = arg != NULL;

	for (int i = 0; i < ITERS; i++) {
		if (use_klock)
			kflock(&lock);
		else
			futex_lock(&lock);
		if (atomic_fetch_add(&inside, 1))
			atomic_fetch_add(&overlaps, 1);
		counter++;
		/* Now and then hold the lock across a reschedule, so that
		 * others find it held and sleep. */
		if (!(i % 512))
			sched_yield();
		atomic_fetch_sub(&inside, 1);
		if (use_klock)
			kfunlock(&lock);
		else
			futex_unlock(&lock);
	}
	return NULL;
}

static void run_contended(bool use_klock)
{
	pthread_t t[NTHREADS];

	counter = 0;
	atomic_store(&overlaps, 0);
	for (int i = 0; i < NTHREADS; i++)
		assert_int_equal(pthread_create(&t[i], NULL, worker, use_klock ? (void *)1 : NULL), 0);
	for (int i = 0; i < NTHREADS; i++)
		assert_int_equal(pthread_join(t[i], NULL), 0);
	assert_int_equal(atomic_load(&overlaps), 0);
	assert_int_equal(counter, (unsigned long)NTHREADS * ITERS);
	assert_int_equal(atomic_load(&lock.word), 0);
}

static void test_uncontended(void **state)
{
	struct futex_lock l;

	futex_lock_init(&l);
	futex_lock(&l);
	assert_int_equal(atomic_load(&l.word), 1);
	futex_unlock(&l);
	assert_int_equal(atomic_load(&l.word), 0);
}

static void test_contended(void **state)
{
	run_contended(false);
}

static void test_contended_klock(void **state)
{
	assert_int_equal(suspend_hold_depth, 0);
	run_contended(true);
	assert_int_equal(suspend_hold_depth, 0);
}

static atomic_int sleeper_has_it;

static void *sleeper(void *arg)
{
	futex_lock(&lock);
	atomic_store(&sleeper_has_it, 1);
	futex_unlock(&lock);
	return NULL;
}

/* The sleeping side on purpose: a locker that finds the lock held marks
 * it 2 and sleeps until the holder's unlock wakes it. */
static void test_sleeper_woken(void **state)
{
	struct timespec ms = { 0, 1000000 };
	pthread_t t;
	int waited = 0;

	atomic_store(&sleeper_has_it, 0);
	futex_lock(&lock);
	assert_int_equal(pthread_create(&t, NULL, sleeper, NULL), 0);
	while (atomic_load(&lock.word) != 2 && waited++ < 10000)
		nanosleep(&ms, NULL);
	assert_int_equal(atomic_load(&lock.word), 2);
	assert_int_equal(atomic_load(&sleeper_has_it), 0);
	futex_unlock(&lock);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(atomic_load(&sleeper_has_it), 1);
	assert_int_equal(atomic_load(&lock.word), 0);
}

/* kflock counts one more kernel lock held until kfunlock; nested ones
 * add up. */
static void test_hold_count(void **state)
{
	struct futex_lock a = FUTEX_LOCK_INIT, b = FUTEX_LOCK_INIT;

	assert_int_equal(suspend_hold_depth, 0);
	kflock(&a);
	assert_int_equal(suspend_hold_depth, 1);
	kflock(&b);
	assert_int_equal(suspend_hold_depth, 2);
	kfunlock(&b);
	assert_int_equal(suspend_hold_depth, 1);
	kfunlock(&a);
	assert_int_equal(suspend_hold_depth, 0);
	assert_int_equal(suspend_deferred, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uncontended),
		cmocka_unit_test(test_contended),
		cmocka_unit_test(test_contended_klock),
		cmocka_unit_test(test_sleeper_woken),
		cmocka_unit_test(test_hold_count),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

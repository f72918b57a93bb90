/* core/biaslock.h: the first thread to take the lock claims the bias
 * (through the futex word that once) and then takes it without touching
 * the futex word; another thread revokes the bias (waiting out an owner
 * inside) and the lock stays exclusive through and after the
 * revocation, with the owner and three others hammering it.  Where
 * membarrier is missing no lock is biased: the tests that need a bias
 * say so and skip. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <cmocka.h>

#include "core/biaslock.h"

#define NTHREADS 4
#define ITERS 200000

static struct bias_lock lock;
static unsigned long counter;
static atomic_int inside, overlaps, owner_ready;

static void enter(void)
{
	if (atomic_fetch_add(&inside, 1))
		atomic_fetch_add(&overlaps, 1);
	counter++;
}

static void leave(void)
{
	atomic_fetch_sub(&inside, 1);
}

static bool biased(struct bias_lock *l)
{
	if (l->biasable)
		return true;
	print_message("membarrier is not available here: no lock is biased\n");
	return false;
}

static void test_owner_path(void **state)
{
	struct bias_lock l;

	bias_lock_init(&l);
	if (!biased(&l))
		skip();
	assert_null(atomic_load(&l.owner));
	/* The first lock claims the bias, through the futex word. */
	bias_lock(&l);
	assert_int_equal(atomic_load(&l.owner_in), 0);
	assert_int_equal(atomic_load(&l.lock.word), 1);
	assert_ptr_equal(atomic_load(&l.owner), &bias_lock_self);
	bias_unlock(&l);
	assert_int_equal(atomic_load(&l.lock.word), 0);
	/* From then on, the word stays untouched. */
	bias_lock(&l);
	assert_int_equal(atomic_load(&l.owner_in), 1);
	assert_int_equal(atomic_load(&l.lock.word), 0);
	bias_unlock(&l);
	assert_int_equal(atomic_load(&l.owner_in), 0);
	assert_int_equal(atomic_load(&l.revoked), 0);
}

/* The owner: makes the lock and takes it first (so it claims the
 * bias), then hammers it. */
static void *owner_thread(void *arg)
{
	bias_lock_init(&lock);
	for (int i = 0; i < ITERS; i++) {
		bias_lock(&lock);
		enter();
		if (i == 1000)
			atomic_store(&owner_ready, 1);
		if (!(i % 512))
			sched_yield();
		leave();
		bias_unlock(&lock);
	}
	return NULL;
}

static void *other_thread(void *arg)
{
	while (!atomic_load(&owner_ready))
		sched_yield();
	for (int i = 0; i < ITERS; i++) {
		bias_lock(&lock);
		enter();
		if (!(i % 512))
			sched_yield();
		leave();
		bias_unlock(&lock);
	}
	return NULL;
}

static void test_revoked_under_contention(void **state)
{
	pthread_t t[NTHREADS];

	counter = 0;
	atomic_store(&overlaps, 0);
	atomic_store(&owner_ready, 0);
	assert_int_equal(pthread_create(&t[0], NULL, owner_thread, NULL), 0);
	for (int i = 1; i < NTHREADS; i++)
		assert_int_equal(pthread_create(&t[i], NULL, other_thread, NULL), 0);
	for (int i = 0; i < NTHREADS; i++)
		assert_int_equal(pthread_join(t[i], NULL), 0);
	assert_int_equal(atomic_load(&overlaps), 0);
	assert_int_equal(counter, (unsigned long)NTHREADS * ITERS);
	assert_int_equal(atomic_load(&lock.lock.word), 0);
	assert_int_equal(atomic_load(&lock.owner_in), 0);
	if (lock.biasable)
		assert_int_equal(atomic_load(&lock.revoked), 1);
}

static atomic_int other_has_it;

static void *revoker(void *arg)
{
	bias_lock(&lock);
	atomic_store(&other_has_it, 1);
	bias_unlock(&lock);
	return NULL;
}

/* A revoker waits for the owner inside to leave. */
static void test_revoker_waits_for_owner(void **state)
{
	struct timespec ms50 = { 0, 50000000 };
	pthread_t t;

	bias_lock_init(&lock);
	if (!biased(&lock))
		skip();
	atomic_store(&other_has_it, 0);
	bias_lock(&lock); /* claims */
	bias_unlock(&lock);
	bias_lock(&lock);
	assert_int_equal(atomic_load(&lock.owner_in), 1);
	assert_int_equal(pthread_create(&t, NULL, revoker, NULL), 0);
	nanosleep(&ms50, NULL);
	assert_int_equal(atomic_load(&other_has_it), 0);
	assert_int_equal(atomic_load(&lock.revoked), 1);
	bias_unlock(&lock);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(atomic_load(&other_has_it), 1);
	/* Revoked for good: the owner goes through the futex word now. */
	bias_lock(&lock);
	assert_int_equal(atomic_load(&lock.owner_in), 0);
	assert_int_equal(atomic_load(&lock.lock.word), 1);
	bias_unlock(&lock);
	assert_int_equal(atomic_load(&lock.lock.word), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_owner_path),
		cmocka_unit_test(test_revoked_under_contention),
		cmocka_unit_test(test_revoker_waits_for_owner),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Critical sections, SRW locks, condition variables, InitOnce and SLists
 * under contention, with counts checked. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kernel32/kernel32_private.h"
#include "win32_helper.h"

#define NTHREADS 4
#define ITERS 4000

static void run_threads(LPTHREAD_START_ROUTINE fn, void *arg, int n)
{
	HANDLE t[16];

	for (int i = 0; i < n; i++) {
		t[i] = CreateThread(NULL, 0, fn, arg, 0, NULL);
		assert_non_null(t[i]);
	}
	assert_int_equal(WaitForMultipleObjects(n, t, TRUE, 300000), WAIT_OBJECT_0);
	for (int i = 0; i < n; i++) {
		DWORD code;

		GetExitCodeThread(t[i], &code);
		assert_int_equal(code, 0);
		CloseHandle(t[i]);
	}
}

static CRITICAL_SECTION cs;
static volatile long counter;

static DWORD WINAPI cs_worker(void *arg)
{
	for (int i = 0; i < ITERS; i++) {
		EnterCriticalSection(&cs);
		EnterCriticalSection(&cs); /* recursion */
		long v = counter;
		counter = v + 1;
		if (cs.RecursionCount != 2 || cs.OwningThread != (HANDLE)(uintptr_t)GetCurrentThreadId())
			return 1;
		LeaveCriticalSection(&cs);
		LeaveCriticalSection(&cs);
	}
	return 0;
}

static void test_critical_section_contention(void **state)
{
	InitializeCriticalSection(&cs);
	counter = 0;
	run_threads(cs_worker, NULL, NTHREADS);
	assert_int_equal(counter, NTHREADS * ITERS);
	assert_int_equal(cs.LockCount, -1);
	assert_int_equal(cs.RecursionCount, 0);
	assert_null(cs.OwningThread);
	DeleteCriticalSection(&cs);

	/* With a spin count too. */
	assert_true(InitializeCriticalSectionAndSpinCount(&cs, 4000));
	counter = 0;
	run_threads(cs_worker, NULL, NTHREADS);
	assert_int_equal(counter, NTHREADS * ITERS);
	DeleteCriticalSection(&cs);
}

static DWORD WINAPI try_enter_other(void *arg)
{
	if (TryEnterCriticalSection(arg)) {
		LeaveCriticalSection(arg);
		return 1;
	}
	return 0;
}

static DWORD WINAPI try_enter_succeeds(void *arg)
{
	if (!TryEnterCriticalSection(arg))
		return 1;
	LeaveCriticalSection(arg);
	return 0;
}

static void test_critical_section_try_and_static(void **state)
{
	/* The static initialiser layout, as Windows code writes it. */
	CRITICAL_SECTION s = { (PRTL_CRITICAL_SECTION_DEBUG)-1, -1, 0, 0, 0, 0 };

	assert_int_equal(sizeof(CRITICAL_SECTION), 40);
	assert_true(TryEnterCriticalSection(&s));
	assert_true(TryEnterCriticalSection(&s));
	assert_int_equal(s.RecursionCount, 2);
	run_threads(try_enter_other, &s, 1);
	LeaveCriticalSection(&s);
	run_threads(try_enter_other, &s, 1);
	LeaveCriticalSection(&s);
	run_threads(try_enter_succeeds, &s, 1);
	assert_int_equal(s.LockCount, -1);

	/* Zeroed, then initialised. */
	memset(&s, 0, sizeof(s));
	assert_true(InitializeCriticalSectionEx(&s, 0, RTL_CRITICAL_SECTION_FLAG_NO_DEBUG_INFO));
	EnterCriticalSection(&s);
	run_threads(try_enter_other, &s, 1);
	LeaveCriticalSection(&s);
	DeleteCriticalSection(&s);
	SetLastError(0);
	assert_false(InitializeCriticalSectionEx(&s, 0, 0x10));
	assert_int_equal(GetLastError(), ERROR_INVALID_PARAMETER);
}

static SRWLOCK srw = SRWLOCK_INIT;
static volatile long pair_a, pair_b;
static volatile long readers_in, max_readers;

static DWORD WINAPI srw_worker(void *arg)
{
	for (int i = 0; i < ITERS; i++) {
		if (i % 4 == 0) {
			AcquireSRWLockExclusive(&srw);
			if (readers_in)
				return 1;
			pair_a++;
			pair_b++;
			ReleaseSRWLockExclusive(&srw);
		} else {
			AcquireSRWLockShared(&srw);
			long r = __atomic_add_fetch(&readers_in, 1, __ATOMIC_SEQ_CST);
			long m = max_readers;
			if (r > m)
				__atomic_compare_exchange_n(&max_readers, &m, r, false, __ATOMIC_SEQ_CST,
							    __ATOMIC_SEQ_CST);
			if (pair_a != pair_b)
				return 2;
			__atomic_sub_fetch(&readers_in, 1, __ATOMIC_SEQ_CST);
			ReleaseSRWLockShared(&srw);
		}
	}
	return 0;
}

static void test_srw_contention(void **state)
{
	InitializeSRWLock(&srw);
	pair_a = pair_b = 0;
	run_threads(srw_worker, NULL, NTHREADS);
	assert_int_equal(pair_a, NTHREADS * ITERS / 4);
	assert_int_equal(pair_b, pair_a);
	assert_null(srw.Ptr); /* free and no waiters left */
}

static DWORD WINAPI srw_try_exclusive(void *arg)
{
	return TryAcquireSRWLockExclusive(arg) ? 1 : 0;
}

static DWORD WINAPI srw_try_shared(void *arg)
{
	if (!TryAcquireSRWLockShared(arg))
		return 1;
	ReleaseSRWLockShared(arg);
	return 0;
}

static void test_srw_try(void **state)
{
	SRWLOCK l = SRWLOCK_INIT;

	assert_true(TryAcquireSRWLockShared(&l));
	assert_true(TryAcquireSRWLockShared(&l));
	assert_false(TryAcquireSRWLockExclusive(&l));
	run_threads(srw_try_exclusive, &l, 1);
	run_threads(srw_try_shared, &l, 1);
	ReleaseSRWLockShared(&l);
	ReleaseSRWLockShared(&l);
	assert_true(TryAcquireSRWLockExclusive(&l));
	assert_false(TryAcquireSRWLockShared(&l));
	assert_false(TryAcquireSRWLockExclusive(&l));
	ReleaseSRWLockExclusive(&l);
	assert_null(l.Ptr);
}

/* A bounded queue: producers and consumers on one CS + two condvars. */
#define QCAP 8
static struct {
	CRITICAL_SECTION lock;
	SRWLOCK srw;
	CONDITION_VARIABLE not_empty, not_full;
	int items[QCAP];
	int head, count;
	long produced_sum, consumed_sum;
	int use_srw;
} q;

static void q_lock(void)
{
	if (q.use_srw)
		AcquireSRWLockExclusive(&q.srw);
	else
		EnterCriticalSection(&q.lock);
}

static void q_unlock(void)
{
	if (q.use_srw)
		ReleaseSRWLockExclusive(&q.srw);
	else
		LeaveCriticalSection(&q.lock);
}

static void q_sleep(CONDITION_VARIABLE *cv)
{
	if (q.use_srw)
		SleepConditionVariableSRW(cv, &q.srw, INFINITE, 0);
	else
		SleepConditionVariableCS(cv, &q.lock, INFINITE);
}

static DWORD WINAPI producer(void *arg)
{
	for (int i = 1; i <= ITERS / 4; i++) {
		q_lock();
		while (q.count == QCAP)
			q_sleep(&q.not_full);
		q.items[(q.head + q.count++) % QCAP] = i;
		q.produced_sum += i;
		WakeConditionVariable(&q.not_empty);
		q_unlock();
	}
	return 0;
}

static DWORD WINAPI consumer(void *arg)
{
	for (int i = 1; i <= ITERS / 4; i++) {
		q_lock();
		while (q.count == 0)
			q_sleep(&q.not_empty);
		q.consumed_sum += q.items[q.head];
		q.head = (q.head + 1) % QCAP;
		q.count--;
		WakeConditionVariable(&q.not_full);
		q_unlock();
	}
	return 0;
}

static DWORD WINAPI prod_or_cons(void *arg)
{
	return __atomic_fetch_add((long *)arg, 1, __ATOMIC_SEQ_CST) % 2 ? consumer(NULL) : producer(NULL);
}

static void test_condition_variables(void **state)
{
	for (q.use_srw = 0; q.use_srw < 2; q.use_srw++) {
		long which = 0;

		InitializeCriticalSection(&q.lock);
		InitializeSRWLock(&q.srw);
		InitializeConditionVariable(&q.not_empty);
		InitializeConditionVariable(&q.not_full);
		q.head = q.count = 0;
		q.produced_sum = q.consumed_sum = 0;
		run_threads(prod_or_cons, &which, NTHREADS);
		assert_int_equal(q.count, 0);
		assert_int_equal(q.consumed_sum, q.produced_sum);
		assert_int_equal(q.produced_sum, (long)(NTHREADS / 2) * (ITERS / 4) * (ITERS / 4 + 1) / 2);
		DeleteCriticalSection(&q.lock);
	}
}

static void test_condition_variable_timeout(void **state)
{
	CONDITION_VARIABLE cv = CONDITION_VARIABLE_INIT;
	CRITICAL_SECTION c;
	SRWLOCK l = SRWLOCK_INIT;

	InitializeCriticalSection(&c);
	EnterCriticalSection(&c);
	SetLastError(0);
	assert_false(SleepConditionVariableCS(&cv, &c, 30));
	assert_int_equal(GetLastError(), ERROR_TIMEOUT);
	assert_int_equal(c.RecursionCount, 1); /* re-acquired */
	LeaveCriticalSection(&c);
	AcquireSRWLockShared(&l);
	SetLastError(0);
	assert_false(SleepConditionVariableSRW(&cv, &l, 0, CONDITION_VARIABLE_LOCKMODE_SHARED));
	assert_int_equal(GetLastError(), ERROR_TIMEOUT);
	ReleaseSRWLockShared(&l);
	assert_null(l.Ptr);
	DeleteCriticalSection(&c);
}

static INIT_ONCE once = INIT_ONCE_STATIC_INIT;
static volatile long once_calls;
static int once_target;

static BOOL WINAPI once_fn(PINIT_ONCE o, PVOID param, PVOID *ctx)
{
	__atomic_add_fetch(&once_calls, 1, __ATOMIC_SEQ_CST);
	Sleep(20); /* let the others pile up behind us */
	*ctx = param;
	return TRUE;
}

static DWORD WINAPI once_worker(void *arg)
{
	void *ctx = NULL;

	if (!InitOnceExecuteOnce(&once, once_fn, &once_target, &ctx))
		return 1;
	return ctx == &once_target ? 0 : 2;
}

static BOOL WINAPI failing_fn(PINIT_ONCE o, PVOID param, PVOID *ctx)
{
	return FALSE;
}

static void test_init_once(void **state)
{
	INIT_ONCE o;
	BOOL pending;
	void *ctx;

	once_calls = 0;
	run_threads(once_worker, NULL, NTHREADS);
	assert_int_equal(once_calls, 1);

	InitOnceInitialize(&o);
	assert_false(InitOnceExecuteOnce(&o, failing_fn, NULL, NULL));
	SetLastError(0);
	assert_false(InitOnceBeginInitialize(&o, INIT_ONCE_CHECK_ONLY, &pending, &ctx));
	assert_true(InitOnceBeginInitialize(&o, 0, &pending, &ctx));
	assert_true(pending);
	SetLastError(0);
	assert_false(InitOnceComplete(&o, 0, (void *)3)); /* reserved bits */
	assert_int_equal(GetLastError(), ERROR_INVALID_PARAMETER);
	assert_true(InitOnceComplete(&o, 0, (void *)0x1230));
	assert_true(InitOnceBeginInitialize(&o, INIT_ONCE_CHECK_ONLY, &pending, &ctx));
	assert_false(pending);
	assert_ptr_equal(ctx, (void *)0x1230);
	assert_false(InitOnceComplete(&o, 0, NULL)); /* already done */
}

struct node {
	SLIST_ENTRY entry;
	long value;
};

static SLIST_HEADER slist;

static DWORD WINAPI slist_worker(void *arg)
{
	struct node *nodes = arg;

	/* Each thread pushes its nodes, and pops as many (any thread's). */
	for (int i = 0; i < 1000; i++)
		InterlockedPushEntrySList(&slist, &nodes[i].entry);
	for (int i = 0; i < 1000; i++)
		if (!InterlockedPopEntrySList(&slist))
			return 1;
	return 0;
}

static void test_slist(void **state)
{
	struct node *nodes = aligned_alloc(16, sizeof(struct node) * 1000 * NTHREADS);
	HANDLE t[NTHREADS];
	PSLIST_ENTRY e;
	long sum = 0;

	InitializeSListHead(&slist);
	assert_int_equal(QueryDepthSList(&slist), 0);
	assert_null(InterlockedPopEntrySList(&slist));
	for (int i = 0; i < 3; i++) {
		nodes[i].value = i + 1;
		assert_ptr_equal(InterlockedPushEntrySList(&slist, &nodes[i].entry),
				 i ? &nodes[i - 1].entry : NULL);
	}
	assert_int_equal(QueryDepthSList(&slist), 3);
	assert_ptr_equal(InterlockedPopEntrySList(&slist), &nodes[2].entry); /* LIFO */
	e = InterlockedFlushSList(&slist);
	assert_ptr_equal(e, &nodes[1].entry);
	assert_ptr_equal(e->Next, &nodes[0].entry);
	assert_int_equal(QueryDepthSList(&slist), 0);
	assert_null(InterlockedFlushSList(&slist));

	for (int i = 0; i < NTHREADS; i++)
		t[i] = CreateThread(NULL, 0, slist_worker, &nodes[i * 1000], 0, NULL);
	assert_int_equal(WaitForMultipleObjects(NTHREADS, t, TRUE, 60000), WAIT_OBJECT_0);
	for (int i = 0; i < NTHREADS; i++) {
		DWORD code;

		GetExitCodeThread(t[i], &code);
		assert_int_equal(code, 0);
		CloseHandle(t[i]);
	}
	assert_int_equal(QueryDepthSList(&slist), 0);
	assert_null(InterlockedPopEntrySList(&slist));

	/* A list spliced in at once. */
	for (int i = 0; i < 4; i++) {
		nodes[i].value = 10 * (i + 1);
		nodes[i].entry.Next = i < 3 ? &nodes[i + 1].entry : NULL;
	}
	InterlockedPushListSListEx(&slist, &nodes[0].entry, &nodes[3].entry, 4);
	assert_int_equal(QueryDepthSList(&slist), 4);
	while ((e = InterlockedPopEntrySList(&slist)))
		sum += ((struct node *)e)->value;
	assert_int_equal(sum, 100);
	free(nodes);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_critical_section_contention),
		cmocka_unit_test(test_critical_section_try_and_static),
		cmocka_unit_test(test_srw_contention),
		cmocka_unit_test(test_srw_try),
		cmocka_unit_test(test_condition_variables),
		cmocka_unit_test(test_condition_variable_timeout),
		cmocka_unit_test(test_init_once),
		cmocka_unit_test(test_slist),
	};
	return cmocka_run_group_tests(tests, win32_test_setup, win32_test_teardown);
}

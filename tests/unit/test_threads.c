/* Threads: exit codes, ExitThread, CREATE_SUSPENDED, thread handles,
 * ids, TEB ClientId, TLS and FLS slots, priority, affinity. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <cmocka.h>

#include "core/thread.h"
#include "loader.h"
#include "win32_helper.h"

static DWORD WINAPI return_arg(void *arg)
{
	return (DWORD)(uintptr_t)arg;
}

static void nested_exit(DWORD code)
{
	ExitThread(code);
}

static DWORD WINAPI exit_thread(void *arg)
{
	nested_exit((DWORD)(uintptr_t)arg);
	return 1; /* not reached */
}

static void test_exit_codes(void **state)
{
	HANDLE t;
	DWORD code;

	t = CreateThread(NULL, 0, return_arg, (void *)42, 0, NULL);
	assert_non_null(t);
	assert_int_equal(WaitForSingleObject(t, 5000), WAIT_OBJECT_0);
	assert_true(GetExitCodeThread(t, &code));
	assert_int_equal(code, 42);
	/* Stays signaled. */
	assert_int_equal(WaitForSingleObject(t, 0), WAIT_OBJECT_0);
	CloseHandle(t);

	t = CreateThread(NULL, 0, exit_thread, (void *)1234, 0, NULL);
	assert_int_equal(WaitForSingleObject(t, 5000), WAIT_OBJECT_0);
	assert_true(GetExitCodeThread(t, &code));
	assert_int_equal(code, 1234);
	CloseHandle(t);

	SetLastError(0);
	assert_null(CreateThread(NULL, 0, NULL, NULL, 0, NULL));
	assert_int_equal(GetLastError(), ERROR_INVALID_PARAMETER);
}

struct gate {
	HANDLE go;
	volatile DWORD tid, teb_tid, teb_pid;
	void *stack_base, *stack_limit;
};

static DWORD WINAPI wait_for_go(void *arg)
{
	struct gate *g = arg;
	TEB *teb = loader_current_teb();
	int local;

	g->tid = GetCurrentThreadId();
	g->teb_tid = (DWORD)(uintptr_t)teb->ClientId.UniqueThread;
	g->teb_pid = (DWORD)(uintptr_t)teb->ClientId.UniqueProcess;
	/* Our frame lies within the stack the TEB was given. */
	if ((char *)&local < (char *)teb->Tib.StackLimit || (char *)&local >= (char *)teb->Tib.StackBase)
		return 1;
	if ((char *)teb->Tib.StackBase - (char *)teb->Tib.StackLimit < (1 << 20))
		return 2;
	WaitForSingleObject(g->go, INFINITE);
	return 0;
}

static void test_still_active_ids_and_teb(void **state)
{
	struct gate g = { .go = CreateEventA(NULL, TRUE, FALSE, NULL) };
	DWORD tid = 0, code;
	HANDLE t = CreateThread(NULL, 4096, wait_for_go, &g, 0, &tid);

	assert_non_null(t);
	assert_int_not_equal(tid, 0);
	assert_int_equal(WaitForSingleObject(t, 30), WAIT_TIMEOUT);
	assert_true(GetExitCodeThread(t, &code));
	assert_int_equal(code, STILL_ACTIVE);
	SetEvent(g.go);
	assert_int_equal(WaitForSingleObject(t, 5000), WAIT_OBJECT_0);
	assert_true(GetExitCodeThread(t, &code));
	assert_int_equal(code, 0); /* stack checks passed */
	assert_int_equal(g.tid, tid);
	assert_int_equal(g.teb_tid, tid);
	assert_int_equal(g.teb_pid, GetCurrentProcessId());
	assert_int_equal(GetCurrentProcessId(), (DWORD)getpid());
	assert_int_equal(GetCurrentThreadId(), (DWORD)syscall(SYS_gettid));
	assert_int_not_equal(GetCurrentThreadId(), tid);
	CloseHandle(t);
	CloseHandle(g.go);
}

static volatile LONG ran;

static DWORD WINAPI mark_ran(void *arg)
{
	__atomic_store_n(&ran, 1, __ATOMIC_SEQ_CST);
	return 5;
}

static void test_create_suspended(void **state)
{
	HANDLE t;
	DWORD tid = 0;

	ran = 0;
	t = CreateThread(NULL, 0, mark_ran, NULL, CREATE_SUSPENDED, &tid);
	assert_non_null(t);
	assert_int_not_equal(tid, 0);
	assert_int_equal(WaitForSingleObject(t, 50), WAIT_TIMEOUT);
	assert_int_equal(ran, 0);
	/* Suspending further while held is counted. */
	assert_int_equal(SuspendThread(t), 1);
	assert_int_equal(ResumeThread(t), 2);
	assert_int_equal(WaitForSingleObject(t, 30), WAIT_TIMEOUT);
	assert_int_equal(ran, 0);
	assert_int_equal(ResumeThread(t), 1);
	assert_int_equal(WaitForSingleObject(t, 5000), WAIT_OBJECT_0);
	assert_int_equal(ran, 1);
	assert_int_equal(ResumeThread(t), 0); /* not suspended */
	CloseHandle(t);
}

static void test_suspend_running(void **state)
{
	struct gate g = { .go = CreateEventA(NULL, TRUE, FALSE, NULL) };
	HANDLE t = CreateThread(NULL, 0, wait_for_go, &g, 0, NULL);

	while (!__atomic_load_n(&g.tid, __ATOMIC_SEQ_CST))
		Sleep(1);
	/* Stopped inside its wait: the wait is satisfied, the thread does
	 * not go on until resumed. */
	assert_int_equal(SuspendThread(t), 0);
	assert_int_equal(SuspendThread(t), 1);
	SetEvent(g.go);
	assert_int_equal(WaitForSingleObject(t, 100), WAIT_TIMEOUT);
	assert_int_equal(ResumeThread(t), 2);
	assert_int_equal(WaitForSingleObject(t, 100), WAIT_TIMEOUT);
	assert_int_equal(ResumeThread(t), 1);
	assert_int_equal(WaitForSingleObject(t, 5000), WAIT_OBJECT_0);
	/* Ended: nothing left to suspend. */
	SetLastError(0);
	assert_int_equal(SuspendThread(t), (DWORD)-1);
	assert_int_equal(GetLastError(), ERROR_ACCESS_DENIED);
	assert_int_equal(ResumeThread(t), 0);
	SetLastError(0);
	assert_int_equal(SuspendThread((HANDLE)0x5550), (DWORD)-1);
	assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
	CloseHandle(t);
	CloseHandle(g.go);
}

static void test_handle_outlives_thread_and_thread_outlives_handle(void **state)
{
	struct gate g = { .go = CreateEventA(NULL, TRUE, FALSE, NULL) };
	HANDLE t = CreateThread(NULL, 0, wait_for_go, &g, 0, NULL), t2;

	/* Closing the handle does not stop the thread. */
	assert_true(CloseHandle(t));
	t2 = CreateThread(NULL, 0, return_arg, (void *)9, 0, NULL);
	assert_int_equal(WaitForSingleObject(t2, 5000), WAIT_OBJECT_0);
	CloseHandle(t2);
	SetEvent(g.go);
	while (!__atomic_load_n(&g.tid, __ATOMIC_SEQ_CST))
		Sleep(1);
	CloseHandle(g.go);
}

static void test_priority(void **state)
{
	HANDLE t = CreateThread(NULL, 0, return_arg, 0, CREATE_SUSPENDED, NULL);

	assert_int_equal(GetThreadPriority(t), THREAD_PRIORITY_NORMAL);
	assert_true(SetThreadPriority(t, THREAD_PRIORITY_LOWEST));
	assert_int_equal(GetThreadPriority(t), THREAD_PRIORITY_LOWEST);
	assert_true(SetThreadPriority(t, THREAD_PRIORITY_TIME_CRITICAL));
	assert_int_equal(GetThreadPriority(t), THREAD_PRIORITY_TIME_CRITICAL);
	SetLastError(0);
	assert_false(SetThreadPriority(t, 5));
	assert_int_equal(GetLastError(), ERROR_INVALID_PARAMETER);
	assert_int_equal(GetThreadPriority((HANDLE)0x8880), THREAD_PRIORITY_ERROR_RETURN);
	ResumeThread(t);
	WaitForSingleObject(t, 5000);
	CloseHandle(t);
}

static void test_affinity(void **state)
{
	DWORD_PTR proc = 0, sys = 0, prev, lowest;
	PROCESSOR_NUMBER pn;

	assert_true(GetProcessAffinityMask(GetCurrentProcess(), &proc, &sys));
	assert_int_not_equal(proc, 0);
	assert_int_equal(proc & ~sys, 0);
	lowest = proc & -proc;
	prev = SetThreadAffinityMask(GetCurrentThread(), lowest);
	assert_int_equal(prev, proc);
	/* Now we can only run on that CPU. */
	GetCurrentProcessorNumberEx(&pn);
	assert_int_equal((DWORD_PTR)1 << pn.Number, lowest);
	assert_int_equal((DWORD_PTR)1 << GetCurrentProcessorNumber(), lowest);
	assert_int_equal(pn.Group, 0);
	assert_int_equal(SetThreadAffinityMask(GetCurrentThread(), proc), lowest);
	SetLastError(0);
	assert_int_equal(SetThreadAffinityMask(GetCurrentThread(), 0), 0);
	assert_int_equal(GetLastError(), ERROR_INVALID_PARAMETER);
	SetLastError(0);
	assert_false(SetProcessAffinityMask(GetCurrentProcess(), ~sys));
	assert_int_equal(GetLastError(), ERROR_INVALID_PARAMETER);
	assert_true(SetProcessAffinityMask(GetCurrentProcess(), proc));
	SetLastError(0);
	assert_false(GetProcessAffinityMask((HANDLE)0x9990, &proc, &sys));
	assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
	assert_true(SwitchToThread());
}

struct tls_ctx {
	DWORD low, high;
	void *seen_low, *seen_high;
	DWORD err;
};

static DWORD WINAPI tls_thread(void *arg)
{
	struct tls_ctx *c = arg;

	/* A new thread sees NULL in every slot. */
	SetLastError(123);
	c->seen_low = TlsGetValue(c->low);
	c->err = GetLastError();
	c->seen_high = TlsGetValue(c->high);
	TlsSetValue(c->low, (void *)0x77);
	TlsSetValue(c->high, (void *)0x88);
	return TlsGetValue(c->low) == (void *)0x77 && TlsGetValue(c->high) == (void *)0x88;
}

static void test_tls_slots(void **state)
{
	DWORD idx[1088 + 1], n = 0;
	struct tls_ctx c;
	TEB *teb = loader_current_teb();
	HANDLE t;
	DWORD code;

	/* Fill every slot: 64 in the TEB, then the expansion ones. */
	while ((idx[n] = TlsAlloc()) != TLS_OUT_OF_INDEXES)
		n++;
	assert_int_equal(GetLastError(), ERROR_NO_MORE_ITEMS);
	assert_int_equal(n, 1088);
	c.low = idx[3];
	c.high = idx[1000];
	assert_true(c.low < 64 && c.high >= 64);
	assert_true(TlsSetValue(c.low, (void *)1));
	assert_true(TlsSetValue(c.high, (void *)2));
	assert_ptr_equal(teb->TlsSlots[c.low], (void *)1);
	assert_ptr_equal(teb->TlsExpansionSlots[c.high - 64], (void *)2);
	SetLastError(55);
	assert_ptr_equal(TlsGetValue(c.high), (void *)2);
	assert_int_equal(GetLastError(), ERROR_SUCCESS);

	t = CreateThread(NULL, 0, tls_thread, &c, 0, NULL);
	WaitForSingleObject(t, 5000);
	GetExitCodeThread(t, &code);
	CloseHandle(t);
	assert_int_equal(code, 1);
	assert_null(c.seen_low);
	assert_null(c.seen_high);
	assert_int_equal(c.err, ERROR_SUCCESS);
	/* Other threads' values are their own. */
	assert_ptr_equal(TlsGetValue(c.low), (void *)1);

	/* TlsFree clears the slot; a reallocated index reads NULL. */
	for (DWORD i = 0; i < n; i++)
		assert_true(TlsFree(idx[i]));
	SetLastError(0);
	assert_false(TlsFree(idx[0]));
	assert_int_equal(GetLastError(), ERROR_INVALID_PARAMETER);
	SetLastError(0);
	assert_false(TlsFree(5000));
	assert_int_equal(GetLastError(), ERROR_INVALID_PARAMETER);
	SetLastError(0);
	assert_null(TlsGetValue(1088));
	assert_int_equal(GetLastError(), ERROR_INVALID_PARAMETER);
	assert_false(TlsSetValue(1088, NULL));
	assert_ptr_equal(teb->TlsSlots[c.low], NULL);
	assert_ptr_equal(teb->TlsExpansionSlots[c.high - 64], NULL);
}

static volatile LONG fls_calls;
static void *volatile fls_last;

static void WINAPI fls_callback(void *v)
{
	__atomic_add_fetch(&fls_calls, 1, __ATOMIC_SEQ_CST);
	fls_last = v;
}

static DWORD WINAPI fls_thread(void *arg)
{
	DWORD i = (DWORD)(uintptr_t)arg;

	if (FlsGetValue(i))
		return 1;
	FlsSetValue(i, (void *)0xabc);
	ExitThread(FlsGetValue(i) == (void *)0xabc ? 0 : 2);
}

static void test_fls_callbacks(void **state)
{
	DWORD i = FlsAlloc(fls_callback), code;
	HANDLE t;

	assert_int_not_equal(i, FLS_OUT_OF_INDEXES);
	fls_calls = 0;
	t = CreateThread(NULL, 0, fls_thread, (void *)(uintptr_t)i, 0, NULL);
	WaitForSingleObject(t, 5000);
	GetExitCodeThread(t, &code);
	CloseHandle(t);
	assert_int_equal(code, 0);
	/* Run once, for that thread's value, as it exited. */
	assert_int_equal(fls_calls, 1);
	assert_ptr_equal(fls_last, (void *)0xabc);

	assert_true(FlsSetValue(i, (void *)0xdef));
	assert_ptr_equal(FlsGetValue(i), (void *)0xdef);
	assert_true(FlsFree(i));
	assert_int_equal(fls_calls, 2); /* freeing runs it for live values */
	assert_ptr_equal(fls_last, (void *)0xdef);
	SetLastError(0);
	assert_false(FlsSetValue(i, NULL));
	assert_int_equal(GetLastError(), ERROR_INVALID_PARAMETER);
	assert_false(FlsFree(i));
}

static volatile int sleepy_apc_ran;

static void WINAPI sleepy_apc(ULONG_PTR d)
{
	sleepy_apc_ran = 1;
}

static void test_sleep(void **state)
{
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	Sleep(60);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_true((t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000 >= 59);
	Sleep(0);
	assert_int_equal(SleepEx(10, TRUE), 0);
	QueueUserAPC(sleepy_apc, GetCurrentThread(), 0);
	assert_int_equal(SleepEx(10000, TRUE), WAIT_IO_COMPLETION);
	assert_int_equal(sleepy_apc_ran, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit_codes),
		cmocka_unit_test(test_still_active_ids_and_teb),
		cmocka_unit_test(test_create_suspended),
		cmocka_unit_test(test_suspend_running),
		cmocka_unit_test(test_handle_outlives_thread_and_thread_outlives_handle),
		cmocka_unit_test(test_priority),
		cmocka_unit_test(test_affinity),
		cmocka_unit_test(test_tls_slots),
		cmocka_unit_test(test_fls_callbacks),
		cmocka_unit_test(test_sleep),
	};
	return cmocka_run_group_tests(tests, win32_test_setup, win32_test_teardown);
}

/* core/shsync: named events, semaphores and mutexes shared between
 * processes (here fork()ed children of the test).  A waiter blocked in
 * the parent wakes on a child's signal; a mutex whose owner process is
 * SIGKILLed is abandoned to the next waiter, also one already blocked;
 * the shared lock survives a holder killed inside it; an object whose
 * only holder was killed is gone for the next opener. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/codepage.h"
#include "core/handle.h"
#include "core/shsync.h"
#include "core/sync.h"
#include "core/thread.h"
#include "core/wait.h"
#include "core/wstr.h"
#include "win32_helper.h"

HANDLE WINAPI CreateEventW(LPSECURITY_ATTRIBUTES, BOOL, BOOL, LPCWSTR);
HANDLE WINAPI OpenEventW(DWORD, BOOL, LPCWSTR);
HANDLE WINAPI CreateMutexW(LPSECURITY_ATTRIBUTES, BOOL, LPCWSTR);
HANDLE WINAPI OpenMutexW(DWORD, BOOL, LPCWSTR);
HANDLE WINAPI CreateSemaphoreW(LPSECURITY_ATTRIBUTES, LONG, LONG, LPCWSTR);
BOOL WINAPI SetEvent(HANDLE);
BOOL WINAPI ReleaseMutex(HANDLE);
BOOL WINAPI ReleaseSemaphore(HANDLE, LONG, LPLONG);
DWORD WINAPI WaitForSingleObject(HANDLE, DWORD);
DWORD WINAPI WaitForMultipleObjects(DWORD, const HANDLE *, BOOL, DWORD);
BOOL WINAPI CloseHandle(HANDLE);

static WCHAR *wname(const char *tag)
{
	char a[96];

	snprintf(a, sizeof(a), "unit_shsync_%s_%d", tag, (int)getpid());
	return utf8_to_utf16_dup(a);
}

struct child_job {
	int (*fn)(void *);
	void *arg;
	int fd;
};

static void *child_thread(void *arg)
{
	struct child_job *job = arg;
	int st = job->fn(job->arg);
	char c = (char)st;

	if (write(job->fd, &c, 1) != 1 || st)
		_exit(st ? st : 99);
	for (;;)
		pause();
	return NULL;
}

/* A child process that runs fn, tells the parent through a pipe it got
 * that far, then sleeps until killed (or exits with fn's status when it
 * is not 0).  fn runs in a new thread: thread ids cached before the
 * fork are the parent's. */
static pid_t child(int (*fn)(void *), void *arg, int *ready_fd)
{
	int p[2];
	pid_t pid;

	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct child_job job = { fn, arg, p[1] };
		pthread_t t;

		/* Never outlives a test that failed before reaping it. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(p[0]);
		if (pthread_create(&t, NULL, child_thread, &job))
			_exit(98);
		for (;;)
			pause();
	}
	close(p[1]);
	*ready_fd = p[0];
	return pid;
}

static int read_ready(int fd)
{
	char c = 99;

	assert_int_equal(read(fd, &c, 1), 1);
	close(fd);
	return c;
}

static void reap(pid_t pid, bool kill_it)
{
	int st;

	if (kill_it)
		kill(pid, SIGKILL);
	assert_int_equal(waitpid(pid, &st, 0), pid);
}

static int take_mutex(void *name)
{
	HANDLE m = OpenMutexW(SYNCHRONIZE, FALSE, name);

	if (!m)
		return 1;
	return WaitForSingleObject(m, 5000) == WAIT_OBJECT_0 ? 0 : 2;
}

static void test_abandoned_by_sigkill(void **state)
{
	WCHAR *name = wname("abandon");
	HANDLE m = CreateMutexW(NULL, FALSE, name);
	int fd;
	pid_t pid;

	assert_non_null(m);
	pid = child(take_mutex, name, &fd);
	assert_int_equal(read_ready(fd), 0);
	assert_int_equal(WaitForSingleObject(m, 0), WAIT_TIMEOUT);
	reap(pid, true);
	assert_int_equal(WaitForSingleObject(m, 5000), WAIT_ABANDONED);
	/* Owned now, recursively, and reported abandoned only once. */
	assert_int_equal(WaitForSingleObject(m, 0), WAIT_OBJECT_0);
	assert_true(ReleaseMutex(m));
	assert_true(ReleaseMutex(m));
	assert_false(ReleaseMutex(m));
	assert_int_equal(GetLastError(), ERROR_NOT_OWNER);
	CloseHandle(m);
	free(name);
}

struct blocked {
	HANDLE h[2];
	DWORD count;
	BOOL all;
	DWORD result;
};

static void *blocked_wait(void *arg)
{
	struct blocked *b = arg;

	b->result = WaitForMultipleObjects(b->count, b->h, b->all, 10000);
	if (b->result == WAIT_ABANDONED_0 + b->count - 1 || b->result == WAIT_OBJECT_0 + b->count - 1)
		ReleaseMutex(b->h[b->count - 1]);
	return NULL;
}

/* The kill alone wakes a waiter already asleep (the kernel's robust
 * list, nothing polls), also in a wait-any with an in-process event. */
static void test_blocked_waiter_sees_death(void **state)
{
	WCHAR *name = wname("blocked");
	HANDLE m = CreateMutexW(NULL, FALSE, name);
	struct blocked b = { { CreateEventW(NULL, FALSE, FALSE, NULL), m }, 2, FALSE, 0 };
	pthread_t t;
	int fd;
	pid_t pid;

	pid = child(take_mutex, name, &fd);
	assert_int_equal(read_ready(fd), 0);
	assert_int_equal(pthread_create(&t, NULL, blocked_wait, &b), 0);
	usleep(200000);
	reap(pid, true);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(b.result, WAIT_ABANDONED_0 + 1);
	assert_int_equal(WaitForSingleObject(m, 0), WAIT_OBJECT_0);
	assert_true(ReleaseMutex(m));
	CloseHandle(b.h[0]);
	CloseHandle(m);
	free(name);
}

static int set_event(void *name)
{
	HANDLE e = OpenEventW(EVENT_MODIFY_STATE, FALSE, name);

	usleep(100000);
	return e && SetEvent(e) ? 0 : 3;
}

/* A wait-all on an in-process event (set) and a shared one (set by the
 * child later): it takes both at once when the second comes. */
static void test_wait_all_mixed(void **state)
{
	WCHAR *name = wname("all");
	HANDLE shared = CreateEventW(NULL, FALSE, FALSE, name);
	HANDLE local = CreateEventW(NULL, FALSE, TRUE, NULL);
	HANDLE h[2] = { local, shared };
	int fd;
	pid_t pid;

	assert_int_equal(WaitForMultipleObjects(2, h, TRUE, 0), WAIT_TIMEOUT);
	pid = child(set_event, name, &fd);
	assert_int_equal(WaitForMultipleObjects(2, h, TRUE, 10000), WAIT_OBJECT_0);
	assert_int_equal(read_ready(fd), 0);
	reap(pid, true);
	/* Both auto-reset events were consumed. */
	assert_int_equal(WaitForSingleObject(local, 0), WAIT_TIMEOUT);
	assert_int_equal(WaitForSingleObject(shared, 0), WAIT_TIMEOUT);
	CloseHandle(local);
	CloseHandle(shared);
	free(name);
}

static int hold_lock(void *unused)
{
	shsync_lock();
	return 0;
}

/* A process killed holding the lock over all shared state does not
 * stop the others. */
static void test_lock_holder_killed(void **state)
{
	WCHAR *name = wname("lock");
	HANDLE s = CreateSemaphoreW(NULL, 0, 5, name);
	int fd;
	pid_t pid;

	assert_non_null(s);
	pid = child(hold_lock, NULL, &fd);
	assert_int_equal(read_ready(fd), 0);
	reap(pid, true);
	assert_true(ReleaseSemaphore(s, 2, NULL));
	assert_int_equal(WaitForSingleObject(s, 1000), WAIT_OBJECT_0);
	assert_int_equal(WaitForSingleObject(s, 1000), WAIT_OBJECT_0);
	assert_int_equal(WaitForSingleObject(s, 0), WAIT_TIMEOUT);
	CloseHandle(s);
	free(name);
}

static int create_event(void *name)
{
	return CreateEventW(NULL, TRUE, FALSE, name) ? 0 : 4;
}

/* An object whose only holder was killed is gone, as on Windows, and
 * its name free for another type. */
static void test_killed_holder_object_gone(void **state)
{
	WCHAR *name = wname("gone");
	HANDLE h;
	int fd;
	pid_t pid;

	pid = child(create_event, name, &fd);
	assert_int_equal(read_ready(fd), 0);
	SetLastError(0);
	h = CreateMutexW(NULL, FALSE, name);
	assert_null(h);
	assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
	reap(pid, true);
	assert_null(OpenEventW(SYNCHRONIZE, FALSE, name));
	assert_int_equal(GetLastError(), ERROR_FILE_NOT_FOUND);
	h = CreateMutexW(NULL, TRUE, name);
	assert_non_null(h);
	assert_int_equal(GetLastError(), ERROR_SUCCESS);
	assert_true(ReleaseMutex(h));
	CloseHandle(h);
	free(name);
}

/* Two processes hammer one shared mutex (a counter in a shared page
 * they both bump under it) and ping-pong on two auto-reset events: no
 * lost wake-up, no double ownership. */
#define ROUNDS 2000

static WCHAR *stress_names[4];

static int *shared_counter(void)
{
	static int *counter;

	if (!counter)
		counter = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	return counter;
}

static int stress_side(bool first)
{
	HANDLE m = OpenMutexW(SYNCHRONIZE, FALSE, stress_names[0]);
	HANDLE ping = OpenEventW(SYNCHRONIZE | EVENT_MODIFY_STATE, FALSE, stress_names[1]);
	HANDLE pong = OpenEventW(SYNCHRONIZE | EVENT_MODIFY_STATE, FALSE, stress_names[2]);
	volatile int *counter = shared_counter();

	if (!m || !ping || !pong)
		return 5;
	for (int i = 0; i < ROUNDS; i++) {
		int v;

		if (WaitForSingleObject(m, 10000) != WAIT_OBJECT_0)
			return 6;
		v = *counter;
		/* Another owner would be seen here. */
		sched_yield();
		*counter = v + 1;
		if (!ReleaseMutex(m))
			return 7;
		if (first) {
			SetEvent(ping);
			if (WaitForSingleObject(pong, 10000) != WAIT_OBJECT_0)
				return 8;
		} else {
			if (WaitForSingleObject(ping, 10000) != WAIT_OBJECT_0)
				return 9;
			SetEvent(pong);
		}
	}
	CloseHandle(m);
	CloseHandle(ping);
	CloseHandle(pong);
	return 0;
}

static int stress_child(void *unused)
{
	return stress_side(false);
}

static void test_cross_process_stress(void **state)
{
	HANDLE m, ping, pong;
	int fd;
	pid_t pid;

	stress_names[0] = wname("stress_m");
	stress_names[1] = wname("stress_ping");
	stress_names[2] = wname("stress_pong");
	m = CreateMutexW(NULL, FALSE, stress_names[0]);
	ping = CreateEventW(NULL, FALSE, FALSE, stress_names[1]);
	pong = CreateEventW(NULL, FALSE, FALSE, stress_names[2]);
	assert_non_null(shared_counter());
	*shared_counter() = 0;
	pid = child(stress_child, NULL, &fd);
	assert_int_equal(stress_side(true), 0);
	assert_int_equal(read_ready(fd), 0);
	reap(pid, true);
	assert_int_equal(*shared_counter(), 2 * ROUNDS);
	CloseHandle(m);
	CloseHandle(ping);
	CloseHandle(pong);
	for (int i = 0; i < 3; i++)
		free(stress_names[i]);
}

/* Unnamed objects stay in-process: not the shared types. */
static void test_unnamed_stay_local(void **state)
{
	HANDLE e = CreateEventW(NULL, FALSE, FALSE, NULL);
	HANDLE n = CreateEventW(NULL, FALSE, FALSE, u"");
	struct object *o;

	o = handle_get(e, NULL);
	assert_ptr_equal(o->ops, &event_ops);
	object_unref(o);
	o = handle_get(n, NULL);
	assert_ptr_equal(o->ops, &event_ops);
	object_unref(o);
	CloseHandle(e);
	CloseHandle(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unnamed_stay_local),
		cmocka_unit_test(test_abandoned_by_sigkill),
		cmocka_unit_test(test_blocked_waiter_sees_death),
		cmocka_unit_test(test_wait_all_mixed),
		cmocka_unit_test(test_lock_holder_killed),
		cmocka_unit_test(test_killed_holder_object_gone),
		cmocka_unit_test(test_cross_process_stress),
	};

	return cmocka_run_group_tests(tests, win32_test_setup, win32_test_teardown);
}

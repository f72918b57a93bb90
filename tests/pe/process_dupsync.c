/* Unnamed events, semaphores and mutexes in another process: duplicated
 * into a child with DuplicateHandle, and inherited by one.  Their state
 * goes along (a signaled auto-reset event, a semaphore's count, a
 * mutex's owner and recursion, also when the owner is another thread of
 * the parent), parent threads already blocked on them when they are
 * duplicated are woken by the child's SetEvent and ReleaseSemaphore (one
 * in a wait on a single object, one in a wait-any beside an object that
 * stays in the parent), and a mutex the child exits holding, or that a
 * parent thread exits holding, is abandoned on the other side.
 *
 * The child is this program ("process_dupsync child" or "... inherit
 * <handles>"); handle values and steps travel through its standard
 * streams, one line each.  Every wait is bounded. */
#include <windows.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipe_lines.h"
#include "test.h"
#include "self_child.h"

#define TIMEOUT 20000

enum { E_WAKE, E_SET, S_WAKE, S_COUNT, M_MAIN, M_THREAD, N_DUP };

static HANDLE in_pipe, out_pipe; /* the child's ends: stdin, stdout */

/* The child: each step checks what the parent set up, reports "N ok" or
 * "N failed <what>", and waits for the next step's line. */
static int child_main(void)
{
	HANDLE h[N_DUP];
	char line[256], *p = line;
	const char *bad = NULL;
	LONG prev = -1;
	DWORD r;

	in_pipe = GetStdHandle(STD_INPUT_HANDLE);
	out_pipe = GetStdHandle(STD_OUTPUT_HANDLE);
	if (!read_line(in_pipe, line, sizeof(line)))
		return 40;
	for (int i = 0; i < N_DUP; i++)
		if (!(h[i] = (HANDLE)(ULONG_PTR)strtoull(p, &p, 16)))
			return 41;

	/* Step 1: wake the parent's waiters; the state that came along. */
	if (!SetEvent(h[E_WAKE]))
		bad = "SetEvent";
	else if (!ReleaseSemaphore(h[S_WAKE], 1, &prev) || prev != 0)
		bad = "ReleaseSemaphore";
	else if (WaitForSingleObject(h[E_SET], 0) != WAIT_OBJECT_0)
		bad = "the signaled event";
	else if (WaitForSingleObject(h[E_SET], 0) != WAIT_TIMEOUT)
		bad = "the auto-reset event again";
	else if (WaitForSingleObject(h[S_COUNT], 0) != WAIT_OBJECT_0 ||
		 WaitForSingleObject(h[S_COUNT], 0) != WAIT_OBJECT_0)
		bad = "the semaphore's count of 2";
	else if (WaitForSingleObject(h[S_COUNT], 0) != WAIT_TIMEOUT)
		bad = "the semaphore's count beyond 2";
	else if (WaitForSingleObject(h[M_MAIN], 0) != WAIT_TIMEOUT)
		bad = "the mutex the parent's main thread owns";
	else if (WaitForSingleObject(h[M_THREAD], 0) != WAIT_TIMEOUT)
		bad = "the mutex another parent thread owns";
	snprintf(line, sizeof(line), bad ? "1 failed %s\n" : "1 ok\n", bad);
	write_line(out_pipe, line);
	if (bad || !read_line(in_pipe, line, sizeof(line)))
		return 42;

	/* Step 2: the parent released the mutex once of twice. */
	if (WaitForSingleObject(h[M_MAIN], 0) != WAIT_TIMEOUT)
		bad = "the mutex released once of a recursion of 2";
	snprintf(line, sizeof(line), bad ? "2 failed %s\n" : "2 ok\n", bad);
	write_line(out_pipe, line);
	if (bad || !read_line(in_pipe, line, sizeof(line)))
		return 43;

	/* Step 3: released for good; the other owner thread is gone. */
	if ((r = WaitForSingleObject(h[M_MAIN], TIMEOUT)) != WAIT_OBJECT_0)
		bad = "the mutex released twice";
	else if ((r = WaitForSingleObject(h[M_THREAD], TIMEOUT)) != WAIT_ABANDONED)
		bad = "the mutex its owner thread exited holding";
	snprintf(line, sizeof(line), bad ? "3 failed %s (%#lx)\n" : "3 ok\n", bad, r);
	write_line(out_pipe, line);
	if (bad)
		return 44;

	/* Step 4: the parent signals after its answer. */
	if ((r = WaitForSingleObject(h[E_WAKE], TIMEOUT)) != WAIT_OBJECT_0)
		bad = "the parent's SetEvent";
	for (int i = 0; i < 3 && !bad; i++)
		if ((r = WaitForSingleObject(h[S_COUNT], TIMEOUT)) != WAIT_OBJECT_0)
			bad = "the parent's ReleaseSemaphore";
	snprintf(line, sizeof(line), bad ? "4 failed %s (%#lx)\n" : "4 ok\n", bad, r);
	write_line(out_pipe, line);
	/* Exits owning both mutexes: abandoned in the parent. */
	return bad ? 45 : 0;
}

/* Inherited at the same values: set the event, take the semaphore. */
static int child_inherit(char **argv)
{
	HANDLE ev = (HANDLE)(ULONG_PTR)strtoull(argv[2], NULL, 16);
	HANDLE sem = (HANDLE)(ULONG_PTR)strtoull(argv[3], NULL, 16);

	if (WaitForSingleObject(sem, 0) != WAIT_OBJECT_0)
		return 50;
	if (WaitForSingleObject(sem, 0) != WAIT_TIMEOUT)
		return 51;
	if (!SetEvent(ev))
		return 52;
	return 0;
}

struct waiter {
	HANDLE ready;
	HANDLE objs[2];
	DWORD count;
	DWORD result;
};

static DWORD WINAPI wait_thread(void *arg)
{
	struct waiter *w = arg;

	SetEvent(w->ready);
	w->result = WaitForMultipleObjects(w->count, w->objs, FALSE, TIMEOUT);
	return 0;
}

/* Takes the mutex, says so, and exits owning it once told to. */
struct owner {
	HANDLE mutex, ready, go;
	DWORD took;
};

static DWORD WINAPI owner_thread(void *arg)
{
	struct owner *o = arg;

	o->took = WaitForSingleObject(o->mutex, 0);
	SetEvent(o->ready);
	WaitForSingleObject(o->go, TIMEOUT);
	return 0;
}

static HANDLE start_child(const char *args, BOOL inherit, PROCESS_INFORMATION *pi)
{
	SECURITY_ATTRIBUTES sa = { sizeof(sa), NULL, TRUE };
	STARTUPINFOA si = { .cb = sizeof(si) };
	char self[MAX_PATH], line[MAX_PATH + 128];
	HANDLE in_r = NULL, out_w = NULL;

	GetModuleFileNameA(NULL, self, sizeof(self));
	if (!inherit) {
		CreatePipe(&in_r, &in_pipe, &sa, 0);
		CreatePipe(&out_pipe, &out_w, &sa, 0);
		SetHandleInformation(in_pipe, HANDLE_FLAG_INHERIT, 0);
		SetHandleInformation(out_pipe, HANDLE_FLAG_INHERIT, 0);
		si.dwFlags = STARTF_USESTDHANDLES;
		si.hStdInput = in_r;
		si.hStdOutput = out_w;
		si.hStdError = GetStdHandle(STD_ERROR_HANDLE);
	}
	snprintf(line, sizeof(line), "\"%s\" %s", self, args);
	ok(CreateProcessA(NULL, line, NULL, NULL, TRUE, 0, NULL, NULL, &si, pi), "CreateProcess: %lu\n",
	   GetLastError());
	if (!inherit) {
		CloseHandle(in_r);
		CloseHandle(out_w);
	}
	return pi->hProcess;
}

static void expect_step(const char *step)
{
	char line[256] = "";

	ok(read_line(out_pipe, line, sizeof(line)) && !strncmp(line, step, strlen(step)) &&
		   !strcmp(line + strlen(step), " ok\n"),
	   "child's step %s: %s\n", step, line);
}

static void test_duplicate(void)
{
	HANDLE h[N_DUP], theirs[N_DUP], local, go, threads[3];
	struct waiter w1 = { 0 }, w2 = { 0 };
	struct owner own = { 0 };
	PROCESS_INFORMATION pi;
	char line[256];
	LONG prev = -1;
	DWORD r, code;
	int i, n;

	h[E_WAKE] = CreateEventA(NULL, FALSE, FALSE, NULL);
	h[E_SET] = CreateEventA(NULL, FALSE, TRUE, NULL);
	h[S_WAKE] = CreateSemaphoreA(NULL, 0, 10, NULL);
	h[S_COUNT] = CreateSemaphoreA(NULL, 2, 5, NULL);
	h[M_MAIN] = CreateMutexA(NULL, TRUE, NULL);
	h[M_THREAD] = CreateMutexA(NULL, FALSE, NULL);
	local = CreateEventA(NULL, TRUE, FALSE, NULL);
	go = CreateEventA(NULL, TRUE, FALSE, NULL);
	for (i = 0; i < N_DUP; i++)
		ok(h[i] != NULL, "object %d: %lu\n", i, GetLastError());
	/* Recursion 2 on the main thread's mutex. */
	ok(WaitForSingleObject(h[M_MAIN], 0) == WAIT_OBJECT_0, "recursive acquire\n");

	/* Two threads blocked before the objects leave the process: one on
	 * the event, one on a wait-any of an event that stays here and the
	 * semaphore. */
	w1.ready = CreateEventA(NULL, FALSE, FALSE, NULL);
	w1.objs[0] = h[E_WAKE];
	w1.count = 1;
	w2.ready = CreateEventA(NULL, FALSE, FALSE, NULL);
	w2.objs[0] = local;
	w2.objs[1] = h[S_WAKE];
	w2.count = 2;
	own.mutex = h[M_THREAD];
	own.ready = CreateEventA(NULL, FALSE, FALSE, NULL);
	own.go = go;
	threads[0] = CreateThread(NULL, 0, wait_thread, &w1, 0, NULL);
	threads[1] = CreateThread(NULL, 0, wait_thread, &w2, 0, NULL);
	threads[2] = CreateThread(NULL, 0, owner_thread, &own, 0, NULL);
	ok(WaitForSingleObject(w1.ready, TIMEOUT) == WAIT_OBJECT_0 &&
		   WaitForSingleObject(w2.ready, TIMEOUT) == WAIT_OBJECT_0 &&
		   WaitForSingleObject(own.ready, TIMEOUT) == WAIT_OBJECT_0,
	   "threads started\n");
	ok(own.took == WAIT_OBJECT_0, "the owner thread took its mutex: %#lx\n", own.took);
	/* The waiters set their ready event just before they block: give
	 * them the time to get there, so the duplication finds them
	 * waiting (were one late, it would start its wait on the shared
	 * object and the checks below would still hold). */
	Sleep(300);
	ok(WaitForSingleObject(threads[0], 0) == WAIT_TIMEOUT && WaitForSingleObject(threads[1], 0) == WAIT_TIMEOUT,
	   "waiters woken before the duplication\n");

	start_child("child", FALSE, &pi);
	for (i = 0; i < N_DUP; i++) {
		theirs[i] = NULL;
		ok(DuplicateHandle(GetCurrentProcess(), h[i], pi.hProcess, &theirs[i], 0, FALSE, DUPLICATE_SAME_ACCESS),
		   "DuplicateHandle %d into the child: %lu\n", i, GetLastError());
	}
	for (i = 0, n = 0; i < N_DUP; i++)
		n += snprintf(line + n, sizeof(line) - n, "%p ", theirs[i]);
	snprintf(line + n, sizeof(line) - n, "\n");
	write_line(in_pipe, line);

	expect_step("1");
	ok(WaitForSingleObject(threads[0], TIMEOUT) == WAIT_OBJECT_0, "waiter on the event hangs\n");
	ok(WaitForSingleObject(threads[1], TIMEOUT) == WAIT_OBJECT_0, "waiter on the semaphore hangs\n");
	ok(w1.result == WAIT_OBJECT_0, "the child's SetEvent woke the waiter: %#lx\n", w1.result);
	ok(w2.result == WAIT_OBJECT_0 + 1, "the child's ReleaseSemaphore woke the wait-any: %#lx\n", w2.result);
	/* Each took what woke it; the child took the rest. */
	ok(WaitForSingleObject(h[E_WAKE], 0) == WAIT_TIMEOUT, "auto-reset event consumed once\n");
	ok(WaitForSingleObject(h[S_WAKE], 0) == WAIT_TIMEOUT, "semaphore count consumed once\n");
	ok(WaitForSingleObject(h[S_COUNT], 0) == WAIT_TIMEOUT, "the child took the semaphore's count\n");
	ok(WaitForSingleObject(h[E_SET], 0) == WAIT_TIMEOUT, "the child consumed the signaled event\n");

	ok(ReleaseMutex(h[M_MAIN]), "first release: %lu\n", GetLastError());
	write_line(in_pipe, "2\n");
	expect_step("2");
	ok(ReleaseMutex(h[M_MAIN]), "second release: %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	ok(!ReleaseMutex(h[M_MAIN]) && GetLastError() == ERROR_NOT_OWNER, "third release: %lu\n", GetLastError());
	/* The owner thread exits holding its mutex. */
	SetEvent(go);
	ok(WaitForSingleObject(threads[2], TIMEOUT) == WAIT_OBJECT_0, "owner thread hangs\n");
	write_line(in_pipe, "3\n");
	expect_step("3");

	ok(SetEvent(h[E_WAKE]), "SetEvent: %lu\n", GetLastError());
	ok(ReleaseSemaphore(h[S_COUNT], 3, &prev) && prev == 0, "ReleaseSemaphore: %lu, previous %ld\n",
	   GetLastError(), prev);
	expect_step("4");
	code = process_finish(&pi);
	ok(code == 0, "child exit code %lu\n", code);
	r = WaitForSingleObject(h[M_MAIN], TIMEOUT);
	ok(r == WAIT_ABANDONED, "mutex the child exited holding: %#lx\n", r);
	r = WaitForSingleObject(h[M_THREAD], TIMEOUT);
	ok(r == WAIT_ABANDONED, "the other mutex the child exited holding: %#lx\n", r);
	ok(ReleaseMutex(h[M_MAIN]) && ReleaseMutex(h[M_THREAD]), "releases after abandonment: %lu\n",
	   GetLastError());

	/* Still the same objects here, in every way a handle is used. */
	ok(SetEvent(h[E_SET]) && WaitForSingleObject(h[E_SET], 0) == WAIT_OBJECT_0, "event after the child\n");
	SetLastError(0xdeadbeef);
	ok(!ReleaseSemaphore(h[S_COUNT], 6, NULL) && GetLastError() == ERROR_TOO_MANY_POSTS,
	   "semaphore maximum kept: %lu\n", GetLastError());

	for (i = 0; i < 3; i++)
		CloseHandle(threads[i]);
	for (i = 0; i < N_DUP; i++)
		CloseHandle(h[i]);
	CloseHandle(local);
	CloseHandle(go);
	CloseHandle(w1.ready);
	CloseHandle(w2.ready);
	CloseHandle(own.ready);
	CloseHandle(in_pipe);
	CloseHandle(out_pipe);
}

/* Inherited by a child (bInheritHandles) at the same handle values. */
static void test_inherit(void)
{
	SECURITY_ATTRIBUTES sa = { sizeof(sa), NULL, TRUE };
	HANDLE ev = CreateEventA(&sa, TRUE, FALSE, NULL);
	HANDLE sem = CreateSemaphoreA(&sa, 1, 1, NULL);
	PROCESS_INFORMATION pi;
	char args[64];
	DWORD code, r;

	ok(ev && sem, "objects: %lu\n", GetLastError());
	snprintf(args, sizeof(args), "inherit %p %p", ev, sem);
	start_child(args, TRUE, &pi);
	r = WaitForSingleObject(ev, TIMEOUT);
	ok(r == WAIT_OBJECT_0, "the child set the inherited event: %#lx\n", r);
	code = process_finish(&pi);
	ok(code == 0, "child inherit exit code %lu\n", code);
	ok(WaitForSingleObject(sem, 0) == WAIT_TIMEOUT, "the child took the semaphore's count\n");
	CloseHandle(ev);
	CloseHandle(sem);
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "child"))
		return child_main();
	if (argc >= 4 && !strcmp(argv[1], "inherit"))
		return child_inherit(argv);
	test_duplicate();
	test_inherit();
	return test_summary();
}

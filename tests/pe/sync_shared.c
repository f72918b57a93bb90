/* Named events, semaphores and mutexes between two processes: this
 * program starts copies of itself ("sync_shared child <mode> <prefix>")
 * that open the parent's objects by name.  Also the naming rules
 * (Local\ is the default namespace, one namespace across types),
 * Open* access rights, mixed waits (shared and in-process objects, any
 * and all), SignalObjectAndWait across processes, and abandoned
 * mutexes: an owner thread that exits, a child that exits, a child
 * killed by TerminateProcess, with a waiter already blocked.  Every
 * wait is bounded. */
#include <windows.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

#define TIMEOUT 20000

static char prefix[64];

/* prefix + suffix, in a rotating buffer. */
static const char *name(const char *suffix)
{
	static char buf[8][128];
	static int next;
	char *b = buf[next++ & 7];

	snprintf(b, sizeof(buf[0]), "%s%s", prefix, suffix);
	return b;
}

/* ---- children ---- */

/* Exit codes: 0 fine; 10 + step where a step failed. */
static int child_events(void)
{
	HANDLE ready = OpenEventA(EVENT_MODIFY_STATE, FALSE, name("ready"));
	HANDLE go = OpenEventA(SYNCHRONIZE, FALSE, name("go"));
	HANDLE sem = OpenSemaphoreA(SEMAPHORE_MODIFY_STATE, FALSE, name("sem"));
	HANDLE reply = OpenEventA(EVENT_ALL_ACCESS, FALSE, name("reply"));
	HANDLE again;
	LONG prev = -1;

	if (!ready || !go || !sem || !reply)
		return 10;
	/* Created by the parent: an existing object, its state kept. */
	again = CreateEventA(NULL, TRUE, TRUE, name("ready"));
	if (!again || GetLastError() != ERROR_ALREADY_EXISTS)
		return 11;
	if (WaitForSingleObject(again, 0) != WAIT_TIMEOUT)
		return 12;
	CloseHandle(again);
	if (!SetEvent(ready))
		return 13;
	if (WaitForSingleObject(go, TIMEOUT) != WAIT_OBJECT_0)
		return 14;
	if (!ReleaseSemaphore(sem, 3, &prev) || prev != 0)
		return 15;
	/* Then the parent blocks in SignalObjectAndWait(go, reply). */
	if (WaitForSingleObject(go, TIMEOUT) != WAIT_OBJECT_0)
		return 16;
	if (!SetEvent(reply))
		return 17;
	/* Last, a wait-all in the parent that needs reply set again. */
	if (WaitForSingleObject(go, TIMEOUT) != WAIT_OBJECT_0)
		return 18;
	Sleep(100);
	if (!SetEvent(reply))
		return 19;
	return 0;
}

/* Takes the mutex, tells the parent, then: "release" releases it when
 * told to, "exit" exits holding it, "hold" waits to be killed. */
static int child_mutex(const char *how)
{
	HANDLE m = OpenMutexA(SYNCHRONIZE, FALSE, name("mtx"));
	HANDLE held = OpenEventA(EVENT_MODIFY_STATE, FALSE, name("held"));
	HANDLE go = OpenEventA(SYNCHRONIZE, FALSE, name("go"));

	if (!m || !held || !go)
		return 30;
	if (WaitForSingleObject(m, TIMEOUT) != WAIT_OBJECT_0)
		return 31;
	SetEvent(held);
	if (!strcmp(how, "exit"))
		ExitProcess(5);
	if (!strcmp(how, "hold")) {
		Sleep(TIMEOUT * 2);
		return 32;
	}
	if (WaitForSingleObject(go, TIMEOUT) != WAIT_OBJECT_0)
		return 33;
	return ReleaseMutex(m) ? 0 : 34;
}

/* Inherited handles (values on the command line): the named event is
 * set, the unnamed mapping written. */
static int child_inherit(const char *ev_value, const char *map_value)
{
	HANDLE ev = (HANDLE)(ULONG_PTR)strtoull(ev_value, NULL, 16);
	HANDLE map = (HANDLE)(ULONG_PTR)strtoull(map_value, NULL, 16);
	char *view = MapViewOfFile(map, FILE_MAP_WRITE, 0, 0, 0);

	if (!view)
		return 20;
	strcpy(view, "inherited");
	UnmapViewOfFile(view);
	return SetEvent(ev) ? 0 : 21;
}

/* ---- parent ---- */

static PROCESS_INFORMATION start_child(const char *mode)
{
	STARTUPINFOA si = { .cb = sizeof(si) };
	PROCESS_INFORMATION pi = { 0 };
	char self[MAX_PATH], line[MAX_PATH + 128];
	BOOL ret;

	GetModuleFileNameA(NULL, self, sizeof(self));
	snprintf(line, sizeof(line), "\"%s\" child %s %s", self, mode, prefix);
	ret = CreateProcessA(NULL, line, NULL, NULL, FALSE, 0, NULL, NULL, &si, &pi);
	ok(ret, "CreateProcess %s: %lu\n", mode, GetLastError());
	return pi;
}

static DWORD finish_child(PROCESS_INFORMATION *pi)
{
	DWORD code = ~0u;

	if (!pi->hProcess)
		return code;
	ok(WaitForSingleObject(pi->hProcess, TIMEOUT) == WAIT_OBJECT_0, "child did not end\n");
	GetExitCodeProcess(pi->hProcess, &code);
	CloseHandle(pi->hProcess);
	CloseHandle(pi->hThread);
	return code;
}

static void test_names(void)
{
	HANDLE a, b, c, d;
	DWORD r;

	/* "Local\x" and "x" are one object. */
	a = CreateEventA(NULL, TRUE, FALSE, name("local"));
	ok(a && GetLastError() == ERROR_SUCCESS, "CreateEvent: %p %lu\n", a, GetLastError());
	{
		char local[160];

		snprintf(local, sizeof(local), "Local\\%s", name("local"));
		b = CreateEventA(NULL, FALSE, TRUE, local);
		ok(b && GetLastError() == ERROR_ALREADY_EXISTS, "Local\\ name: %p %lu\n", b, GetLastError());
		c = OpenEventA(SYNCHRONIZE, FALSE, local);
		ok(c != NULL, "OpenEvent Local\\: %lu\n", GetLastError());
	}
	ok(WaitForSingleObject(c, 0) == WAIT_TIMEOUT, "existing event's state kept\n");
	SetEvent(b);
	ok(WaitForSingleObject(a, 0) == WAIT_OBJECT_0, "set through the Local\\ name\n");
	/* Manual reset (the creator's kind, not the second caller's). */
	ok(WaitForSingleObject(c, 0) == WAIT_OBJECT_0, "still set: manual-reset\n");
	CloseHandle(c);

	/* One namespace for every type. */
	SetLastError(0xdeadbeef);
	c = CreateMutexA(NULL, FALSE, name("local"));
	ok(!c && GetLastError() == ERROR_INVALID_HANDLE, "mutex on an event's name: %p %lu\n", c, GetLastError());
	SetLastError(0xdeadbeef);
	c = CreateSemaphoreA(NULL, 0, 1, name("local"));
	ok(!c && GetLastError() == ERROR_INVALID_HANDLE, "semaphore on an event's name: %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	c = OpenMutexA(SYNCHRONIZE, FALSE, name("local"));
	ok(!c && GetLastError() == ERROR_INVALID_HANDLE, "OpenMutex on an event: %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	c = CreateFileMappingA(INVALID_HANDLE_VALUE, NULL, PAGE_READWRITE, 0, 4096, name("local"));
	ok(!c && GetLastError() == ERROR_INVALID_HANDLE, "mapping on an event's name: %lu\n", GetLastError());
	c = CreateFileMappingA(INVALID_HANDLE_VALUE, NULL, PAGE_READWRITE, 0, 4096, name("map"));
	ok(c != NULL, "CreateFileMapping: %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	d = CreateEventA(NULL, FALSE, FALSE, name("map"));
	ok(!d && GetLastError() == ERROR_INVALID_HANDLE, "event on a mapping's name: %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	d = OpenEventA(SYNCHRONIZE, FALSE, name("map"));
	ok(!d && GetLastError() == ERROR_INVALID_HANDLE, "OpenEvent on a mapping: %lu\n", GetLastError());
	CloseHandle(c);

	/* The object lives while a handle does, and no longer. */
	CloseHandle(a);
	c = OpenEventA(SYNCHRONIZE, FALSE, name("local"));
	r = WaitForSingleObject(c, 0);
	ok(c && r == WAIT_OBJECT_0, "reopened while another handle is open: %lu\n", r);
	CloseHandle(c);
	CloseHandle(b);
	SetLastError(0xdeadbeef);
	c = OpenEventA(SYNCHRONIZE, FALSE, name("local"));
	ok(!c && GetLastError() == ERROR_FILE_NOT_FOUND, "OpenEvent after the last close: %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	c = OpenEventA(SYNCHRONIZE, FALSE, name("never"));
	ok(!c && GetLastError() == ERROR_FILE_NOT_FOUND, "OpenEvent of no object: %lu\n", GetLastError());
}

static void test_access(void)
{
	HANDLE ev = CreateEventA(NULL, TRUE, FALSE, name("acc_ev"));
	HANDLE sem = CreateSemaphoreA(NULL, 1, 2, name("acc_sem"));
	HANDLE mtx = CreateMutexA(NULL, FALSE, name("acc_mtx"));
	HANDLE h;
	LONG prev;

	h = OpenEventA(SYNCHRONIZE, FALSE, name("acc_ev"));
	SetLastError(0xdeadbeef);
	ok(!SetEvent(h) && GetLastError() == ERROR_ACCESS_DENIED, "SetEvent without EVENT_MODIFY_STATE: %lu\n",
	   GetLastError());
	ok(!ResetEvent(h) && GetLastError() == ERROR_ACCESS_DENIED, "ResetEvent without EVENT_MODIFY_STATE\n");
	ok(WaitForSingleObject(h, 0) == WAIT_TIMEOUT, "wait with SYNCHRONIZE\n");
	CloseHandle(h);
	h = OpenEventA(EVENT_MODIFY_STATE, FALSE, name("acc_ev"));
	ok(SetEvent(h), "SetEvent with EVENT_MODIFY_STATE: %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	ok(WaitForSingleObject(h, 0) == WAIT_FAILED && GetLastError() == ERROR_ACCESS_DENIED,
	   "wait without SYNCHRONIZE: %lu\n", GetLastError());
	CloseHandle(h);
	h = OpenEventA(GENERIC_WRITE, FALSE, name("acc_ev"));
	ok(ResetEvent(h), "GENERIC_WRITE maps to EVENT_MODIFY_STATE: %lu\n", GetLastError());
	CloseHandle(h);

	h = OpenSemaphoreA(SYNCHRONIZE, FALSE, name("acc_sem"));
	SetLastError(0xdeadbeef);
	ok(!ReleaseSemaphore(h, 1, NULL) && GetLastError() == ERROR_ACCESS_DENIED,
	   "ReleaseSemaphore without SEMAPHORE_MODIFY_STATE: %lu\n", GetLastError());
	CloseHandle(h);
	h = OpenSemaphoreA(SEMAPHORE_MODIFY_STATE, FALSE, name("acc_sem"));
	ok(ReleaseSemaphore(h, 1, &prev) && prev == 1, "ReleaseSemaphore: %lu\n", prev);
	SetLastError(0xdeadbeef);
	ok(!ReleaseSemaphore(h, 1, &prev) && GetLastError() == ERROR_TOO_MANY_POSTS, "past the maximum: %lu\n",
	   GetLastError());
	CloseHandle(h);

	h = OpenMutexA(MUTEX_ALL_ACCESS, FALSE, name("acc_mtx"));
	ok(WaitForSingleObject(h, 0) == WAIT_OBJECT_0, "mutex through MUTEX_ALL_ACCESS\n");
	ok(WaitForSingleObject(mtx, 0) == WAIT_OBJECT_0, "recursive through the other handle\n");
	ok(ReleaseMutex(h) && ReleaseMutex(mtx), "released twice\n");
	SetLastError(0xdeadbeef);
	ok(!ReleaseMutex(mtx) && GetLastError() == ERROR_NOT_OWNER, "third release: %lu\n", GetLastError());
	CloseHandle(h);

	/* The Ex forms: the access asked for, on a new or existing object. */
	h = CreateMutexExA(NULL, name("acc_mtx"), 0, SYNCHRONIZE);
	ok(h && GetLastError() == ERROR_ALREADY_EXISTS, "CreateMutexExA on an existing mutex: %lu\n", GetLastError());
	ok(WaitForSingleObject(h, 0) == WAIT_OBJECT_0 && ReleaseMutex(h), "CreateMutexExA handle waits\n");
	CloseHandle(h);
	h = CreateSemaphoreExA(NULL, 1, 3, name("acc_sem2"), 0, SYNCHRONIZE);
	ok(h && GetLastError() == ERROR_SUCCESS, "CreateSemaphoreExA: %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	ok(!ReleaseSemaphore(h, 1, NULL) && GetLastError() == ERROR_ACCESS_DENIED,
	   "CreateSemaphoreExA with SYNCHRONIZE only: %lu\n", GetLastError());
	ok(WaitForSingleObject(h, 0) == WAIT_OBJECT_0, "its initial count\n");
	CloseHandle(h);
	SetLastError(0xdeadbeef);
	h = CreateSemaphoreExA(NULL, 0, 3, name("acc_ev"), 0, SEMAPHORE_ALL_ACCESS);
	ok(!h && GetLastError() == ERROR_INVALID_HANDLE, "CreateSemaphoreExA on an event's name: %lu\n",
	   GetLastError());
	h = CreateMutexExA(NULL, name("acc_new"), CREATE_MUTEX_INITIAL_OWNER, MUTEX_ALL_ACCESS);
	ok(h && GetLastError() == ERROR_SUCCESS, "CreateMutexExA, initial owner: %lu\n", GetLastError());
	ok(ReleaseMutex(h), "owned from the start\n");
	CloseHandle(h);
	CloseHandle(ev);
	CloseHandle(sem);
	CloseHandle(mtx);
}

static DWORD WINAPI set_later(void *arg)
{
	Sleep(100);
	SetEvent(arg);
	return 0;
}

static void test_cross_process_events(void)
{
	HANDLE ready = CreateEventA(NULL, TRUE, FALSE, name("ready"));
	HANDLE go = CreateEventA(NULL, FALSE, FALSE, name("go"));
	HANDLE sem = CreateSemaphoreA(NULL, 0, 10, name("sem"));
	HANDLE reply = CreateEventA(NULL, FALSE, FALSE, name("reply"));
	HANDLE local = CreateEventA(NULL, FALSE, FALSE, NULL);
	HANDLE objs[2], thread;
	PROCESS_INFORMATION pi;
	DWORD r, code;
	int taken = 0;

	ok(ready && go && sem && reply && local, "objects: %lu\n", GetLastError());
	pi = start_child("events");
	r = WaitForSingleObject(ready, TIMEOUT);
	ok(r == WAIT_OBJECT_0, "event set by the child: %#lx\n", r);

	/* Wait-any, shared and in-process: the child's semaphore posts. */
	objs[0] = local;
	objs[1] = sem;
	SetEvent(go);
	r = WaitForMultipleObjects(2, objs, FALSE, TIMEOUT);
	ok(r == WAIT_OBJECT_0 + 1, "wait-any woken by the child's semaphore: %#lx\n", r);
	while (WaitForSingleObject(sem, 1000) == WAIT_OBJECT_0)
		taken++;
	ok(taken == 2, "the rest of the child's 3 posts: %d\n", taken);
	/* Wait-any woken by an in-process event while a shared one stays
	 * unset. */
	objs[0] = reply;
	objs[1] = local;
	thread = CreateThread(NULL, 0, set_later, local, 0, NULL);
	r = WaitForMultipleObjects(2, objs, FALSE, TIMEOUT);
	ok(r == WAIT_OBJECT_0 + 1, "wait-any woken by the in-process event: %#lx\n", r);
	WaitForSingleObject(thread, TIMEOUT);
	CloseHandle(thread);

	/* SignalObjectAndWait: the child answers go with reply. */
	r = SignalObjectAndWait(go, reply, TIMEOUT, FALSE);
	ok(r == WAIT_OBJECT_0, "SignalObjectAndWait across processes: %#lx\n", r);

	/* Wait-all: the in-process event is set at once, the shared one
	 * only by the child later; neither is consumed before both are. */
	SetEvent(local);
	objs[0] = local;
	objs[1] = reply;
	SetEvent(go);
	r = WaitForMultipleObjects(2, objs, TRUE, 0);
	ok(r == WAIT_TIMEOUT, "wait-all, one unset: %#lx\n", r);
	r = WaitForMultipleObjects(2, objs, TRUE, TIMEOUT);
	ok(r == WAIT_OBJECT_0, "wait-all across processes: %#lx\n", r);
	ok(WaitForSingleObject(local, 0) == WAIT_TIMEOUT, "auto-reset event consumed by the wait-all\n");

	code = finish_child(&pi);
	ok(code == 0, "child events exit code %lu\n", code);
	CloseHandle(ready);
	CloseHandle(go);
	CloseHandle(sem);
	CloseHandle(reply);
	CloseHandle(local);
}

static DWORD WINAPI hold_and_exit(void *m)
{
	return WaitForSingleObject(m, TIMEOUT);
}

static DWORD WINAPI wait_mutex(void *m)
{
	DWORD r = WaitForSingleObject(m, TIMEOUT);

	/* Owned now, abandoned or not. */
	if (r == WAIT_OBJECT_0 || r == WAIT_ABANDONED)
		ReleaseMutex(m);
	return r;
}

static void test_mutexes(void)
{
	HANDLE m = CreateMutexA(NULL, FALSE, name("mtx"));
	HANDLE held = CreateEventA(NULL, FALSE, FALSE, name("held"));
	HANDLE go = CreateEventA(NULL, FALSE, FALSE, name("go"));
	HANDLE thread, objs[2];
	PROCESS_INFORMATION pi;
	DWORD r, code;

	/* Held by a child, released by it. */
	pi = start_child("mutex release");
	ok(WaitForSingleObject(held, TIMEOUT) == WAIT_OBJECT_0, "child took the mutex\n");
	ok(WaitForSingleObject(m, 0) == WAIT_TIMEOUT, "mutex owned by the child\n");
	SetLastError(0xdeadbeef);
	ok(!ReleaseMutex(m) && GetLastError() == ERROR_NOT_OWNER, "release by a non-owner: %lu\n", GetLastError());
	SetEvent(go);
	r = WaitForSingleObject(m, TIMEOUT);
	ok(r == WAIT_OBJECT_0, "released by the child: %#lx\n", r);
	ok(ReleaseMutex(m), "release\n");
	code = finish_child(&pi);
	ok(code == 0, "child mutex release exit code %lu\n", code);

	/* A thread of ours exits holding it. */
	thread = CreateThread(NULL, 0, hold_and_exit, m, 0, NULL);
	WaitForSingleObject(thread, TIMEOUT);
	GetExitCodeThread(thread, &code);
	ok(code == WAIT_OBJECT_0, "thread took it: %#lx\n", code);
	CloseHandle(thread);
	r = WaitForSingleObject(m, TIMEOUT);
	ok(r == WAIT_ABANDONED, "owner thread exited: %#lx\n", r);
	ok(WaitForSingleObject(m, 0) == WAIT_OBJECT_0, "owned after WAIT_ABANDONED (recursion)\n");
	ok(ReleaseMutex(m) && ReleaseMutex(m), "release twice\n");

	/* A child exits holding it; a wait-all with an event sees it. */
	pi = start_child("mutex exit");
	ok(WaitForSingleObject(held, TIMEOUT) == WAIT_OBJECT_0, "child took the mutex\n");
	code = finish_child(&pi);
	ok(code == 5, "child mutex exit exit code %lu\n", code);
	SetEvent(go);
	objs[0] = go;
	objs[1] = m;
	/* The documented range: which index a wait-all reports is not
	 * (Wine gives 0, ndrun the mutex's). */
	r = WaitForMultipleObjects(2, objs, TRUE, TIMEOUT);
	ok(r >= WAIT_ABANDONED_0 && r <= WAIT_ABANDONED_0 + 1, "wait-all with the abandoned mutex: %#lx\n", r);
	ok(ReleaseMutex(m), "release\n");

	/* A child killed while holding it, with a waiter of ours already
	 * blocked: the kill alone must wake it. */
	pi = start_child("mutex hold");
	ok(WaitForSingleObject(held, TIMEOUT) == WAIT_OBJECT_0, "child took the mutex\n");
	thread = CreateThread(NULL, 0, wait_mutex, m, 0, NULL);
	ok(WaitForSingleObject(thread, 300) == WAIT_TIMEOUT, "waiter blocked while the child holds it\n");
	ok(TerminateProcess(pi.hProcess, 9), "TerminateProcess: %lu\n", GetLastError());
	code = finish_child(&pi);
	ok(code == 9, "killed child's exit code %lu\n", code);
	ok(WaitForSingleObject(thread, TIMEOUT) == WAIT_OBJECT_0, "blocked waiter woke\n");
	GetExitCodeThread(thread, &code);
	ok(code == WAIT_ABANDONED, "blocked waiter got %#lx\n", code);
	CloseHandle(thread);
	r = WaitForSingleObject(m, TIMEOUT);
	ok(r == WAIT_OBJECT_0, "released normally by that waiter: %#lx\n", r);
	ReleaseMutex(m);

	/* Killed again, nobody waiting: the next wait sees it. */
	pi = start_child("mutex hold");
	ok(WaitForSingleObject(held, TIMEOUT) == WAIT_OBJECT_0, "child took the mutex\n");
	TerminateProcess(pi.hProcess, 9);
	finish_child(&pi);
	r = WaitForSingleObject(m, TIMEOUT);
	ok(r == WAIT_ABANDONED, "after TerminateProcess: %#lx\n", r);
	ok(ReleaseMutex(m), "owned after WAIT_ABANDONED\n");

	CloseHandle(m);
	CloseHandle(held);
	CloseHandle(go);
}

static void test_inherit(void)
{
	SECURITY_ATTRIBUTES sa = { sizeof(sa), NULL, TRUE };
	STARTUPINFOA si = { .cb = sizeof(si) };
	char self[MAX_PATH], line[MAX_PATH + 128], *view;
	HANDLE ev = CreateEventA(&sa, FALSE, FALSE, name("inh"));
	HANDLE map = CreateFileMappingA(INVALID_HANDLE_VALUE, &sa, PAGE_READWRITE, 0, 4096, NULL);
	PROCESS_INFORMATION pi;
	DWORD code = ~0u, r;

	view = MapViewOfFile(map, FILE_MAP_READ, 0, 0, 0);
	ok(ev && view, "objects: %lu\n", GetLastError());
	GetModuleFileNameA(NULL, self, sizeof(self));
	snprintf(line, sizeof(line), "\"%s\" child inherit %p %p %s", self, ev, map, prefix);
	ok(CreateProcessA(NULL, line, NULL, NULL, TRUE, 0, NULL, NULL, &si, &pi), "CreateProcess: %lu\n",
	   GetLastError());
	/* Ours can go at once: the child's inherited handle is its own. */
	CloseHandle(map);
	r = WaitForSingleObject(ev, TIMEOUT);
	ok(r == WAIT_OBJECT_0, "inherited named event set by the child: %#lx\n", r);
	ok(WaitForSingleObject(pi.hProcess, TIMEOUT) == WAIT_OBJECT_0, "child ended\n");
	GetExitCodeProcess(pi.hProcess, &code);
	ok(code == 0, "child inherit exit code %lu\n", code);
	ok(view && !strcmp(view, "inherited"), "inherited mapping written by the child: %.20s\n", view ? view : "");
	UnmapViewOfFile(view);
	CloseHandle(pi.hProcess);
	CloseHandle(pi.hThread);
	CloseHandle(ev);
}

int main(int argc, char **argv)
{
	if (argc >= 4 && !strcmp(argv[1], "child")) {
		snprintf(prefix, sizeof(prefix), "%s", argv[argc - 1]);
		if (!strcmp(argv[2], "events"))
			return child_events();
		if (!strcmp(argv[2], "mutex") && argc >= 5)
			return child_mutex(argv[3]);
		if (!strcmp(argv[2], "inherit") && argc >= 6)
			return child_inherit(argv[3], argv[4]);
		return 99;
	}
	/* Unique names: runs may overlap, and a name outlives nobody. */
	snprintf(prefix, sizeof(prefix), "ndshim_sync_shared_%lu_", GetCurrentProcessId());
	test_names();
	test_access();
	test_cross_process_events();
	test_mutexes();
	test_inherit();
	return test_summary();
}

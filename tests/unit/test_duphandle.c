/* kernel32/duphandle: DuplicateHandle through another process's handle
 * server (a fork()ed child of the test serving its own handle table):
 * into it and back out with DUPLICATE_CLOSE_SOURCE, the object the same
 * on both sides (an unnamed event promoted to a shared one on the way); PROCESS_DUP_HANDLE checked; a pid that serves nothing;
 * the socket tokens of WSADuplicateSocket taken once; a completion port
 * into the child and back, posted to through what came back. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/codepage.h"
#include "core/handle.h"
#include "core/process.h"
#include "core/sync.h"
#include "win32_helper.h"

HANDLE WINAPI CreateEventW(LPSECURITY_ATTRIBUTES, BOOL, BOOL, LPCWSTR);
HANDLE WINAPI CreateFileMappingW(HANDLE, LPSECURITY_ATTRIBUTES, DWORD, DWORD, DWORD, LPCWSTR);
HANDLE WINAPI OpenProcess(DWORD, BOOL, DWORD);
BOOL WINAPI DuplicateHandle(HANDLE, HANDLE, HANDLE, HANDLE *, DWORD, BOOL, DWORD);
BOOL WINAPI SetEvent(HANDLE);
BOOL WINAPI ResetEvent(HANDLE);
DWORD WINAPI WaitForSingleObject(HANDLE, DWORD);
BOOL WINAPI CloseHandle(HANDLE);
HANDLE WINAPI CreateIoCompletionPort(HANDLE, HANDLE, ULONG_PTR, DWORD);
BOOL WINAPI PostQueuedCompletionStatus(HANDLE, DWORD, ULONG_PTR, LPOVERLAPPED);
BOOL WINAPI GetQueuedCompletionStatus(HANDLE, LPDWORD, PULONG_PTR, LPOVERLAPPED *, DWORD);

/* A child serving its handles until killed. */
static pid_t server_child(void)
{
	int p[2];
	char c = 0;
	pid_t pid;

	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		duphandle_server_start();
		if (write(p[1], &c, 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(p[1]);
	assert_int_equal(read(p[0], &c, 1), 1);
	close(p[0]);
	return pid;
}

static void end_child(pid_t pid)
{
	kill(pid, SIGKILL);
	duphandle_server_gone(pid);
	waitpid(pid, NULL, 0);
}

/* Process handles are pidfds: without pidfd_open (valgrind does not
 * know it), there is nothing to duplicate through.  Said, then skipped. */
static void need_pidfd(void)
{
	int fd = (int)syscall(SYS_pidfd_open, getpid(), 0);

	if (fd >= 0) {
		close(fd);
		return;
	}
	print_message("pidfd_open unavailable here (%s): process handles, and so DuplicateHandle "
		      "between processes, cannot be tested\n", strerror(errno));
	skip();
}

/* Forked before this process serves handles itself (a child of a
 * serving process would inherit its "started" state, not its thread). */
static pid_t server_pid;

static void test_into_and_back(void **state)
{
	char a[64];
	WCHAR *name;
	HANDLE ev, proc, theirs = NULL, back = NULL, again = NULL, map, map_theirs = NULL;
	pid_t pid = server_pid;
	struct object *o1, *o2;

	need_pidfd();
	snprintf(a, sizeof(a), "unit_duph_%d", (int)getpid());
	name = utf8_to_utf16_dup(a);
	ev = CreateEventW(NULL, TRUE, FALSE, name);
	assert_non_null(ev);
	proc = OpenProcess(PROCESS_DUP_HANDLE, FALSE, (DWORD)pid);
	assert_non_null(proc);

	assert_true(DuplicateHandle(GetCurrentProcess(), ev, proc, &theirs, 0, FALSE, DUPLICATE_SAME_ACCESS));
	assert_non_null(theirs);
	/* Back out, closing the child's: a handle to the same event. */
	assert_true(DuplicateHandle(proc, theirs, GetCurrentProcess(), &back, 0, FALSE,
				    DUPLICATE_SAME_ACCESS | DUPLICATE_CLOSE_SOURCE));
	assert_non_null(back);
	assert_true(SetEvent(back));
	assert_int_equal(WaitForSingleObject(ev, 0), WAIT_OBJECT_0);
	assert_true(ResetEvent(ev));
	assert_int_equal(WaitForSingleObject(back, 0), WAIT_TIMEOUT);
	/* The child's handle is gone. */
	assert_false(DuplicateHandle(proc, theirs, GetCurrentProcess(), &again, 0, FALSE, DUPLICATE_SAME_ACCESS));
	assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);

	/* An unnamed mapping travels as its memfd. */
	map = CreateFileMappingW(INVALID_HANDLE_VALUE, NULL, PAGE_READWRITE, 0, 4096, NULL);
	assert_true(DuplicateHandle(GetCurrentProcess(), map, proc, &map_theirs, 0, FALSE, DUPLICATE_SAME_ACCESS));
	assert_true(DuplicateHandle(proc, map_theirs, NULL, NULL, 0, FALSE, DUPLICATE_CLOSE_SOURCE));

	/* Named, the two handles are two objects over one page. */
	o1 = handle_get(ev, NULL);
	o2 = handle_get(back, NULL);
	assert_ptr_not_equal(o1, o2);
	object_unref(o1);
	object_unref(o2);
	/* An unnamed event goes too, promoted to a shared one on its way
	 * out (core/promote.c): the handle now names the shared twin, the
	 * object held from before forwards to it, and what comes back is
	 * the same event. */
	{
		HANDLE local = CreateEventW(NULL, FALSE, TRUE, NULL), x = NULL, y = NULL, port;
		struct object *before = handle_get(local, NULL), *after;

		assert_true(sync_is_local(before));
		assert_true(DuplicateHandle(GetCurrentProcess(), local, proc, &x, 0, FALSE, DUPLICATE_SAME_ACCESS));
		after = handle_get(local, NULL);
		assert_true(after->ops->cross_process);
		assert_false(sync_is_local(before));
		assert_ptr_equal(sync_shared_target(before), after);
		assert_true(DuplicateHandle(proc, x, GetCurrentProcess(), &y, 0, FALSE,
					    DUPLICATE_SAME_ACCESS | DUPLICATE_CLOSE_SOURCE));
		/* Its signaled state went along, and an auto-reset event
		 * is consumed once, whichever handle waits. */
		assert_int_equal(WaitForSingleObject(y, 0), WAIT_OBJECT_0);
		assert_int_equal(WaitForSingleObject(local, 0), WAIT_TIMEOUT);
		event_set(before);
		assert_int_equal(WaitForSingleObject(y, 0), WAIT_OBJECT_0);
		assert_int_equal(WaitForSingleObject(local, 0), WAIT_TIMEOUT);
		object_unref(after);
		object_unref(before);
		CloseHandle(y);
		CloseHandle(local);

		/* A port goes as a way to post to it: into the child, and
		 * back out (the child's remote port passed on), a post
		 * through what came back reaches our port. */
		port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 0);
		assert_non_null(port);
		assert_true(DuplicateHandle(GetCurrentProcess(), port, proc, &x, 0, FALSE, DUPLICATE_SAME_ACCESS));
		assert_true(DuplicateHandle(proc, x, GetCurrentProcess(), &y, 0, FALSE,
					    DUPLICATE_SAME_ACCESS | DUPLICATE_CLOSE_SOURCE));
		assert_true(PostQueuedCompletionStatus(y, 7, 0x1234, (OVERLAPPED *)(uintptr_t)0x5678));
		{
			DWORD bytes = 0;
			ULONG_PTR key = 0;
			OVERLAPPED *ov = NULL;

			assert_true(GetQueuedCompletionStatus(port, &bytes, &key, &ov, 10000));
			assert_int_equal(bytes, 7);
			assert_int_equal(key, 0x1234);
			assert_ptr_equal(ov, (OVERLAPPED *)(uintptr_t)0x5678);
			/* Only posting reaches another process's port. */
			assert_false(GetQueuedCompletionStatus(y, &bytes, &key, &ov, 0));
			assert_int_equal(GetLastError(), ERROR_NOT_SUPPORTED);
		}
		CloseHandle(y);
		CloseHandle(port);
	}
	CloseHandle(map);
	CloseHandle(back);
	CloseHandle(ev);
	CloseHandle(proc);
	free(name);
}

static void test_rights_and_no_server(void **state)
{
	HANDLE ev = CreateEventW(NULL, TRUE, FALSE, NULL), proc, x = NULL;
	pid_t pid = server_pid, plain;

	need_pidfd();
	proc = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, (DWORD)pid);
	assert_non_null(proc);
	assert_false(DuplicateHandle(GetCurrentProcess(), ev, proc, &x, 0, FALSE, DUPLICATE_SAME_ACCESS));
	assert_int_equal(GetLastError(), ERROR_ACCESS_DENIED);
	CloseHandle(proc);

	/* A process that serves no handles. */
	plain = fork();
	if (!plain) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;)
			pause();
	}
	proc = OpenProcess(PROCESS_DUP_HANDLE, FALSE, (DWORD)plain);
	assert_non_null(proc);
	assert_false(DuplicateHandle(proc, (HANDLE)(uintptr_t)4, GetCurrentProcess(), &x, 0, FALSE,
				     DUPLICATE_SAME_ACCESS));
	assert_int_equal(GetLastError(), ERROR_ACCESS_DENIED);
	CloseHandle(proc);
	end_child(plain);
	CloseHandle(ev);
}

static void test_socket_tokens(void **state)
{
	int sv[2], meta[3] = { 2, 1, 6 }, got[3] = { 0 }, fd;
	uint32_t token = 0;
	char c = 0;

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_true(duphandle_park_socket((DWORD)getpid(), sv[0], meta, &token));
	assert_int_not_equal(token, 0);
	fd = duphandle_take_socket(token, got);
	assert_true(fd >= 0 && fd != sv[0]);
	assert_memory_equal(got, meta, sizeof(meta));
	/* Taken once. */
	assert_int_equal(duphandle_take_socket(token, got), -1);
	/* The same Linux socket. */
	assert_int_equal(write(fd, "x", 1), 1);
	assert_int_equal(read(sv[1], &c, 1), 1);
	assert_int_equal(c, 'x');
	close(fd);
	close(sv[0]);
	close(sv[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_into_and_back),
		cmocka_unit_test(test_rights_and_no_server),
		cmocka_unit_test(test_socket_tokens),
	};
	int r;

	server_pid = server_child();
	r = cmocka_run_group_tests(tests, win32_test_setup, win32_test_teardown);
	end_child(server_pid);
	/* What ndrun's exit does (OpenProcess made us serve too). */
	duphandle_server_exit();
	return r;
}

/* A completion port duplicated into another process and posted to from
 * there, as MS-MPI's shared-memory channel wakes its peers: the child
 * opens the parent, duplicates the parent's port out of it and posts N
 * packets with distinct keys, byte counts and OVERLAPPED values, which
 * the parent's GetQueuedCompletionStatus(Ex) receive exactly and in
 * order; the parent duplicates its port into a child (the other
 * direction) and the child posts through that; the child owns a port
 * and the parent takes it out of the child and posts to it.  CloseHandle
 * of a duplicate closes it once.  A post through a duplicate after the
 * port's creator exited succeeds: the duplicate keeps the port object
 * alive (Windows' handles are references to kernel objects).  The child
 * is this program ("process_dupport child <mode> ..."); handle values
 * travel on its command line and standard streams.  Every wait is
 * bounded. */
#include <windows.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipe_lines.h"
#include "test.h"
#include "self_child.h"

#define N 64
#define TIMEOUT 20000

static ULONG_PTR key_of(int i) { return (ULONG_PTR)0x1000 + i; }
static DWORD bytes_of(int i) { return (DWORD)i * 7 + 1; }
static OVERLAPPED *ov_of(int i) { return (OVERLAPPED *)(ULONG_PTR)(0x7f0000010000ull + 16 * (ULONGLONG)i); }

static int post_all(HANDLE port)
{
	for (int i = 0; i < N; i++)
		if (!PostQueuedCompletionStatus(port, bytes_of(i), key_of(i), ov_of(i)))
			return 1;
	return 0;
}

/* N packets from port, checked in order; the first through
 * GetQueuedCompletionStatusEx.  The number that matched. */
static int take_all(HANDLE port)
{
	for (int i = 0; i < N; i++) {
		OVERLAPPED_ENTRY e = { 0 };
		ULONG n = 0;

		if (i == 0) {
			if (!GetQueuedCompletionStatusEx(port, &e, 1, &n, TIMEOUT, FALSE) || n != 1)
				return i;
		} else if (!GetQueuedCompletionStatus(port, &e.dwNumberOfBytesTransferred, &e.lpCompletionKey,
						      &e.lpOverlapped, TIMEOUT)) {
			return i;
		}
		if (e.lpCompletionKey != key_of(i) || e.dwNumberOfBytesTransferred != bytes_of(i) ||
		    e.lpOverlapped != ov_of(i))
			return i;
	}
	return N;
}

/* "post PID PORT": the port out of process PID, as MS-MPI takes it. */
static int child_post(DWORD pid, HANDLE theirs)
{
	HANDLE proc = OpenProcess(PROCESS_DUP_HANDLE, FALSE, pid), port = NULL;

	if (!proc)
		return 40;
	if (!DuplicateHandle(proc, theirs, GetCurrentProcess(), &port, 0, FALSE, DUPLICATE_SAME_ACCESS))
		return 41;
	CloseHandle(proc);
	if (post_all(port))
		return 42;
	if (!CloseHandle(port))
		return 43;
	SetLastError(0xdeadbeef);
	if (CloseHandle(port) || GetLastError() != ERROR_INVALID_HANDLE)
		return 44;
	return 0;
}

/* "given": the parent put its port here; its value comes on stdin. */
static int child_given(void)
{
	char line[64];
	HANDLE port;

	if (!read_line(GetStdHandle(STD_INPUT_HANDLE), line, sizeof(line)))
		return 50;
	port = (HANDLE)(ULONG_PTR)strtoull(line, NULL, 16);
	if (!port)
		return 51;
	return post_all(port) ? 52 : 0;
}

/* "own": a port of ours, its value on stdout; the parent posts. */
static int child_own(void)
{
	HANDLE port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 0);
	char line[64];
	DWORD n;
	int got;

	if (!port)
		return 60;
	n = (DWORD)snprintf(line, sizeof(line), "%p\n", port);
	WriteFile(GetStdHandle(STD_OUTPUT_HANDLE), line, n, &n, NULL);
	got = take_all(port);
	return got == N ? 0 : 100 + got;
}

static void test_child_takes_ours(void)
{
	HANDLE port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 0);
	struct self_child c;
	char args[128];
	DWORD code;
	int got;

	ok(port != NULL, "CreateIoCompletionPort: %lu\n", GetLastError());
	snprintf(args, sizeof(args), "child post %lu %p", GetCurrentProcessId(), port);
	if (!self_child_start(&c, args))
		return;
	got = take_all(port);
	ok(got == N, "packets from the child: %d of %d in order\n", got, N);
	code = self_child_finish(&c);
	ok(code == 0, "child post: exit %lu\n", code);
	CloseHandle(port);
}

static void test_we_give_ours(void)
{
	HANDLE port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 0), theirs = NULL;
	struct self_child c;
	char line[64];
	DWORD code;
	int got;

	if (!self_child_start(&c, "child given"))
		return;
	ok(DuplicateHandle(GetCurrentProcess(), port, c.pi.hProcess, &theirs, 0, FALSE, DUPLICATE_SAME_ACCESS),
	   "DuplicateHandle into the child: %lu\n", GetLastError());
	snprintf(line, sizeof(line), "%p\n", theirs);
	write_line(c.in_w, line);
	got = take_all(port);
	ok(got == N, "packets through the handle we gave: %d of %d in order\n", got, N);
	code = self_child_finish(&c);
	ok(code == 0, "child given: exit %lu\n", code);
	CloseHandle(port);
}

static void test_we_take_theirs(void)
{
	struct self_child c;
	HANDLE port = NULL;
	char line[64];
	DWORD code;

	if (!self_child_start(&c, "child own"))
		return;
	ok(read_line(c.out_r, line, sizeof(line)), "no port value from the child\n");
	ok(DuplicateHandle(c.pi.hProcess, (HANDLE)(ULONG_PTR)strtoull(line, NULL, 16), GetCurrentProcess(), &port, 0,
			   FALSE, DUPLICATE_SAME_ACCESS),
	   "DuplicateHandle out of the child: %lu\n", GetLastError());
	ok(post_all(port) == 0, "posting to the child's port: %lu\n", GetLastError());
	code = self_child_finish(&c);
	ok(code == 0, "the child's port got %ld of %d packets in order (exit %lu)\n",
	   code >= 100 ? (long)code - 100 : -1L, N, code);
	/* Its creator is gone; our handle still references the port. */
	ok(PostQueuedCompletionStatus(port, 1, 2, NULL), "post after the owner exited: %lu\n", GetLastError());
	ok(CloseHandle(port), "CloseHandle: %lu\n", GetLastError());
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "child")) {
		if (!strcmp(argv[2], "post") && argc == 5)
			return child_post(strtoul(argv[3], NULL, 10), (HANDLE)(ULONG_PTR)strtoull(argv[4], NULL, 16));
		if (!strcmp(argv[2], "given"))
			return child_given();
		if (!strcmp(argv[2], "own"))
			return child_own();
		return 99;
	}
	test_child_takes_ours();
	test_we_give_ours();
	test_we_take_theirs();
	return test_summary();
}

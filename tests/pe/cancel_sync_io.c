/* CancelSynchronousIo: a thread blocked in a synchronous ReadFile
 * (anonymous pipe, named pipe) or ConnectNamedPipe is released with
 * ERROR_OPERATION_ABORTED, and what is written afterwards is all there
 * for the next read; a thread with no synchronous I/O gives
 * ERROR_NOT_FOUND. */
#include <stdio.h>
#include <string.h>
#include <windows.h>

#include "test.h"

struct io_thread {
	HANDLE h;           /* the pipe end */
	char buf[64];
	DWORD len, got, err;
	BOOL ret;
	HANDLE started;     /* set just before the call */
};

static DWORD WINAPI reader(void *arg)
{
	struct io_thread *t = arg;

	t->got = 0xdeadbeef;
	SetEvent(t->started);
	SetLastError(0xdeadbeef);
	t->ret = ReadFile(t->h, t->buf, t->len, &t->got, NULL);
	t->err = GetLastError();
	return 0;
}

static DWORD WINAPI connector(void *arg)
{
	struct io_thread *t = arg;

	SetEvent(t->started);
	SetLastError(0xdeadbeef);
	t->ret = ConnectNamedPipe(t->h, NULL);
	t->err = GetLastError();
	return 0;
}

static HANDLE start(LPTHREAD_START_ROUTINE fn, struct io_thread *t)
{
	HANDLE th;

	t->started = CreateEventA(NULL, TRUE, FALSE, NULL);
	th = CreateThread(NULL, 0, fn, t, 0, NULL);
	ok(th != NULL, "CreateThread: %lu\n", GetLastError());
	WaitForSingleObject(t->started, INFINITE);
	CloseHandle(t->started);
	return th;
}

/* Cancels th's call once it is blocked in it: until then the answer is
 * ERROR_NOT_FOUND.  The thread must still be blocked (not finished) when
 * the cancel lands. */
static void cancel_blocked(HANDLE th, const char *what)
{
	BOOL r = FALSE;
	int i;

	for (i = 0; i < 500; i++) {
		ok(WaitForSingleObject(th, 0) == WAIT_TIMEOUT, "%s: the call ended by itself\n", what);
		SetLastError(0xdeadbeef);
		if ((r = CancelSynchronousIo(th)))
			break;
		ok(GetLastError() == ERROR_NOT_FOUND, "%s: error %lu\n", what, GetLastError());
		if (GetLastError() != ERROR_NOT_FOUND)
			break;
		Sleep(10);
	}
	ok(r, "%s: never cancelled (%d tries)\n", what, i);
	ok(WaitForSingleObject(th, 5000) == WAIT_OBJECT_0, "%s: still blocked after the cancel\n", what);
}

static void test_not_found(void)
{
	HANDLE ev = CreateEventA(NULL, TRUE, FALSE, NULL), th, limited;
	BOOL r;

	SetLastError(0xdeadbeef);
	r = CancelSynchronousIo(GetCurrentThread());
	ok(!r && GetLastError() == ERROR_NOT_FOUND, "self: %d, error %lu\n", r, GetLastError());

	/* A sleeping thread is not doing I/O. */
	th = CreateThread(NULL, 0, (LPTHREAD_START_ROUTINE)(void *)Sleep, (void *)(ULONG_PTR)300, 0, NULL);
	Sleep(50);
	SetLastError(0xdeadbeef);
	r = CancelSynchronousIo(th);
	ok(!r && GetLastError() == ERROR_NOT_FOUND, "sleeping: %d, error %lu\n", r, GetLastError());

	/* THREAD_TERMINATE is the right it takes. */
	limited = OpenThread(THREAD_QUERY_INFORMATION, FALSE, GetThreadId(th));
	ok(limited != NULL, "OpenThread: %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	r = CancelSynchronousIo(limited);
	ok(!r && GetLastError() == ERROR_ACCESS_DENIED, "no THREAD_TERMINATE: %d, error %lu\n", r,
	   GetLastError());
	CloseHandle(limited);
	WaitForSingleObject(th, INFINITE);

	/* A finished thread has nothing pending either. */
	SetLastError(0xdeadbeef);
	r = CancelSynchronousIo(th);
	ok(!r && GetLastError() == ERROR_NOT_FOUND, "finished: %d, error %lu\n", r, GetLastError());
	CloseHandle(th);

	SetLastError(0xdeadbeef);
	r = CancelSynchronousIo(ev);
	ok(!r && GetLastError() == ERROR_INVALID_HANDLE, "an event: %d, error %lu\n", r, GetLastError());
	SetLastError(0xdeadbeef);
	r = CancelSynchronousIo(NULL);
	ok(!r && GetLastError() == ERROR_INVALID_HANDLE, "NULL: %d, error %lu\n", r, GetLastError());
	CloseHandle(ev);
}

/* The cancelled read fails and took nothing; the next read gets all
 * that the writer sends afterwards. */
static void check_after(HANDLE rd, HANDLE wr, struct io_thread *t, const char *what)
{
	char buf[64] = { 0 };
	DWORD n = 0;

	ok(!t->ret && t->err == ERROR_OPERATION_ABORTED, "%s: ret %d, error %lu\n", what, t->ret, t->err);
	ok(t->got == 0, "%s: %lu bytes\n", what, t->got);
	ok(WriteFile(wr, "after cancel", 12, &n, NULL) && n == 12, "%s: write %lu, error %lu\n", what, n,
	   GetLastError());
	n = 0;
	ok(ReadFile(rd, buf, sizeof(buf), &n, NULL), "%s: read error %lu\n", what, GetLastError());
	ok(n == 12 && !memcmp(buf, "after cancel", 12), "%s: read %lu '%.*s'\n", what, n, (int)n, buf);
}

static void test_anonymous_pipe(void)
{
	struct io_thread t = { 0 };
	HANDLE rd, wr, th;
	DWORD n;

	ok(CreatePipe(&rd, &wr, NULL, 0), "CreatePipe: %lu\n", GetLastError());
	t.h = rd;
	t.len = sizeof(t.buf);
	th = start(reader, &t);
	cancel_blocked(th, "anonymous pipe");
	CloseHandle(th);
	check_after(rd, wr, &t, "anonymous pipe");

	/* Again: the pipe and the thread machinery are reusable. */
	memset(&t, 0, sizeof(t));
	t.h = rd;
	t.len = 5;
	th = start(reader, &t);
	cancel_blocked(th, "anonymous pipe, twice");
	CloseHandle(th);
	check_after(rd, wr, &t, "anonymous pipe, twice");

	/* A read that has its data is not cancelled: the thread is done. */
	memset(&t, 0, sizeof(t));
	ok(WriteFile(wr, "ready", 5, &n, NULL), "write: %lu\n", GetLastError());
	t.h = rd;
	t.len = 5;
	th = start(reader, &t);
	ok(WaitForSingleObject(th, 5000) == WAIT_OBJECT_0, "read with data pending did not return\n");
	ok(t.ret && t.got == 5 && !memcmp(t.buf, "ready", 5), "ret %d, got %lu\n", t.ret, t.got);
	SetLastError(0xdeadbeef);
	ok(!CancelSynchronousIo(th) && GetLastError() == ERROR_NOT_FOUND, "error %lu\n", GetLastError());
	CloseHandle(th);
	CloseHandle(rd);
	CloseHandle(wr);
}

static void test_named_pipe(void)
{
	static const char name[] = "\\\\.\\pipe\\ndshim_cancel_sync_io";
	struct io_thread t = { 0 };
	HANDLE srv, cli, th;

	srv = CreateNamedPipeA(name, PIPE_ACCESS_DUPLEX, PIPE_TYPE_BYTE | PIPE_WAIT, 1, 4096, 4096, 0,
			       NULL);
	ok(srv != INVALID_HANDLE_VALUE, "CreateNamedPipe: %lu\n", GetLastError());

	/* ConnectNamedPipe with nobody coming. */
	t.h = srv;
	th = start(connector, &t);
	cancel_blocked(th, "ConnectNamedPipe");
	CloseHandle(th);
	ok(!t.ret && t.err == ERROR_OPERATION_ABORTED, "connect: ret %d, error %lu\n", t.ret, t.err);

	/* The instance still listens: a client gets in. */
	cli = CreateFileA(name, GENERIC_READ | GENERIC_WRITE, 0, NULL, OPEN_EXISTING, 0, NULL);
	ok(cli != INVALID_HANDLE_VALUE, "CreateFile: %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	ok(!ConnectNamedPipe(srv, NULL) && GetLastError() == ERROR_PIPE_CONNECTED, "error %lu\n",
	   GetLastError());

	/* A read on the client end, then on the server end. */
	memset(&t, 0, sizeof(t));
	t.h = cli;
	t.len = sizeof(t.buf);
	th = start(reader, &t);
	cancel_blocked(th, "named pipe client");
	CloseHandle(th);
	check_after(cli, srv, &t, "named pipe client");

	memset(&t, 0, sizeof(t));
	t.h = srv;
	t.len = 3;
	th = start(reader, &t);
	cancel_blocked(th, "named pipe server");
	CloseHandle(th);
	ok(!t.ret && t.err == ERROR_OPERATION_ABORTED, "server: ret %d, error %lu\n", t.ret, t.err);
	{
		char buf[16] = { 0 };
		DWORD n = 0;

		ok(WriteFile(cli, "xyz", 3, &n, NULL) && n == 3, "write %lu\n", GetLastError());
		ok(ReadFile(srv, buf, 3, &n, NULL) && n == 3 && !memcmp(buf, "xyz", 3), "read %lu '%s'\n", n,
		   buf);
	}
	CloseHandle(cli);
	CloseHandle(srv);
}

/* Cancels racing with reads that get data: every byte written arrives
 * once and in order, and every read that fails was cancelled. */
#define STREAM_BYTES 20000

struct stream {
	HANDLE rd;
	volatile LONG done;
	DWORD got, cancelled, bad_error, out_of_order;
};

static DWORD WINAPI stream_reader(void *arg)
{
	struct stream *st = arg;
	unsigned char buf[64];
	DWORD n;

	while (st->got < STREAM_BYTES) {
		if (!ReadFile(st->rd, buf, sizeof(buf), &n, NULL)) {
			if (GetLastError() == ERROR_OPERATION_ABORTED)
				st->cancelled++;
			else if (st->bad_error++ > 10)
				break;
			continue;
		}
		for (DWORD i = 0; i < n; i++)
			if (buf[i] != (unsigned char)((st->got + i) % 251))
				st->out_of_order++;
		st->got += n;
	}
	InterlockedExchange(&st->done, 1);
	return 0;
}

static void test_no_loss(void)
{
	struct stream st = { 0 };
	unsigned char chunk[64];
	DWORD sent = 0, n, cancels = 0;
	HANDLE wr, th;

	ok(CreatePipe(&st.rd, &wr, NULL, 0), "CreatePipe: %lu\n", GetLastError());
	th = CreateThread(NULL, 0, stream_reader, &st, 0, NULL);
	while (sent < STREAM_BYTES) {
		DWORD len = 1 + (sent * 7) % 50;

		if (len > STREAM_BYTES - sent)
			len = STREAM_BYTES - sent;
		for (DWORD i = 0; i < len; i++)
			chunk[i] = (unsigned char)((sent + i) % 251);
		if (!WriteFile(wr, chunk, len, &n, NULL) || n != len)
			break;
		sent += len;
		if (CancelSynchronousIo(th))
			cancels++;
		if (!(sent % 7))
			Sleep(0);
	}
	ok(sent == STREAM_BYTES, "wrote %lu: error %lu\n", sent, GetLastError());
	ok(WaitForSingleObject(th, 10000) == WAIT_OBJECT_0, "the reader is stuck at %lu bytes\n", st.got);
	ok(st.got == STREAM_BYTES, "read %lu of %u bytes\n", st.got, STREAM_BYTES);
	ok(!st.out_of_order, "%lu bytes out of order\n", st.out_of_order);
	ok(!st.bad_error, "%lu reads failed otherwise\n", st.bad_error);
	ok(st.cancelled <= cancels, "%lu reads cancelled, %lu cancels succeeded\n", st.cancelled, cancels);
	printf("no loss: %lu cancels took, %lu reads cancelled\n", cancels, st.cancelled);
	CloseHandle(th);
	CloseHandle(st.rd);
	CloseHandle(wr);
}

/* GetThreadId, which the tests above use to open a thread. */
static void test_thread_id(void)
{
	HANDLE th, h, ev = CreateEventA(NULL, TRUE, FALSE, NULL);
	DWORD tid = 0, id, err;

	id = GetThreadId(GetCurrentThread());
	ok(id == GetCurrentThreadId(), "got %lu\n", id);
	th = CreateThread(NULL, 0, (LPTHREAD_START_ROUTINE)(void *)WaitForSingleObject, ev, 0, &tid);
	id = GetThreadId(th);
	ok(tid && id == tid, "got %lu, want %lu\n", id, tid);
	h = OpenThread(THREAD_QUERY_LIMITED_INFORMATION, FALSE, tid);
	id = GetThreadId(h);
	ok(h && id == tid, "limited: got %lu\n", id);
	CloseHandle(h);
	h = OpenThread(SYNCHRONIZE, FALSE, tid);
	ok(h != NULL, "OpenThread: error %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	id = GetThreadId(h);
	err = GetLastError();
	ok(!id && err == ERROR_ACCESS_DENIED, "SYNCHRONIZE only: got %lu, error %lu\n", id, err);
	CloseHandle(h);
	SetLastError(0xdeadbeef);
	h = OpenThread(THREAD_ALL_ACCESS, FALSE, 0);
	err = GetLastError();
	ok(!h && err == ERROR_INVALID_PARAMETER, "OpenThread(0): %p, error %lu\n", h, err);
	SetEvent(ev);
	WaitForSingleObject(th, INFINITE);
	id = GetThreadId(th);
	ok(id == tid, "finished: got %lu\n", id);
	CloseHandle(th);
	SetLastError(0xdeadbeef);
	id = GetThreadId(ev);
	err = GetLastError();
	ok(!id && err == ERROR_INVALID_HANDLE, "event: got %lu, error %lu\n", id, err);
	CloseHandle(ev);
}

int main(void)
{
	test_thread_id();
	test_not_found();
	test_anonymous_pipe();
	test_named_pipe();
	test_no_loss();
	return test_summary();
}

/* CancelSynchronousIo on a thread blocked in a blocking socket call
 * (recv, accept): the call fails with WSAEINTR, as Winsock ends an
 * interrupted blocking call, and the socket goes on working: data sent
 * afterwards arrives whole, the listener still accepts.  Wine 8 does not
 * cancel blocking Winsock calls (its CancelSynchronousIo answers
 * ERROR_NOT_FOUND for them): those checks are todo_wine, and the test
 * then unblocks the thread itself. */
#include <winsock2.h>
#include <windows.h>
#include <stdio.h>

#include "test.h"

static SOCKET sock;
static int ret;
static int err;
static char buf[32];
static HANDLE started;

static DWORD WINAPI do_recv(void *arg)
{
	(void)arg;
	SetEvent(started);
	ret = recv(sock, buf, sizeof(buf), 0);
	err = WSAGetLastError();
	return 0;
}

static DWORD WINAPI do_accept(void *arg)
{
	(void)arg;
	SetEvent(started);
	ret = (int)accept(sock, NULL, NULL);
	err = WSAGetLastError();
	return 0;
}

static HANDLE start(LPTHREAD_START_ROUTINE fn)
{
	HANDLE th;

	ResetEvent(started);
	ret = 12345;
	err = 0;
	th = CreateThread(NULL, 0, fn, NULL, 0, NULL);
	WaitForSingleObject(started, INFINITE);
	return th;
}

/* TRUE once th's blocking call was cancelled (tried for about 1 s). */
static BOOL cancel(HANDLE th)
{
	for (int i = 0; i < 100; i++) {
		if (CancelSynchronousIo(th))
			return TRUE;
		if (GetLastError() != ERROR_NOT_FOUND)
			return FALSE;
		Sleep(10);
	}
	return FALSE;
}

int main(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	SOCKET l, c, s;
	int al = sizeof(a), n;
	HANDLE th;
	BOOL r;
	WSADATA d;

	WSAStartup(MAKEWORD(2, 2), &d);
	started = CreateEventA(NULL, TRUE, FALSE, NULL);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	l = socket(AF_INET, SOCK_STREAM, 0);
	ok(!bind(l, (struct sockaddr *)&a, sizeof(a)) && !listen(l, 2), "bind/listen: %d\n", WSAGetLastError());
	getsockname(l, (struct sockaddr *)&a, &al);

	/* accept with nobody connecting. */
	sock = l;
	th = start(do_accept);
	r = cancel(th);
	ok_todo_wine(r, "accept: not cancelled, error %lu\n", GetLastError());
	c = socket(AF_INET, SOCK_STREAM, 0);
	ok(!connect(c, (struct sockaddr *)&a, sizeof(a)), "connect: %d\n", WSAGetLastError());
	if (r) {
		ok(WaitForSingleObject(th, 5000) == WAIT_OBJECT_0, "accept still blocked\n");
		ok(ret == (int)INVALID_SOCKET && err == WSAEINTR, "accept: ret %d, error %d\n", ret, err);
		/* The listener was not harmed: the connection is there. */
		s = accept(l, NULL, NULL);
	} else {
		ok(WaitForSingleObject(th, 5000) == WAIT_OBJECT_0, "accept did not take the connection\n");
		s = (SOCKET)ret;
	}
	ok(s != INVALID_SOCKET, "accept: %d\n", WSAGetLastError());
	CloseHandle(th);

	/* recv with nothing sent. */
	sock = c;
	th = start(do_recv);
	r = cancel(th);
	ok_todo_wine(r, "recv: not cancelled, error %lu\n", GetLastError());
	if (r) {
		ok(WaitForSingleObject(th, 5000) == WAIT_OBJECT_0, "recv still blocked\n");
		ok(ret == SOCKET_ERROR && err == WSAEINTR, "recv: ret %d, error %d\n", ret, err);
	}
	ok(send(s, "after cancel", 12, 0) == 12, "send: %d\n", WSAGetLastError());
	if (r) {
		n = recv(c, buf, sizeof(buf), 0);
		ok(n == 12 && !memcmp(buf, "after cancel", 12), "recv: %d '%.*s'\n", n, n > 0 ? n : 0, buf);
	} else {
		ok(WaitForSingleObject(th, 5000) == WAIT_OBJECT_0, "recv did not get the data\n");
		ok(ret == 12 && !memcmp(buf, "after cancel", 12), "recv: %d\n", ret);
	}
	CloseHandle(th);

	/* Nothing blocked now. */
	th = start(do_recv);
	send(s, "x", 1, 0);
	WaitForSingleObject(th, 5000);
	SetLastError(0xdeadbeef);
	r = CancelSynchronousIo(th);
	ok(!r && GetLastError() == ERROR_NOT_FOUND, "idle: %d, error %lu\n", r, GetLastError());
	ok(ret == 1, "recv: %d\n", ret);
	CloseHandle(th);

	closesocket(s);
	closesocket(c);
	closesocket(l);
	WSACleanup();
	return test_summary();
}

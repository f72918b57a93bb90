/* core/iocp_remote.c: a completion port's channel for other processes.
 * Packets posted through an exported descriptor reach the port with
 * key, OVERLAPPED value and byte count exact and in order, also from a
 * fork()ed process; a waiter blocked on the port is woken by them; a
 * remote port passes the same channel on; closing the port's last
 * handle stops the channel (the reader drops its reference) and a post
 * after that, or after the owner process exited, succeeds as on Windows
 * (the packet is dropped: nobody can remove it); a closed port is not
 * exported. */
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/handle.h"
#include "core/iocp.h"
#include "core/iocp_remote.h"
#include "win32_helper.h"

#define N 100

static OVERLAPPED *ov_of(int i)
{
	return (OVERLAPPED *)(uintptr_t)(0x7f0000001000ull + 16 * (uint64_t)i);
}

/* Takes n packets (each within 10 s) and checks them: key i + 1,
 * ov_of(i), i * 3 bytes, in order from first. */
static int take_checked(struct object *port, int first, int n)
{
	OVERLAPPED_ENTRY e;
	ULONG got;

	for (int i = first; i < first + n; i++) {
		if (iocp_remove(port, &e, 1, &got, 10000, false) != WAIT_OBJECT_0 || got != 1)
			return i + 1000;
		if (e.lpCompletionKey != (ULONG_PTR)i + 1 || e.lpOverlapped != ov_of(i) ||
		    e.dwNumberOfBytesTransferred != (DWORD)i * 3 || e.Internal != 0)
			return i + 2000;
	}
	return 0;
}

/* Closes the port's handle h and waits until the channel's reader has
 * left, dropping its reference (test-side only: a bounded wait), so
 * that refs are left: ours. */
static void close_port(struct object *port, HANDLE h, unsigned int left)
{
	unsigned int refs = 0;

	assert_true(CloseHandle(h));
	for (int i = 0; i < 10000; i++) {
		refs = atomic_load(&port->refcount);
		if (refs == left)
			break;
		usleep(1000);
	}
	assert_int_equal(refs, left);
}

static void test_in_order(void **state)
{
	struct object *port = iocp_create(0), *remote, *again;
	HANDLE h = handle_create(port, IO_COMPLETION_ALL_ACCESS, 0);
	int fd, fd2;

	assert_non_null(h);
	fd = iocp_remote_export(port);
	assert_true(fd >= 0);
	remote = iocp_remote_import(fd);
	assert_non_null(remote);
	for (int i = 0; i < N; i++)
		assert_true(iocp_remote_post(remote, (ULONG_PTR)i + 1, ov_of(i), (DWORD)i * 3));
	assert_int_equal(take_checked(port, 0, N), 0);
	/* A remote port exported again: the same channel. */
	fd2 = iocp_remote_export(remote);
	assert_true(fd2 >= 0);
	again = iocp_remote_import(fd2);
	assert_true(iocp_remote_post(again, N + 1, ov_of(N), N * 3));
	assert_int_equal(take_checked(port, N, 1), 0);
	object_unref(again);
	object_unref(remote);
	/* The thread that removed packets is active on the port (with a
	 * reference) until it leaves. */
	iocp_thread_exit();
	close_port(port, h, 1);
	object_unref(port);
}

struct waiter_arg {
	struct object *port;
	int result;
};

static void *waiter(void *p)
{
	struct waiter_arg *a = p;

	a->result = take_checked(a->port, 0, 1);
	return NULL;
}

static void test_wakes_waiter(void **state)
{
	struct waiter_arg a = { iocp_create(0), -1 };
	HANDLE h = handle_create(a.port, IO_COMPLETION_ALL_ACCESS, 0);
	struct object *remote;
	unsigned int w = 0;
	pthread_t t;

	assert_non_null(h);
	remote = iocp_remote_import(iocp_remote_export(a.port));
	assert_non_null(remote);
	assert_int_equal(pthread_create(&t, NULL, waiter, &a), 0);
	/* Test-side only: until the thread is blocked on the port. */
	for (int i = 0; i < 10000 && w != 1; i++) {
		iocp_get_counts(a.port, &w, NULL, NULL);
		usleep(1000);
	}
	assert_int_equal(w, 1);
	assert_true(iocp_remote_post(remote, 1, ov_of(0), 0));
	pthread_join(t, NULL);
	assert_int_equal(a.result, 0);
	object_unref(remote);
	close_port(a.port, h, 1);
	object_unref(a.port);
}

static void test_close_stops(void **state)
{
	struct object *port = iocp_create(0), *remote;
	HANDLE h = handle_create(port, IO_COMPLETION_ALL_ACCESS, 0);

	assert_non_null(h);
	remote = iocp_remote_import(iocp_remote_export(port));
	assert_non_null(remote);
	/* The reader holds a reference of its own (ours, the handle's,
	 * its). */
	assert_int_equal(atomic_load(&port->refcount), 3);
	/* It leaves once the last handle is closed. */
	close_port(port, h, 1);
	/* Nobody can remove it any more: accepted and dropped. */
	assert_true(iocp_remote_post(remote, 1, ov_of(0), 0));
	/* A closed port is not exported. */
	assert_int_equal(iocp_remote_export(port), -1);
	assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
	object_unref(remote);
	object_unref(port);
}

/* fd over a unix socket. */
static void send_fd(int s, int fd)
{
	char c = 'f', cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { &c, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&m);

	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	if (sendmsg(s, &m, 0) != 1)
		_exit(90);
}

static int recv_fd(int s)
{
	char c, cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &c, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm;
	int fd = -1;

	if (recvmsg(s, &m, 0) != 1)
		return -1;
	cm = CMSG_FIRSTHDR(&m);
	if (cm && cm->cmsg_type == SCM_RIGHTS)
		memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

/* The owner is another process: it exports its port's channel to us,
 * we post, it takes the packets and exits; a later post succeeds. */
static void test_other_process(void **state)
{
	struct object *remote;
	int sv[2], status = -1, fd;
	pid_t pid;

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct object *port = iocp_create(0);
		int efd = port ? iocp_remote_export(port) : -1;

		close(sv[0]);
		if (efd < 0)
			_exit(91);
		send_fd(sv[1], efd);
		close(efd);
		_exit(take_checked(port, 0, N) ? 92 : 0);
	}
	close(sv[1]);
	fd = recv_fd(sv[0]);
	close(sv[0]);
	assert_true(fd >= 0);
	remote = iocp_remote_import(fd);
	for (int i = 0; i < N; i++)
		assert_true(iocp_remote_post(remote, (ULONG_PTR)i + 1, ov_of(i), (DWORD)i * 3));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	/* The owner has exited: as on Windows, the post succeeds. */
	assert_true(iocp_remote_post(remote, 1, ov_of(0), 0));
	object_unref(remote);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_in_order),
		cmocka_unit_test(test_wakes_waiter),
		cmocka_unit_test(test_close_stops),
		cmocka_unit_test(test_other_process),
	};

	return cmocka_run_group_tests(tests, win32_test_setup, win32_test_teardown);
}

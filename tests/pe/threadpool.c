/* The thread pool.
 *
 * Windows rules checked (Microsoft's docs of QueueUserWorkItem,
 * BindIoCompletionCallback, CreateThreadpoolWork/SubmitThreadpoolWork/
 * WaitForThreadpoolWorkCallbacks, CreateThreadpoolIo/StartThreadpoolIo):
 *  - every queued work item runs once, with its context, on a thread other
 *    than the caller's;
 *  - a submitted TP_WORK runs once per submission, and
 *    WaitForThreadpoolWorkCallbacks(FALSE) returns after all of them ran;
 *  - BindIoCompletionCallback runs the routine for each completion on the
 *    handle with the Win32 error (ERROR_SUCCESS, ERROR_OPERATION_ABORTED
 *    for a cancelled request), the byte count and the OVERLAPPED; a handle
 *    already associated with a port cannot be bound again;
 *  - a TP_IO's callback gets (context, OVERLAPPED, IoResult, bytes, io) for
 *    each request started with StartThreadpoolIo. */
#include "test.h"

#define PIPE_NAME "\\\\.\\pipe\\ndshim_threadpool"

static volatile LONG work_count, wrong_ctx, same_thread;
static DWORD main_tid;
static HANDLE all_done;

static DWORD WINAPI user_work(void *ctx)
{
	if (ctx != &work_count)
		InterlockedIncrement(&wrong_ctx);
	if (GetCurrentThreadId() == main_tid)
		InterlockedIncrement(&same_thread);
	if (InterlockedIncrement(&work_count) == 10)
		SetEvent(all_done);
	return 0;
}

static void test_queue_user_work_item(void)
{
	int i;

	all_done = CreateEventA(NULL, TRUE, FALSE, NULL);
	for (i = 0; i < 10; i++)
		ok(QueueUserWorkItem(user_work, (void *)&work_count, WT_EXECUTEDEFAULT),
		   "QueueUserWorkItem failed: %lu\n", GetLastError());
	ok(WaitForSingleObject(all_done, 5000) == WAIT_OBJECT_0, "only %ld items ran\n", work_count);
	Sleep(50);
	ok(work_count == 10 && !wrong_ctx && !same_thread, "count %ld, wrong ctx %ld, on caller %ld\n",
	   work_count, wrong_ctx, same_thread);
	CloseHandle(all_done);
}

static volatile LONG tp_runs;

static void CALLBACK tp_work_cb(PTP_CALLBACK_INSTANCE inst, void *ctx, PTP_WORK work)
{
	(void)inst;
	(void)work;
	Sleep(1);
	InterlockedAdd(&tp_runs, *(LONG *)ctx);
}

static void test_tp_work(void)
{
	LONG inc = 3;
	PTP_WORK w = CreateThreadpoolWork(tp_work_cb, &inc, NULL);
	int i;

	ok(w != NULL, "CreateThreadpoolWork failed: %lu\n", GetLastError());
	for (i = 0; i < 20; i++)
		SubmitThreadpoolWork(w);
	WaitForThreadpoolWorkCallbacks(w, FALSE);
	ok(tp_runs == 60, "runs added up to %ld, want 60\n", tp_runs);
	SubmitThreadpoolWork(w);
	WaitForThreadpoolWorkCallbacks(w, FALSE);
	ok(tp_runs == 63, "runs added up to %ld, want 63\n", tp_runs);
	CloseThreadpoolWork(w);
}

static HANDLE bound_event;
static DWORD bound_error, bound_bytes;
static OVERLAPPED *bound_ov;

static void CALLBACK bound_cb(DWORD error, DWORD bytes, OVERLAPPED *ov)
{
	bound_error = error;
	bound_bytes = bytes;
	bound_ov = ov;
	SetEvent(bound_event);
}

static void make_pair(HANDLE *server, HANDLE *client)
{
	*server = CreateNamedPipeA(PIPE_NAME, PIPE_ACCESS_DUPLEX | FILE_FLAG_OVERLAPPED, PIPE_TYPE_BYTE,
				   1, 4096, 4096, 0, NULL);
	ok(*server != INVALID_HANDLE_VALUE, "CreateNamedPipe failed: %lu\n", GetLastError());
	*client = CreateFileA(PIPE_NAME, GENERIC_READ | GENERIC_WRITE, 0, NULL, OPEN_EXISTING,
			      FILE_FLAG_OVERLAPPED, NULL);
	ok(*client != INVALID_HANDLE_VALUE, "CreateFile failed: %lu\n", GetLastError());
}

static void test_bind(void)
{
	HANDLE server, client, port;
	OVERLAPPED ov = { 0 }, wov = { 0 };
	char buf[16];
	BOOL ret;

	bound_event = CreateEventA(NULL, FALSE, FALSE, NULL);
	make_pair(&server, &client);
	ok(BindIoCompletionCallback(server, bound_cb, 0), "bind failed: %lu\n", GetLastError());
	ret = ReadFile(server, buf, sizeof(buf), NULL, &ov);
	ok(!ret && GetLastError() == ERROR_IO_PENDING, "got %d, error %lu\n", ret, GetLastError());
	ok(WriteFile(client, "pool", 4, NULL, &wov), "write failed\n");
	ok(WaitForSingleObject(bound_event, 5000) == WAIT_OBJECT_0, "no callback\n");
	ok(bound_error == ERROR_SUCCESS && bound_bytes == 4 && bound_ov == &ov,
	   "callback got error %lu bytes %lu ov %p\n", bound_error, bound_bytes, (void *)bound_ov);

	ret = ReadFile(server, buf, sizeof(buf), NULL, &ov);
	ok(!ret && GetLastError() == ERROR_IO_PENDING, "got %d, error %lu\n", ret, GetLastError());
	CancelIoEx(server, &ov);
	ok(WaitForSingleObject(bound_event, 5000) == WAIT_OBJECT_0, "no callback\n");
	ok(bound_error == ERROR_OPERATION_ABORTED && bound_bytes == 0 && bound_ov == &ov,
	   "callback got error %lu bytes %lu ov %p\n", bound_error, bound_bytes, (void *)bound_ov);
	CloseHandle(client);
	CloseHandle(server);

	make_pair(&server, &client);
	port = CreateIoCompletionPort(server, NULL, 1, 0);
	ok(port != NULL, "CreateIoCompletionPort failed: %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	ok(!BindIoCompletionCallback(server, bound_cb, 0), "binding an associated handle worked\n");
	CloseHandle(client);
	CloseHandle(server);
	CloseHandle(port);
	CloseHandle(bound_event);
}

static HANDLE io_event;
static ULONG io_result;
static ULONG_PTR io_bytes;
static void *io_ov, *io_ctx;
static PTP_IO io_obj;

static void CALLBACK io_cb(PTP_CALLBACK_INSTANCE inst, void *ctx, void *ov, ULONG result,
			   ULONG_PTR bytes, PTP_IO io)
{
	(void)inst;
	io_ctx = ctx;
	io_ov = ov;
	io_result = result;
	io_bytes = bytes;
	io_obj = io;
	SetEvent(io_event);
}

static void test_tp_io(void)
{
	HANDLE server, client;
	OVERLAPPED ov = { 0 }, wov = { 0 };
	char buf[16];
	PTP_IO io;
	BOOL ret;

	io_event = CreateEventA(NULL, FALSE, FALSE, NULL);
	make_pair(&server, &client);
	io = CreateThreadpoolIo(server, io_cb, &io_event, NULL);
	ok(io != NULL, "CreateThreadpoolIo failed: %lu\n", GetLastError());
	StartThreadpoolIo(io);
	ret = ReadFile(server, buf, sizeof(buf), NULL, &ov);
	ok(!ret && GetLastError() == ERROR_IO_PENDING, "got %d, error %lu\n", ret, GetLastError());
	ok(WriteFile(client, "tpio!", 5, NULL, &wov), "write failed\n");
	ok(WaitForSingleObject(io_event, 5000) == WAIT_OBJECT_0, "no callback\n");
	ok(io_ctx == &io_event && io_ov == &ov && io_result == ERROR_SUCCESS && io_bytes == 5 &&
		   io_obj == io,
	   "callback got ctx %p ov %p result %lu bytes %llu io %p\n", io_ctx, io_ov, io_result,
	   io_bytes, (void *)io_obj);
	WaitForThreadpoolIoCallbacks(io, FALSE);

	/* A request that fails at once: the pool is told with CancelThreadpoolIo. */
	CloseHandle(client);
	StartThreadpoolIo(io);
	ret = ReadFile(server, buf, sizeof(buf), NULL, &ov);
	ok(!ret && GetLastError() == ERROR_BROKEN_PIPE, "got %d, error %lu\n", ret, GetLastError());
	CancelThreadpoolIo(io);
	ok(WaitForSingleObject(io_event, 200) == WAIT_TIMEOUT, "a callback for a failed request\n");
	CloseHandle(server);
	CloseThreadpoolIo(io);
	CloseHandle(io_event);
}

int main(void)
{
	main_tid = GetCurrentThreadId();
	test_queue_user_work_item();
	test_tp_work();
	test_bind();
	test_tp_io();
	return test_summary();
}

/* Win32 completion-port and synchronisation micro-benchmarks: one
 * Windows program that bench/run starts under ndrun and under wine64 in
 * the same run, next to bench/native/native.c's Linux versions.
 *
 *   winbench.exe CPU REPS MS [TEST...]
 *
 * Each test runs once as a warm-up (not printed), then REPS times for at
 * least MS milliseconds each, and prints one "TEST NS OPS" line per
 * repetition: nanoseconds per operation (per packet, per round trip, per
 * write+read pair).  CPU >= 0 pins every thread of the program to that
 * CPU: the ping-pongs then measure the hand-off itself (wake + switch),
 * not the idle-exit latency of a second CPU that other work shares.
 * Each test checks what it receives, so a benchmark that lost or
 * reordered packets fails (exit 1) instead of printing a figure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#define CHUNK 256

static DWORD_PTR pin_mask;
static LARGE_INTEGER freq;

static void die(const char *what)
{
	fprintf(stderr, "winbench: %s failed: error %lu\n", what, GetLastError());
	exit(1);
}

static void pin(HANDLE thread)
{
	if (pin_mask && !SetThreadAffinityMask(thread, pin_mask))
		die("SetThreadAffinityMask");
}

static LONGLONG ticks(void)
{
	LARGE_INTEGER t;

	QueryPerformanceCounter(&t);
	return t.QuadPart;
}

static double ns_per_op(LONGLONG t0, unsigned long long ops)
{
	return (double)(ticks() - t0) * 1e9 / (double)freq.QuadPart / (double)ops;
}

/* Runs chunk() (CHUNK operations each) until ms have passed. */
/* Operations of the last timed() run, printed after its figure (strace
 * and perf counts divide by it). */
static unsigned long long last_ops;

static double timed(void (*chunk)(void), DWORD ms)
{
	LONGLONG t0 = ticks(), end = t0 + freq.QuadPart * ms / 1000;
	unsigned long long ops = 0;

	do {
		chunk();
		ops += CHUNK;
	} while (ticks() < end);
	last_ops = ops;
	return ns_per_op(t0, ops);
}

static HANDLE new_port(void)
{
	HANDLE p = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 1);

	if (!p)
		die("CreateIoCompletionPort");
	return p;
}

static HANDLE start_thread(LPTHREAD_START_ROUTINE fn, void *arg)
{
	HANDLE t = CreateThread(NULL, 0, fn, arg, CREATE_SUSPENDED, NULL);

	if (!t)
		die("CreateThread");
	pin(t);
	ResumeThread(t);
	return t;
}

static void join(HANDLE t)
{
	if (WaitForSingleObject(t, 10000) != WAIT_OBJECT_0)
		die("joining the partner thread");
	CloseHandle(t);
}

/* ---- post + dequeue on one thread ---- */
static HANDLE port1, port2;
static ULONG_PTR seq;

static void dequeue_expect(HANDLE port, ULONG_PTR want)
{
	OVERLAPPED *ov;
	ULONG_PTR key;
	DWORD bytes;

	if (!GetQueuedCompletionStatus(port, &bytes, &key, &ov, INFINITE))
		die("GetQueuedCompletionStatus");
	if (key != want || bytes != (DWORD)want || ov != (OVERLAPPED *)want) {
		fprintf(stderr, "winbench: got packet %llu, expected %llu\n",
			(unsigned long long)key, (unsigned long long)want);
		exit(1);
	}
}

static void post_dequeue_chunk(void)
{
	for (int i = 0; i < CHUNK; i++) {
		seq++;
		if (!PostQueuedCompletionStatus(port1, (DWORD)seq, seq, (OVERLAPPED *)seq))
			die("PostQueuedCompletionStatus");
		dequeue_expect(port1, seq);
	}
}

static double post_dequeue(DWORD ms)
{
	double r;

	port1 = new_port();
	r = timed(post_dequeue_chunk, ms);
	CloseHandle(port1);
	return r;
}

/* ---- 64 posts, then GetQueuedCompletionStatusEx takes them as a batch ---- */
static void batch64_chunk(void)
{
	OVERLAPPED_ENTRY e[64];

	for (int round = 0; round < CHUNK / 64; round++) {
		ULONG_PTR first = seq + 1;
		ULONG got = 0, n;

		for (int i = 0; i < 64; i++) {
			seq++;
			if (!PostQueuedCompletionStatus(port1, (DWORD)seq, seq, NULL))
				die("PostQueuedCompletionStatus");
		}
		while (got < 64) {
			if (!GetQueuedCompletionStatusEx(port1, e + got, 64 - got, &n, INFINITE, FALSE))
				die("GetQueuedCompletionStatusEx");
			got += n;
		}
		for (ULONG i = 0; i < 64; i++)
			if (e[i].lpCompletionKey != first + i) {
				fprintf(stderr, "winbench: batch out of order\n");
				exit(1);
			}
	}
}

static double gqcsex64(DWORD ms)
{
	double r;

	port1 = new_port();
	r = timed(batch64_chunk, ms);
	CloseHandle(port1);
	return r;
}

/* ---- two threads, two ports: a packet goes there and back ---- */
static DWORD WINAPI port_echo(void *unused)
{
	(void)unused;
	for (;;) {
		OVERLAPPED *ov;
		ULONG_PTR key;
		DWORD bytes;

		if (!GetQueuedCompletionStatus(port2, &bytes, &key, &ov, INFINITE))
			die("GetQueuedCompletionStatus (echo)");
		if (!ov) /* the stop packet; the others carry their sequence number */
			return 0;
		if (!PostQueuedCompletionStatus(port1, bytes, key, ov))
			die("PostQueuedCompletionStatus (echo)");
	}
}

static void port_pingpong_chunk(void)
{
	for (int i = 0; i < CHUNK; i++) {
		seq++;
		if (!PostQueuedCompletionStatus(port2, (DWORD)seq, seq, (OVERLAPPED *)seq))
			die("PostQueuedCompletionStatus");
		dequeue_expect(port1, seq);
	}
}

static double port_pingpong(DWORD ms)
{
	HANDLE t;
	double r;

	port1 = new_port();
	port2 = new_port();
	t = start_thread(port_echo, NULL);
	r = timed(port_pingpong_chunk, ms);
	PostQueuedCompletionStatus(port2, 0, 0, NULL);
	join(t);
	CloseHandle(port1);
	CloseHandle(port2);
	return r;
}

/* ---- two threads, two auto-reset events ---- */
static HANDLE ev_ping, ev_pong;
static volatile LONG stop;

static DWORD WINAPI event_echo(void *unused)
{
	(void)unused;
	for (;;) {
		if (WaitForSingleObject(ev_ping, INFINITE) != WAIT_OBJECT_0)
			die("WaitForSingleObject (echo)");
		if (stop)
			return 0;
		if (!SetEvent(ev_pong))
			die("SetEvent (echo)");
	}
}

static void event_pingpong_chunk(void)
{
	for (int i = 0; i < CHUNK; i++) {
		if (!SetEvent(ev_ping))
			die("SetEvent");
		if (WaitForSingleObject(ev_pong, INFINITE) != WAIT_OBJECT_0)
			die("WaitForSingleObject");
	}
}

static double event_pingpong(DWORD ms)
{
	HANDLE t;
	double r;

	ev_ping = CreateEventA(NULL, FALSE, FALSE, NULL);
	ev_pong = CreateEventA(NULL, FALSE, FALSE, NULL);
	if (!ev_ping || !ev_pong)
		die("CreateEvent");
	stop = 0;
	t = start_thread(event_echo, NULL);
	r = timed(event_pingpong_chunk, ms);
	stop = 1;
	SetEvent(ev_ping);
	join(t);
	/* Each round trip consumed both events: neither may be left set. */
	if (WaitForSingleObject(ev_pong, 0) != WAIT_TIMEOUT)
		die("event left signaled");
	CloseHandle(ev_ping);
	CloseHandle(ev_pong);
	return r;
}

/* ---- overlapped pipe write + read, FILE_SKIP_COMPLETION_PORT_ON_SUCCESS ---- */
static HANDLE pipe_server, pipe_client;

/* Ends an overlapped request that did not finish at once: its packet
 * is the only one the port can hold. */
static DWORD finish(BOOL ret, OVERLAPPED *ov, DWORD done)
{
	OVERLAPPED *got;
	ULONG_PTR key;
	DWORD bytes;

	if (ret)
		return done;
	if (GetLastError() != ERROR_IO_PENDING)
		die("pipe I/O");
	if (!GetQueuedCompletionStatus(port1, &bytes, &key, &got, 10000) || got != ov)
		die("pipe completion");
	return bytes;
}

static void pipe_chunk(void)
{
	char out[64], in[64];

	for (int i = 0; i < CHUNK; i++) {
		OVERLAPPED wov = { 0 }, rov = { 0 };
		DWORD n = 0;
		BOOL ret;

		seq++;
		memset(out, (int)(seq & 0xff), sizeof(out));
		ret = WriteFile(pipe_client, out, sizeof(out), &n, &wov);
		if (finish(ret, &wov, n) != sizeof(out))
			die("pipe write size");
		n = 0;
		ret = ReadFile(pipe_server, in, sizeof(in), &n, &rov);
		n = finish(ret, &rov, n);
		if (n != sizeof(in) || memcmp(in, out, sizeof(in)))
			die("pipe read data");
	}
}

static double pipe_skip(DWORD ms)
{
	char name[64];
	OVERLAPPED ov = { 0 };
	double r;

	snprintf(name, sizeof(name), "\\\\.\\pipe\\ndshim-bench-%lu", GetCurrentProcessId());
	port1 = new_port();
	pipe_server = CreateNamedPipeA(name, PIPE_ACCESS_DUPLEX | FILE_FLAG_OVERLAPPED,
				       PIPE_TYPE_BYTE, 1, 4096, 4096, 0, NULL);
	if (pipe_server == INVALID_HANDLE_VALUE)
		die("CreateNamedPipe");
	pipe_client = CreateFileA(name, GENERIC_READ | GENERIC_WRITE, 0, NULL, OPEN_EXISTING,
				  FILE_FLAG_OVERLAPPED, NULL);
	if (pipe_client == INVALID_HANDLE_VALUE)
		die("CreateFile (pipe client)");
	if (ConnectNamedPipe(pipe_server, &ov) || GetLastError() != ERROR_PIPE_CONNECTED)
		die("ConnectNamedPipe");
	if (CreateIoCompletionPort(pipe_server, port1, 1, 0) != port1 ||
	    CreateIoCompletionPort(pipe_client, port1, 2, 0) != port1)
		die("CreateIoCompletionPort (pipe)");
	if (!SetFileCompletionNotificationModes(pipe_server, FILE_SKIP_COMPLETION_PORT_ON_SUCCESS) ||
	    !SetFileCompletionNotificationModes(pipe_client, FILE_SKIP_COMPLETION_PORT_ON_SUCCESS))
		die("SetFileCompletionNotificationModes");
	r = timed(pipe_chunk, ms);
	CloseHandle(pipe_client);
	CloseHandle(pipe_server);
	CloseHandle(port1);
	return r;
}

static const struct test {
	const char *name;
	double (*fn)(DWORD ms);
} tests[] = {
	{ "post_dequeue", post_dequeue },
	{ "gqcsex64", gqcsex64 },
	{ "port_pingpong", port_pingpong },
	{ "event_pingpong", event_pingpong },
	{ "pipe_skip", pipe_skip },
};

#define NTESTS (sizeof(tests) / sizeof(tests[0]))

static int selected(int argc, char **argv, const char *name)
{
	if (argc <= 4)
		return 1;
	for (int i = 4; i < argc; i++)
		if (!strcmp(argv[i], name))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	int cpu, reps;
	DWORD ms;

	if (argc < 4) {
		fprintf(stderr, "usage: winbench CPU REPS MS [TEST...]\n");
		return 2;
	}
	cpu = atoi(argv[1]);
	reps = atoi(argv[2]);
	ms = (DWORD)atoi(argv[3]);
	QueryPerformanceFrequency(&freq);
	if (cpu >= 0) {
		pin_mask = (DWORD_PTR)1 << cpu;
		pin(GetCurrentThread());
	}
	for (int i = 4; i < argc; i++) {
		size_t t;

		for (t = 0; t < NTESTS && strcmp(argv[i], tests[t].name); t++)
			;
		if (t == NTESTS) {
			fprintf(stderr, "winbench: no test %s\n", argv[i]);
			return 2;
		}
	}
	for (size_t t = 0; t < NTESTS; t++) {
		if (!selected(argc, argv, tests[t].name))
			continue;
		tests[t].fn(ms / 4 ? ms / 4 : 1);
		fprintf(stderr, "warm-up %s %llu\n", tests[t].name, last_ops);
		for (int r = 0; r < reps; r++)
			{
			double ns = tests[t].fn(ms);

			printf("%s %.1f %llu\n", tests[t].name, ns, last_ops);
		}
		fflush(stdout);
	}
	return 0;
}

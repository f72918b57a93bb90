/* ndpingpong: Send/Receive ping-pong between two NetworkDirect v2 queue
 * pairs, over a range of message sizes, with latency and bandwidth in
 * perftest's table style.
 *
 *   ndpingpong -s ADDR[:PORT] [-b]
 *   ndpingpong -c SERVER[:PORT] [-l LOCAL] [-b] [-n ITERS] [-S MIN] [-M MAX] [-w SECS]
 *
 * The client sends a message of each size ITERS times; the server checks it
 * and sends one of the same size back.  Every byte received is checked on
 * both sides against a pattern that depends on the message's sequence
 * number, size and direction; a mismatch stops the program with the size
 * and offset.  The pattern is a window into one table, so filling and
 * checking are memcpy and memcmp (see Fill).  The client tells the server its schedule in the connection's
 * private data; the server answers with the size of its receive buffers.
 *
 * Completions: polling (spin on GetResults), or with -b blocking: the
 * completion queue's Notify with an OVERLAPPED on the adapter's overlapped
 * file, associated with an I/O completion port, and GetQueuedCompletionStatus.
 * Connection requests wait the same way (-b), or through
 * GetOverlappedResult(ov, TRUE).
 *
 * Exit status 0 when every message completed and matched and everything
 * was released; 1 otherwise; 2 for a bad command line. */
#include "common/ndadapter.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_PORT 54321
#define RECV_DEPTH 8	/* receives kept posted */
#define SEND_DEPTH 2
#define WAIT_MS 30000	/* longest silence before a wait gives up */
#define MAX_BUFFER (64u << 20)
#define HELLO_MAGIC 0x5050444Eu	/* "NDPP" */
#define PROTOCOL_VERSION 1

#define SEND_CONTEXT ((void *)(uintptr_t)0x5E4D)

/* Client -> server, in Connect's private data. */
struct Hello {
	UINT32 magic;
	UINT32 version;
	UINT32 minSize;
	UINT32 maxSize;
	UINT32 iterations;
};

/* Server -> client, in Accept's private data. */
struct Welcome {
	UINT32 magic;
	UINT32 version;
	UINT32 bufferSize;	/* each of the server's receive buffers */
	UINT32 receiveDepth;
};

struct Options {
	bool server;
	bool blocking;
	SOCKADDR_INET address;	/* server: where to listen; client: the server */
	int addressLength;
	bool haveLocal;
	SOCKADDR_INET local;
	int localLength;
	ULONG iterations;
	ULONG minSize;
	ULONG maxSize;
	ULONG waitSeconds;
};

struct PingPong {
	const Options *opt;
	const char *role;
	IND2Adapter *adapter;
	ND2_ADAPTER_INFO info;
	HANDLE file;		/* the adapter's overlapped file */
	NdWaiter waiter;	/* -b: the completion port the file is associated with */
	IND2CompletionQueue *cq;
	IND2QueuePair *qp;
	IND2MemoryRegion *mr;
	IND2Connector *connector;
	IND2Listener *listener;
	char *buffer;		/* RECV_DEPTH receive buffers, then the send buffer */
	UINT8 *pattern;		/* PatternTable: bufferSize + 256 bytes */
	SIZE_T bufferBytes;
	ULONG bufferSize;	/* of each */
	ULONG inlineSize;
	ULONG posted;		/* receives outstanding */
	bool peerGone;		/* the peer disconnected: our receives were flushed */
	ULONG nextSlot;		/* the receive that must complete next */
	ULONG sendsOutstanding;
	/* Receives completed but not consumed yet, in order. */
	ULONG readySlots[RECV_DEPTH];
	ULONG readyBytes[RECV_DEPTH];
	ULONG nReady;
	NdRequest cqNotify;
	bool cqNotifyPending;
	NdRequest disconnectNotify;
	bool connected;
	bool failed;
	Hello hello;
};

static void Fail(PingPong *pp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void Fail(PingPong *pp, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "ndpingpong %s: ", pp->role);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	pp->failed = true;
}

/* ---- the data path ------------------------------------------------------------ */

/* Byte i of a message is table[offset + i], the offset depending on its
 * sequence number, size and direction: the next or previous message of
 * a size is shifted by 7 and differs in every byte, a message of the
 * other direction by 90 (also every byte); any shift changes some.
 * Filling and checking are then memcpy and memcmp rather than a loop
 * computing each byte: on the server they run between a request and
 * the next, and with both programs on one CPU (a blocking pair in
 * bench-vm) their time shows in the client's round trip, which perftest
 * (no checks) does not pay.  Byte by byte, under TCG, that was about
 * 20 us a message at 8 KiB and 130 us at 64 KiB. */
static UINT8 *PatternTable(ULONG size)
{
	UINT8 *t = (UINT8 *)malloc((SIZE_T)size + 256);

	for (SIZE_T j = 0; t && j < (SIZE_T)size + 256; j++)
		t[j] = (UINT8)(j * 131 + (j >> 8));
	return t;
}

static ULONG PatternOffset(ULONG seq, ULONG size, int fromServer)
{
	return (seq * 7 + size * 13 + (fromServer ? 0x5A : 0)) & 0xFF;
}

static void Fill(PingPong *pp, char *p, ULONG seq, ULONG size, int fromServer)
{
	memcpy(p, pp->pattern + PatternOffset(seq, size, fromServer), size);
}

static bool Check(PingPong *pp, const char *p, ULONG bytes, ULONG seq, ULONG size, int fromServer,
		  ULONG iteration)
{
	const UINT8 *want = pp->pattern + PatternOffset(seq, size, fromServer);

	if (bytes != size) {
		Fail(pp, "message %lu (size %lu, iteration %lu): received %lu bytes", (unsigned long)seq,
		     (unsigned long)size, (unsigned long)iteration, (unsigned long)bytes);
		return false;
	}
	if (!memcmp(p, want, size))
		return true;
	for (ULONG i = 0; i < size; i++) {
		if ((UINT8)p[i] != want[i]) {
			Fail(pp, "data mismatch in message %lu (size %lu, iteration %lu) at offset %lu: "
				 "got 0x%02X, expected 0x%02X", (unsigned long)seq, (unsigned long)size,
			     (unsigned long)iteration, (unsigned long)i, (UINT8)p[i], want[i]);
			break;
		}
	}
	return false;
}

static char *SlotBuffer(PingPong *pp, ULONG slot)
{
	return pp->buffer + (SIZE_T)slot * pp->bufferSize;
}

static char *SendBuffer(PingPong *pp)
{
	return SlotBuffer(pp, RECV_DEPTH);
}

static bool PostReceive(PingPong *pp, ULONG slot)
{
	ND2_SGE sge = { SlotBuffer(pp, slot), pp->bufferSize, pp->mr->GetLocalToken() };
	HRESULT hr = pp->qp->Receive((void *)(uintptr_t)(slot + 1), &sge, 1);

	if (hr != ND_SUCCESS) {
		Fail(pp, "IND2QueuePair::Receive failed: %s", NdStatusString(hr));
		return false;
	}
	pp->posted++;
	return true;
}

static bool PostSend(PingPong *pp, ULONG size)
{
	ND2_SGE sge = { SendBuffer(pp), size, pp->mr->GetLocalToken() };
	/* Small sends go inline; zero-byte sends carry no SGE at all. */
	ULONG flags = size && size <= pp->inlineSize ? ND_OP_FLAG_INLINE : 0;
	HRESULT hr = pp->qp->Send(SEND_CONTEXT, size ? &sge : NULL, size ? 1 : 0, flags);

	if (hr != ND_SUCCESS) {
		Fail(pp, "IND2QueuePair::Send of %lu bytes failed: %s", (unsigned long)size, NdStatusString(hr));
		return false;
	}
	pp->sendsOutstanding++;
	return true;
}

/* Sorts out the completions GetResults returned.  Receives must complete
 * in the order they were posted. */
static bool HandleResults(PingPong *pp, const ND2_RESULT *r, ULONG n)
{
	for (ULONG i = 0; i < n; i++, r++) {
		if (r->QueuePairContext != pp) {
			Fail(pp, "completion with QueuePairContext %p, not %p", r->QueuePairContext, (void *)pp);
			return false;
		}
		if (r->RequestContext == SEND_CONTEXT) {
			if (r->RequestType != Nd2RequestTypeSend || !pp->sendsOutstanding) {
				Fail(pp, "send completion with RequestType %d (%lu sends outstanding)",
				     r->RequestType, (unsigned long)pp->sendsOutstanding);
				return false;
			}
			pp->sendsOutstanding--;
			if (r->Status != ND_SUCCESS) {
				Fail(pp, "Send completed with %s", NdStatusString(r->Status));
				return false;
			}
			continue;
		}
		ULONG slot = (ULONG)(uintptr_t)r->RequestContext - 1;

		if (slot >= RECV_DEPTH || r->RequestType != Nd2RequestTypeReceive || !pp->posted) {
			Fail(pp, "unexpected completion: RequestContext %p RequestType %d status %s",
			     r->RequestContext, r->RequestType, NdStatusString(r->Status));
			return false;
		}
		pp->posted--;
		/* The peer's Disconnect flushes our queue pair: the receives
		 * still posted come back canceled (the client disconnects as
		 * soon as it has its last reply). */
		if (r->Status == ND_CANCELED) {
			pp->peerGone = true;
			continue;
		}
		if (r->Status != ND_SUCCESS) {
			Fail(pp, "Receive completed with %s", NdStatusString(r->Status));
			return false;
		}
		if (slot != pp->nextSlot) {
			Fail(pp, "receive %lu completed before receive %lu, posted earlier", (unsigned long)slot,
			     (unsigned long)pp->nextSlot);
			return false;
		}
		pp->nextSlot = (pp->nextSlot + 1) % RECV_DEPTH;
		pp->readySlots[pp->nReady] = slot;
		pp->readyBytes[pp->nReady] = r->BytesTransferred;
		pp->nReady++;
	}
	return true;
}

/* Takes whatever completions there are; with wait, first waits for some:
 * spinning on GetResults, or (-b) arming Notify and sleeping on the port. */
static bool Progress(PingPong *pp)
{
	ND2_RESULT results[RECV_DEPTH + SEND_DEPTH];
	ULONGLONG start = NdNow();
	unsigned spins = 0;
	ULONG n;

	for (;;) {
		n = pp->cq->GetResults(results, RECV_DEPTH + SEND_DEPTH);
		if (n)
			return HandleResults(pp, results, n);
		if (!pp->opt->blocking) {
			if (++spins % 4096 == 0 && NdNow() - start > WAIT_MS) {
				Fail(pp, "no completion in %u s of polling", WAIT_MS / 1000);
				return false;
			}
			continue;
		}
		/* Notify completes for completions that arrive after the last
		 * notification, so one between GetResults and Notify is not
		 * lost: it completes the request at once. */
		if (!pp->cqNotifyPending) {
			NdIssue(&pp->cqNotify);
			HRESULT hr = pp->cq->Notify(ND_CQ_NOTIFY_ANY, &pp->cqNotify.ov);

			if (hr == ND_SUCCESS)
				continue;
			if (hr != ND_PENDING) {
				Fail(pp, "IND2CompletionQueue::Notify failed: %s", NdStatusString(hr));
				return false;
			}
			pp->cqNotifyPending = true;
		}
		while (!pp->cqNotify.dequeued) {
			if (!NdPumpPort(&pp->waiter, WAIT_MS)) {
				Fail(pp, "no completion queue notification in %u s", WAIT_MS / 1000);
				return false;
			}
		}
		pp->cqNotifyPending = false;
		HRESULT hr = pp->cq->GetOverlappedResult(&pp->cqNotify.ov, FALSE);

		if (hr != ND_SUCCESS) {
			Fail(pp, "completion queue notification completed with %s", NdStatusString(hr));
			return false;
		}
	}
}

/* The oldest received message: its slot and length. */
static bool NextReceive(PingPong *pp, ULONG *slot, ULONG *bytes)
{
	while (!pp->nReady) {
		if (pp->peerGone) {
			Fail(pp, "the peer disconnected before its last message");
			return false;
		}
		if (!Progress(pp))
			return false;
	}
	*slot = pp->readySlots[0];
	*bytes = pp->readyBytes[0];
	pp->nReady--;
	memmove(pp->readySlots, pp->readySlots + 1, pp->nReady * sizeof(pp->readySlots[0]));
	memmove(pp->readyBytes, pp->readyBytes + 1, pp->nReady * sizeof(pp->readyBytes[0]));
	return true;
}

static bool SendsDone(PingPong *pp)
{
	while (pp->sendsOutstanding) {
		if (!Progress(pp))
			return false;
	}
	return true;
}

/* ---- set-up and tear-down ------------------------------------------------------- */

static bool Setup(PingPong *pp, const sockaddr *local, int localLength)
{
	char why[160];
	HRESULT hr;

	if (!NdOpen(local, localLength, pp->opt->blocking, &pp->adapter, &pp->info, &pp->file, &pp->waiter, why,
		    sizeof(why))) {
		Fail(pp, "%s", why);
		return false;
	}
	pp->inlineSize = pp->info.InlineRequestThreshold < pp->info.MaxInlineDataSize
				 ? pp->info.InlineRequestThreshold
				 : pp->info.MaxInlineDataSize;
	hr = pp->adapter->CreateCompletionQueue(IID_IND2CompletionQueue, pp->file, RECV_DEPTH + SEND_DEPTH, 0,
						 0, (void **)&pp->cq);
	if (FAILED(hr)) {
		Fail(pp, "IND2Adapter::CreateCompletionQueue failed: %s", NdStatusString(hr));
		return false;
	}
	hr = pp->adapter->CreateConnector(IID_IND2Connector, pp->file, (void **)&pp->connector);
	if (FAILED(hr)) {
		Fail(pp, "IND2Adapter::CreateConnector failed: %s", NdStatusString(hr));
		return false;
	}
	return true;
}

/* The queue pair, its registered buffers and its receives, all before the
 * connection is made: receives posted before Connect/Accept must work. */
static bool SetupQueuePair(PingPong *pp, ULONG bufferSize)
{
	NdRequest r;
	HRESULT hr;

	pp->bufferSize = bufferSize ? bufferSize : 1;
	pp->pattern = PatternTable(pp->bufferSize);
	if (!pp->pattern) {
		Fail(pp, "out of memory for a %lu-byte pattern table", (unsigned long)pp->bufferSize + 256);
		return false;
	}
	pp->bufferBytes = (SIZE_T)pp->bufferSize * (RECV_DEPTH + 1);
	pp->buffer = (char *)VirtualAlloc(NULL, pp->bufferBytes, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
	if (!pp->buffer) {
		Fail(pp, "VirtualAlloc of %lu bytes failed: %lu", (unsigned long)pp->bufferBytes, GetLastError());
		return false;
	}
	hr = pp->adapter->CreateMemoryRegion(IID_IND2MemoryRegion, pp->file, (void **)&pp->mr);
	if (FAILED(hr)) {
		Fail(pp, "IND2Adapter::CreateMemoryRegion failed: %s", NdStatusString(hr));
		return false;
	}
	NdIssue(&r);
	hr = NdWait(&pp->waiter, pp->mr, &r,
		    pp->mr->Register(pp->buffer, pp->bufferBytes, ND_MR_FLAG_ALLOW_LOCAL_WRITE, &r.ov), WAIT_MS);
	if (hr != ND_SUCCESS) {
		Fail(pp, "IND2MemoryRegion::Register failed: %s", NdStatusString(hr));
		pp->mr->Release();
		pp->mr = NULL;
		return false;
	}
	hr = pp->adapter->CreateQueuePair(IID_IND2QueuePair, pp->cq, pp->cq, pp, RECV_DEPTH, SEND_DEPTH, 1, 1,
					  pp->inlineSize, (void **)&pp->qp);
	if (FAILED(hr)) {
		Fail(pp, "IND2Adapter::CreateQueuePair failed: %s", NdStatusString(hr));
		return false;
	}
	for (ULONG i = 0; i < RECV_DEPTH; i++) {
		if (!PostReceive(pp, i))
			return false;
	}
	return true;
}

static bool ReleaseLast(PingPong *pp, IUnknown *obj, const char *name)
{
	ULONG left;

	if (!obj)
		return true;
	left = obj->Release();
	if (left) {
		Fail(pp, "%s::Release left %lu references", name, (unsigned long)left);
		return false;
	}
	return true;
}

/* Disconnects (the server after the client), takes back the flushed
 * receives, and releases everything in dependency order. */
static void Teardown(PingPong *pp)
{
	NdRequest r;
	HRESULT hr;

	if (pp->connected && !pp->failed && pp->opt->server) {
		/* The client disconnects first, once it has its last reply. */
		hr = NdWait(&pp->waiter, pp->connector, &pp->disconnectNotify, ND_PENDING, WAIT_MS);
		if (hr != ND_SUCCESS && hr != (HRESULT)0xC000020CL)
			Fail(pp, "IND2Connector::NotifyDisconnect completed with %s", NdStatusString(hr));
	}
	if (pp->connected) {
		NdIssue(&r);
		hr = NdWait(&pp->waiter, pp->connector, &r, pp->connector->Disconnect(&r.ov), WAIT_MS);
		if (hr != ND_SUCCESS)
			Fail(pp, "IND2Connector::Disconnect failed: %s", NdStatusString(hr));
		pp->connected = false;
	}
	if (pp->qp) {
		/* Every receive still posted comes back, canceled. */
		hr = pp->qp->Flush();
		if (hr != ND_SUCCESS)
			Fail(pp, "IND2QueuePair::Flush failed: %s", NdStatusString(hr));
		while (!pp->failed && (pp->posted || pp->sendsOutstanding)) {
			ND2_RESULT res[RECV_DEPTH + SEND_DEPTH];
			ULONGLONG start = NdNow();
			ULONG n;

			while (!(n = pp->cq->GetResults(res, RECV_DEPTH + SEND_DEPTH)) && NdNow() - start < WAIT_MS)
				Sleep(1);
			if (!n) {
				Fail(pp, "%lu receives never came back after Flush", (unsigned long)pp->posted);
				break;
			}
			for (ULONG i = 0; i < n; i++) {
				if (res[i].RequestContext == SEND_CONTEXT) {
					pp->sendsOutstanding--;
				} else if (res[i].Status == ND_CANCELED && res[i].RequestType == Nd2RequestTypeReceive) {
					pp->posted--;
				} else {
					Fail(pp, "flushed receive completed with %s, type %d",
					     NdStatusString(res[i].Status), res[i].RequestType);
					pp->posted--;
				}
			}
		}
	}
	if (pp->cqNotifyPending) {
		/* Canceling completes the Notify (ND_CANCELED) before returning;
		 * its packet is taken off the port. */
		pp->cq->CancelOverlappedRequests();
		NdWait(&pp->waiter, pp->cq, &pp->cqNotify, ND_PENDING, WAIT_MS);
		pp->cqNotifyPending = false;
	}
	ReleaseLast(pp, pp->connector, "IND2Connector");
	ReleaseLast(pp, pp->listener, "IND2Listener");
	ReleaseLast(pp, pp->qp, "IND2QueuePair");
	if (pp->mr) {
		NdIssue(&r);
		hr = NdWait(&pp->waiter, pp->mr, &r, pp->mr->Deregister(&r.ov), WAIT_MS);
		if (hr != ND_SUCCESS)
			Fail(pp, "IND2MemoryRegion::Deregister failed: %s", NdStatusString(hr));
		ReleaseLast(pp, pp->mr, "IND2MemoryRegion");
	}
	ReleaseLast(pp, pp->cq, "IND2CompletionQueue");
	if (pp->file)
		CloseHandle(pp->file);
	if (pp->waiter.port)
		CloseHandle(pp->waiter.port);
	ReleaseLast(pp, pp->adapter, "IND2Adapter");
	if (pp->buffer)
		VirtualFree(pp->buffer, 0, MEM_RELEASE);
	free(pp->pattern);
}

/* ---- the schedule and the table --------------------------------------------------- */

static ULONG NextSize(ULONG size)
{
	return size ? size * 2 : 1;
}

static int CompareDoubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

#define RULE "---------------------------------------------------------------------------------------------------------------"

static void PrintHeader(const PingPong *pp)
{
	printf("%s\n", RULE);
	printf("                    Send/Receive ping-pong, NetworkDirect v2 (%s completions)\n",
	       pp->opt->blocking ? "blocking: Notify + IOCP" : "polling");
	printf(" Inline size     : %lu\n", (unsigned long)pp->inlineSize);
	printf(" Receive depth   : %u\n", RECV_DEPTH);
	printf(" Latency is half the round trip, as perftest's ib_send_lat reports it\n");
	printf("%s\n", RULE);
	printf(" #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    "
	       "t_stdev[usec]   99%% percentile[usec]   BW average[MB/sec]\n");
}

static void PrintRow(ULONG size, ULONG n, double *rtt, double total)
{
	double sum = 0, var = 0, avg;

	qsort(rtt, n, sizeof(*rtt), CompareDoubles);
	for (ULONG i = 0; i < n; i++)
		sum += rtt[i];
	avg = sum / n;
	for (ULONG i = 0; i < n; i++)
		var += (rtt[i] - avg) * (rtt[i] - avg);
	/* One way is half the round trip; bandwidth counts both directions. */
	printf(" %-7lu %-10lu %-14.2f %-12.2f %-16.2f %-14.2f %-16.2f %-22.2f %.2f\n", (unsigned long)size,
	       (unsigned long)n, rtt[0] / 2 * 1e6, rtt[n - 1] / 2 * 1e6, rtt[n / 2] / 2 * 1e6, avg / 2 * 1e6,
	       (n > 1 ? __builtin_sqrt(var / (n - 1)) : 0) / 2 * 1e6, rtt[(n * 99) / 100] / 2 * 1e6,
	       total > 0 ? 2.0 * size * n / total / (1024.0 * 1024.0) : 0.0);
	fflush(stdout);
}

/* ---- client --------------------------------------------------------------------- */

enum Outcome { DONE, FAILED, REFUSED };

static Outcome ClientConnect(PingPong *pp, const sockaddr *local, int localLength)
{
	const Options *o = pp->opt;
	Welcome welcome;
	ULONG len = sizeof(welcome);
	SOCKADDR_INET bind;
	NdRequest r;
	HRESULT hr;

	memcpy(&bind, local, localLength);
	bind.Ipv4.sin_port = 0;	/* same offset in sockaddr_in6 */
	hr = pp->connector->Bind((const sockaddr *)&bind, localLength);
	if (hr != ND_SUCCESS) {
		Fail(pp, "IND2Connector::Bind failed: %s", NdStatusString(hr));
		return FAILED;
	}
	pp->hello.magic = HELLO_MAGIC;
	pp->hello.version = PROTOCOL_VERSION;
	pp->hello.minSize = o->minSize;
	pp->hello.maxSize = o->maxSize;
	pp->hello.iterations = o->iterations;
	/* ND_TIMEOUT is a success code: the peer did not answer in time, and
	 * a client tries again. */
	for (int attempt = 0;; attempt++) {
		NdIssue(&r);
		hr = NdWait(&pp->waiter, pp->connector, &r,
			    pp->connector->Connect(pp->qp, (const sockaddr *)&o->address, o->addressLength, 0, 0,
						   &pp->hello, sizeof(pp->hello), &r.ov),
			    WAIT_MS);
		if (hr != ND_TIMEOUT || attempt == 3)
			break;
	}
	if (hr == ND_CONNECTION_REFUSED)
		return REFUSED;
	if (hr != ND_SUCCESS) {
		Fail(pp, "IND2Connector::Connect failed: %s", NdStatusString(hr));
		return FAILED;
	}
	memset(&welcome, 0, sizeof(welcome));
	hr = pp->connector->GetPrivateData(&welcome, &len);
	if ((hr != ND_SUCCESS && hr != ND_BUFFER_OVERFLOW) || len < sizeof(welcome) ||
	    welcome.magic != HELLO_MAGIC || welcome.version != PROTOCOL_VERSION) {
		Fail(pp, "the server's private data is not ndpingpong's (%s, %lu bytes)", NdStatusString(hr),
		     (unsigned long)len);
		return FAILED;
	}
	if (welcome.bufferSize < o->maxSize) {
		Fail(pp, "the server's receive buffers hold %lu bytes, fewer than -M %lu",
		     (unsigned long)welcome.bufferSize, (unsigned long)o->maxSize);
		return FAILED;
	}
	NdIssue(&r);
	hr = NdWait(&pp->waiter, pp->connector, &r, pp->connector->CompleteConnect(&r.ov), WAIT_MS);
	if (hr != ND_SUCCESS) {
		Fail(pp, "IND2Connector::CompleteConnect failed: %s", NdStatusString(hr));
		return FAILED;
	}
	pp->connected = true;
	printf("ndpingpong client: connected to a server with %lu receives of %lu bytes\n",
	       (unsigned long)welcome.receiveDepth, (unsigned long)welcome.bufferSize);
	return DONE;
}

static bool ClientRun(PingPong *pp)
{
	const Options *o = pp->opt;
	double *rtt = new double[o->iterations];
	ULONG seq = 0;
	bool ok = true;

	PrintHeader(pp);
	for (ULONG size = o->minSize; ok && size <= o->maxSize; size = NextSize(size)) {
		LARGE_INTEGER first, t0, t1;

		QueryPerformanceCounter(&first);
		for (ULONG it = 0; it < o->iterations; it++, seq++) {
			ULONG slot, bytes;

			Fill(pp, SendBuffer(pp), seq, size, 0);
			QueryPerformanceCounter(&t0);
			if (!PostSend(pp, size) || !NextReceive(pp, &slot, &bytes) || !SendsDone(pp)) {
				ok = false;
				break;
			}
			QueryPerformanceCounter(&t1);
			rtt[it] = NdSeconds(t0, t1);
			if (!Check(pp, SlotBuffer(pp, slot), bytes, seq, size, 1, it) || !PostReceive(pp, slot)) {
				ok = false;
				break;
			}
		}
		if (ok) {
			QueryPerformanceCounter(&t1);
			PrintRow(size, o->iterations, rtt, NdSeconds(first, t1));
		}
		if (size >= 0x80000000u)
			break;
	}
	if (ok)
		printf("%s\n", RULE);
	delete[] rtt;
	return ok;
}

static Outcome Client(const Options *o)
{
	PingPong pp;
	SOCKADDR_INET local;
	SIZE_T localLength = sizeof(local);
	Outcome out = FAILED;
	HRESULT hr;
	char text[80], text2[80];

	memset(&pp, 0, sizeof(pp));
	pp.opt = o;
	pp.role = "client";
	if (o->haveLocal) {
		local = o->local;
		localLength = o->localLength;
	} else {
		hr = NdResolveAddress((const sockaddr *)&o->address, o->addressLength, (sockaddr *)&local,
				      &localLength);
		if (FAILED(hr)) {
			Fail(&pp, "no NetworkDirect address reaches %s: %s",
			     NdAddressString((const sockaddr *)&o->address, text, sizeof(text)), NdStatusString(hr));
			return FAILED;
		}
	}
	static bool announced;

	/* Once, not again for each refused try. */
	if (!announced)
		printf("ndpingpong client: %s -> %s, %s, %lu iterations, sizes %lu..%lu\n",
		       NdAddressString((const sockaddr *)&local, text, sizeof(text)),
		       NdAddressString((const sockaddr *)&o->address, text2, sizeof(text2)),
		       o->blocking ? "blocking" : "polling", (unsigned long)o->iterations,
		       (unsigned long)o->minSize, (unsigned long)o->maxSize);
	announced = true;
	if (Setup(&pp, (const sockaddr *)&local, (int)localLength) && SetupQueuePair(&pp, o->maxSize)) {
		out = ClientConnect(&pp, (const sockaddr *)&local, (int)localLength);
		if (out == DONE && !ClientRun(&pp))
			out = FAILED;
	}
	Teardown(&pp);
	if (out == DONE && pp.failed)
		out = FAILED;
	return out;
}

/* ---- server --------------------------------------------------------------------- */

static bool ServerAccept(PingPong *pp)
{
	const Options *o = pp->opt;
	Welcome welcome;
	Hello *h = &pp->hello;
	ULONG len = sizeof(*h);
	SOCKADDR_INET peer;
	ULONG peerLength = sizeof(peer);
	NdRequest r;
	HRESULT hr;
	char text[80];

	hr = pp->adapter->CreateListener(IID_IND2Listener, pp->file, (void **)&pp->listener);
	if (FAILED(hr)) {
		Fail(pp, "IND2Adapter::CreateListener failed: %s", NdStatusString(hr));
		return false;
	}
	hr = pp->listener->Bind((const sockaddr *)&o->address, o->addressLength);
	if (hr != ND_SUCCESS) {
		Fail(pp, "IND2Listener::Bind(%s) failed: %s",
		     NdAddressString((const sockaddr *)&o->address, text, sizeof(text)), NdStatusString(hr));
		return false;
	}
	hr = pp->listener->Listen(1);
	if (hr != ND_SUCCESS) {
		Fail(pp, "IND2Listener::Listen failed: %s", NdStatusString(hr));
		return false;
	}
	printf("ndpingpong server: listening on %s (%s)\n",
	       NdAddressString((const sockaddr *)&o->address, text, sizeof(text)),
	       o->blocking ? "blocking" : "polling");
	fflush(stdout);
	NdIssue(&r);
	hr = NdWait(&pp->waiter, pp->listener, &r, pp->listener->GetConnectionRequest(pp->connector, &r.ov),
		    INFINITE);
	if (hr != ND_SUCCESS) {
		Fail(pp, "IND2Listener::GetConnectionRequest failed: %s", NdStatusString(hr));
		return false;
	}
	memset(h, 0, sizeof(*h));
	hr = pp->connector->GetPrivateData(h, &len);
	if ((hr != ND_SUCCESS && hr != ND_BUFFER_OVERFLOW) || len < sizeof(*h) || h->magic != HELLO_MAGIC ||
	    h->version != PROTOCOL_VERSION || h->iterations == 0 || h->maxSize > MAX_BUFFER ||
	    h->maxSize > pp->info.MaxTransferLength || h->minSize > h->maxSize) {
		Fail(pp, "rejecting a connection request that is not a valid ndpingpong client's (%s, %lu bytes)",
		     NdStatusString(hr), (unsigned long)len);
		pp->connector->Reject(NULL, 0);
		return false;
	}
	hr = pp->connector->GetPeerAddress((sockaddr *)&peer, &peerLength);
	printf("ndpingpong server: connection request from %s: %lu iterations, sizes %lu..%lu\n",
	       hr == ND_SUCCESS ? NdAddressString((const sockaddr *)&peer, text, sizeof(text)) : "?",
	       (unsigned long)h->iterations, (unsigned long)h->minSize, (unsigned long)h->maxSize);
	/* The receives are posted before Accept. */
	if (!SetupQueuePair(pp, h->maxSize)) {
		pp->connector->Reject(NULL, 0);
		return false;
	}
	welcome.magic = HELLO_MAGIC;
	welcome.version = PROTOCOL_VERSION;
	welcome.bufferSize = pp->bufferSize;
	welcome.receiveDepth = RECV_DEPTH;
	NdIssue(&r);
	hr = NdWait(&pp->waiter, pp->connector, &r,
		    pp->connector->Accept(pp->qp, 0, 0, &welcome, sizeof(welcome), &r.ov), WAIT_MS);
	if (hr != ND_SUCCESS) {
		Fail(pp, "IND2Connector::Accept failed: %s", NdStatusString(hr));
		return false;
	}
	pp->connected = true;
	NdIssue(&pp->disconnectNotify);
	hr = pp->connector->NotifyDisconnect(&pp->disconnectNotify.ov);
	if (hr != ND_PENDING) {
		Fail(pp, "IND2Connector::NotifyDisconnect returned %s, not ND_PENDING", NdStatusString(hr));
		return false;
	}
	return true;
}

static bool ServerRun(PingPong *pp)
{
	const Hello *h = &pp->hello;
	ULONG seq = 0, sizes = 0;

	for (ULONG size = h->minSize; size <= h->maxSize; size = NextSize(size)) {
		for (ULONG it = 0; it < h->iterations; it++, seq++) {
			ULONG slot, bytes;

			/* The reply is written before its request arrives (the
			 * send buffer is free again once the last reply's send
			 * completed) and the request is checked once the reply
			 * is on its way, so the client's round trip times the
			 * transport and not the pattern loops, as perftest's
			 * does; every byte is still checked. */
			if (!SendsDone(pp))
				return false;
			Fill(pp, SendBuffer(pp), seq, size, 1);
			if (!NextReceive(pp, &slot, &bytes) || !PostSend(pp, size) ||
			    !Check(pp, SlotBuffer(pp, slot), bytes, seq, size, 0, it) || !PostReceive(pp, slot))
				return false;
		}
		sizes++;
		if (size >= 0x80000000u)
			break;
	}
	if (!SendsDone(pp))
		return false;
	printf("ndpingpong server: %lu sizes x %lu messages received, checked and echoed\n",
	       (unsigned long)sizes, (unsigned long)h->iterations);
	return true;
}

static Outcome Server(const Options *o)
{
	PingPong pp;
	bool ok;

	memset(&pp, 0, sizeof(pp));
	pp.opt = o;
	pp.role = "server";
	ok = Setup(&pp, (const sockaddr *)&o->address, o->addressLength) && ServerAccept(&pp) &&
	     ServerRun(&pp);
	Teardown(&pp);
	return ok && !pp.failed ? DONE : FAILED;
}

/* ---- command line ----------------------------------------------------------------- */

static void Usage(FILE *f = stderr)
{
	fprintf(f,
		"usage: ndpingpong -s ADDR[:PORT] [-b]\n"
		"       ndpingpong -c SERVER[:PORT] [-l LOCAL] [-b] [-n ITERS] [-S MIN] [-M MAX] [-w SECS]\n"
		"  -s ADDR[:PORT]    serve one client on this NetworkDirect address (port %u)\n"
		"  -c SERVER[:PORT]  connect to a server\n"
		"  -l LOCAL          the local address to use (default: the route to SERVER)\n"
		"  -b                blocking: CQ Notify + I/O completion port (default: polling)\n"
		"  -n ITERS          round trips per size (default 1000)\n"
		"  -S MIN, -M MAX    message sizes MIN, then doubling up to MAX (default 1 and 65536;\n"
		"                    MIN 0 sends zero-byte messages first)\n"
		"  -w SECS           retry a refused connection for up to SECS seconds (default 0)\n"
		"  -h, --help        this text\n"
		"exit status: 0 every message went through and checked, 1 a failure (no adapter,\n"
		"connection refused or lost, a corrupted byte), 2 bad command line\n",
		DEFAULT_PORT);
}

int main(int argc, char **argv)
{
	Options o;
	const char *addr = NULL, *local = NULL;
	bool client = false;
	Outcome out;
	HRESULT hr;

	memset(&o, 0, sizeof(o));
	o.iterations = 1000;
	o.minSize = 1;
	o.maxSize = 65536;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			Usage(stdout);
			return 0;
		}
		if (!strcmp(a, "-b")) {
			o.blocking = true;
			continue;
		}
		if (a[0] != '-' || !a[1] || a[2] || !v) {
			Usage();
			return 2;
		}
		i++;
		switch (a[1]) {
		case 's':
			o.server = true;
			addr = v;
			break;
		case 'c':
			client = true;
			addr = v;
			break;
		case 'l':
			local = v;
			break;
		case 'n':
			if (!NdParseNumber(v, &o.iterations) || !o.iterations) {
				Usage();
				return 2;
			}
			break;
		case 'S':
			if (!NdParseNumber(v, &o.minSize)) {
				Usage();
				return 2;
			}
			break;
		case 'M':
			if (!NdParseNumber(v, &o.maxSize) || o.maxSize > MAX_BUFFER) {
				Usage();
				return 2;
			}
			break;
		case 'w':
			if (!NdParseNumber(v, &o.waitSeconds)) {
				Usage();
				return 2;
			}
			break;
		default:
			Usage();
			return 2;
		}
	}
	if (o.server == client || o.minSize > o.maxSize || (o.server && local)) {
		Usage();
		return 2;
	}
	if (!NdParseAddress(addr, DEFAULT_PORT, &o.address, &o.addressLength)) {
		fprintf(stderr, "ndpingpong: not a numeric address: %s\n", addr);
		return 2;
	}
	if (local) {
		if (!NdParseAddress(local, 0, &o.local, &o.localLength)) {
			fprintf(stderr, "ndpingpong: not a numeric address: %s\n", local);
			return 2;
		}
		o.haveLocal = true;
	}
	hr = NdStartup();
	if (FAILED(hr)) {
		fprintf(stderr, "ndpingpong: NdStartup failed: %s\n", NdStatusString(hr));
		return 1;
	}
	if (o.server) {
		out = Server(&o);
	} else {
		ULONGLONG deadline = NdNow() + (ULONGLONG)o.waitSeconds * 1000;

		/* A refused connection (no server listening yet) is tried again
		 * from scratch: new queue pair, new connector. */
		while ((out = Client(&o)) == REFUSED && NdNow() < deadline)
			Sleep(500);
		if (out == REFUSED)
			fprintf(stderr, "ndpingpong client: connection refused by %s\n", addr);
	}
	NdCleanup();
	return out == DONE ? 0 : 1;
}

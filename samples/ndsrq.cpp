/* ndsrq: one server, one NetworkDirect v2 shared receive queue, several
 * connections.
 *
 *   ndsrq -s ADDR[:PORT] [-b] [-C CONNS] [-M MAX]
 *   ndsrq -c SERVER[:PORT] [-l LOCAL] [-b] [-C CONNS] [-n ITERS] [-S MIN] [-M MAX] [-w SECS]
 *
 * The server accepts CONNS connections (from one client or several) and
 * gives all their queue pairs one shared receive queue.  Its receive
 * buffers are as large as the largest message (-M, default the adapter's
 * MaxTransferLength or 8 MiB), and it
 * replenishes the SRQ only when the SRQ's Notify says the receives posted
 * have fallen below its threshold.  It checks every message against the
 * pattern of the connection it arrived on, and echoes it with its own
 * pattern on that connection.
 *
 * A client opens CONNS connections and, for each size from MIN to MAX
 * (doubling; MAX defaults to the adapter's MaxTransferLength or 8 MiB), sends ITERS
 * messages on every connection at once and checks every byte of every
 * reply, then prints a row of the table.
 *
 * Completions: polling (spin on GetResults), or with -b blocking: Notify on
 * the completion queue (and on the SRQ) with the adapter's overlapped file
 * associated with an I/O completion port, and GetQueuedCompletionStatus.
 *
 * Exit status 0 when every message completed and matched and everything
 * was released; 1 otherwise; 2 for a bad command line. */
#include "common/ndadapter.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_PORT 54323
#define MAX_CONNS 32
#define WAIT_MS 30000	/* longest silence before a wait gives up */
#define MAGIC 0x5153444Eu	/* "NDSQ" */
#define PROTOCOL_VERSION 1

/* Request contexts: receives carry their buffer's number + 1, sends this
 * bit on top of it. */
#define SEND_BIT 0x100000u

/* Client -> server, in Connect's private data. */
struct Hello {
	UINT32 magic;
	UINT32 version;
	UINT32 minSize;
	UINT32 maxSize;
	UINT32 iterations;
	UINT32 client;		/* process id: with index, the pattern's seed */
	UINT32 index;		/* the connection's number in its client */
};

/* Server -> client, in Accept's private data. */
struct Welcome {
	UINT32 magic;
	UINT32 version;
	UINT32 bufferSize;	/* each of the SRQ's receive buffers */
	UINT32 srqDepth;
};

struct Options {
	bool server;
	bool blocking;
	SOCKADDR_INET address;	/* server: where to listen; client: the server */
	int addressLength;
	bool haveLocal;
	SOCKADDR_INET local;
	int localLength;
	ULONG conns;
	ULONG iterations;
	ULONG minSize;
	ULONG maxSize;		/* 0: the adapter's MaxTransferLength */
	ULONG waitSeconds;
};

struct Node;

struct Conn {
	Node *node;
	IND2Connector *connector;
	IND2QueuePair *qp;
	Hello hello;		/* server: what the client announced */
	ULONG size;		/* the size of the next message */
	ULONG iteration;	/* of the next message at that size */
	ULONG seq;		/* messages received */
	bool finished;		/* server: every message of the schedule echoed */
	ULONG sendsOutstanding;
	bool connected;
	NdRequest disconnectNotify;
	bool disconnectPending;
	/* client */
	char *recvBuffer, *sendBuffer;
	bool receivePosted;
	bool replied;
	ULONG replyBytes;
};

enum BufferState : UINT8 { FREE, POSTED, ECHOING };

struct Node {
	const Options *opt;
	const char *role;
	IND2Adapter *adapter;
	ND2_ADAPTER_INFO info;
	HANDLE file;
	NdWaiter waiter;	/* -b: its port */
	IND2CompletionQueue *cq;
	IND2MemoryRegion *mr;
	IND2SharedReceiveQueue *srq;
	IND2Listener *listener;
	char *buffer;
	SIZE_T bufferBytes;
	ULONG bufferSize;
	ULONG maxSize;
	/* server: the SRQ's buffers */
	ULONG nBuffers;
	BufferState *state;
	ULONG posted;
	ULONG threshold;
	ULONG replenishments;
	ULONGLONG messages;
	NdRequest srqNotify;
	bool srqNotifyPending;
	NdRequest cqNotify;
	bool cqNotifyPending;
	Conn conns[MAX_CONNS];
	ULONG nConns;
	bool failed;
};

static void Fail(Node *n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void Fail(Node *n, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "ndsrq %s: ", n->role);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	n->failed = true;
}

/* ---- the data ------------------------------------------------------------------------ */

/* Eight bytes at a time: an 8 MiB message is checked in a few ms. */
static UINT64 Word(const Hello *h, ULONG seq, ULONG size, bool fromServer, SIZE_T i)
{
	UINT64 seed = ((UINT64)h->client << 32) ^ ((UINT64)h->index << 24) ^ ((UINT64)seq << 1) ^
		      ((UINT64)size * 0x10001) ^ (fromServer ? 0xA5A5A5A5ull : 0);

	return (seed + i + 1) * 0x9E3779B97F4A7C15ull;
}

static void Fill(char *p, const Hello *h, ULONG seq, ULONG size, bool fromServer)
{
	for (SIZE_T i = 0; i < size; i += 8) {
		UINT64 w = Word(h, seq, size, fromServer, i / 8);

		memcpy(p + i, &w, size - i < 8 ? size - i : 8);
	}
}

static bool Check(Node *n, const char *p, ULONG bytes, const Hello *h, ULONG seq, ULONG size, bool fromServer)
{
	if (bytes != size) {
		Fail(n, "connection %lu of client %lu, message %lu: %lu bytes, expected %lu", (unsigned long)h->index,
		     (unsigned long)h->client, (unsigned long)seq, (unsigned long)bytes, (unsigned long)size);
		return false;
	}
	for (SIZE_T i = 0; i < size; i += 8) {
		UINT64 w = Word(h, seq, size, fromServer, i / 8), got = 0;
		SIZE_T k = size - i < 8 ? size - i : 8;

		memcpy(&got, p + i, k);
		if (memcmp(&got, &w, k)) {
			SIZE_T at = 0;

			while (((const char *)&got)[at] == ((const char *)&w)[at])
				at++;
			Fail(n, "connection %lu of client %lu, message %lu (%lu bytes): wrong byte at offset %lu: "
				"0x%02X, expected 0x%02X", (unsigned long)h->index, (unsigned long)h->client,
			     (unsigned long)seq, (unsigned long)size, (unsigned long)(i + at),
			     (UINT8)((const char *)&got)[at], (UINT8)((const char *)&w)[at]);
			return false;
		}
	}
	return true;
}

/* The schedule: MIN, then doubling, and MAX last. */
static ULONG NextSize(ULONG size, ULONG max)
{
	if (size >= max)
		return 0;
	if (!size)
		return 1;
	return size > max / 2 ? max : size * 2;
}

static ULONG Messages(const Hello *h)
{
	ULONG n = 0;

	for (ULONG s = h->minSize;; s = NextSize(s, h->maxSize)) {
		n += h->iterations;
		if (s >= h->maxSize)
			return n;
	}
}

/* The message after the current one in conn's schedule. */
static void Advance(Conn *c)
{
	c->seq++;
	if (++c->iteration < c->hello.iterations)
		return;
	c->iteration = 0;
	if (c->size >= c->hello.maxSize)
		c->finished = true;
	else
		c->size = NextSize(c->size, c->hello.maxSize);
}

static bool PostSend(Node *n, Conn *c, char *p, ULONG size, void *context)
{
	ND2_SGE sge = { p, size, n->mr->GetLocalToken() };
	HRESULT hr = c->qp->Send(context, size ? &sge : NULL, size ? 1 : 0, 0);

	if (hr != ND_SUCCESS) {
		Fail(n, "IND2QueuePair::Send of %lu bytes failed: %s", (unsigned long)size, NdStatusString(hr));
		return false;
	}
	c->sendsOutstanding++;
	return true;
}

static bool PostSrqReceives(Node *n)
{
	for (ULONG i = 0; i < n->nBuffers; i++) {
		if (n->state[i] != FREE)
			continue;
		ND2_SGE sge = { n->buffer + (SIZE_T)i * n->bufferSize, n->bufferSize, n->mr->GetLocalToken() };
		HRESULT hr = n->srq->Receive((void *)(uintptr_t)(i + 1), &sge, 1);

		if (hr != ND_SUCCESS) {
			Fail(n, "IND2SharedReceiveQueue::Receive failed: %s", NdStatusString(hr));
			return false;
		}
		n->state[i] = POSTED;
		n->posted++;
	}
	return true;
}

static bool ArmSrqNotify(Node *n)
{
	NdIssue(&n->srqNotify);
	HRESULT hr = n->srq->Notify(&n->srqNotify.ov);

	if (hr != ND_PENDING && hr != ND_SUCCESS) {
		Fail(n, "IND2SharedReceiveQueue::Notify failed: %s", NdStatusString(hr));
		return false;
	}
	/* ND_SUCCESS: already below the threshold, and (skip-on-success) no
	 * packet: Progress replenishes at once. */
	n->srqNotifyPending = true;
	if (hr == ND_SUCCESS) {
		n->srqNotify.dequeued = true;
		n->srqNotify.ov.Internal = ND_SUCCESS;
	}
	return true;
}

/* Server: the SRQ fell below its threshold: every free buffer goes back. */
static bool Replenish(Node *n)
{
	HRESULT hr = n->srq->GetOverlappedResult(&n->srqNotify.ov, FALSE);

	n->srqNotifyPending = false;
	if (hr != ND_SUCCESS) {
		Fail(n, "the SRQ's Notify completed with %s", NdStatusString(hr));
		return false;
	}
	n->replenishments++;
	return PostSrqReceives(n) && ArmSrqNotify(n);
}

static bool ServerResult(Node *n, const ND2_RESULT *r)
{
	Conn *c = (Conn *)r->QueuePairContext;
	ULONG tag = (ULONG)(uintptr_t)r->RequestContext;
	ULONG i = (tag & ~SEND_BIT) - 1;

	if (c < n->conns || c >= n->conns + n->nConns || i >= n->nBuffers) {
		Fail(n, "completion with QueuePairContext %p, RequestContext %p", r->QueuePairContext,
		     r->RequestContext);
		return false;
	}
	if (r->Status != ND_SUCCESS) {
		Fail(n, "%s on connection %lu completed with %s", tag & SEND_BIT ? "a Send" : "a Receive",
		     (unsigned long)(c - n->conns), NdStatusString(r->Status));
		return false;
	}
	char *p = n->buffer + (SIZE_T)i * n->bufferSize;

	if (tag & SEND_BIT) {
		if (r->RequestType != Nd2RequestTypeSend || n->state[i] != ECHOING) {
			Fail(n, "send completion of buffer %lu in the wrong state", (unsigned long)i);
			return false;
		}
		n->state[i] = FREE;
		c->sendsOutstanding--;
		return true;
	}
	if (r->RequestType != Nd2RequestTypeReceive || n->state[i] != POSTED || c->finished) {
		Fail(n, "unexpected receive in buffer %lu on connection %lu", (unsigned long)i,
		     (unsigned long)(c - n->conns));
		return false;
	}
	n->posted--;
	n->state[i] = ECHOING;
	if (!Check(n, p, r->BytesTransferred, &c->hello, c->seq, c->size, false))
		return false;
	ULONG size = c->size;

	Fill(p, &c->hello, c->seq, size, true);
	Advance(c);
	n->messages++;
	return PostSend(n, c, p, size, (void *)(uintptr_t)(tag | SEND_BIT));
}

static bool ClientResult(Node *n, const ND2_RESULT *r)
{
	Conn *c = (Conn *)r->QueuePairContext;

	if (c < n->conns || c >= n->conns + n->nConns) {
		Fail(n, "completion with QueuePairContext %p", r->QueuePairContext);
		return false;
	}
	if (r->Status != ND_SUCCESS) {
		Fail(n, "%s on connection %lu completed with %s", r->RequestType == Nd2RequestTypeSend ? "a Send" : "a Receive",
		     (unsigned long)(c - n->conns), NdStatusString(r->Status));
		return false;
	}
	if (r->RequestType == Nd2RequestTypeSend) {
		c->sendsOutstanding--;
		return true;
	}
	if (c->replied) {
		Fail(n, "a second reply on connection %lu", (unsigned long)(c - n->conns));
		return false;
	}
	c->replied = true;
	c->receivePosted = false;
	c->replyBytes = r->BytesTransferred;
	return true;
}

/* Takes whatever completions there are, waiting for some first: spinning
 * on GetResults, or (-b) arming Notify and sleeping on the port.  The
 * server also replenishes its SRQ whenever the SRQ's Notify completed. */
static bool Progress(Node *n)
{
	ND2_RESULT results[16];
	ULONGLONG start = NdNow();
	unsigned spins = 0;

	for (;;) {
		ULONG got = n->cq->GetResults(results, 16);

		for (ULONG i = 0; i < got; i++) {
			if (!(n->opt->server ? ServerResult(n, &results[i]) : ClientResult(n, &results[i])))
				return false;
		}
		/* Packets already on the port, the SRQ's Notify among them: the
		 * SRQ must be replenished before its last receives are used up,
		 * not once the CQ runs dry. */
		while (n->opt->blocking && NdPumpPort(&n->waiter, 0))
			;
		if (n->srqNotifyPending && NdDone(&n->waiter, &n->srqNotify) && !Replenish(n))
			return false;
		if (n->cqNotifyPending && n->cqNotify.dequeued) {
			n->cqNotifyPending = false;
			HRESULT hr = n->cq->GetOverlappedResult(&n->cqNotify.ov, FALSE);

			if (hr != ND_SUCCESS) {
				Fail(n, "the CQ's Notify completed with %s", NdStatusString(hr));
				return false;
			}
		}
		if (got)
			return true;
		if (!n->opt->blocking) {
			/* On rxe the "adapter" is kernel work on the same CPUs:
			 * with the guest's one vCPU shared by two spinning clients,
			 * a poller that never yields starves what makes its
			 * completions (as ndrdma's SpinMarker and nd2peer's
			 * spinners found). */
			if (++spins % 64 == 0)
				SwitchToThread();
			if (spins % 4096 == 0 && NdNow() - start > WAIT_MS) {
				Fail(n, "no completion in %u s of polling", WAIT_MS / 1000);
				return false;
			}
			continue;
		}
		/* A completion between GetResults and Notify completes Notify at once. */
		if (!n->cqNotifyPending) {
			NdIssue(&n->cqNotify);
			HRESULT hr = n->cq->Notify(ND_CQ_NOTIFY_ANY, &n->cqNotify.ov);

			if (hr == ND_SUCCESS)
				continue;
			if (hr != ND_PENDING) {
				Fail(n, "IND2CompletionQueue::Notify failed: %s", NdStatusString(hr));
				return false;
			}
			n->cqNotifyPending = true;
		}
		if (!NdPumpPort(&n->waiter, WAIT_MS)) {
			Fail(n, "no notification in %u s", WAIT_MS / 1000);
			return false;
		}
	}
}

/* ---- set-up and tear-down ------------------------------------------------------------ */

static bool Setup(Node *n, const sockaddr *local, int localLength)
{
	char why[160];

	if (!NdOpen(local, localLength, n->opt->blocking, &n->adapter, &n->info, &n->file, &n->waiter, why,
		    sizeof(why))) {
		Fail(n, "%s", why);
		return false;
	}
	n->maxSize = n->opt->maxSize ? n->opt->maxSize : NdDefaultMaxSize(n->info.MaxTransferLength);
	if (n->maxSize > n->info.MaxTransferLength) {
		Fail(n, "-M %lu is more than the adapter's MaxTransferLength, %lu", (unsigned long)n->maxSize,
		     (unsigned long)n->info.MaxTransferLength);
		return false;
	}
	return true;
}

/* buffers of bufferSize bytes each, registered, and a CQ of depth. */
static bool SetupBuffers(Node *n, ULONG buffers, ULONG depth)
{
	NdRequest r;
	HRESULT hr;

	n->bufferSize = n->maxSize ? n->maxSize : 1;
	n->bufferBytes = (SIZE_T)n->bufferSize * buffers;
	n->buffer = (char *)VirtualAlloc(NULL, n->bufferBytes, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
	if (!n->buffer) {
		Fail(n, "VirtualAlloc of %llu bytes failed: %lu", (unsigned long long)n->bufferBytes, GetLastError());
		return false;
	}
	hr = n->adapter->CreateMemoryRegion(IID_IND2MemoryRegion, n->file, (void **)&n->mr);
	if (FAILED(hr)) {
		Fail(n, "IND2Adapter::CreateMemoryRegion failed: %s", NdStatusString(hr));
		return false;
	}
	NdIssue(&r);
	hr = NdWait(&n->waiter, n->mr, &r,
		    n->mr->Register(n->buffer, n->bufferBytes, ND_MR_FLAG_ALLOW_LOCAL_WRITE, &r.ov), WAIT_MS);
	if (hr != ND_SUCCESS) {
		Fail(n, "IND2MemoryRegion::Register of %llu bytes failed: %s", (unsigned long long)n->bufferBytes,
		     NdStatusString(hr));
		n->mr->Release();
		n->mr = NULL;
		return false;
	}
	hr = n->adapter->CreateCompletionQueue(IID_IND2CompletionQueue, n->file, depth, 0, 0, (void **)&n->cq);
	if (FAILED(hr)) {
		Fail(n, "IND2Adapter::CreateCompletionQueue failed: %s", NdStatusString(hr));
		return false;
	}
	return true;
}

static void ReleaseLast(Node *n, IUnknown *obj, const char *name)
{
	ULONG left;

	if (!obj)
		return;
	left = obj->Release();
	if (left)
		Fail(n, "%s::Release left %lu references", name, (unsigned long)left);
}

/* The server waits for each client's Disconnect; then everything goes, in
 * dependency order, after the requests still out came back. */
static void Teardown(Node *n)
{
	NdRequest r;
	HRESULT hr;

	for (ULONG i = 0; i < n->nConns; i++) {
		Conn *c = &n->conns[i];

		if (c->disconnectPending && !n->failed) {
			hr = NdWait(&n->waiter, c->connector, &c->disconnectNotify, ND_PENDING, WAIT_MS);
			c->disconnectPending = false;
			if (hr != ND_SUCCESS && hr != (HRESULT)0xC000020CL)
				Fail(n, "IND2Connector::NotifyDisconnect completed with %s", NdStatusString(hr));
		}
		if (c->connected) {
			NdIssue(&r);
			hr = NdWait(&n->waiter, c->connector, &r, c->connector->Disconnect(&r.ov), WAIT_MS);
			if (hr != ND_SUCCESS)
				Fail(n, "IND2Connector::Disconnect failed: %s", NdStatusString(hr));
			c->connected = false;
		}
		if (c->disconnectPending) {
			c->connector->CancelOverlappedRequests();
			NdWait(&n->waiter, c->connector, &c->disconnectNotify, ND_PENDING, WAIT_MS);
		}
		if (c->qp)
			c->qp->Flush();
	}
	/* Flushed requests come back; the SRQ's receives stay with it. */
	if (n->cq && !n->failed) {
		ND2_RESULT res[16];
		ULONGLONG start = NdNow();

		for (;;) {
			ULONG out = 0;

			for (ULONG i = 0; i < n->nConns; i++)
				out += n->conns[i].sendsOutstanding + n->conns[i].receivePosted;
			if (!out)
				break;
			ULONG got = n->cq->GetResults(res, 16);

			for (ULONG i = 0; i < got; i++) {
				Conn *c = (Conn *)res[i].QueuePairContext;

				if (c < n->conns || c >= n->conns + n->nConns)
					Fail(n, "a flushed request with QueuePairContext %p", (void *)c);
				else if (res[i].RequestType == Nd2RequestTypeSend)
					c->sendsOutstanding--;
				else
					c->receivePosted = false;
			}
			if (!got && NdNow() - start > WAIT_MS) {
				Fail(n, "%lu requests never came back after Flush", (unsigned long)out);
				break;
			}
			if (!got)
				Sleep(1);
		}
	}
	if (n->cqNotifyPending) {
		n->cq->CancelOverlappedRequests();
		NdWait(&n->waiter, n->cq, &n->cqNotify, ND_PENDING, WAIT_MS);
	}
	if (n->srqNotifyPending) {
		n->srq->CancelOverlappedRequests();
		NdWait(&n->waiter, n->srq, &n->srqNotify, ND_PENDING, WAIT_MS);
	}
	for (ULONG i = 0; i < n->nConns; i++) {
		ReleaseLast(n, n->conns[i].connector, "IND2Connector");
		ReleaseLast(n, n->conns[i].qp, "IND2QueuePair");
	}
	ReleaseLast(n, n->listener, "IND2Listener");
	ReleaseLast(n, n->srq, "IND2SharedReceiveQueue");
	if (n->mr) {
		NdIssue(&r);
		hr = NdWait(&n->waiter, n->mr, &r, n->mr->Deregister(&r.ov), WAIT_MS);
		if (hr != ND_SUCCESS)
			Fail(n, "IND2MemoryRegion::Deregister failed: %s", NdStatusString(hr));
		ReleaseLast(n, n->mr, "IND2MemoryRegion");
	}
	ReleaseLast(n, n->cq, "IND2CompletionQueue");
	if (n->file)
		CloseHandle(n->file);
	if (n->waiter.port)
		CloseHandle(n->waiter.port);
	ReleaseLast(n, n->adapter, "IND2Adapter");
	if (n->buffer)
		VirtualFree(n->buffer, 0, MEM_RELEASE);
	free(n->state);
}

/* ---- server --------------------------------------------------------------------------- */

static bool ServerAccept(Node *n, Conn *c)
{
	Welcome welcome = { MAGIC, PROTOCOL_VERSION, n->bufferSize, n->nBuffers };
	ULONG len = sizeof(c->hello);
	NdRequest r;
	HRESULT hr;

	hr = n->adapter->CreateConnector(IID_IND2Connector, n->file, (void **)&c->connector);
	if (FAILED(hr)) {
		Fail(n, "IND2Adapter::CreateConnector failed: %s", NdStatusString(hr));
		return false;
	}
	NdIssue(&r);
	hr = NdWait(&n->waiter, n->listener, &r, n->listener->GetConnectionRequest(c->connector, &r.ov),
		    (DWORD)(n->opt->waitSeconds * 1000));
	if (hr != ND_SUCCESS) {
		Fail(n, "IND2Listener::GetConnectionRequest failed: %s", NdStatusString(hr));
		return false;
	}
	hr = c->connector->GetPrivateData(&c->hello, &len);
	if ((hr != ND_SUCCESS && hr != ND_BUFFER_OVERFLOW) || len < sizeof(c->hello) || c->hello.magic != MAGIC ||
	    c->hello.version != PROTOCOL_VERSION || !c->hello.iterations || c->hello.minSize > c->hello.maxSize ||
	    c->hello.maxSize > n->bufferSize) {
		/* Not ours, or more than the buffers hold: refused. */
		Fail(n, "connection request %lu is not an ndsrq client's for buffers of %lu bytes (%s, %lu bytes)",
		     (unsigned long)(c - n->conns), (unsigned long)n->bufferSize, NdStatusString(hr), (unsigned long)len);
		c->connector->Reject(NULL, 0);
		return false;
	}
	hr = n->adapter->CreateQueuePairWithSrq(IID_IND2QueuePair, n->cq, n->cq, n->srq, c, 2, 1, 0,
						 (void **)&c->qp);
	if (FAILED(hr)) {
		Fail(n, "IND2Adapter::CreateQueuePairWithSrq failed: %s", NdStatusString(hr));
		return false;
	}
	NdIssue(&r);
	hr = NdWait(&n->waiter, c->connector, &r,
		    c->connector->Accept(c->qp, 0, 0, &welcome, sizeof(welcome), &r.ov), WAIT_MS);
	if (hr != ND_SUCCESS) {
		Fail(n, "IND2Connector::Accept failed: %s", NdStatusString(hr));
		return false;
	}
	c->connected = true;
	c->size = c->hello.minSize;
	NdIssue(&c->disconnectNotify);
	hr = c->connector->NotifyDisconnect(&c->disconnectNotify.ov);
	if (hr != ND_PENDING) {
		Fail(n, "IND2Connector::NotifyDisconnect returned %s, not ND_PENDING", NdStatusString(hr));
		return false;
	}
	c->disconnectPending = true;
	return true;
}

static bool Server(const Options *o)
{
	Node n;
	char text[80];
	HRESULT hr;
	bool ok = false;

	memset(&n, 0, sizeof(n));
	n.opt = o;
	n.role = "server";
	n.nConns = o->conns;
	for (ULONG i = 0; i < n.nConns; i++)
		n.conns[i].node = &n;
	/* Two buffers per connection (one being echoed, one ready) and a few
	 * more; Notify fires with a receive per connection still posted. */
	n.nBuffers = 2 * o->conns + 4;
	n.threshold = o->conns + 2;
	if (!Setup(&n, (const sockaddr *)&o->address, o->addressLength) ||
	    !SetupBuffers(&n, n.nBuffers, n.nBuffers + 2 * o->conns))
		goto out;
	if (n.info.MaxSharedReceiveQueueDepth < n.nBuffers) {
		Fail(&n, "the adapter's shared receive queues hold %lu receives, %lu needed",
		     (unsigned long)n.info.MaxSharedReceiveQueueDepth, (unsigned long)n.nBuffers);
		goto out;
	}
	n.state = (BufferState *)calloc(n.nBuffers, sizeof(*n.state));
	hr = n.adapter->CreateSharedReceiveQueue(IID_IND2SharedReceiveQueue, n.file, n.nBuffers, 1, n.threshold, 0, 0,
						  (void **)&n.srq);
	if (FAILED(hr) || !n.state) {
		Fail(&n, "IND2Adapter::CreateSharedReceiveQueue failed: %s", NdStatusString(hr));
		goto out;
	}
	/* Receives posted before any connection exists. */
	if (!PostSrqReceives(&n) || !ArmSrqNotify(&n))
		goto out;
	hr = n.adapter->CreateListener(IID_IND2Listener, n.file, (void **)&n.listener);
	if (FAILED(hr)) {
		Fail(&n, "IND2Adapter::CreateListener failed: %s", NdStatusString(hr));
		goto out;
	}
	hr = n.listener->Bind((const sockaddr *)&o->address, o->addressLength);
	if (hr == ND_SUCCESS)
		hr = n.listener->Listen(0);
	if (hr != ND_SUCCESS) {
		Fail(&n, "listening on %s failed: %s", NdAddressString((const sockaddr *)&o->address, text, sizeof(text)),
		     NdStatusString(hr));
		goto out;
	}
	printf("ndsrq server: listening on %s for %lu connections, %s; one SRQ of %lu receives of %lu bytes, "
	       "replenished on Notify below %lu\n",
	       NdAddressString((const sockaddr *)&o->address, text, sizeof(text)), (unsigned long)o->conns,
	       o->blocking ? "blocking" : "polling", (unsigned long)n.nBuffers, (unsigned long)n.bufferSize,
	       (unsigned long)n.threshold);
	for (ULONG i = 0; i < n.nConns; i++) {
		if (!ServerAccept(&n, &n.conns[i]))
			goto out;
	}
	for (;;) {
		bool all = true;

		for (ULONG i = 0; i < n.nConns; i++)
			all &= n.conns[i].finished && !n.conns[i].sendsOutstanding;
		if (all)
			break;
		if (!Progress(&n))
			goto out;
	}
	ok = true;
out:
	Teardown(&n);
	if (ok && !n.failed) {
		ULONGLONG expected = 0;

		for (ULONG i = 0; i < n.nConns; i++)
			expected += Messages(&n.conns[i].hello);
		printf("ndsrq server: %lu connections through one SRQ: %llu of %llu messages received, checked and "
		       "echoed; %lu replenishments on Notify\n",
		       (unsigned long)n.nConns, (unsigned long long)n.messages, (unsigned long long)expected,
		       (unsigned long)n.replenishments);
		if (n.messages != expected || (n.messages > n.nBuffers && !n.replenishments)) {
			Fail(&n, "the counts do not add up");
			return false;
		}
	}
	return ok && !n.failed;
}

/* ---- client ---------------------------------------------------------------------------- */

enum Outcome { DONE, FAILED, REFUSED };

static Outcome ClientConnect(Node *n, Conn *c, ULONG index, const sockaddr *local, int localLength)
{
	const Options *o = n->opt;
	Welcome welcome;
	ULONG len = sizeof(welcome);
	SOCKADDR_INET bind;
	NdRequest r;
	HRESULT hr;

	c->recvBuffer = n->buffer + (SIZE_T)2 * index * n->bufferSize;
	c->sendBuffer = c->recvBuffer + n->bufferSize;
	hr = n->adapter->CreateQueuePair(IID_IND2QueuePair, n->cq, n->cq, c, 2, 2, 1, 1, 0, (void **)&c->qp);
	if (FAILED(hr)) {
		Fail(n, "IND2Adapter::CreateQueuePair failed: %s", NdStatusString(hr));
		return FAILED;
	}
	ND2_SGE sge = { c->recvBuffer, n->bufferSize, n->mr->GetLocalToken() };

	hr = c->qp->Receive(c, &sge, 1);
	if (hr != ND_SUCCESS) {
		Fail(n, "IND2QueuePair::Receive failed: %s", NdStatusString(hr));
		return FAILED;
	}
	c->receivePosted = true;
	hr = n->adapter->CreateConnector(IID_IND2Connector, n->file, (void **)&c->connector);
	if (FAILED(hr)) {
		Fail(n, "IND2Adapter::CreateConnector failed: %s", NdStatusString(hr));
		return FAILED;
	}
	memcpy(&bind, local, localLength);
	bind.Ipv4.sin_port = 0;	/* same offset in sockaddr_in6 */
	hr = c->connector->Bind((const sockaddr *)&bind, localLength);
	if (hr != ND_SUCCESS) {
		Fail(n, "IND2Connector::Bind failed: %s", NdStatusString(hr));
		return FAILED;
	}
	c->hello = { MAGIC, PROTOCOL_VERSION, o->minSize, n->maxSize, o->iterations, GetCurrentProcessId(), index };
	for (int attempt = 0;; attempt++) {
		NdIssue(&r);
		hr = NdWait(&n->waiter, c->connector, &r,
			    c->connector->Connect(c->qp, (const sockaddr *)&o->address, o->addressLength, 0, 0,
						  &c->hello, sizeof(c->hello), &r.ov),
			    WAIT_MS);
		/* ND_TIMEOUT is a success code: try again. */
		if (hr != ND_TIMEOUT || attempt == 3)
			break;
	}
	if (hr == ND_CONNECTION_REFUSED)
		return REFUSED;
	if (hr != ND_SUCCESS) {
		Fail(n, "IND2Connector::Connect failed: %s", NdStatusString(hr));
		return FAILED;
	}
	memset(&welcome, 0, sizeof(welcome));
	hr = c->connector->GetPrivateData(&welcome, &len);
	if ((hr != ND_SUCCESS && hr != ND_BUFFER_OVERFLOW) || len < sizeof(welcome) || welcome.magic != MAGIC ||
	    welcome.version != PROTOCOL_VERSION || welcome.bufferSize < n->maxSize) {
		Fail(n, "the server's private data is not an ndsrq server's for %lu-byte messages (%s, %lu bytes)",
		     (unsigned long)n->maxSize, NdStatusString(hr), (unsigned long)len);
		return FAILED;
	}
	NdIssue(&r);
	hr = NdWait(&n->waiter, c->connector, &r, c->connector->CompleteConnect(&r.ov), WAIT_MS);
	if (hr != ND_SUCCESS) {
		Fail(n, "IND2Connector::CompleteConnect failed: %s", NdStatusString(hr));
		return FAILED;
	}
	c->connected = true;
	c->size = o->minSize;
	if (!index)
		printf("ndsrq client: connected to a server with one SRQ of %lu receives of %lu bytes\n",
		       (unsigned long)welcome.srqDepth, (unsigned long)welcome.bufferSize);
	return DONE;
}

static bool ClientRun(Node *n)
{
	const Options *o = n->opt;

	printf(" #bytes  #conns  #iterations  checked   t_avg[usec]   BW[MB/sec]\n");
	for (ULONG size = o->minSize;; size = NextSize(size, n->maxSize)) {
		LARGE_INTEGER t0, t1;

		QueryPerformanceCounter(&t0);
		for (ULONG it = 0; it < o->iterations; it++) {
			for (ULONG i = 0; i < n->nConns; i++) {
				Conn *c = &n->conns[i];

				c->replied = false;
				Fill(c->sendBuffer, &c->hello, c->seq, size, false);
				if (!PostSend(n, c, c->sendBuffer, size, c))
					return false;
			}
			for (ULONG i = 0; i < n->nConns; i++) {
				Conn *c = &n->conns[i];

				while (!c->replied || c->sendsOutstanding) {
					if (!Progress(n))
						return false;
				}
				if (!Check(n, c->recvBuffer, c->replyBytes, &c->hello, c->seq, size, true))
					return false;
				ND2_SGE sge = { c->recvBuffer, n->bufferSize, n->mr->GetLocalToken() };
				HRESULT hr = c->qp->Receive(c, &sge, 1);

				if (hr != ND_SUCCESS) {
					Fail(n, "IND2QueuePair::Receive failed: %s", NdStatusString(hr));
					return false;
				}
				c->receivePosted = true;
				c->seq++;
			}
		}
		QueryPerformanceCounter(&t1);
		double s = NdSeconds(t0, t1);
		ULONGLONG msgs = (ULONGLONG)o->iterations * n->nConns;

		printf(" %-7lu %-7lu %-12lu %-9llu %-13.2f %.2f\n", (unsigned long)size, (unsigned long)n->nConns,
		       (unsigned long)o->iterations, msgs, s * 1e6 / o->iterations,
		       s > 0 ? 2.0 * (double)size * (double)msgs / s / 1e6 : 0.0);
		fflush(stdout);
		if (size >= n->maxSize)
			return true;
	}
}

static Outcome Client(const Options *o)
{
	Node n;
	SOCKADDR_INET local;
	SIZE_T localLength = sizeof(local);
	Outcome out = FAILED;
	HRESULT hr;
	char text[80], text2[80];

	memset(&n, 0, sizeof(n));
	n.opt = o;
	n.role = "client";
	if (o->haveLocal) {
		local = o->local;
		localLength = o->localLength;
	} else {
		hr = NdResolveAddress((const sockaddr *)&o->address, o->addressLength, (sockaddr *)&local, &localLength);
		if (FAILED(hr)) {
			Fail(&n, "no NetworkDirect address reaches %s: %s",
			     NdAddressString((const sockaddr *)&o->address, text, sizeof(text)), NdStatusString(hr));
			return FAILED;
		}
	}
	if (Setup(&n, (const sockaddr *)&local, (int)localLength) && n.maxSize >= o->minSize &&
	    SetupBuffers(&n, 2 * o->conns, 4 * o->conns)) {
		static bool announced;

		/* Once, not again for each refused try. */
		if (!announced)
			printf("ndsrq client: %s -> %s, %lu connections, %s, %lu iterations, sizes %lu..%lu\n",
			       NdAddressString((const sockaddr *)&local, text, sizeof(text)),
			       NdAddressString((const sockaddr *)&o->address, text2, sizeof(text2)),
			       (unsigned long)o->conns, o->blocking ? "blocking" : "polling",
			       (unsigned long)o->iterations, (unsigned long)o->minSize, (unsigned long)n.maxSize);
		announced = true;
		out = DONE;
		for (ULONG i = 0; i < o->conns && out == DONE; i++) {
			n.nConns = i + 1;
			n.conns[i].node = &n;
			out = ClientConnect(&n, &n.conns[i], i, (const sockaddr *)&local, (int)localLength);
		}
		/* Refused after the first: the server is taken, not late. */
		if (out == REFUSED && n.nConns > 1) {
			Fail(&n, "connection %lu refused", (unsigned long)n.nConns - 1);
			out = FAILED;
		}
		if (out == DONE && !ClientRun(&n))
			out = FAILED;
	} else if (!n.failed) {
		Fail(&n, "-S %lu is more than the largest message, %lu", (unsigned long)o->minSize, (unsigned long)n.maxSize);
	}
	Teardown(&n);
	if (out == DONE && n.failed)
		out = FAILED;
	if (out == DONE)
		printf("ndsrq client: every reply on %lu connections checked\n", (unsigned long)o->conns);
	return out;
}

/* ---- the command line ------------------------------------------------------------------ */

static void Usage(FILE *f = stderr)
{
	fprintf(f,
		"usage: ndsrq -s ADDR[:PORT] [-b] [-C CONNS] [-M MAX] [-w SECS]\n"
		"       ndsrq -c SERVER[:PORT] [-l LOCAL] [-b] [-C CONNS] [-n ITERS] [-S MIN] [-M MAX] [-w SECS]\n"
		"  -s ADDR[:PORT]    serve CONNS connections through one shared receive queue (port %u)\n"
		"  -c SERVER[:PORT]  open CONNS connections to a server and ping-pong on all at once\n"
		"  -l LOCAL          the local address to connect from (default: the route to SERVER)\n"
		"  -b                blocking: Notify and an I/O completion port instead of polling\n"
		"  -C CONNS          connections (default 2, at most %u); the server's is the total of\n"
		"                    its clients'\n"
		"  -n ITERS          messages per size and connection (default 10)\n"
		"  -S MIN, -M MAX    message sizes, doubling from MIN (default 0) to MAX (default: the\n"
		"                    adapter's MaxTransferLength or 8 MiB, whichever is less; k and m\n"
		"                    suffixes)\n"
		"  -w SECS           server: how long to wait for each connection (default 120);\n"
		"                    client: how long to retry a refused connection (default 0)\n"
		"  -h, --help        this text\n"
		"exit status: 0 every message went through and checked, 1 a failure (no adapter,\n"
		"connection refused or lost, a corrupted byte), 2 bad command line\n",
		DEFAULT_PORT, MAX_CONNS);
}

int main(int argc, char **argv)
{
	Options o;
	const char *addr = NULL, *local = NULL;
	bool client = false, waitGiven = false;
	bool ok;
	HRESULT hr;

	memset(&o, 0, sizeof(o));
	o.conns = 2;
	o.iterations = 10;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		ULONG *number = NULL;

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
		case 'C':
			number = &o.conns;
			break;
		case 'n':
			number = &o.iterations;
			break;
		case 'S':
			number = &o.minSize;
			break;
		case 'M':
			number = &o.maxSize;
			break;
		case 'w':
			number = &o.waitSeconds;
			waitGiven = true;
			break;
		default:
			Usage();
			return 2;
		}
		if (number && !NdParseNumber(v, number)) {
			Usage();
			return 2;
		}
	}
	if (o.server == client || !o.conns || o.conns > MAX_CONNS || !o.iterations ||
	    (o.maxSize && o.minSize > o.maxSize) || (o.server && local)) {
		Usage();
		return 2;
	}
	if (o.server && !waitGiven)
		o.waitSeconds = 120;
	if (!NdParseAddress(addr, DEFAULT_PORT, &o.address, &o.addressLength)) {
		fprintf(stderr, "ndsrq: not a numeric address: %s\n", addr);
		return 2;
	}
	if (local) {
		if (!NdParseAddress(local, 0, &o.local, &o.localLength)) {
			fprintf(stderr, "ndsrq: not a numeric address: %s\n", local);
			return 2;
		}
		o.haveLocal = true;
	}
	hr = NdStartup();
	if (FAILED(hr)) {
		fprintf(stderr, "ndsrq: NdStartup failed: %s\n", NdStatusString(hr));
		return 1;
	}
	if (o.server) {
		ok = Server(&o);
	} else {
		ULONGLONG deadline = NdNow() + (ULONGLONG)o.waitSeconds * 1000;
		Outcome out;

		/* A refused connection (no server listening yet) is tried again
		 * from scratch. */
		while ((out = Client(&o)) == REFUSED && NdNow() < deadline)
			Sleep(500);
		if (out == REFUSED)
			fprintf(stderr, "ndsrq client: connection refused by %s\n", addr);
		ok = out == DONE;
	}
	NdCleanup();
	return ok ? 0 : 1;
}

/* ndrdma's parts (samples/ndrdma.cpp and the files of samples/ndrdma/): the
 * protocol between client and server, the state of one side, and what the
 * parts call of each other.  samples/ndrdma.cpp says what the program does. */
#ifndef NDSAMPLES_NDRDMA_H
#define NDSAMPLES_NDRDMA_H

#include "common/ndadapter.h"

#include <stdint.h>

#define DEFAULT_PORT 54331
#define CTL_DEPTH 4		/* control receives kept posted */
#define WAIT_MS 30000		/* longest silence before a wait gives up */
#define STREAM_AREA (32u << 20)	/* the bandwidth streams' slots, at most */
#define HELLO_MAGIC 0x4D44524Eu	/* "NRDM" */
#define PROTOCOL_VERSION 1

enum { TEST_WRITE = 1, TEST_READ = 2 };
enum { MODE_LAT = 1, MODE_BW = 2 };
#define HELLO_REGION_TOKEN 1u
#define HELLO_INJECT 2u	/* -X: corrupt data on purpose, the run must fail */

/* Client -> server, in Connect's private data. */
struct Hello {
	UINT32 magic;
	UINT32 version;
	UINT32 test;
	UINT32 mode;
	UINT32 flags;
	UINT32 minSize;
	UINT32 maxSize;
	UINT32 iterations;
	UINT32 depth;
};

/* Server -> client, in Accept's private data. */
struct Welcome {
	UINT32 magic;
	UINT32 version;
	UINT32 maxTransfer;	/* the server adapter's MaxTransferLength */
};

/* Control messages, Send/Receive on the same queue pair. */
enum { CTL_BUFFER = 1, CTL_SIZE, CTL_VERIFY, CTL_RESULT, CTL_DONE };
struct Ctl {
	UINT32 type;
	UINT32 size;
	UINT32 count;
	UINT32 errors;
	UINT64 address;	/* CTL_BUFFER: the peer's area; CTL_VERIFY: first sequence number */
	UINT64 length;
	UINT32 token;
	UINT32 reserved;
};

/* Request contexts: the kind in the high half, an index in the low. */
enum { CTX_RECV = 1, CTX_SEND, CTX_OP, CTX_BIND, CTX_INVALIDATE };
#define CTX(kind, i) ((void *)(uintptr_t)(((UINT64)(kind) << 32) | (UINT32)(i)))
#define CTX_KIND(p) ((UINT32)((uintptr_t)(p) >> 32))
#define CTX_INDEX(p) ((UINT32)(uintptr_t)(p))

/* What the pattern of each area is seeded with: the server's exposed area
 * (read tests), the client's local area (write streams). */
#define EXPOSED_SEED 0x5EEDull
#define LOCAL_SEED 0x10CAull

struct Options {
	bool server;
	bool blocking;
	bool regionToken;
	bool inject;
	UINT32 test;
	UINT32 mode;
	SOCKADDR_INET address;	/* server: where to listen; client: the server */
	int addressLength;
	bool haveLocal;
	SOCKADDR_INET local;
	int localLength;
	ULONG iterations;
	ULONG minSize;
	ULONG maxSize;		/* 0: the adapter's MaxTransferLength */
	ULONG depth;
	ULONG waitSeconds;
};

struct Rdma {
	const Options *opt;
	const char *role;
	Hello plan;		/* the client's; the server has it from the request */
	IND2Adapter *adapter;
	ND2_ADAPTER_INFO info;
	HANDLE file;		/* the adapter's overlapped file */
	NdWaiter waiter;	/* -b: the completion port the file is associated with */
	IND2CompletionQueue *cq;
	IND2QueuePair *qp;
	IND2MemoryRegion *mr;
	IND2MemoryWindow *mw;
	bool bound;		/* mw is bound: Invalidate before Deregister */
	IND2Connector *connector;
	IND2Listener *listener;
	ULONG inboundReadLimit, outboundReadLimit;
	char *buffer;		/* exposed area, local area, control slots */
	SIZE_T bufferBytes;
	char *exposed;		/* what the peer writes to or reads from */
	SIZE_T exposedBytes;
	char *local;		/* the sources of our writes, the sinks of our reads */
	SIZE_T localBytes;
	Ctl *ctl;		/* CTL_DEPTH receive slots, then the send slot */
	SIZE_T areaBytes;	/* the streams' slots, on both sides */
	ULONG inlineSize;
	ULONG sendDepth;
	UINT64 peerAddress;
	UINT64 peerLength;
	UINT32 peerToken;
	/* Control receives: posted, the one that must complete next, the
	 * messages received and not consumed yet, in order. */
	ULONG ctlPosted;
	ULONG ctlNext;
	Ctl ctlReady[CTL_DEPTH];
	ULONG nCtlReady;
	bool ctlSendOutstanding;
	/* RDMA requests: completions come back in the order posted. */
	ULONG opsOutstanding;
	UINT32 opsPosted;
	UINT32 opsCompleted;
	ULONG otherOutstanding;	/* Bind, Invalidate */
	DWORD ctlWaitMs;	/* how long NextCtl waits: the server, for as long as the client works */
	NdRequest cqNotify;
	bool cqNotifyPending;
	NdRequest disconnectNotify;
	bool connected;
	bool peerGone;
	bool failed;
	bool injected;
	ULONGLONG checkedTransfers;
	ULONGLONG checkedBytes;
	ULONGLONG badTransfers;
	ULONGLONG peerBadTransfers;	/* the server's count, at the end */
};

/* Shared by the parts of ndrdma (samples/ndrdma/). */
void Fail(Rdma *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* pattern.cpp: what every byte must be */
UINT8 PatternByte(UINT64 seed, SIZE_T offset);
void PatternFill(char *p, UINT64 seed, SIZE_T start, SIZE_T len);
void PatternPoison(char *p, UINT64 seed, SIZE_T start, SIZE_T len);
bool PatternCheck(const char *p, UINT64 seed, SIZE_T start, SIZE_T len, SIZE_T *bad);

/* queue.cpp: requests and their completions */
bool PostCtlReceive(Rdma *rd, ULONG slot);
bool Poll(Rdma *rd);
bool Progress(Rdma *rd);
bool ProgressFor(Rdma *rd, DWORD timeoutMs);
bool PostOp(Rdma *rd, char *localBuffer, ULONG size, UINT64 remote);
bool WaitOps(Rdma *rd, ULONG atMost);
bool SendCtl(Rdma *rd, const Ctl *c);
bool NextCtl(Rdma *rd, UINT32 type, Ctl *out);

/* transfers.cpp: the tests, the client's table, the server's answers */
ULONG StreamSlots(SIZE_T areaBytes, ULONG size, ULONG iterations);
bool ClientRun(Rdma *rd);
bool ServePingSize(Rdma *rd, const Ctl *ask);
bool ServeVerify(Rdma *rd, const Ctl *ask);

/* setup.cpp: objects, buffers, the window, tear-down */
bool Setup(Rdma *rd, const sockaddr *local, int localLength);
bool SetupQueuePair(Rdma *rd);
bool ExchangeBuffers(Rdma *rd);
bool Unbind(Rdma *rd);
void Teardown(Rdma *rd);

#endif

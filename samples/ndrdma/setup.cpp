/* ndrdma: the adapter, the buffer and its region, the queue pair, the
 * window and the exchange of tokens; tear-down in dependency order. */
#include "ndrdma/ndrdma.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- set-up and tear-down ------------------------------------------------------------ */

bool Setup(Rdma *rd, const sockaddr *local, int localLength)
{
	char why[160];
	HRESULT hr;

	if (!NdOpen(local, localLength, rd->opt->blocking, &rd->adapter, &rd->info, &rd->file, &rd->waiter, why,
		    sizeof(why))) {
		Fail(rd, "%s", why);
		return false;
	}
	rd->inlineSize = rd->info.InlineRequestThreshold < rd->info.MaxInlineDataSize ? rd->info.InlineRequestThreshold
										      : rd->info.MaxInlineDataSize;
	hr = rd->adapter->CreateConnector(IID_IND2Connector, rd->file, (void **)&rd->connector);
	if (FAILED(hr)) {
		Fail(rd, "IND2Adapter::CreateConnector failed: %s", NdStatusString(hr));
		return false;
	}
	return true;
}

static SIZE_T RoundUp(SIZE_T n)
{
	return (n + 63) & ~(SIZE_T)63;
}

/* How many bytes of its buffer each side exposes to the peer, and uses
 * for itself, for the plan both know. */
static void Layout(const Hello *h, bool server, SIZE_T *exposed, SIZE_T *local, SIZE_T *area)
{
	UINT64 stream = (UINT64)h->iterations * h->maxSize;

	*area = stream < STREAM_AREA ? (SIZE_T)stream : STREAM_AREA;
	if (*area < h->maxSize)
		*area = h->maxSize;
	if (h->mode == MODE_LAT && h->test == TEST_WRITE) {
		*exposed = *local = 2 * (SIZE_T)h->maxSize;
		return;
	}
	SIZE_T data = h->mode == MODE_LAT ? h->maxSize : *area;

	*exposed = server ? data : 0;
	*local = server ? 0 : data;
}

/* The buffer, its region, the completion queue, the queue pair and its
 * control receives, all before the connection is made. */
bool SetupQueuePair(Rdma *rd)
{
	const Hello *h = &rd->plan;
	bool write = h->test == TEST_WRITE;
	ULONG flags = ND_MR_FLAG_ALLOW_LOCAL_WRITE;
	NdRequest r;
	HRESULT hr;

	Layout(h, rd->opt->server, &rd->exposedBytes, &rd->localBytes, &rd->areaBytes);
	rd->bufferBytes = RoundUp(rd->exposedBytes) + RoundUp(rd->localBytes) + (CTL_DEPTH + 1) * sizeof(Ctl);
	if (rd->bufferBytes > rd->info.MaxRegistrationSize || rd->exposedBytes > rd->info.MaxWindowSize) {
		Fail(rd, "a buffer of %lu bytes (%lu exposed) is more than the adapter registers (%lu) or a window "
			 "spans (%lu)", (unsigned long)rd->bufferBytes, (unsigned long)rd->exposedBytes,
		     (unsigned long)rd->info.MaxRegistrationSize, (unsigned long)rd->info.MaxWindowSize);
		return false;
	}
	rd->buffer = (char *)VirtualAlloc(NULL, rd->bufferBytes, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
	if (!rd->buffer) {
		Fail(rd, "VirtualAlloc of %lu bytes failed: %lu", (unsigned long)rd->bufferBytes, GetLastError());
		return false;
	}
	rd->exposed = rd->buffer;
	rd->local = rd->buffer + RoundUp(rd->exposedBytes);
	rd->ctl = (Ctl *)(rd->local + RoundUp(rd->localBytes));
	/* What the peer must find before it writes or reads anything. */
	if (h->mode == MODE_BW && write)
		PatternPoison(rd->opt->server ? rd->exposed : rd->local, LOCAL_SEED, 0, rd->areaBytes);
	if (h->mode == MODE_BW && write && !rd->opt->server)
		PatternFill(rd->local, LOCAL_SEED, 0, rd->areaBytes);
	if (!write && rd->opt->server)
		PatternFill(rd->exposed, EXPOSED_SEED, 0, rd->exposedBytes);
	/* -X: a byte every read of the smallest size or of slot 0 covers. */
	if (!write && rd->opt->server && h->flags & HELLO_INJECT)
		rd->exposed[h->minSize - 1] ^= 0x80;
	/* -r: the region's own token grants the peer what a window would. */
	if (h->flags & HELLO_REGION_TOKEN && rd->exposedBytes)
		flags |= write ? ND_MR_FLAG_ALLOW_REMOTE_WRITE : ND_MR_FLAG_ALLOW_REMOTE_READ;
	if (!write && rd->localBytes)
		flags |= ND_MR_FLAG_RDMA_READ_SINK;
	hr = rd->adapter->CreateMemoryRegion(IID_IND2MemoryRegion, rd->file, (void **)&rd->mr);
	if (FAILED(hr)) {
		Fail(rd, "IND2Adapter::CreateMemoryRegion failed: %s", NdStatusString(hr));
		return false;
	}
	NdIssue(&r);
	hr = NdWait(&rd->waiter, rd->mr, &r, rd->mr->Register(rd->buffer, rd->bufferBytes, flags, &r.ov), WAIT_MS);
	if (hr != ND_SUCCESS) {
		Fail(rd, "IND2MemoryRegion::Register of %lu bytes failed: %s", (unsigned long)rd->bufferBytes,
		     NdStatusString(hr));
		rd->mr->Release();
		rd->mr = NULL;
		return false;
	}
	/* A control Send, a Bind or an Invalidate besides the RDMA requests. */
	rd->sendDepth = (h->mode == MODE_BW ? h->depth : 1) + 2;
	if (rd->sendDepth > rd->info.MaxInitiatorQueueDepth) {
		Fail(rd, "%lu outstanding requests are more than the adapter's MaxInitiatorQueueDepth %lu",
		     (unsigned long)h->depth, (unsigned long)rd->info.MaxInitiatorQueueDepth);
		return false;
	}
	hr = rd->adapter->CreateCompletionQueue(IID_IND2CompletionQueue, rd->file, rd->sendDepth + CTL_DEPTH, 0, 0,
						 (void **)&rd->cq);
	if (FAILED(hr)) {
		Fail(rd, "IND2Adapter::CreateCompletionQueue failed: %s", NdStatusString(hr));
		return false;
	}
	hr = rd->adapter->CreateQueuePair(IID_IND2QueuePair, rd->cq, rd->cq, rd, CTL_DEPTH, rd->sendDepth, 1, 1,
					  rd->inlineSize, (void **)&rd->qp);
	if (FAILED(hr)) {
		Fail(rd, "IND2Adapter::CreateQueuePair failed: %s", NdStatusString(hr));
		return false;
	}
	for (ULONG i = 0; i < CTL_DEPTH; i++) {
		if (!PostCtlReceive(rd, i))
			return false;
	}
	return true;
}

/* Once connected: a window over the exposed area (or the region's token),
 * its address, length and token to the peer, the peer's from it. */
bool ExchangeBuffers(Rdma *rd)
{
	const Hello *h = &rd->plan;
	bool write = h->test == TEST_WRITE;
	Ctl mine = { CTL_BUFFER, 0, 0, 0, (UINT64)(uintptr_t)rd->exposed, rd->exposedBytes, 0, 0 }, peer;
	SIZE_T peerExposed, peerLocal, area;
	HRESULT hr;

	if (rd->exposedBytes && h->flags & HELLO_REGION_TOKEN) {
		mine.token = rd->mr->GetRemoteToken();
	} else if (rd->exposedBytes) {
		hr = rd->adapter->CreateMemoryWindow(IID_IND2MemoryWindow, (void **)&rd->mw);
		if (FAILED(hr)) {
			Fail(rd, "IND2Adapter::CreateMemoryWindow failed: %s", NdStatusString(hr));
			return false;
		}
		hr = rd->qp->Bind(CTX(CTX_BIND, 0), rd->mr, rd->mw, rd->exposed, rd->exposedBytes,
				  write ? ND_OP_FLAG_ALLOW_WRITE : ND_OP_FLAG_ALLOW_READ);
		if (hr != ND_SUCCESS) {
			Fail(rd, "IND2QueuePair::Bind of %lu bytes failed: %s", (unsigned long)rd->exposedBytes,
			     NdStatusString(hr));
			return false;
		}
		rd->otherOutstanding++;
		rd->bound = true;
		/* The peer may use the token once the window is bound. */
		while (rd->otherOutstanding) {
			if (!Progress(rd))
				return false;
		}
		mine.token = rd->mw->GetRemoteToken();
	}
	if (!SendCtl(rd, &mine) || !NextCtl(rd, CTL_BUFFER, &peer))
		return false;
	Layout(h, !rd->opt->server, &peerExposed, &peerLocal, &area);
	if (peer.length != peerExposed) {
		Fail(rd, "the peer exposes %llu bytes, not %lu", (unsigned long long)peer.length,
		     (unsigned long)peerExposed);
		return false;
	}
	rd->peerAddress = peer.address;
	rd->peerLength = peer.length;
	rd->peerToken = peer.token;
	return true;
}

static bool ReleaseLast(Rdma *rd, IUnknown *obj, const char *name)
{
	ULONG left;

	if (!obj)
		return true;
	left = obj->Release();
	if (left) {
		Fail(rd, "%s::Release left %lu references", name, (unsigned long)left);
		return false;
	}
	return true;
}

/* After Flush: every request still outstanding comes back, canceled. */
static void Drain(Rdma *rd)
{
	ULONGLONG start = GetTickCount64();

	while (rd->ctlPosted || rd->ctlSendOutstanding || rd->opsOutstanding || rd->otherOutstanding) {
		ND2_RESULT res[16];
		ULONG n = rd->cq->GetResults(res, 16);

		if (!n) {
			if (GetTickCount64() - start > WAIT_MS) {
				Fail(rd, "%lu requests never came back after Flush",
				     (unsigned long)(rd->ctlPosted + rd->ctlSendOutstanding + rd->opsOutstanding +
						     rd->otherOutstanding));
				return;
			}
			Sleep(1);
			continue;
		}
		for (ULONG i = 0; i < n; i++) {
			UINT32 kind = CTX_KIND(res[i].RequestContext);

			if (res[i].Status != ND_CANCELED && !rd->failed)
				Fail(rd, "a request flushed at the end completed with %s, type %d",
				     NdStatusString(res[i].Status), res[i].RequestType);
			if (kind == CTX_RECV && rd->ctlPosted)
				rd->ctlPosted--;
			else if (kind == CTX_SEND)
				rd->ctlSendOutstanding = false;
			else if (kind == CTX_OP && rd->opsOutstanding)
				rd->opsOutstanding--;
			else if (rd->otherOutstanding)
				rd->otherOutstanding--;
		}
	}
}

/* Takes the window back: the peer is done with it. */
bool Unbind(Rdma *rd)
{
	HRESULT hr;

	if (!rd->bound)
		return true;
	hr = rd->qp->Invalidate(CTX(CTX_INVALIDATE, 0), rd->mw, 0);
	if (hr != ND_SUCCESS) {
		Fail(rd, "IND2QueuePair::Invalidate failed: %s", NdStatusString(hr));
		return false;
	}
	rd->otherOutstanding++;
	while (rd->otherOutstanding) {
		if (!Progress(rd))
			return false;
	}
	rd->bound = false;
	return true;
}

/* Invalidates the window, disconnects (the server after the client), takes
 * back the flushed receives, and releases everything in dependency order. */
void Teardown(Rdma *rd)
{
	NdRequest r;
	HRESULT hr;

	/* Also after a failed check: releasing a queue pair whose window is
	 * still bound took about 50 s on rxe.  A broken queue pair completes
	 * the Invalidate at once, flushed. */
	if (rd->bound && rd->connected)
		Unbind(rd);
	/* The client disconnects first, once it has the server's count, also
	 * after a failed check (both sides then exit 1): a Disconnect from
	 * both ends at once is not what the peer waits for. */
	if (rd->connected && rd->opt->server) {
		hr = NdWait(&rd->waiter, rd->connector, &rd->disconnectNotify, ND_PENDING, WAIT_MS);
		if (hr != ND_SUCCESS && hr != (HRESULT)0xC000020CL)
			Fail(rd, "IND2Connector::NotifyDisconnect completed with %s", NdStatusString(hr));
	}
	if (rd->connected) {
		NdIssue(&r);
		hr = NdWait(&rd->waiter, rd->connector, &r, rd->connector->Disconnect(&r.ov), WAIT_MS);
		if (hr != ND_SUCCESS)
			Fail(rd, "IND2Connector::Disconnect failed: %s", NdStatusString(hr));
		rd->connected = false;
	}
	if (rd->qp) {
		hr = rd->qp->Flush();
		if (hr != ND_SUCCESS)
			Fail(rd, "IND2QueuePair::Flush failed: %s", NdStatusString(hr));
		Drain(rd);
	}
	if (rd->cqNotifyPending) {
		/* Canceling completes the Notify (ND_CANCELED) before returning;
		 * its packet is taken off the port. */
		rd->cq->CancelOverlappedRequests();
		NdWait(&rd->waiter, rd->cq, &rd->cqNotify, ND_PENDING, WAIT_MS);
		rd->cqNotifyPending = false;
	}
	ReleaseLast(rd, rd->connector, "IND2Connector");
	ReleaseLast(rd, rd->listener, "IND2Listener");
	/* A window still bound (a failed run) goes with its queue pair. */
	ReleaseLast(rd, rd->qp, "IND2QueuePair");
	ReleaseLast(rd, rd->mw, "IND2MemoryWindow");
	if (rd->mr) {
		NdIssue(&r);
		hr = NdWait(&rd->waiter, rd->mr, &r, rd->mr->Deregister(&r.ov), WAIT_MS);
		if (hr != ND_SUCCESS)
			Fail(rd, "IND2MemoryRegion::Deregister failed: %s", NdStatusString(hr));
		ReleaseLast(rd, rd->mr, "IND2MemoryRegion");
	}
	ReleaseLast(rd, rd->cq, "IND2CompletionQueue");
	if (rd->file)
		CloseHandle(rd->file);
	if (rd->waiter.port)
		CloseHandle(rd->waiter.port);
	ReleaseLast(rd, rd->adapter, "IND2Adapter");
	if (rd->buffer)
		VirtualFree(rd->buffer, 0, MEM_RELEASE);
}

/* ndrdma: the requests on the queue pair (RDMA Write/Read, the control
 * Send/Receive) and their completions, polling or blocking. */
#include "ndrdma/ndrdma.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- reports ---------------------------------------------------------------------- */

void Fail(Rdma *rd, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "ndrdma %s: ", rd->role);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	rd->failed = true;
}

/* ---- completions ------------------------------------------------------------------ */

bool PostCtlReceive(Rdma *rd, ULONG slot)
{
	ND2_SGE sge = { &rd->ctl[slot], sizeof(Ctl), rd->mr->GetLocalToken() };
	HRESULT hr = rd->qp->Receive(CTX(CTX_RECV, slot), &sge, 1);

	if (hr != ND_SUCCESS) {
		Fail(rd, "IND2QueuePair::Receive failed: %s", NdStatusString(hr));
		return false;
	}
	rd->ctlPosted++;
	return true;
}

static bool HandleResult(Rdma *rd, const ND2_RESULT *r)
{
	UINT32 kind = CTX_KIND(r->RequestContext), index = CTX_INDEX(r->RequestContext);
	int wantType = rd->plan.test == TEST_WRITE ? Nd2RequestTypeWrite : Nd2RequestTypeRead;

	if (r->QueuePairContext != rd) {
		Fail(rd, "completion with QueuePairContext %p, not %p", r->QueuePairContext, (void *)rd);
		return false;
	}
	switch (kind) {
	case CTX_RECV:
		if (index >= CTL_DEPTH || r->RequestType != Nd2RequestTypeReceive || !rd->ctlPosted)
			break;
		rd->ctlPosted--;
		/* The peer's Disconnect flushes our queue pair: the receives
		 * still posted come back canceled. */
		if (r->Status == ND_CANCELED) {
			rd->peerGone = true;
			return true;
		}
		if (r->Status != ND_SUCCESS) {
			Fail(rd, "Receive completed with %s", NdStatusString(r->Status));
			return false;
		}
		if (index != rd->ctlNext || r->BytesTransferred != sizeof(Ctl)) {
			Fail(rd, "control receive %lu (%lu bytes) completed, expected %lu (%lu bytes)",
			     (unsigned long)index, (unsigned long)r->BytesTransferred, (unsigned long)rd->ctlNext,
			     (unsigned long)sizeof(Ctl));
			return false;
		}
		rd->ctlNext = (rd->ctlNext + 1) % CTL_DEPTH;
		rd->ctlReady[rd->nCtlReady++] = rd->ctl[index];
		return PostCtlReceive(rd, index);
	case CTX_SEND:
		if (r->RequestType != Nd2RequestTypeSend || !rd->ctlSendOutstanding)
			break;
		rd->ctlSendOutstanding = false;
		if (r->Status != ND_SUCCESS) {
			Fail(rd, "the control Send completed with %s", NdStatusString(r->Status));
			return false;
		}
		return true;
	case CTX_OP:
		if (r->RequestType != wantType || !rd->opsOutstanding)
			break;
		if (r->Status != ND_SUCCESS) {
			Fail(rd, "RDMA %s %lu completed with %s", wantType == Nd2RequestTypeWrite ? "Write" : "Read",
			     (unsigned long)index, NdStatusString(r->Status));
			return false;
		}
		if (index != rd->opsCompleted) {
			Fail(rd, "RDMA request %lu completed before request %lu, posted earlier", (unsigned long)index,
			     (unsigned long)rd->opsCompleted);
			return false;
		}
		rd->opsCompleted++;
		rd->opsOutstanding--;
		return true;
	case CTX_BIND:
	case CTX_INVALIDATE:
		if (r->RequestType != (kind == CTX_BIND ? Nd2RequestTypeBind : Nd2RequestTypeInvalidate) ||
		    !rd->otherOutstanding)
			break;
		rd->otherOutstanding--;
		if (r->Status != ND_SUCCESS) {
			Fail(rd, "%s completed with %s", kind == CTX_BIND ? "Bind" : "Invalidate",
			     NdStatusString(r->Status));
			return false;
		}
		return true;
	}
	Fail(rd, "unexpected completion: RequestContext %p RequestType %d status %s", r->RequestContext,
	     r->RequestType, NdStatusString(r->Status));
	return false;
}

static bool HandleResults(Rdma *rd, const ND2_RESULT *r, ULONG n)
{
	for (ULONG i = 0; i < n; i++) {
		if (!HandleResult(rd, &r[i]))
			return false;
	}
	return true;
}

/* Whatever completions there are, without waiting. */
bool Poll(Rdma *rd)
{
	ND2_RESULT results[16];
	ULONG n;

	while ((n = rd->cq->GetResults(results, 16)) != 0) {
		if (!HandleResults(rd, results, n))
			return false;
	}
	return true;
}

/* Waits for at least one completion: spinning on GetResults, or (-b)
 * arming Notify and sleeping on the port. */
/* Polling, a side with nothing to do but wait for the peer (the server of
 * a read test, or between the rounds of a write stream) sleeps instead, as
 * perftest's servers do: a spinning process on the guest's only vCPU (or
 * on both) takes the time rxe needs to answer the peer.  Notify, and
 * GetOverlappedResult waiting; no port in this mode. */
static bool SleepForCompletion(Rdma *rd)
{
	NdRequest r;
	HRESULT hr;

	NdIssue(&r);
	hr = rd->cq->Notify(ND_CQ_NOTIFY_ANY, &r.ov);
	if (hr == ND_PENDING)
		hr = rd->cq->GetOverlappedResult(&r.ov, TRUE);
	if (hr != ND_SUCCESS) {
		Fail(rd, "IND2CompletionQueue::Notify completed with %s", NdStatusString(hr));
		return false;
	}
	return Poll(rd);
}

bool Progress(Rdma *rd)
{
	return ProgressFor(rd, WAIT_MS);
}

/* The same, giving up after timeoutMs (INFINITE: never; a peer that goes
 * away flushes our receives, which ends the wait). */
bool ProgressFor(Rdma *rd, DWORD timeoutMs)
{
	ND2_RESULT results[16];
	ULONGLONG start = GetTickCount64();
	unsigned spins = 0;
	ULONG n;

	for (;;) {
		n = rd->cq->GetResults(results, 16);
		if (n)
			return HandleResults(rd, results, n);
		if (!rd->opt->blocking && timeoutMs == INFINITE && ++spins > 4096)
			return SleepForCompletion(rd);
		if (!rd->opt->blocking) {
			if (++spins % 4096 == 0 && timeoutMs != INFINITE && GetTickCount64() - start > timeoutMs) {
				Fail(rd, "no completion in %lu s of polling", timeoutMs / 1000);
				return false;
			}
			continue;
		}
		/* Notify completes for completions that arrive after the last
		 * notification, so one between GetResults and Notify is not
		 * lost: it completes the request at once. */
		if (!rd->cqNotifyPending) {
			NdIssue(&rd->cqNotify);
			HRESULT hr = rd->cq->Notify(ND_CQ_NOTIFY_ANY, &rd->cqNotify.ov);

			if (hr == ND_SUCCESS)
				continue;
			if (hr != ND_PENDING) {
				Fail(rd, "IND2CompletionQueue::Notify failed: %s", NdStatusString(hr));
				return false;
			}
			rd->cqNotifyPending = true;
		}
		while (!rd->cqNotify.dequeued) {
			if (!NdPumpPort(&rd->waiter, timeoutMs)) {
				Fail(rd, "no completion queue notification in %lu s", timeoutMs / 1000);
				return false;
			}
		}
		rd->cqNotifyPending = false;
		HRESULT hr = rd->cq->GetOverlappedResult(&rd->cqNotify.ov, FALSE);

		if (hr != ND_SUCCESS) {
			Fail(rd, "completion queue notification completed with %s", NdStatusString(hr));
			return false;
		}
	}
}

/* One RDMA Write or Read of size bytes between a local buffer and the
 * peer's area at remote. */
bool PostOp(Rdma *rd, char *localBuffer, ULONG size, UINT64 remote)
{
	ND2_SGE sge = { localBuffer, size, rd->mr->GetLocalToken() };
	HRESULT hr;

	if (remote < rd->peerAddress || remote - rd->peerAddress + size > rd->peerLength) {
		Fail(rd, "an access of %lu bytes at 0x%llX is outside the peer's area", (unsigned long)size,
		     (unsigned long long)remote);
		return false;
	}
	if (rd->plan.test == TEST_WRITE) {
		/* Small writes go inline, as perftest's do. */
		ULONG flags = size <= rd->inlineSize ? ND_OP_FLAG_INLINE : 0;

		hr = rd->qp->Write(CTX(CTX_OP, rd->opsPosted), &sge, 1, remote, rd->peerToken, flags);
	} else {
		hr = rd->qp->Read(CTX(CTX_OP, rd->opsPosted), &sge, 1, remote, rd->peerToken, 0);
	}
	if (hr != ND_SUCCESS) {
		Fail(rd, "IND2QueuePair::%s of %lu bytes failed: %s", rd->plan.test == TEST_WRITE ? "Write" : "Read",
		     (unsigned long)size, NdStatusString(hr));
		return false;
	}
	rd->opsPosted++;
	rd->opsOutstanding++;
	return true;
}

/* Until no more than atMost RDMA requests are outstanding. */
bool WaitOps(Rdma *rd, ULONG atMost)
{
	while (rd->opsOutstanding > atMost) {
		if (!Progress(rd))
			return false;
	}
	return true;
}

bool SendCtl(Rdma *rd, const Ctl *c)
{
	Ctl *slot = &rd->ctl[CTL_DEPTH];
	ND2_SGE sge = { slot, sizeof(Ctl), rd->mr->GetLocalToken() };
	HRESULT hr;

	while (rd->ctlSendOutstanding) {
		if (!Progress(rd))
			return false;
	}
	*slot = *c;
	hr = rd->qp->Send(CTX(CTX_SEND, 0), &sge, 1, 0);
	if (hr != ND_SUCCESS) {
		Fail(rd, "IND2QueuePair::Send failed: %s", NdStatusString(hr));
		return false;
	}
	rd->ctlSendOutstanding = true;
	return true;
}

/* The next control message, which must be of the given type (0: any). */
bool NextCtl(Rdma *rd, UINT32 type, Ctl *out)
{
	while (!rd->nCtlReady) {
		if (rd->peerGone) {
			Fail(rd, "the peer disconnected");
			return false;
		}
		if (!ProgressFor(rd, rd->ctlWaitMs))
			return false;
	}
	*out = rd->ctlReady[0];
	rd->nCtlReady--;
	memmove(rd->ctlReady, rd->ctlReady + 1, rd->nCtlReady * sizeof(rd->ctlReady[0]));
	if (type && out->type != type) {
		Fail(rd, "control message %lu where %lu was expected", (unsigned long)out->type, (unsigned long)type);
		return false;
	}
	return true;
}

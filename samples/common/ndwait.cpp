/* ndwait: waiting for overlapped ND2 requests (see ndwait.h). */
#include "ndwait.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How long a canceled request may take to come back. */
#define CANCEL_MS 30000

void NdIssue(NdRequest *r)
{
	memset(r, 0, sizeof(*r));
}

bool NdPumpPort(const NdWaiter *w, DWORD timeoutMs)
{
	OVERLAPPED *ov = NULL;
	ULONG_PTR key;
	DWORD bytes;

	/* FALSE with an OVERLAPPED is a request that completed with an error
	 * status: dequeued all the same. */
	if (!GetQueuedCompletionStatus(w->port, &bytes, &key, &ov, timeoutMs) && !ov)
		return false;
	CONTAINING_RECORD(ov, NdRequest, ov)->dequeued = true;
	return true;
}

bool NdDone(const NdWaiter *w, const NdRequest *r)
{
	return w->port ? r->dequeued : HasOverlappedIoCompleted(&r->ov);
}

/* Until r completes or timeoutMs pass; its status, or ND_PENDING. */
static HRESULT WaitFor(const NdWaiter *w, IND2Overlapped *obj, NdRequest *r, DWORD timeoutMs)
{
	ULONGLONG end = NdNow() + timeoutMs;

	for (;;) {
		ULONGLONG now = NdNow();

		if (!w->port) {
			HRESULT hr = obj->GetOverlappedResult(&r->ov, FALSE);

			if (hr != ND_PENDING || now >= end)
				return hr;
			Sleep(1);
			continue;
		}
		if (r->dequeued)
			return obj->GetOverlappedResult(&r->ov, FALSE);
		if (now >= end || (!NdPumpPort(w, (DWORD)(end - now)) && !r->dequeued))
			return ND_PENDING;
	}
}

HRESULT NdWait(const NdWaiter *w, IND2Overlapped *obj, NdRequest *r, HRESULT issued, DWORD timeoutMs)
{
	HRESULT hr;

	if (issued != ND_PENDING)
		return issued;
	hr = WaitFor(w, obj, r, timeoutMs);
	if (hr != ND_PENDING)
		return hr;
	/* Cancellation completes every request of obj, this one among them,
	 * before it returns; with a port, the packet still has to be taken. */
	obj->CancelOverlappedRequests();
	hr = WaitFor(w, obj, r, CANCEL_MS);
	if (hr == ND_PENDING) {
		fflush(stdout);
		fprintf(stderr, "a request still pending %u s after CancelOverlappedRequests: stopping\n",
			CANCEL_MS / 1000);
		exit(1);
	}
	/* It may have completed on its own meanwhile. */
	return hr == ND_CANCELED ? ND_IO_TIMEOUT : hr;
}

ULONGLONG NdNow(void)
{
	return GetTickCount64();
}

double NdSeconds(LARGE_INTEGER from, LARGE_INTEGER to)
{
	static LARGE_INTEGER freq;

	if (!freq.QuadPart)
		QueryPerformanceFrequency(&freq);
	return (double)(to.QuadPart - from.QuadPart) / (double)freq.QuadPart;
}

bool NdParseNumber(const char *text, ULONG *out)
{
	char *end;
	unsigned long long v = strtoull(text, &end, 0);

	if (!*text || *text == '-' || end == text || v > 0xFFFFFFFFull)
		return false;
	if (*end == 'k' || *end == 'K')
		v <<= 10, end++;
	else if (*end == 'm' || *end == 'M')
		v <<= 20, end++;
	if (*end || v > 0xFFFFFFFFull)
		return false;
	*out = (ULONG)v;
	return true;
}

/* ndwait: how the samples wait for their overlapped ND2 requests, polling
 * or (-b) on an I/O completion port, and the small parts of their command
 * lines they share.  Every OVERLAPPED a sample hands to an ND2 object is the
 * first member of an NdRequest, so a packet taken off the port for any of
 * them marks the right one as dequeued. */
#ifndef NDSAMPLES_NDWAIT_H
#define NDSAMPLES_NDWAIT_H

#include "ndutil.h"

/* An OVERLAPPED the port loop can mark as dequeued. */
struct NdRequest {
	OVERLAPPED ov;
	bool dequeued;
};

/* port: NULL to poll; else the completion port the adapter's overlapped
 * file is associated with. */
struct NdWaiter {
	HANDLE port;
};

/* Before each request: nothing left of the last one. */
void NdIssue(NdRequest *r);

/* Takes one packet off the port and marks its request; false after
 * timeoutMs without one. */
bool NdPumpPort(const NdWaiter *w, DWORD timeoutMs);

/* A request issued earlier has completed (with a port: its packet taken). */
bool NdDone(const NdWaiter *w, const NdRequest *r);

/* The final status of a request that `issued` started on obj.  One still
 * pending after timeoutMs is canceled and waited for again (the provider
 * completes it ND_CANCELED), so that nothing writes to r once the caller
 * lets it go: then ND_IO_TIMEOUT.  A request that does not even come back
 * from its cancellation stops the program (exit status 1): its OVERLAPPED
 * would be written after the frame holding it is gone. */
HRESULT NdWait(const NdWaiter *w, IND2Overlapped *obj, NdRequest *r, HRESULT issued, DWORD timeoutMs);

ULONGLONG NdNow(void);
double NdSeconds(LARGE_INTEGER from, LARGE_INTEGER to);

/* "123", "0x7b", "64k", "8m": into out; false for anything else or more
 * than 32 bits. */
bool NdParseNumber(const char *text, ULONG *out);

#endif

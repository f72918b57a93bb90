/* ndmesh over NetworkDirect v2 (see ndmesh_nd.h), written against the
 * ND2 SDK's C interface (lpVtbl) and ndsupport.h.
 *
 * One adapter, one CQ, one registered buffer of two 64-byte slots per
 * peer (receive, send) and one QP per peer.  A rank's Connect may reach
 * a peer that is not listening yet (another host starting later) or that
 * is still busy connecting elsewhere: it is retried with a new connector
 * and QP for up to a minute. */
#include <winsock2.h>
#include <ws2tcpip.h>
#include <windows.h>
#include <stdio.h>
#include <string.h>

#include "ndspi.h"
#include "ndstatus.h"
#include "ndsupport.h"
#include "ndmesh/nd.h"

#define SLOT 64
#define MAX_PEERS 128
#define WAIT_MS 60000

struct msg {
	UINT32 rank;
	UINT32 magic;
	UINT64 sum;
};

#define MSG_MAGIC 0x6d657368u

struct nd {
	IND2Adapter *ad;
	HANDLE file;
	IND2CompletionQueue *cq;
	IND2MemoryRegion *mr;
	IND2Listener *listener;
	char *buf;
	UINT32 token;
	IND2QueuePair *qp[MAX_PEERS];
	IND2Connector *conn[MAX_PEERS];
};

static unsigned int me;

static int fail(const char *what, HRESULT hr)
{
	fprintf(stderr, "rank %u: nd: %s: %#lx\n", me, what, (unsigned long)hr);
	return 1;
}

/* st, or the request's end: polled, so that nothing waits for ever. */
static HRESULT finish(void *obj, HRESULT st, OVERLAPPED *ov, DWORD ms)
{
	IND2Overlapped *o = obj;
	DWORD start = GetTickCount();

	if (st != ND_PENDING)
		return st;
	while ((st = o->lpVtbl->GetOverlappedResult(o, ov, FALSE)) == ND_PENDING) {
		if (GetTickCount() - start > ms) {
			o->lpVtbl->CancelOverlappedRequests(o);
			o->lpVtbl->GetOverlappedResult(o, ov, TRUE);
			return ND_IO_TIMEOUT;
		}
		Sleep(1);
	}
	return st;
}

static struct sockaddr_in addr(const char *ip, USHORT port)
{
	struct sockaddr_in a;

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons(port);
	inet_pton(AF_INET, ip, &a.sin_addr);
	return a;
}

static char *recv_slot(struct nd *nd, unsigned int peer)
{
	return nd->buf + 2 * SLOT * peer;
}

static char *send_slot(struct nd *nd, unsigned int peer)
{
	return nd->buf + 2 * SLOT * peer + SLOT;
}

static HRESULT new_qp(struct nd *nd, unsigned int peer)
{
	ND2_SGE sge = { recv_slot(nd, peer), SLOT, nd->token };
	HRESULT hr;

	hr = nd->ad->lpVtbl->CreateQueuePair(nd->ad, &IID_IND2QueuePair, (IUnknown *)nd->cq, (IUnknown *)nd->cq,
					     (void *)(ULONG_PTR)peer, 4, 4, 1, 1, 0, (void **)&nd->qp[peer]);
	if (hr != ND_SUCCESS)
		return hr;
	/* The peer's message may come as soon as the connection is up. */
	return nd->qp[peer]->lpVtbl->Receive(nd->qp[peer], (void *)(ULONG_PTR)peer, &sge, 1);
}

static void drop_peer(struct nd *nd, unsigned int peer)
{
	if (nd->conn[peer])
		nd->conn[peer]->lpVtbl->Release(nd->conn[peer]);
	if (nd->qp[peer])
		nd->qp[peer]->lpVtbl->Release(nd->qp[peer]);
	nd->conn[peer] = NULL;
	nd->qp[peer] = NULL;
}

static int connect_to(struct nd *nd, unsigned int peer, const char *ip, USHORT port)
{
	struct sockaddr_in dst = addr(ip, (USHORT)(port + peer));
	DWORD start = GetTickCount();
	UINT32 who = me;
	HRESULT hr;

	for (;;) {
		OVERLAPPED ov;

		memset(&ov, 0, sizeof(ov));
		if ((hr = nd->ad->lpVtbl->CreateConnector(nd->ad, &IID_IND2Connector, nd->file,
							  (void **)&nd->conn[peer])) != ND_SUCCESS ||
		    (hr = new_qp(nd, peer)) != ND_SUCCESS)
			return fail("connector and QP", hr);
		hr = nd->conn[peer]->lpVtbl->Connect(nd->conn[peer], (IUnknown *)nd->qp[peer], (struct sockaddr *)&dst,
						     sizeof(dst), 0, 0, &who, sizeof(who), &ov);
		hr = finish(nd->conn[peer], hr, &ov, WAIT_MS);
		if (hr == ND_SUCCESS) {
			memset(&ov, 0, sizeof(ov));
			hr = finish(nd->conn[peer], nd->conn[peer]->lpVtbl->CompleteConnect(nd->conn[peer], &ov), &ov,
				    WAIT_MS);
			if (hr != ND_SUCCESS)
				return fail("CompleteConnect", hr);
			return 0;
		}
		drop_peer(nd, peer);
		if (GetTickCount() - start > WAIT_MS) {
			fprintf(stderr, "rank %u: nd: rank %u at %s:%u never accepted\n", me, peer, ip, port + peer);
			return fail("Connect", hr);
		}
		Sleep(200);
	}
}

static int accept_one(struct nd *nd, unsigned int total)
{
	IND2Connector *c = NULL;
	OVERLAPPED ov;
	UINT32 who = ~0u;
	ULONG len = sizeof(who);
	HRESULT hr;

	memset(&ov, 0, sizeof(ov));
	if ((hr = nd->ad->lpVtbl->CreateConnector(nd->ad, &IID_IND2Connector, nd->file, (void **)&c)) != ND_SUCCESS)
		return fail("CreateConnector", hr);
	hr = finish(nd->listener, nd->listener->lpVtbl->GetConnectionRequest(nd->listener, (IUnknown *)c, &ov), &ov,
		    2 * WAIT_MS);
	if (hr != ND_SUCCESS)
		return fail("GetConnectionRequest", hr);
	hr = c->lpVtbl->GetPrivateData(c, &who, &len);
	if ((hr != ND_SUCCESS && hr != ND_BUFFER_OVERFLOW) || who <= me || who >= total || nd->conn[who]) {
		fprintf(stderr, "rank %u: nd: a request from rank %u\n", me, who);
		c->lpVtbl->Reject(c, NULL, 0);
		c->lpVtbl->Release(c);
		return 1;
	}
	nd->conn[who] = c;
	if ((hr = new_qp(nd, who)) != ND_SUCCESS)
		return fail("QP", hr);
	memset(&ov, 0, sizeof(ov));
	hr = finish(c, c->lpVtbl->Accept(c, (IUnknown *)nd->qp[who], 0, 0, NULL, 0, &ov), &ov, WAIT_MS);
	if (hr != ND_SUCCESS)
		return fail("Accept", hr);
	return 0;
}

/* n results from the CQ, each a success; the received messages checked. */
static int exchange(struct nd *nd, unsigned int total, ULONGLONG (*sum_of)(unsigned int))
{
	unsigned int want = 2 * (total - 1), got = 0;
	DWORD start = GetTickCount();
	HRESULT hr;

	for (unsigned int p = 0; p < total; p++) {
		struct msg *m = (struct msg *)send_slot(nd, p);
		ND2_SGE sge = { m, sizeof(*m), nd->token };

		if (p == me)
			continue;
		m->rank = me;
		m->magic = MSG_MAGIC;
		m->sum = sum_of(me);
		if ((hr = nd->qp[p]->lpVtbl->Send(nd->qp[p], (void *)(ULONG_PTR)(0x10000 + p), &sge, 1, 0)) !=
		    ND_SUCCESS)
			return fail("Send", hr);
	}
	while (got < want) {
		ND2_RESULT r;

		if (nd->cq->lpVtbl->GetResults(nd->cq, &r, 1) != 1) {
			if (GetTickCount() - start > WAIT_MS) {
				fprintf(stderr, "rank %u: nd: %u of %u completions\n", me, got, want);
				return 1;
			}
			Sleep(0);
			continue;
		}
		got++;
		if (r.Status != ND_SUCCESS)
			return fail(r.RequestType == Nd2RequestTypeReceive ? "a Receive" : "a Send", r.Status);
		if (r.RequestType == Nd2RequestTypeReceive) {
			unsigned int p = (unsigned int)(ULONG_PTR)r.QueuePairContext;
			struct msg *m = (struct msg *)recv_slot(nd, p);

			if (r.BytesTransferred != sizeof(*m) || m->magic != MSG_MAGIC || m->rank != p ||
			    m->sum != sum_of(p)) {
				fprintf(stderr, "rank %u: nd: rank %u sent rank %u, sum %016llx (want %016llx)\n", me,
					p, m->rank, (unsigned long long)m->sum, (unsigned long long)sum_of(p));
				return 1;
			}
		}
	}
	return 0;
}

int nd_mesh(unsigned int g, unsigned int total, const char *(*ip_of)(unsigned int rank), USHORT port,
	    ULONGLONG (*sum_of)(unsigned int rank))
{
	struct nd nd;
	struct sockaddr_in here = addr(ip_of(g), (USHORT)(port + g));
	size_t bytes = 2 * SLOT * (size_t)total;
	OVERLAPPED ov;
	HRESULT hr;
	int rc = 0;

	me = g;
	if (total > MAX_PEERS) {
		fprintf(stderr, "rank %u: nd: at most %d ranks\n", me, MAX_PEERS);
		return 1;
	}
	memset(&nd, 0, sizeof(nd));
	if ((hr = NdStartup()) != ND_SUCCESS)
		return fail("NdStartup", hr);
	if ((hr = NdOpenAdapter(&IID_IND2Adapter, (struct sockaddr *)&here, sizeof(here), (void **)&nd.ad)) !=
	    ND_SUCCESS) {
		fprintf(stderr, "rank %u: nd: no ND2 adapter for %s\n", me, ip_of(g));
		return fail("NdOpenAdapter", hr);
	}
	if ((hr = nd.ad->lpVtbl->CreateOverlappedFile(nd.ad, &nd.file)) != ND_SUCCESS ||
	    (hr = nd.ad->lpVtbl->CreateCompletionQueue(nd.ad, &IID_IND2CompletionQueue, nd.file, 4 * total, 0, 0,
						       (void **)&nd.cq)) != ND_SUCCESS ||
	    (hr = nd.ad->lpVtbl->CreateMemoryRegion(nd.ad, &IID_IND2MemoryRegion, nd.file, (void **)&nd.mr)) !=
		    ND_SUCCESS)
		return fail("CQ and memory region", hr);
	nd.buf = VirtualAlloc(NULL, bytes, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
	memset(&ov, 0, sizeof(ov));
	hr = finish(nd.mr, nd.mr->lpVtbl->Register(nd.mr, nd.buf, bytes, ND_MR_FLAG_ALLOW_LOCAL_WRITE, &ov), &ov,
		    WAIT_MS);
	if (hr != ND_SUCCESS)
		return fail("Register", hr);
	nd.token = nd.mr->lpVtbl->GetLocalToken(nd.mr);
	if ((hr = nd.ad->lpVtbl->CreateListener(nd.ad, &IID_IND2Listener, nd.file, (void **)&nd.listener)) !=
		    ND_SUCCESS ||
	    (hr = nd.listener->lpVtbl->Bind(nd.listener, (struct sockaddr *)&here, sizeof(here))) != ND_SUCCESS ||
	    (hr = nd.listener->lpVtbl->Listen(nd.listener, total)) != ND_SUCCESS)
		return fail("listener", hr);

	/* Lower ranks are connected to, higher ones accepted. */
	for (unsigned int p = 0; p < g && !rc; p++)
		rc = connect_to(&nd, p, ip_of(p), port);
	for (unsigned int i = g + 1; i < total && !rc; i++)
		rc = accept_one(&nd, total);
	if (!rc)
		rc = exchange(&nd, total, sum_of);

	for (unsigned int p = 0; p < total; p++) {
		if (nd.conn[p] && !rc) {
			memset(&ov, 0, sizeof(ov));
			finish(nd.conn[p], nd.conn[p]->lpVtbl->Disconnect(nd.conn[p], &ov), &ov, WAIT_MS);
		}
		drop_peer(&nd, p);
	}
	nd.listener->lpVtbl->Release(nd.listener);
	memset(&ov, 0, sizeof(ov));
	finish(nd.mr, nd.mr->lpVtbl->Deregister(nd.mr, &ov), &ov, WAIT_MS);
	nd.mr->lpVtbl->Release(nd.mr);
	nd.cq->lpVtbl->Release(nd.cq);
	CloseHandle(nd.file);
	nd.ad->lpVtbl->Release(nd.ad);
	NdCleanup();
	return rc;
}

/* Every documented ND2 return code a client can cause by misuse: invalid
 * parameters (ND_INVALID_PARAMETER_N numbered by argument), calls in the
 * wrong state, limits of the adapter and of the queue pair, and the
 * cancellation rules of IND2Overlapped.  Run under ndrun in the Soft-RoCE
 * rig by tests/vm/suites/nd2status.sh:
 *
 *   nd2status_rig ADDR               everything below but unreachable()
 *   nd2status_rig ADDR unreachable   a Connect to an absent host (two guests)
 *
 * One process plays both sides of every connection (a listener and two
 * connectors on the same rxe device): the codes do not depend on where the
 * peer is, and one process keeps each check's order exact.
 * docs/nd2-status.md lists each code with the check that covers it; the
 * check names printed here are the ones it quotes.
 * The scenarios: nd2status_objects.c (provider, adapter, CQ, SRQ, memory
 * region), nd2status_qp.c (queue pairs, unconnected and connected),
 * nd2status_cm.c (connectors and listeners without a peer), and
 * nd2status_regs.c (not a code: the registers a caller keeps across Send,
 * Receive and GetResults, which call System V code directly).
 * Prints "ok: ..." / "FAIL: ..." per check; exits 1 if any failed. */
#include <winsock2.h>
#include <ws2tcpip.h>
#include <ws2spi.h>
#include <windows.h>
#include <initguid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nd2status.h"
#include "ndcatalog.h"

const char *ip;
IND2Provider *prov;
IND2Adapter *ad;
ND2_ADAPTER_INFO info;
UINT64 adapter_id;
HANDLE file, port;
IND2CompletionQueue *cq;
IND2MemoryRegion *mr;
char *buf;
UINT32 lkey;

HRESULT wait(HRESULT st, OVERLAPPED *ov)
{
	return wait_ov(port, st, ov, 60000);
}

/* ---- set-up ---------------------------------------------------------------------- */
static void open_adapter(void)
{
	struct sockaddr_in a = addr_of(ip, 0);
	OVERLAPPED ov = { 0 };
	ULONG cb = sizeof(info);

	if (prov->lpVtbl->ResolveAddress(prov, SA(a), sizeof(a), &adapter_id) != ND_SUCCESS ||
	    prov->lpVtbl->OpenAdapter(prov, &IID_IND2Adapter, adapter_id, (void **)&ad) != ND_SUCCESS)
		die("ResolveAddress and OpenAdapter");
	info.InfoVersion = ND_VERSION_2;
	if (ad->lpVtbl->Query(ad, &info, &cb) != ND_SUCCESS || ad->lpVtbl->CreateOverlappedFile(ad, &file) != ND_SUCCESS)
		die("Query and CreateOverlappedFile");
	port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 0);
	CreateIoCompletionPort(file, port, KEY, 0);
	if (ad->lpVtbl->CreateCompletionQueue(ad, &IID_IND2CompletionQueue, file, 256, 0, 0, (void **)&cq) ||
	    ad->lpVtbl->CreateMemoryRegion(ad, &IID_IND2MemoryRegion, file, (void **)&mr))
		die("a CQ and a memory region");
	buf = VirtualAlloc(NULL, BUF, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
	if (wait(mr->lpVtbl->Register(mr, buf, BUF, ND_MR_FLAG_ALLOW_LOCAL_WRITE | ND_MR_FLAG_ALLOW_REMOTE_READ |
				      ND_MR_FLAG_ALLOW_REMOTE_WRITE, &ov), &ov) != ND_SUCCESS)
		die("Register the data buffer");
	lkey = mr->lpVtbl->GetLocalToken(mr);
	printf("    adapter: MaxTransferLength %lu, MaxInlineDataSize %lu, MaxInitiatorSge %lu, MaxReceiveSge %lu,\n"
	       "    MaxReadSge %lu, MaxInitiatorQueueDepth %lu, MaxReceiveQueueDepth %lu, MaxCompletionQueueDepth %lu,\n"
	       "    MaxSharedReceiveQueueDepth %lu, MaxRegistrationSize %llu, MaxCallerData %lu, MaxCalleeData %lu\n",
	       info.MaxTransferLength, info.MaxInlineDataSize, info.MaxInitiatorSge, info.MaxReceiveSge,
	       info.MaxReadSge, info.MaxInitiatorQueueDepth, info.MaxReceiveQueueDepth,
	       info.MaxCompletionQueueDepth, info.MaxSharedReceiveQueueDepth,
	       (unsigned long long)info.MaxRegistrationSize, info.MaxCallerData, info.MaxCalleeData);
}

IND2QueuePair *make_qp(IND2CompletionQueue *q, void *ctx, ULONG rdepth, ULONG idepth, ULONG sge,
			      ULONG inl)
{
	IND2QueuePair *qp = NULL;

	if (ad->lpVtbl->CreateQueuePair(ad, &IID_IND2QueuePair, IU(q), IU(q), ctx, rdepth, idepth, sge, sge, inl,
					(void **)&qp) != ND_SUCCESS)
		die("CreateQueuePair");
	return qp;
}

IND2Connector *make_connector(void)
{
	IND2Connector *c = NULL;

	if (ad->lpVtbl->CreateConnector(ad, &IID_IND2Connector, file, (void **)&c) != ND_SUCCESS)
		die("CreateConnector");
	return c;
}

IND2Listener *make_listener(USHORT p)
{
	struct sockaddr_in a = addr_of(ip, p);
	IND2Listener *l = NULL;

	if (ad->lpVtbl->CreateListener(ad, &IID_IND2Listener, file, (void **)&l) != ND_SUCCESS ||
	    l->lpVtbl->Bind(l, SA(a), sizeof(a)) != ND_SUCCESS || l->lpVtbl->Listen(l, 8) != ND_SUCCESS)
		die("a listener");
	return l;
}

void connect_limits(struct conn *c, USHORT p, IND2QueuePair *qa, IND2QueuePair *qp, ULONG a_in, ULONG a_out,
		    ULONG p_in, ULONG p_out)
{
	struct sockaddr_in dst = addr_of(ip, p);
	OVERLAPPED g = { 0 }, k = { 0 }, a = { 0 }, cc = { 0 };

	c->l = make_listener(p);
	c->pas = make_connector();
	c->act = make_connector();
	if (c->l->lpVtbl->GetConnectionRequest(c->l, IU(c->pas), &g) != ND_PENDING)
		die("GetConnectionRequest pends");
	if (c->act->lpVtbl->Connect(c->act, IU(qa), SA(dst), sizeof(dst), a_in, a_out, NULL, 0, &k) != ND_PENDING)
		die("Connect pends");
	if (wait(ND_PENDING, &g) != ND_SUCCESS)
		die("GetConnectionRequest completes");
	if (c->pas->lpVtbl->Accept(c->pas, IU(qp), p_in, p_out, NULL, 0, &a) != ND_PENDING)
		die("Accept pends");
	if (wait(ND_PENDING, &k) != ND_SUCCESS)
		die("Connect completes");
	if (wait(c->act->lpVtbl->CompleteConnect(c->act, &cc), &cc) != ND_SUCCESS)
		die("CompleteConnect");
	if (wait(ND_PENDING, &a) != ND_SUCCESS)
		die("Accept completes");
}

void connect_pair(struct conn *c, USHORT p, IND2QueuePair *qa, IND2QueuePair *qp)
{
	connect_limits(c, p, qa, qp, 1, 1, 1, 1);
}

void close_pair(struct conn *c)
{
	OVERLAPPED d = { 0 };

	wait(c->act->lpVtbl->Disconnect(c->act, &d), &d);
	c->act->lpVtbl->Release(c->act);
	c->pas->lpVtbl->Release(c->pas);
	c->l->lpVtbl->Release(c->l);
}

int drain(IND2CompletionQueue *q, DWORD ms, ND2_RESULT *last)
{
	ND2_RESULT r;
	int n = 0;

	while (get_result(q, &r, ms)) {
		n++;
		if (last)
			*last = r;
	}
	return n;
}

int main(int argc, char **argv)
{
	WSADATA wsa;

	if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "unreachable"))) {
		fprintf(stderr, "usage: nd2status_rig ADDR [unreachable]\n");
		return 2;
	}
	ip = argv[1];
	ndcheck_name = "nd2status";
	WSAStartup(MAKEWORD(2, 2), &wsa);
	prov = nd_open_provider(0);
	open_adapter();
	if (argc == 3) {
		unreachable();
		goto out;
	}
	provider_codes();
	adapter_codes();
	cq_codes();
	srq_codes();
	mr_codes();
	qp_unconnected_codes();
	connector_unconnected_codes();
	connected_codes();
	release_codes();
	fast_call_registers();
out:
	mr->lpVtbl->Release(mr);
	cq->lpVtbl->Release(cq);
	ad->lpVtbl->Release(ad);
	prov->lpVtbl->Release(prov);
	printf("nd2status: %d failed\n", ndcheck_failures);
	return ndcheck_failures ? 1 : 0;
}

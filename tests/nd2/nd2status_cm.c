/* The nd2status rig's connection-management codes without a peer:
 * IND2Connector and IND2Listener arguments and states, cancellation of
 * Connect and GetConnectionRequest, a refused Connect, and (two guests) a
 * Connect to an address no host answers. */
#include <winsock2.h>
#include <ws2tcpip.h>
#include <windows.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nd2status.h"

/* ---- IND2Listener and IND2Connector without a peer ---------------------------------- */
void connector_unconnected_codes(void)
{
	struct sockaddr_in here = addr_of(ip, PORT), none = addr_of(ip, NOPORT), got;
	struct sockaddr bad = { .sa_family = 99 };
	char pd[256] = "private";
	IND2Listener *l, *l2 = NULL;
	IND2Connector *c = make_connector(), *c2, *c3;
	IND2QueuePair *qp = make_qp(cq, (void *)0xB1, 4, 4, 1, 0);
	OVERLAPPED ov = { 0 }, ov2 = { 0 };
	ULONG cb, in, out;
	HRESULT st;
	int ok;

	check(c->lpVtbl->Bind(c, NULL, sizeof(here)) == ND_INVALID_PARAMETER_1,
	      "Connector::Bind(NULL): ND_INVALID_PARAMETER_1");
	check(c->lpVtbl->Bind(c, &bad, sizeof(bad)) == ND_INVALID_ADDRESS,
	      "Connector::Bind(family 99): ND_INVALID_ADDRESS");
	check(c->lpVtbl->Bind(c, SA(here), 4) == ND_INVALID_ADDRESS,
	      "Connector::Bind(4 bytes of a sockaddr_in): ND_INVALID_ADDRESS");
	check(c->lpVtbl->Connect(c, NULL, SA(here), sizeof(here), 1, 1, NULL, 0, &ov) == ND_INVALID_PARAMETER_1,
	      "Connector::Connect(no queue pair): ND_INVALID_PARAMETER_1");
	check(c->lpVtbl->Connect(c, IU(cq), SA(here), sizeof(here), 1, 1, NULL, 0, &ov) == ND_INVALID_PARAMETER_1,
	      "Connector::Connect(a CQ as queue pair): ND_INVALID_PARAMETER_1");
	check(c->lpVtbl->Connect(c, IU(qp), NULL, sizeof(here), 1, 1, NULL, 0, &ov) == ND_INVALID_PARAMETER_2,
	      "Connector::Connect(NULL destination): ND_INVALID_PARAMETER_2");
	check(c->lpVtbl->Connect(c, IU(qp), &bad, sizeof(bad), 1, 1, NULL, 0, &ov) == ND_INVALID_ADDRESS,
	      "Connector::Connect(family 99): ND_INVALID_ADDRESS");
	check(c->lpVtbl->Connect(c, IU(qp), SA(here), sizeof(here), 1, 1, NULL, 4, &ov) == ND_INVALID_PARAMETER_6,
	      "Connector::Connect(NULL private data of 4 bytes): ND_INVALID_PARAMETER_6");
	check(c->lpVtbl->Connect(c, IU(qp), SA(here), sizeof(here), 1, 1, pd, info.MaxCallerData + 1, &ov) ==
		      ND_INVALID_BUFFER_SIZE,
	      "Connector::Connect(MaxCallerData + 1 bytes of private data): ND_INVALID_BUFFER_SIZE");
	check(c->lpVtbl->Connect(c, IU(qp), SA(here), sizeof(here), 1, 1, NULL, 0, NULL) == ND_INVALID_PARAMETER_8,
	      "Connector::Connect(NULL OVERLAPPED): ND_INVALID_PARAMETER_8");
	check(c->lpVtbl->CompleteConnect(c, NULL) == ND_INVALID_PARAMETER_1,
	      "Connector::CompleteConnect(NULL): ND_INVALID_PARAMETER_1");
	check(c->lpVtbl->CompleteConnect(c, &ov) == ND_CONNECTION_INVALID,
	      "Connector::CompleteConnect before Connect: ND_CONNECTION_INVALID");
	check(c->lpVtbl->Accept(c, NULL, 1, 1, NULL, 0, &ov) == ND_INVALID_PARAMETER_1,
	      "Connector::Accept(no queue pair): ND_INVALID_PARAMETER_1");
	check(c->lpVtbl->Accept(c, IU(qp), 1, 1, NULL, 4, &ov) == ND_INVALID_PARAMETER_4,
	      "Connector::Accept(NULL private data of 4 bytes): ND_INVALID_PARAMETER_4");
	check(c->lpVtbl->Accept(c, IU(qp), 1, 1, pd, info.MaxCalleeData + 1, &ov) == ND_INVALID_BUFFER_SIZE,
	      "Connector::Accept(MaxCalleeData + 1 bytes of private data): ND_INVALID_BUFFER_SIZE");
	check(c->lpVtbl->Accept(c, IU(qp), 1, 1, NULL, 0, NULL) == ND_INVALID_PARAMETER_6,
	      "Connector::Accept(NULL OVERLAPPED): ND_INVALID_PARAMETER_6");
	check(c->lpVtbl->Accept(c, IU(qp), 1, 1, NULL, 0, &ov) == ND_CONNECTION_INVALID,
	      "Connector::Accept without a connection request: ND_CONNECTION_INVALID");
	check(c->lpVtbl->Reject(c, NULL, 4) == ND_INVALID_PARAMETER_1,
	      "Connector::Reject(NULL private data of 4 bytes): ND_INVALID_PARAMETER_1");
	check(c->lpVtbl->Reject(c, pd, info.MaxCalleeData + 1) == ND_INVALID_BUFFER_SIZE,
	      "Connector::Reject(MaxCalleeData + 1 bytes): ND_INVALID_BUFFER_SIZE");
	check(c->lpVtbl->Reject(c, NULL, 0) == ND_CONNECTION_INVALID,
	      "Connector::Reject without a connection request: ND_CONNECTION_INVALID");
	check(c->lpVtbl->GetReadLimits(c, &in, &out) == ND_CONNECTION_INVALID,
	      "Connector::GetReadLimits before a connection: ND_CONNECTION_INVALID");
	cb = sizeof(pd);
	check(c->lpVtbl->GetPrivateData(c, pd, NULL) == ND_INVALID_PARAMETER_2,
	      "Connector::GetPrivateData(NULL size): ND_INVALID_PARAMETER_2");
	check(c->lpVtbl->GetPrivateData(c, pd, &cb) == ND_CONNECTION_INVALID,
	      "Connector::GetPrivateData before a connection: ND_CONNECTION_INVALID");
	cb = sizeof(got);
	check(c->lpVtbl->GetLocalAddress(c, SA(got), NULL) == ND_INVALID_PARAMETER_2,
	      "Connector::GetLocalAddress(NULL size): ND_INVALID_PARAMETER_2");
	check(c->lpVtbl->GetLocalAddress(c, SA(got), &cb) == ND_CONNECTION_INVALID,
	      "Connector::GetLocalAddress before Bind or Connect: ND_CONNECTION_INVALID");
	check(c->lpVtbl->GetPeerAddress(c, SA(got), NULL) == ND_INVALID_PARAMETER_2,
	      "Connector::GetPeerAddress(NULL size): ND_INVALID_PARAMETER_2");
	check(c->lpVtbl->GetPeerAddress(c, SA(got), &cb) == ND_CONNECTION_INVALID,
	      "Connector::GetPeerAddress before a connection: ND_CONNECTION_INVALID");
	check(c->lpVtbl->NotifyDisconnect(c, NULL) == ND_INVALID_PARAMETER_1,
	      "Connector::NotifyDisconnect(NULL): ND_INVALID_PARAMETER_1");
	check(c->lpVtbl->NotifyDisconnect(c, &ov) == ND_CONNECTION_INVALID,
	      "Connector::NotifyDisconnect on a connector never connected: ND_CONNECTION_INVALID");
	check(c->lpVtbl->Disconnect(c, NULL) == ND_INVALID_PARAMETER_1,
	      "Connector::Disconnect(NULL): ND_INVALID_PARAMETER_1");
	check(c->lpVtbl->Disconnect(c, &ov) == ND_CONNECTION_INVALID,
	      "Connector::Disconnect on a connector never connected: ND_CONNECTION_INVALID");

	/* IND2Listener */
	if (ad->lpVtbl->CreateListener(ad, &IID_IND2Listener, file, (void **)&l))
		die("CreateListener");
	check(l->lpVtbl->Bind(l, NULL, sizeof(here)) == ND_INVALID_PARAMETER_1,
	      "Listener::Bind(NULL): ND_INVALID_PARAMETER_1");
	check(l->lpVtbl->Bind(l, &bad, sizeof(bad)) == ND_INVALID_ADDRESS,
	      "Listener::Bind(family 99): ND_INVALID_ADDRESS");
	cb = sizeof(got);
	check(l->lpVtbl->GetLocalAddress(l, SA(got), &cb) == ND_INVALID_DEVICE_STATE,
	      "Listener::GetLocalAddress before Bind: ND_INVALID_DEVICE_STATE");
	check(l->lpVtbl->Bind(l, SA(here), sizeof(here)) == ND_SUCCESS, "Listener::Bind to %s:%d", ip, PORT);
	/* MS-MPI's order (its ND adapter's Listen): Bind, GetLocalAddress, Listen. */
	cb = sizeof(got);
	memset(&got, 0, sizeof(got));
	check(l->lpVtbl->GetLocalAddress(l, SA(got), &cb) == ND_SUCCESS && got.sin_port == htons(PORT) &&
		      got.sin_addr.s_addr == here.sin_addr.s_addr,
	      "Listener::GetLocalAddress bound, before Listen: ND_SUCCESS, the bound address");
	check(l->lpVtbl->Listen(l, 4) == ND_SUCCESS, "Listener::Listen");
	check(l->lpVtbl->Listen(l, 4) == ND_INVALID_DEVICE_STATE, "Listener::Listen twice: ND_INVALID_DEVICE_STATE");
	check(l->lpVtbl->GetLocalAddress(l, SA(got), NULL) == ND_INVALID_PARAMETER_2,
	      "Listener::GetLocalAddress(NULL size): ND_INVALID_PARAMETER_2");
	cb = 4;
	st = l->lpVtbl->GetLocalAddress(l, SA(got), &cb);
	check(st == ND_BUFFER_OVERFLOW && cb == sizeof(got),
	      "Listener::GetLocalAddress(4 bytes): ND_BUFFER_OVERFLOW with the size (%lu)", cb);
	if (ad->lpVtbl->CreateListener(ad, &IID_IND2Listener, file, (void **)&l2))
		die("CreateListener");
	st = l2->lpVtbl->Bind(l2, SA(here), sizeof(here));
	check(st == ND_SHARING_VIOLATION,
	      "Listener::Bind to an address and port another listener has: ND_SHARING_VIOLATION (%#lx)", st);
	l2->lpVtbl->Release(l2);
	/* Port 0, as MS-MPI binds without MSMPI_ND_PORT_RANGE: GetLocalAddress
	 * before Listen gives the port the bind chose. */
	if (ad->lpVtbl->CreateListener(ad, &IID_IND2Listener, file, (void **)&l2))
		die("CreateListener");
	none = addr_of(ip, 0);
	cb = sizeof(got);
	memset(&got, 0, sizeof(got));
	/* The calls first: a check's arguments are evaluated in no set order. */
	ok = l2->lpVtbl->Bind(l2, SA(none), sizeof(none)) == ND_SUCCESS &&
	     l2->lpVtbl->GetLocalAddress(l2, SA(got), &cb) == ND_SUCCESS && got.sin_port != 0 &&
	     got.sin_addr.s_addr == none.sin_addr.s_addr && l2->lpVtbl->Listen(l2, 0) == ND_SUCCESS;
	check(ok, "Listener: Bind to port 0, GetLocalAddress gives the chosen port (%u) before Listen",
	      ntohs(got.sin_port));
	l2->lpVtbl->Release(l2);
	none = addr_of(ip, NOPORT);
	/* MS-MPI binds each connector to its listener's address and port: the
	 * connector gets that address and a port of its own, and the port it
	 * got is then as taken as any other. */
	c2 = make_connector();
	st = c2->lpVtbl->Bind(c2, SA(here), sizeof(here));
	cb = sizeof(got);
	memset(&got, 0, sizeof(got));
	ok = st == ND_SUCCESS && c2->lpVtbl->GetLocalAddress(c2, SA(got), &cb) == ND_SUCCESS &&
	     got.sin_addr.s_addr == here.sin_addr.s_addr && got.sin_port != 0 && got.sin_port != here.sin_port;
	check(ok, "Connector::Bind to this process's listener's address and port: ND_SUCCESS (%#lx), that address, "
	      "another port (%u)", st, ntohs(got.sin_port));
	c3 = make_connector();
	st = c3->lpVtbl->Bind(c3, SA(got), sizeof(got));
	check(st == ND_SHARING_VIOLATION,
	      "Connector::Bind to the address and port another connector has: ND_SHARING_VIOLATION (%#lx)", st);
	c3->lpVtbl->Release(c3);
	c2->lpVtbl->Release(c2);
	check(l->lpVtbl->GetConnectionRequest(l, NULL, &ov) == ND_INVALID_PARAMETER_1,
	      "Listener::GetConnectionRequest(no connector): ND_INVALID_PARAMETER_1");
	check(l->lpVtbl->GetConnectionRequest(l, IU(qp), &ov) == ND_INVALID_PARAMETER_1,
	      "Listener::GetConnectionRequest(a queue pair as connector): ND_INVALID_PARAMETER_1");
	check(l->lpVtbl->GetConnectionRequest(l, IU(c), NULL) == ND_INVALID_PARAMETER_2,
	      "Listener::GetConnectionRequest(NULL OVERLAPPED): ND_INVALID_PARAMETER_2");

	/* A Connect no one takes: cancelled; the GetConnectionRequest too. */
	c2 = make_connector();
	st = c2->lpVtbl->Connect(c2, IU(qp), SA(here), sizeof(here), 1, 1, NULL, 0, &ov2);
	check(st == ND_PENDING && wait_port(port, &ov2, 2000) == 1,
	      "Connector::Connect to a listener that takes no request: pends");
	check(c2->lpVtbl->CancelOverlappedRequests(c2) == ND_SUCCESS && (HRESULT)ov2.Internal == ND_CANCELED &&
		      wait_port(port, &ov2, 0) == ND_CANCELED,
	      "Connector::CancelOverlappedRequests: the pending Connect ND_CANCELED, its packet queued before it returns");
	c2->lpVtbl->Release(c2);
	memset(&ov, 0, sizeof(ov));
	st = l->lpVtbl->GetConnectionRequest(l, IU(c), &ov);
	/* The cancelled Connect's request may still be queued: take it. */
	if (st == ND_PENDING && wait_port(port, &ov, 3000) != 1) {
		note("the cancelled Connect's request reached the listener first; it is rejected");
		c->lpVtbl->Reject(c, NULL, 0);
		c->lpVtbl->Release(c);
		c = make_connector();
		memset(&ov, 0, sizeof(ov));
		st = l->lpVtbl->GetConnectionRequest(l, IU(c), &ov);
	}
	check(st == ND_PENDING && l->lpVtbl->CancelOverlappedRequests(l) == ND_SUCCESS &&
		      (HRESULT)ov.Internal == ND_CANCELED && wait_port(port, &ov, 0) == ND_CANCELED,
	      "Listener::CancelOverlappedRequests: the pending GetConnectionRequest ND_CANCELED, packet queued before it returns");
	memset(&ov, 0, sizeof(ov));
	st = l->lpVtbl->GetConnectionRequest(l, IU(c), &ov);
	check(st == ND_PENDING && l->lpVtbl->Release(l) == 0 && wait(st, &ov) == ND_CANCELED,
	      "Listener::GetConnectionRequest: the listener released under it completes it ND_CANCELED");

	/* No listener at all on the port. */
	c2 = make_connector();
	memset(&ov, 0, sizeof(ov));
	st = c2->lpVtbl->Connect(c2, IU(qp), SA(none), sizeof(none), 1, 1, NULL, 0, &ov);
	st = wait(st, &ov);
	check(st == ND_CONNECTION_REFUSED,
	      "Connector::Connect to a port no one listens on: ND_CONNECTION_REFUSED (%#lx)", st);
	c2->lpVtbl->Release(c2);

	check(c->lpVtbl->Release(c) == 0 && qp->lpVtbl->Release(qp) == 0,
	      "Connector: release the connector and the QP: 0");
}

/* An address on the link that no host answers ARP for: address resolution
 * gives up after rdma_cm's 2 s.  Only on a real link (two guests): one
 * guest's rxe sits on a dummy netdev, which needs no ARP, so the request
 * goes out and waits out the CM's retries (over a minute). */
void unreachable(void)
{
	struct sockaddr_in ghost = addr_of(ip, NOPORT);
	unsigned char *b = (unsigned char *)&ghost.sin_addr.s_addr;
	IND2QueuePair *qp = make_qp(cq, (void *)0xB2, 4, 4, 1, 0);
	IND2Connector *c = make_connector();
	OVERLAPPED ov = { 0 };
	DWORD t0 = GetTickCount();
	HRESULT st;

	b[3] = b[3] == 77 ? 78 : 77;
	st = c->lpVtbl->Connect(c, IU(qp), SA(ghost), sizeof(ghost), 1, 1, NULL, 0, &ov);
	st = wait(st, &ov);
	check(st == ND_HOST_UNREACHABLE,
	      "Connector::Connect to %s (no such host on the link): ND_HOST_UNREACHABLE (%#lx, %lu ms)",
	      inet_ntoa(ghost.sin_addr), st, GetTickCount() - t0);
	check(c->lpVtbl->Release(c) == 0 && qp->lpVtbl->Release(qp) == 0,
	      "Connector: release the connector and the QP: 0");
}

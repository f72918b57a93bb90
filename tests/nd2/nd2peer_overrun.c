/* A Send larger than the peer's Receive, across two processes (and two
 * guests): CLIENT-BEHAVIOR.md has the receiver's Receive complete
 * ND_DATA_OVERRUN and the sender's Send ND_SUCCESS or STATUS_DATA_ERROR.
 * The receiving side disconnects as soon as it sees the overrun, as a
 * client ending a broken connection does: the sender's Send must still
 * report the peer's refusal, not ND_CANCELED. */
#include <winsock2.h>
#include <windows.h>
#include <stdio.h>
#include <string.h>

#include "nd2peer.h"

#define STATUS_DATA_ERROR ((HRESULT)0xC000003EL)

void overrun_server(struct side *s, IND2Listener *l)
{
	IND2QueuePair *qp = new_qp(s, (void *)0x0F1);
	ND2_SGE small = { s->buf + RECVS * SLOT, 8, s->token };
	IND2Connector *c;
	ND2_RESULT r;
	HRESULT st;
	int i;

	st = qp->lpVtbl->Receive(qp, (void *)0x0F10, &small, 1);
	c = get_request(s, l);
	check(st == ND_SUCCESS && accept_on(s, c, qp) == ND_SUCCESS,
	      "overrun: an 8-byte Receive posted, the connection accepted");
	r.Status = 1;
	i = get_one(s, &r, 30000);
	check(i && r.Status == ND_DATA_OVERRUN && r.RequestContext == (void *)0x0F10,
	      "overrun: the client's 100-byte Send: the 8-byte Receive completes ND_DATA_OVERRUN (%s %#lx)",
	      i ? "completed" : "never completed", r.Status);
	st = disconnect(s, c);
	check(st == ND_SUCCESS, "overrun: Disconnect right after the failed Receive (%#lx)", st);
	ctl_expect(s, "overrun-done");
	drain(s);
	check(c->lpVtbl->Release(c) == 0 && qp->lpVtbl->Release(qp) == 0, "overrun: release the connector and the QP: 0");
}

void overrun_client(struct side *s, const char *peer)
{
	IND2QueuePair *qp = new_qp(s, (void *)0x0F2);
	IND2Connector *c = new_connector(s);
	ND2_SGE big = { s->buf + RECVS * SLOT, 100, s->token };
	ND2_RESULT r;
	HRESULT st;
	int i;

	check(connect_to(s, c, qp, peer, 1) == ND_SUCCESS, "overrun: connected");
	memset(big.Buffer, 'o', 100);
	st = qp->lpVtbl->Send(qp, (void *)0x0F20, &big, 1, 0);
	r.Status = 1;
	r.RequestContext = NULL;
	i = st == ND_SUCCESS && get_one(s, &r, 60000);
	check(i && r.RequestContext == (void *)0x0F20 && r.RequestType == Nd2RequestTypeSend &&
		      (r.Status == STATUS_DATA_ERROR || r.Status == ND_SUCCESS),
	      "overrun: a 100-byte Send into the server's 8-byte Receive completes STATUS_DATA_ERROR or ND_SUCCESS, "
	      "not ND_CANCELED (%#lx, then %s %#lx)", st, i ? "completed" : "never completed", r.Status);
	st = disconnect(s, c);
	check(st == ND_SUCCESS, "overrun: Disconnect after the server's (%#lx)", st);
	ctl_send(s, "overrun-done", 0, 0);
	drain(s);
	check(c->lpVtbl->Release(c) == 0 && qp->lpVtbl->Release(qp) == 0, "overrun: release the connector and the QP: 0");
}

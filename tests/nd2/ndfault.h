/* The fault rig's traffic flow (ndfault_flow.c), on top of nd2peer.h. */
#ifndef NDSHIM_TESTS_NDFAULT_H
#define NDSHIM_TESTS_NDFAULT_H

#include "nd2peer.h"

#define FLOW_MEM 65536
#define FLOW_CHUNK 1024
#define FLOW_RECVS RECVS
/* Sends in flight at most: the peer reposts its RECVS Receives as they
 * complete, and more Sends than that would run into RNR retries. */
#define FLOW_SENDS 3
#define FLOW_RECV_TAG 0x7e000000

enum { FLOW_SEND = 1, FLOW_WRITE = 2, FLOW_READ = 4, FLOW_ALL = 7 };

struct flow {
	struct side *s;
	IND2QueuePair *qp;
	IND2Connector *c;
	IND2CompletionQueue *rcq;	/* the Receives', when not the side's CQ */
	void *ctx;
	char *mem;		/* FLOW_MEM bytes: sources, Read sinks, the peer's target */
	IND2MemoryRegion *mr;
	UINT32 tok, rtok;
	UINT64 raddr;
	ULONG depth, seq, sq_out, rq_out, in_send, wakes;
	int kinds, reposting;
	ULONG ok[6], err[6], err_sq, ok_after_err;
	HRESULT first_err[6];
	DWORD first_err_tick;
	OVERLAPPED nov, dov;	/* the CQ's Notify, NotifyDisconnect */
	int armed, disc;
	HRESULT notify_err, notify_status, disc_status;
	DWORD disc_tick;
	OVERLAPPED *extra;	/* one more request whose packet reap watches for */
	int extra_done;
	DWORD extra_tick;
	HRESULT refused;	/* a post flow_fail_after refused */
	ULONG posted_after;	/* requests it posted */
	ULONG out_at_fail;	/* requests outstanding when the first failed */
	DWORD sq_err_tick;	/* and when */
};

const char *flow_type(int t);
void flow_init(struct flow *f, struct side *s, void *ctx, ULONG depth);
/* The same with the Receives completing on rcq. */
void flow_init_rcq(struct flow *f, struct side *s, void *ctx, ULONG depth, IND2CompletionQueue *rcq);
void flow_trade(struct flow *f, int first);
HRESULT flow_recv(struct flow *f, int slot);
HRESULT flow_pump(struct flow *f);
int flow_reap(struct flow *f, DWORD ms);
void flow_watch(struct flow *f, IND2Connector *c);
/* After a fault's first sign: keep posting until a request fails. */
int flow_fail_after(struct flow *f, DWORD end);
int flow_settle(struct flow *f, DWORD end, int want_disc);
void flow_late(struct flow *f);
void flow_report(struct flow *f, const char *what);
int flow_release(struct flow *f);

#endif

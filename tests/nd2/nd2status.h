/* The nd2status rig's shared parts (nd2status_rig.c): the adapter and the
 * objects every scenario uses, and the helpers that make connections in
 * this one process; the scenarios live in nd2status_objects.c,
 * nd2status_qp.c and nd2status_cm.c. */
#ifndef NDSHIM_TESTS_ND2STATUS_H
#define NDSHIM_TESTS_ND2STATUS_H

#include <winsock2.h>
#include <windows.h>

#include "ndspi.h"
#include "ndcheck.h"

#define PORT 54600		/* PORT + n: one port per connection */
#define NOPORT 54699
#define KEY 0x79
#define BUF 65536
#define BAD_FLAG 0x00800000	/* no ND_OP_FLAG / ND_MR_FLAG has this bit */

#define SA(x) ((struct sockaddr *)&(x))
#define IU(x) ((IUnknown *)(x))

/* Set up by main before any scenario runs. */
extern const char *ip;
extern IND2Provider *prov;
extern IND2Adapter *ad;
extern ND2_ADAPTER_INFO info;
extern UINT64 adapter_id;
extern HANDLE file, port;
extern IND2CompletionQueue *cq;	/* depth 256 */
extern IND2MemoryRegion *mr;		/* buf, BUF bytes, local write and remote access */
extern char *buf;
extern UINT32 lkey;

/* Both ends of one connection, in this process. */
struct conn {
	IND2Listener *l;
	IND2Connector *act, *pas;	/* Connect's side, Accept's side */
};

/* st, or the final status of a pending request (60 s at most). */
HRESULT wait(HRESULT st, OVERLAPPED *ov);
IND2QueuePair *make_qp(IND2CompletionQueue *q, void *ctx, ULONG rdepth, ULONG idepth, ULONG sge, ULONG inl);
IND2Connector *make_connector(void);
IND2Listener *make_listener(USHORT p);
/* A listener on ip:p, qa connected to qp through it with the given read
 * limits (Connect's side asks a_in/a_out, Accept's side p_in/p_out). */
void connect_limits(struct conn *c, USHORT p, IND2QueuePair *qa, IND2QueuePair *qp, ULONG a_in, ULONG a_out,
		    ULONG p_in, ULONG p_out);
/* The same with every read limit 1. */
void connect_pair(struct conn *c, USHORT p, IND2QueuePair *qa, IND2QueuePair *qp);
/* Disconnect, then release both connectors and the listener. */
void close_pair(struct conn *c);
/* Every result of q within ms: how many, the last in *last. */
int drain(IND2CompletionQueue *q, DWORD ms, ND2_RESULT *last);

/* nd2status_objects.c */
void provider_codes(void);
void adapter_codes(void);
void cq_codes(void);
void srq_codes(void);
void mr_codes(void);
/* nd2status_qp.c */
void qp_unconnected_codes(void);
void connected_codes(void);
/* nd2status_regs.c */
void fast_call_registers(void);
/* nd2status_cm.c */
void connector_unconnected_codes(void);
void unreachable(void);
/* nd2status_release.c */
void release_codes(void);

#endif

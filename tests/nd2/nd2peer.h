/* The nd2peer rig's shared parts (nd2peer_rig.c): the side's objects,
 * the control connection, waiting, and connection helpers; the scenarios
 * live in nd2peer_rig.c and nd2peer_rdma.c. */
#ifndef NDSHIM_TESTS_ND2PEER_H
#define NDSHIM_TESTS_ND2PEER_H

#include <winsock2.h>
#include <windows.h>

#include "ndspi.h"
#include "ndcatalog.h"
#include "ndcheck.h"
#include "ndctl.h"

#define PORT 54700
#define CTL_PORT 54799
#define KEY 0x78
#define RECVS 8
#define SLOT 4096
#define WIN 4096
#define STATUS_BAD_NETWORK_NAME ((HRESULT)0xC00000CCL)
#define STATUS_CONNECTION_DISCONNECTED ((HRESULT)0xC000020CL)

struct side {
	IND2Adapter *ad;
	ND2_ADAPTER_INFO info;
	HANDLE file, port;
	IND2CompletionQueue *cq;
	IND2MemoryRegion *mr;
	char *buf;
	UINT32 token;
	SOCKET ctl;
};

/* The control connection: fixed 32-byte records. */
struct ctl_msg {
	char word[16];
	UINT64 addr;
	UINT32 token;
	UINT32 pad;
};

/* The names nd2peer's programs (and ndfault's, ndsoak's) give ndcheck's
 * line prefix and failure count. */
#define role ndcheck_name
#define failures ndcheck_failures

void ctl_open(struct side *s, const char *ip, const char *peer, int serve);
void ctl_send(struct side *s, const char *word, UINT64 addr, UINT32 token);
/* The next record, which must be word; 0 at end of stream. */
int ctl_recv(struct side *s, const char *word, struct ctl_msg *m);
void ctl_expect(struct side *s, const char *word);
/* The peer process has ended (its socket closed with it). */
int ctl_eof(struct side *s, DWORD ms);
/* ndcheck's waits on the side's port: these programs pass the side (a
 * HANDLE would not compile here, rather than be taken for one). */
#define wait_port(s, ov, ms) (wait_port)((s)->port, (ov), (ms))
#define wait_ov(s, st, ov, ms) (wait_ov)((s)->port, (st), (ov), (ms))
static inline int get_one(struct side *s, ND2_RESULT *r, DWORD ms)
{
	return get_result(s->cq, r, ms);
}
void open_side(struct side *s, const char *ip);
IND2QueuePair *new_qp(struct side *s, void *ctx);
IND2Connector *new_connector(struct side *s);
HRESULT post_recv(struct side *s, IND2QueuePair *qp, int slot);
/* The listener's next request handed to a new connector. */
IND2Connector *get_request(struct side *s, IND2Listener *l);
HRESULT accept_on(struct side *s, IND2Connector *c, IND2QueuePair *qp);
/* Connect, then CompleteConnect unless told not to. */
HRESULT connect_to(struct side *s, IND2Connector *c, IND2QueuePair *qp, const char *peer, int complete);
HRESULT disconnect(struct side *s, IND2Connector *c);
/* Results of qp_ctx until n arrived or ms passed; how many had status st. */
int count_results(struct side *s, void *qp_ctx, int n, HRESULT st, DWORD ms, int *got);
void drain(struct side *s);

/* nd2peer_rdma.c */
void rdma_server(struct side *s, IND2Listener *l);
void rdma_client(struct side *s, const char *peer);
void pingpong_server(struct side *s, IND2Listener *l, ULONG pings);
void pingpong_client(struct side *s, const char *peer, ULONG pings);
/* nd2peer_overrun.c */
void overrun_server(struct side *s, IND2Listener *l);
void overrun_client(struct side *s, const char *peer);

#endif

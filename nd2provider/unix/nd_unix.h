/* nd2prov_unix.so private header: the objects behind the unix-call handles. */
#ifndef NDSHIM_ND_UNIX_H
#define NDSHIM_ND_UNIX_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "nd2provider/unix_call.h"
#include "nd_codes.h"

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define container_of(p, type, member) ((type *)((char *)(p) - offsetof(type, member)))

void nd_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- status.c: every translation to ND status -------------------------- */
int32_t nd_status_from_errno(int err);
int32_t nd_status_from_wc(enum ibv_wc_status st, uint32_t request_type);
int32_t nd_status_from_cm_event(const struct rdma_cm_event *ev);

/* ---- objects ----------------------------------------------------------- */
enum nd_kind {
	ND_KIND_ADAPTER = 0x4e444101,
	ND_KIND_CQ,
	ND_KIND_SRQ,
	ND_KIND_MR,
	ND_KIND_MW,
	ND_KIND_QP,
	ND_KIND_CONNECTOR,
	ND_KIND_LISTENER,
};

struct nd_obj {
	uint32_t kind;
};

/* A handle is the object's address; the kind word catches a wrong handle. */
static inline void *nd_obj_get(uint64_t h, uint32_t kind)
{
	struct nd_obj *o = (struct nd_obj *)(uintptr_t)h;
	if (unlikely(!o || o->kind != kind))
		return NULL;
	return o;
}
static inline uint64_t nd_handle(struct nd_obj *o) { return (uint64_t)(uintptr_t)o; }

/* The bytes a posted request's SGEs add up to (nsge already checked). */
static inline uint64_t nd_sge_sum(const struct nd_unix_sge *sge, uint32_t nsge)
{
	uint64_t total = 0;
	uint32_t i;

	/* Most requests carry one SGE: one load, not the loop's set-up. */
	if (likely(nsge == 1))
		return sge[0].length;
	for (i = 0; i < nsge; i++)
		total += sge[i].length;
	return total;
}

static inline uint64_t nd_sge_bytes(const struct nd_unix_post_params *p)
{
	return nd_sge_sum((const struct nd_unix_sge *)(uintptr_t)p->sge, p->nsge);
}

/* ---- pending overlapped requests (pending.c) --------------------------- */
struct nd_pending {
	struct nd_pending *next;
	struct nd_unix_ov ov;
	uint32_t tag;		/* what the request waits for (per object) */
	void *arg;
};
struct nd_pending_list {
	struct nd_pending *head;
	struct nd_pending **tail;
};
void nd_pending_init(struct nd_pending_list *l);
/* Queue a request; ND_PENDING, or ND_NO_MEMORY (nothing queued). */
int32_t nd_pending_add(struct nd_pending_list *l, const struct nd_unix_ov *ov, uint32_t tag, void *arg);
/* Remove and return the oldest request with this tag (any tag: ~0u). */
struct nd_pending *nd_pending_take(struct nd_pending_list *l, uint32_t tag);
/* Complete (and free) every request with this tag (~0u: all), oldest first. */
void nd_pending_complete(struct nd_pending_list *l, uint32_t tag, int32_t status);
void nd_complete(const struct nd_unix_ov *ov, int32_t status, uint64_t bytes);
#define ND_TAG_ANY 0xffffffffu

/* ---- event_thread.c ----------------------------------------------------- */
/* An fd the event thread watches; handler runs with nd_ev_lock held. */
struct nd_ev_source {
	int fd;
	bool dead;
	void (*handler)(struct nd_ev_source *src);
};
extern pthread_mutex_t nd_ev_lock;
int nd_ev_start(void);
int nd_ev_add(struct nd_ev_source *src);
/* Stops watching; the caller holds nd_ev_lock.  The source's memory must
 * stay valid until nd_ev_defer_free runs it. */
void nd_ev_remove(struct nd_ev_source *src);
/* free(p) on the event thread once its current batch of events is done. */
void nd_ev_defer_free(void *p);
/* nd_ev_lock held: watches src again, now with EPOLLEXCLUSIVE and behind
 * every exclusive watcher registered before (ndrun's port epoll), so the
 * kernel wakes the event thread for src only when none of those has a
 * thread asleep.  -1 if it still watches src the old way. */
int nd_ev_watch_behind(struct nd_ev_source *src);
/* The process-wide rdma_cm event channel (created on first use). */
struct rdma_event_channel *nd_cm_channel(void);

/* ---- adapter (device.c) -------------------------------------------------- */
struct nd_adapter {
	struct nd_obj obj;
	struct ibv_context *ctx;	/* librdmacm's context for the device */
	struct ibv_pd *pd;
	struct ibv_device_attr attr;
	struct ibv_port_attr port;
	uint64_t adapter_id;
	uint32_t max_inline;
	uint32_t max_sge;
	bool in_order;
	bool cq_resize;
	unsigned wc_with_inv;		/* the wc_flags bit for a remote invalidation */
	pthread_mutex_t lock;		/* children lists; windows' binding */
	struct nd_cq *cqs;		/* for async CQ events */
	struct nd_srq *srqs;
	struct nd_mw *mws;		/* for remote invalidations */
	uint32_t children;
	struct nd_adapter *next;	/* every open adapter (nd_ev_lock) */
};
#define ND_MAX_CALLER_DATA 56	/* IB CM REQ private data minus rdma_cm's header */
#define ND_MAX_CALLEE_DATA 148	/* min(REP 196, REJ 148) */
#define ND_PRIVATE_DATA_MAX 196
void nd_adapter_hold(struct nd_adapter *a);
/* The device is gone (nd_ev_lock held) / was it. */
void nd_device_removed(struct ibv_context *ctx);
bool nd_adapter_removed(const struct nd_adapter *a);
void nd_adapter_release(struct nd_adapter *a);
/* Windows <-> Linux socket addresses. */
int nd_addr_to_linux(const struct nd_unix_addr *in, struct sockaddr_storage *out);
void nd_addr_from_linux(const struct sockaddr *sa, struct nd_unix_addr *out);
bool nd_addr_connectable(const struct sockaddr_storage *ss);

/* ---- queues ------------------------------------------------------------- */
struct nd_qp;
struct nd_soft_wc;
struct nd_batch;

/* One posted work request: wr_id points here.  Written by the poster,
 * read by the poller; busy/seq order the hand-over. */
/* A Receive's buffers bound no message the device carries: the sender's
 * MaxTransferLength does.  Clients post Receives as large as their whole
 * registered buffer for small messages (the SDK's ndmw: 64 MiB, over rxe's
 * 8 MiB port limit), which Windows hardware takes (CLIENT-BEHAVIOR.md), so
 * a Receive may reach the largest message InfiniBand has, 2^31 bytes (the
 * device's work request keeps its length in 32 bits). */
#define ND_MAX_RECEIVE_BYTES (1ull << 31)

struct nd_slot {
	uint64_t context;
	struct nd_qp *qp;	/* NULL on an SRQ: found from wc.qp_num */
	uint32_t type;		/* ND2_REQUEST_TYPE */
	uint16_t busy;		/* receive slots: set by poster, cleared by poller */
	uint16_t silent;	/* a silent success signaled only to retire the ring */
	union {
		uint64_t seq;		/* send slots: post sequence number */
		struct nd_slot *next;	/* SRQ slots: free lists */
	};
	struct nd_srq *srq;	/* SRQ slots: their queue */
};

/* A Send with ND_OP_FLAG_SEND_AND_SOLICIT_EVENT carries this immediate
 * value: a work completion does not say whether its message was
 * solicited, and Notify(SOLICITED) has to tell when it peeks. */
#define ND_IMM_SOLICITED 0x4E44534Fu	/* "NDSO" */
#define ND_CQ_STASH 32

struct nd_cq {
	struct nd_obj obj;
	struct nd_adapter *adapter;
	struct ibv_cq *cq;
	struct ibv_comp_channel *channel;
	struct nd_ev_source src;
	pthread_mutex_t lock;	/* notify state, stash, lists (slow path only) */
	struct nd_pending_list notifies;
	int armed;		/* 0, or 1 + solicited_only */
	bool rearmed;		/* armed again before its event was read (lock) */
	int32_t error;		/* the CQ error every later Notify returns (lock) */
	/* Completions taken out of the CQ by Notify's peek, oldest first,
	 * returned first by the next GetResults.  stash_n is the only
	 * fast-path read. */
	uint32_t stash_n;
	struct ibv_wc stash[ND_CQ_STASH];
	/* QPs on an SRQ that report to this CQ, newest last (never shrinks
	 * while the CQ lives: a destroyed QP's completions may still be in it). */
	struct nd_qp **srq_qps;
	uint32_t n_srq_qps, cap_srq_qps;
	void *old_arrays;	/* superseded srq_qps arrays, freed with the CQ */
	struct nd_qp *zombies;	/* destroyed QPs whose slots may still be referenced */
	/* Requests that failed without reaching the device (a refused v1
	 * batch): returned after the stash.  soft_pending is the only
	 * fast-path read. */
	uint32_t soft_pending;
	struct nd_soft_wc *soft, **soft_tail;
	struct nd_cq *next;	/* adapter->cqs (nd_ev_lock and adapter->lock) */
	/* As a wake source of ndrun's completion port (cq_wake.c): the
	 * attachment (cq->lock), references (the CQ's own, the port's, a
	 * polling waiter's; the last frees it), whether the event thread
	 * watches the channel behind the port's epoll (nd_ev_lock). */
	void *wake_att;
	uint32_t wake_refs;
	bool wake_behind;
};

/* Receives on an SRQ complete in any order across its QPs, so its slots
 * are not a ring: the poster takes them from its own free list, refilled
 * in one exchange from the list the pollers push retired slots onto.
 * posted - retired is the number of receives the client has outstanding,
 * checked against depth (ND's limit, not the device's rounded-up one). */
struct nd_srq {
	struct nd_obj obj;
	struct nd_adapter *adapter;
	struct ibv_srq *srq;
	uint32_t max_sge;
	uint32_t depth;		/* written under lock, read by the poster */
	uint32_t device_depth;	/* lock */
	uint32_t threshold;	/* lock; read by pollers while armed */
	uint32_t armed;		/* Notify requests wait: pollers check the threshold */
	uint32_t notify_tag;	/* lock */
	pthread_mutex_t lock;
	struct nd_pending_list notifies;
	struct nd_slot *free;	/* poster only */
	struct nd_slot *returned;	/* pushed by pollers and Modify, taken whole by the poster */
	uint64_t posted;	/* written by the poster only */
	uint64_t retired;	/* pollers, atomically */
	uint32_t nslots;	/* lock */
	void *chunks;		/* slot arrays, freed with the SRQ */
	int refs;		/* the SRQ itself + its QPs (their slots live here) */
	struct nd_srq *next;	/* adapter->srqs */
};
/* A poller hands back an SRQ receive's slot (cq.c). */
void nd_srq_retire(struct nd_slot *s);

struct nd_qp {
	struct nd_obj obj;
	struct nd_adapter *adapter;
	struct ibv_qp *qp;
	struct nd_cq *send_cq, *recv_cq;
	struct nd_srq *srq;
	uint64_t context;
	uint32_t qp_num;
	uint32_t max_send_sge, max_recv_sge, max_inline;
	uint32_t max_transfer;	/* bytes per initiator request (the port's max_msg_sz) */
	/* send ring: poster owns sq_head, poller publishes sq_tail */
	struct nd_slot *sq;
	uint32_t sq_mask;
	uint64_t sq_head;
	uint64_t sq_tail;
	uint32_t unsignaled;	/* poster only: silent requests since the last signaled one */
	/* receive ring (plain QP) */
	struct nd_slot *rq;
	uint32_t rq_mask;
	uint32_t rq_head;
	int zombie_refs;	/* CQs still holding the destroyed QP */
	struct nd_qp *zombie_next[2];
	uint32_t max_send_wr, max_recv_wr;	/* what the device gave */
	/* ND v1 request batch (batch.c): set between START and SUBMIT. */
	uint32_t batching;
	struct nd_batch *batch;
	/* The device moved the QP to ERR by itself (a failed request, a
	 * fatal event): libibverbs' cached state still says RTS. */
	uint32_t failed;
};

struct nd_mr {
	struct nd_obj obj;
	struct nd_adapter *adapter;
	pthread_mutex_t lock;
	struct ibv_mr *mr;
	int mr_access;
	int bound_windows;
	int refs;	/* the object + each bound window: a released region stays for its windows */
};

struct nd_mw {
	struct nd_obj obj;
	struct nd_adapter *adapter;
	struct ibv_mw *mw;
	struct nd_mr *bound_mr;		/* adapter->lock */
	/* adapter->lock: the QP of the last Bind.  rxe's window holds that
	 * QP until the device runs an Invalidate (one flushed never runs),
	 * and destroying the QP waits for it: nd_mw_qp_gone lets go first. */
	struct nd_qp *bind_qp;
	uint32_t rkey;
	uint64_t invalidate_result;	/* struct nd_unix_v1_result * (PE), or 0 */
	struct nd_mw *next;		/* adapter->mws */
};

/* ---- connection management (connector.c, listener.c) ----------------------- */
enum nd_conn_state {
	ND_CONN_IDLE,
	ND_CONN_BOUND,
	ND_CONN_RESOLVING,	/* address, then route */
	ND_CONN_CONNECTING,	/* REQ sent */
	ND_CONN_RESPONDED,	/* CONNECT_RESPONSE: waiting for CompleteConnect/Reject */
	ND_CONN_REQUESTED,	/* passive: request handed over by the listener */
	ND_CONN_ACCEPTING,
	ND_CONN_CONNECTED,
	ND_CONN_DISCONNECTING,
	ND_CONN_DISCONNECTED,
	ND_CONN_FAILED,
};

enum nd_conn_tag { ND_TAG_CONNECT = 1, ND_TAG_ACCEPT, ND_TAG_DISCONNECT, ND_TAG_NOTIFY_DISCONNECT };

struct nd_connector {
	struct nd_obj obj;
	struct nd_adapter *adapter;
	pthread_mutex_t lock;
	struct rdma_cm_id *id;
	enum nd_conn_state state;
	bool ever_connected;
	bool disconnect_called;	/* a second Disconnect is ND_CONNECTION_INVALID */
	struct nd_qp *qp;
	struct nd_pending_list pending;
	struct sockaddr_storage bound;
	bool has_bound;
	uint8_t out_data[ND_PRIVATE_DATA_MAX];	/* what Connect sends */
	uint8_t out_len;
	uint32_t inbound, outbound;		/* our requested read limits */
	uint8_t peer_data[ND_PRIVATE_DATA_MAX];	/* what the peer sent */
	uint32_t peer_len;
	uint32_t peer_inbound, peer_outbound;	/* GetReadLimits */
	int32_t peer_gone;	/* REQUESTED or RESPONDED: the peer left; Accept's or CompleteConnect's status */
};

struct nd_conn_request {
	struct nd_conn_request *next;
	struct rdma_cm_id *id;
	uint8_t data[ND_PRIVATE_DATA_MAX];
	uint32_t len;
	uint32_t inbound, outbound;
};

struct nd_listener {
	struct nd_obj obj;
	struct nd_adapter *adapter;
	pthread_mutex_t lock;
	struct rdma_cm_id *id;
	bool listening;
	uint32_t backlog, queued;
	struct nd_conn_request *requests, **requests_tail;
	struct nd_pending_list pending;	/* arg: the connector */
	struct sockaddr_storage bound;	/* once bound (nd_listeners_lock) */
	struct nd_listener *next;	/* every listener (nd_listeners_lock) */
};
/* A listener of this process is bound to SA's address (or the wildcard)
 * and port.  Takes only its own lock: callable with a connector's held. */
bool nd_listener_holds(const struct sockaddr *sa);

void nd_connector_cm_event(struct nd_connector *c, struct rdma_cm_event *ev);
void nd_listener_cm_event(struct nd_listener *l, struct rdma_cm_event *ev);
/* Hands a request's id to a connector; connector lock not held. */
void nd_connector_take_request(struct nd_connector *c, struct nd_conn_request *r);
int32_t nd_cq_cancel(struct nd_cq *cq);
int32_t nd_srq_cancel(struct nd_srq *srq);
int32_t nd_connector_cancel(struct nd_connector *c);
int32_t nd_listener_cancel(struct nd_listener *l);
void nd_cq_async_event(struct nd_cq *cq, enum ibv_event_type type);
void nd_srq_async_event(struct nd_srq *srq, enum ibv_event_type type);
/* The device is gone: Notify requests complete ND_DEVICE_REMOVED (object
 * lock not held). */
void nd_cq_device_removed(struct nd_cq *cq);
void nd_srq_device_removed(struct nd_srq *srq);
/* The device failed a request of this QP or reported it fatal (qp.c). */
void nd_qp_mark_failed(struct nd_qp *qp);
/* cq.c/qp.c/srq.c shared bookkeeping */
void nd_cq_add_srq_qp(struct nd_cq *cq, struct nd_qp *qp);	/* cq->lock held */
void nd_qp_zombie_put(struct nd_qp *qp);
void nd_srq_put(struct nd_srq *srq);
/* QP state changes driven by rdma_cm (qp.c). */
int nd_qp_modify_from_cm(struct nd_qp *qp, struct rdma_cm_id *id, enum ibv_qp_state state, uint32_t rd_atomic);
int nd_qp_to_error(struct nd_qp *qp);
/* Windows bound to a region keep it (mr.c). */
void nd_mr_bind(struct nd_mr *mr);
void nd_mr_unbind(struct nd_mr *mr);
/* qp is about to be destroyed: windows its Binds may still hold are
 * replaced by fresh, unbound ones (mr.c). */
void nd_mw_qp_gone(struct nd_qp *qp);
/* A Receive reaped with the peer's invalidation of rkey (mr.c). */
void nd_mw_remote_invalidated(struct nd_adapter *a, uint32_t rkey);
/* A request that failed before the device saw it: its result, with this
 * status, comes from the CQ like any other (cq.c). */
void nd_cq_soft_complete(struct nd_cq *cq, uint64_t wr_id, uint32_t qp_num, int32_t status);
/* The CQ as a wake source of the port its Notify's file is associated
 * with (cq_wake.c): attach from a pending Notify (cq->lock held); detach
 * from cq_destroy before the channel is closed (the port's epoll holds
 * its fd), put at its end to drop the CQ's own reference. */
void nd_cq_wake_attach(struct nd_cq *cq, const struct nd_unix_ov *ov);
void nd_cq_wake_detach(struct nd_cq *cq);
void nd_cq_wake_put(struct nd_cq *cq);
/* The host's wake-source hooks (main.c); attach returns NULL when the
 * host offers none. */
void *nd_wake_attach(uint64_t file, int fd, const struct nd_unix_wake_ops *ops, void *ctx);
void nd_wake_detach(void *att);
/* ND v1 request batches (batch.c): hold a request back while the QP
 * batches.  The caller has claimed its slot; ND_SUCCESS once queued. */
int32_t nd_batch_send(struct nd_qp *qp, struct ibv_send_wr *wr);
int32_t nd_batch_recv(struct nd_qp *qp, struct ibv_recv_wr *wr);
void nd_batch_free(struct nd_qp *qp);
/* Hands what the batch holds to the device now; the batch goes on. */
void nd_batch_flush(struct nd_qp *qp);
int32_t nd_post_status(int err);

/* ---- the call table's entries ---------------------------------------------- */
#define ND_CALL(name) int32_t nd_call_##name(void *params)
ND_CALL(query_addresses); ND_CALL(resolve_address);
ND_CALL(adapter_open); ND_CALL(adapter_close); ND_CALL(adapter_query);
ND_CALL(cancel);
ND_CALL(cq_create); ND_CALL(cq_destroy); ND_CALL(cq_resize); ND_CALL(cq_notify); ND_CALL(cq_get_results);
ND_CALL(srq_create); ND_CALL(srq_destroy); ND_CALL(srq_modify); ND_CALL(srq_notify); ND_CALL(srq_receive);
ND_CALL(mr_create); ND_CALL(mr_destroy); ND_CALL(mr_register); ND_CALL(mr_deregister);
ND_CALL(mw_create); ND_CALL(mw_destroy);
ND_CALL(qp_create); ND_CALL(qp_destroy); ND_CALL(qp_flush); ND_CALL(qp_send); ND_CALL(qp_receive);
ND_CALL(qp_read); ND_CALL(qp_write); ND_CALL(qp_bind); ND_CALL(qp_invalidate);
ND_CALL(connector_create); ND_CALL(connector_destroy); ND_CALL(connector_bind); ND_CALL(connector_connect);
ND_CALL(connector_complete_connect); ND_CALL(connector_accept); ND_CALL(connector_reject);
ND_CALL(connector_get_read_limits); ND_CALL(connector_get_private_data);
ND_CALL(connector_get_local_address); ND_CALL(connector_get_peer_address);
ND_CALL(connector_notify_disconnect); ND_CALL(connector_disconnect);
ND_CALL(listener_create); ND_CALL(listener_destroy); ND_CALL(listener_bind); ND_CALL(listener_listen);
ND_CALL(listener_get_local_address); ND_CALL(listener_get_connection_request);
ND_CALL(qp_send_invalidate); ND_CALL(qp_batch); ND_CALL(mw_watch);
ND_CALL(fast_entries);
/* The fast entries (unix_call.h): the same code as QP_SEND, QP_RECEIVE
 * and CQ_GET_RESULTS, called by nd2prov.dll directly. */
int32_t ND_UNIX_SYSV nd_fast_qp_send(uint64_t qp, uint64_t context, uint64_t sge, uint32_t nsge, uint32_t flags);
int32_t ND_UNIX_SYSV nd_fast_qp_receive(uint64_t qp, uint64_t context, uint64_t sge, uint32_t nsge, uint32_t flags);
uint32_t ND_UNIX_SYSV nd_fast_cq_get_results(uint64_t cq, uint64_t results, uint32_t capacity);

#endif

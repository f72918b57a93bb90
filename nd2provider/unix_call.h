/* The unix-call contract between nd2prov.dll (PE, mingw) and its Linux side,
 * nd2prov_unix.so (host gcc, rdma-core).  The only header both halves share.
 *
 * The PE side calls ndrun's builtin  NTSTATUS unix_call(unsigned code, void *params)
 * which runs  nd_unix_entry.calls[code](params)  on the caller's thread.
 * Every params struct below has fixed-width fields only, explicit padding
 * and a pinned size, so mingw and host gcc lay it out the same way.
 *
 * Conventions
 * - A call returns an ND status (== NTSTATUS; include/ndstatus.h).
 * - Objects are opaque uint64_t handles created and owned by the unix side;
 *   0 is never a valid handle.  The PE side passes back only handles it got
 *   from a create call of the right kind, and destroys each exactly once.
 * - PE pointers (buffers, contexts, OVERLAPPED*) travel as uint64_t; the
 *   unix side reads and writes PE memory directly (one address space).
 * - Addresses travel in the Windows layout (SOCKADDR_IN, family 2, or
 *   SOCKADDR_IN6, family 23; port in network order) in struct nd_unix_addr.
 * - Remote tokens (MR/MW GetRemoteToken, Read/Write remoteToken) are in
 *   network order, as ND asks; local tokens are used as they are.
 *
 * Overlapped requests
 * - A call that takes a struct nd_unix_ov either fails at once (an error
 *   status: nothing is ever delivered for that OVERLAPPED), or returns
 *   ND_PENDING and later calls host->complete(file, overlapped, status,
 *   bytes) exactly once.  The unix side never returns ND_SUCCESS for an
 *   overlapped request: every accepted request completes through complete(),
 *   which is what clients that wait for a packet after Register, Notify or
 *   GetConnectionRequest need, and is valid for all others.
 * - complete() may run before the call that issued the request has returned
 *   (on the caller's thread) or on the unix side's event thread.  So the PE
 *   side sets OVERLAPPED.Internal = ND_PENDING *before* issuing the call and
 *   never writes it afterwards.
 * - ND_UNIX_CANCEL completes every pending request of an object with
 *   ND_CANCELED, in the order they were issued, before it returns.  So does
 *   destroying the object.
 *
 * Threads: any call may come from any thread.  The fast path (QP_SEND,
 * QP_RECEIVE, QP_READ, QP_WRITE, SRQ_RECEIVE, CQ_GET_RESULTS) allocates
 * nothing, takes no lock of its own and makes no system call beyond what
 * libibverbs makes.  One QP may have one sender thread and, on its CQ, one
 * poller thread at the same time.  While a QP batches (QP_BATCH, ND v1)
 * its posts take the batch's lock instead of ringing the device. */
#ifndef NDSHIM_ND2PROVIDER_UNIX_CALL_H
#define NDSHIM_ND2PROVIDER_UNIX_CALL_H

#include <stdint.h>
#ifndef _WIN32
#include <stdbool.h>
#endif

#define ND_UNIX_ABI_VERSION 2

enum nd_unix_call {
	/* provider */
	ND_UNIX_QUERY_ADDRESSES,	/* nd_unix_query_addresses_params */
	ND_UNIX_RESOLVE_ADDRESS,	/* nd_unix_resolve_address_params */
	/* adapter */
	ND_UNIX_ADAPTER_OPEN,		/* nd_unix_adapter_open_params */
	ND_UNIX_ADAPTER_CLOSE,		/* nd_unix_object_params */
	ND_UNIX_ADAPTER_QUERY,		/* nd_unix_adapter_query_params */
	/* any object with overlapped requests (CQ, SRQ, MR, connector, listener) */
	ND_UNIX_CANCEL,			/* nd_unix_object_params */
	/* completion queue */
	ND_UNIX_CQ_CREATE,		/* nd_unix_cq_create_params */
	ND_UNIX_CQ_DESTROY,		/* nd_unix_object_params */
	ND_UNIX_CQ_RESIZE,		/* nd_unix_cq_resize_params */
	ND_UNIX_CQ_NOTIFY,		/* nd_unix_cq_notify_params */
	ND_UNIX_CQ_GET_RESULTS,		/* nd_unix_cq_get_results_params */
	/* shared receive queue */
	ND_UNIX_SRQ_CREATE,		/* nd_unix_srq_create_params */
	ND_UNIX_SRQ_DESTROY,		/* nd_unix_object_params */
	ND_UNIX_SRQ_MODIFY,		/* nd_unix_srq_modify_params */
	ND_UNIX_SRQ_NOTIFY,		/* nd_unix_ov_params */
	ND_UNIX_SRQ_RECEIVE,		/* nd_unix_post_params */
	/* memory region and window */
	ND_UNIX_MR_CREATE,		/* nd_unix_create_params */
	ND_UNIX_MR_DESTROY,		/* nd_unix_object_params */
	ND_UNIX_MR_REGISTER,		/* nd_unix_mr_register_params */
	ND_UNIX_MR_DEREGISTER,		/* nd_unix_ov_params */
	ND_UNIX_MW_CREATE,		/* nd_unix_create_params */
	ND_UNIX_MW_DESTROY,		/* nd_unix_object_params */
	/* queue pair */
	ND_UNIX_QP_CREATE,		/* nd_unix_qp_create_params */
	ND_UNIX_QP_DESTROY,		/* nd_unix_object_params */
	ND_UNIX_QP_FLUSH,		/* nd_unix_object_params */
	ND_UNIX_QP_SEND,		/* nd_unix_post_params */
	ND_UNIX_QP_RECEIVE,		/* nd_unix_post_params */
	ND_UNIX_QP_READ,		/* nd_unix_rdma_params */
	ND_UNIX_QP_WRITE,		/* nd_unix_rdma_params */
	ND_UNIX_QP_BIND,		/* nd_unix_qp_bind_params */
	ND_UNIX_QP_INVALIDATE,		/* nd_unix_qp_invalidate_params */
	/* connector */
	ND_UNIX_CONNECTOR_CREATE,	/* nd_unix_create_params */
	ND_UNIX_CONNECTOR_DESTROY,	/* nd_unix_object_params */
	ND_UNIX_CONNECTOR_BIND,		/* nd_unix_addr_params */
	ND_UNIX_CONNECTOR_CONNECT,	/* nd_unix_connect_params */
	ND_UNIX_CONNECTOR_COMPLETE_CONNECT, /* nd_unix_ov_params */
	ND_UNIX_CONNECTOR_ACCEPT,	/* nd_unix_accept_params */
	ND_UNIX_CONNECTOR_REJECT,	/* nd_unix_reject_params */
	ND_UNIX_CONNECTOR_GET_READ_LIMITS, /* nd_unix_read_limits_params */
	ND_UNIX_CONNECTOR_GET_PRIVATE_DATA, /* nd_unix_private_data_params */
	ND_UNIX_CONNECTOR_GET_LOCAL_ADDRESS, /* nd_unix_addr_params (out) */
	ND_UNIX_CONNECTOR_GET_PEER_ADDRESS, /* nd_unix_addr_params (out) */
	ND_UNIX_CONNECTOR_NOTIFY_DISCONNECT, /* nd_unix_ov_params */
	ND_UNIX_CONNECTOR_DISCONNECT,	/* nd_unix_ov_params */
	/* listener */
	ND_UNIX_LISTENER_CREATE,	/* nd_unix_create_params */
	ND_UNIX_LISTENER_DESTROY,	/* nd_unix_object_params */
	ND_UNIX_LISTENER_BIND,		/* nd_unix_addr_params */
	ND_UNIX_LISTENER_LISTEN,	/* nd_unix_listen_params */
	ND_UNIX_LISTENER_GET_LOCAL_ADDRESS, /* nd_unix_addr_params (out) */
	ND_UNIX_LISTENER_GET_CONNECTION_REQUEST, /* nd_unix_get_request_params */
	/* ND v1 only */
	ND_UNIX_QP_SEND_INVALIDATE,	/* nd_unix_send_invalidate_params */
	ND_UNIX_QP_BATCH,		/* nd_unix_qp_batch_params */
	ND_UNIX_MW_WATCH,		/* nd_unix_mw_watch_params */
	/* the per-message calls as direct functions (below) */
	ND_UNIX_FAST_ENTRIES,		/* nd_unix_fast_entries_params (out) */
	ND_UNIX_CALL_COUNT
};

/* ---- shared pieces --------------------------------------------------------- */

/* One overlapped request: the overlapped file it was issued on and the
 * caller's OVERLAPPED*, both echoed to host->complete(). */
struct nd_unix_ov {
	uint64_t file;
	uint64_t overlapped;
};
_Static_assert(sizeof(struct nd_unix_ov) == 16, "nd_unix_ov");

/* A Windows SOCKADDR_IN / SOCKADDR_IN6 (len 16 or 28) in its own bytes. */
struct nd_unix_addr {
	uint8_t bytes[28];
	uint32_t len;
};
_Static_assert(sizeof(struct nd_unix_addr) == 32, "nd_unix_addr");
#define ND_UNIX_AF_INET 2
#define ND_UNIX_AF_INET6 23

/* == ND2_SGE (the unix side hands the caller's array to verbs as is). */
struct nd_unix_sge {
	uint64_t buffer;
	uint32_t length;
	uint32_t token;
};
_Static_assert(sizeof(struct nd_unix_sge) == 16, "nd_unix_sge");

/* == ND2_RESULT: CQ_GET_RESULTS writes these into the caller's array. */
struct nd_unix_result {
	int32_t status;
	uint32_t bytes;
	uint64_t qp_context;
	uint64_t request_context;
	uint32_t request_type;	/* ND2_REQUEST_TYPE */
	uint32_t pad;
};
_Static_assert(sizeof(struct nd_unix_result) == 32, "nd_unix_result");

/* == ND2_ADAPTER_INFO (x64); InfoVersion is left for the PE side. */
struct nd_unix_adapter_info {
	uint32_t info_version;
	uint16_t vendor_id;
	uint16_t device_id;
	uint64_t adapter_id;
	uint64_t max_registration_size;
	uint64_t max_window_size;
	uint32_t max_initiator_sge;
	uint32_t max_receive_sge;
	uint32_t max_read_sge;
	uint32_t max_transfer_length;
	uint32_t max_inline_data_size;
	uint32_t max_inbound_read_limit;
	uint32_t max_outbound_read_limit;
	uint32_t max_receive_queue_depth;
	uint32_t max_initiator_queue_depth;
	uint32_t max_shared_receive_queue_depth;
	uint32_t max_completion_queue_depth;
	uint32_t inline_request_threshold;
	uint32_t large_request_threshold;
	uint32_t max_caller_data;
	uint32_t max_callee_data;
	uint32_t adapter_flags;
};
_Static_assert(sizeof(struct nd_unix_adapter_info) == 96, "nd_unix_adapter_info");

/* MR_REGISTER writes the tokens here (PE memory) before completing. */
struct nd_unix_mr_tokens {
	uint32_t local;
	uint32_t remote;	/* network order */
};
_Static_assert(sizeof(struct nd_unix_mr_tokens) == 8, "nd_unix_mr_tokens");

/* ---- params ---------------------------------------------------------------- */

struct nd_unix_object_params {
	uint64_t object;
};
_Static_assert(sizeof(struct nd_unix_object_params) == 8, "object_params");

/* MR_CREATE, MW_CREATE, CONNECTOR_CREATE, LISTENER_CREATE */
struct nd_unix_create_params {
	uint64_t adapter;
	uint64_t object;	/* out */
};
_Static_assert(sizeof(struct nd_unix_create_params) == 16, "create_params");

/* SRQ_NOTIFY, MR_DEREGISTER, CONNECTOR_COMPLETE_CONNECT,
 * CONNECTOR_NOTIFY_DISCONNECT, CONNECTOR_DISCONNECT */
struct nd_unix_ov_params {
	uint64_t object;
	struct nd_unix_ov ov;
};
_Static_assert(sizeof(struct nd_unix_ov_params) == 24, "ov_params");

/* CONNECTOR_BIND, LISTENER_BIND (in); *_GET_LOCAL/PEER_ADDRESS (out) */
struct nd_unix_addr_params {
	uint64_t object;
	struct nd_unix_addr addr;
};
_Static_assert(sizeof(struct nd_unix_addr_params) == 40, "addr_params");

/* One address of a netdev that carries an RDMA device. */
struct nd_unix_address_entry {
	struct nd_unix_addr addr;
	uint64_t adapter_id;
};
_Static_assert(sizeof(struct nd_unix_address_entry) == 40, "address_entry");

/* adapter_id 0: every adapter.  count is set to the number of addresses;
 * ND_BUFFER_OVERFLOW (nothing written) when it exceeds capacity. */
struct nd_unix_query_addresses_params {
	uint64_t adapter_id;
	uint64_t entries;	/* struct nd_unix_address_entry[capacity] */
	uint32_t capacity;
	uint32_t count;		/* out */
};
_Static_assert(sizeof(struct nd_unix_query_addresses_params) == 24, "query_addresses");

/* ND_INVALID_ADDRESS unless addr (port ignored) is one of the addresses. */
struct nd_unix_resolve_address_params {
	struct nd_unix_addr addr;
	uint64_t adapter_id;	/* out */
};
_Static_assert(sizeof(struct nd_unix_resolve_address_params) == 40, "resolve_address");

struct nd_unix_adapter_open_params {
	uint64_t adapter_id;
	uint64_t adapter;	/* out */
};
_Static_assert(sizeof(struct nd_unix_adapter_open_params) == 16, "adapter_open");

struct nd_unix_adapter_query_params {
	uint64_t adapter;
	struct nd_unix_adapter_info info;	/* out */
};
_Static_assert(sizeof(struct nd_unix_adapter_query_params) == 104, "adapter_query");

struct nd_unix_cq_create_params {
	uint64_t adapter;
	uint32_t depth;
	uint32_t pad;
	uint64_t cq;		/* out */
};
_Static_assert(sizeof(struct nd_unix_cq_create_params) == 24, "cq_create");

struct nd_unix_cq_resize_params {
	uint64_t cq;
	uint32_t depth;
	uint32_t pad;
};
_Static_assert(sizeof(struct nd_unix_cq_resize_params) == 16, "cq_resize");

struct nd_unix_cq_notify_params {
	uint64_t cq;
	struct nd_unix_ov ov;
	uint32_t type;		/* ND_CQ_NOTIFY_* */
	uint32_t pad;
};
_Static_assert(sizeof(struct nd_unix_cq_notify_params) == 32, "cq_notify");

/* Returns ND_SUCCESS with count results written to results[0..count). */
struct nd_unix_cq_get_results_params {
	uint64_t cq;
	uint64_t results;	/* struct nd_unix_result[capacity] == ND2_RESULT[] */
	uint32_t capacity;
	uint32_t count;		/* out */
};
_Static_assert(sizeof(struct nd_unix_cq_get_results_params) == 24, "cq_get_results");

struct nd_unix_srq_create_params {
	uint64_t adapter;
	uint32_t depth;
	uint32_t max_sge;
	uint32_t notify_threshold;
	uint32_t pad;
	uint64_t srq;		/* out */
};
_Static_assert(sizeof(struct nd_unix_srq_create_params) == 32, "srq_create");

struct nd_unix_srq_modify_params {
	uint64_t srq;
	uint32_t depth;		/* 0: unchanged */
	uint32_t notify_threshold; /* 0: unchanged */
};
_Static_assert(sizeof(struct nd_unix_srq_modify_params) == 16, "srq_modify");

/* QP_SEND, QP_RECEIVE, SRQ_RECEIVE.  sge may be 0 when nsge is 0. */
struct nd_unix_post_params {
	uint64_t object;	/* qp or srq */
	uint64_t context;	/* RequestContext */
	uint64_t sge;		/* const struct nd_unix_sge[nsge] == ND2_SGE[] */
	uint32_t nsge;
	uint32_t flags;		/* ND_OP_FLAG_* (Send only) */
};
_Static_assert(sizeof(struct nd_unix_post_params) == 32, "post_params");

/* QP_READ, QP_WRITE */
struct nd_unix_rdma_params {
	uint64_t qp;
	uint64_t context;
	uint64_t sge;
	uint32_t nsge;
	uint32_t flags;
	uint64_t remote_address;
	uint32_t remote_token;	/* network order */
	uint32_t pad;
};
_Static_assert(sizeof(struct nd_unix_rdma_params) == 48, "rdma_params");

struct nd_unix_mr_register_params {
	uint64_t mr;
	uint64_t buffer;
	uint64_t length;
	uint32_t flags;		/* ND_MR_FLAG_* */
	uint32_t pad;
	uint64_t tokens;	/* struct nd_unix_mr_tokens *, written before completion */
	struct nd_unix_ov ov;
};
_Static_assert(sizeof(struct nd_unix_mr_register_params) == 56, "mr_register");

/* srq 0: a plain QP (recv_depth and recv_sge used); else QP on that SRQ. */
struct nd_unix_qp_create_params {
	uint64_t adapter;
	uint64_t recv_cq;
	uint64_t initiator_cq;
	uint64_t srq;
	uint64_t context;	/* QueuePairContext */
	uint32_t recv_depth;
	uint32_t initiator_depth;
	uint32_t recv_sge;
	uint32_t initiator_sge;
	uint32_t inline_size;
	uint32_t pad;
	uint64_t qp;		/* out */
};
_Static_assert(sizeof(struct nd_unix_qp_create_params) == 72, "qp_create");

struct nd_unix_qp_bind_params {
	uint64_t qp;
	uint64_t context;
	uint64_t mr;
	uint64_t mw;
	uint64_t buffer;
	uint64_t length;
	uint32_t flags;		/* ND_OP_FLAG_* */
	uint32_t remote_token;	/* out, network order: the window's new token */
};
_Static_assert(sizeof(struct nd_unix_qp_bind_params) == 56, "qp_bind");

struct nd_unix_qp_invalidate_params {
	uint64_t qp;
	uint64_t context;
	uint64_t mw;
	uint32_t flags;
	uint32_t pad;
};
_Static_assert(sizeof(struct nd_unix_qp_invalidate_params) == 32, "qp_invalidate");

struct nd_unix_connect_params {
	uint64_t connector;
	uint64_t qp;
	struct nd_unix_addr dest;
	uint32_t inbound_read_limit;
	uint32_t outbound_read_limit;
	uint64_t private_data;
	uint32_t private_data_len;
	uint32_t pad;
	struct nd_unix_ov ov;
};
_Static_assert(sizeof(struct nd_unix_connect_params) == 88, "connect");

struct nd_unix_accept_params {
	uint64_t connector;
	uint64_t qp;
	uint32_t inbound_read_limit;
	uint32_t outbound_read_limit;
	uint64_t private_data;
	uint32_t private_data_len;
	uint32_t pad;
	struct nd_unix_ov ov;
};
_Static_assert(sizeof(struct nd_unix_accept_params) == 56, "accept");

struct nd_unix_reject_params {
	uint64_t connector;
	uint64_t private_data;
	uint32_t private_data_len;
	uint32_t pad;
};
_Static_assert(sizeof(struct nd_unix_reject_params) == 24, "reject");

struct nd_unix_read_limits_params {
	uint64_t connector;
	uint32_t inbound;	/* out */
	uint32_t outbound;	/* out */
};
_Static_assert(sizeof(struct nd_unix_read_limits_params) == 16, "read_limits");

/* Copies min(capacity, length) bytes; ND_BUFFER_OVERFLOW when length >
 * capacity.  On IB/RoCE, length is the CM message's fixed private-data
 * size (56 for a request, 196 for an accept, 148 for a reject), zero-padded
 * after what the peer sent. */
struct nd_unix_private_data_params {
	uint64_t connector;
	uint64_t buffer;
	uint32_t capacity;
	uint32_t length;	/* out */
};
_Static_assert(sizeof(struct nd_unix_private_data_params) == 24, "private_data");

struct nd_unix_listen_params {
	uint64_t listener;
	uint32_t backlog;
	uint32_t pad;
};
_Static_assert(sizeof(struct nd_unix_listen_params) == 16, "listen");

/* The connector must stay alive (not destroyed) until ov completes. */
struct nd_unix_get_request_params {
	uint64_t listener;
	uint64_t connector;
	struct nd_unix_ov ov;
};
_Static_assert(sizeof(struct nd_unix_get_request_params) == 32, "get_request");

/* ---- ND v1 only ------------------------------------------------------------ */

/* A Send that also invalidates the peer's window or region whose remote
 * token (network order, as the peer's ND_MW_DESCRIPTOR carries it) is
 * given: IBV_WR_SEND_WITH_INV.  ND_NOT_SUPPORTED, nothing posted, on a
 * device without memory management extensions.  Completes as a Send. */
struct nd_unix_send_invalidate_params {
	uint64_t qp;
	uint64_t context;
	uint64_t sge;		/* const struct nd_unix_sge[nsge] */
	uint32_t nsge;
	uint32_t flags;		/* as QP_SEND */
	uint32_t remote_token;	/* network order */
	uint32_t pad;
};
_Static_assert(sizeof(struct nd_unix_send_invalidate_params) == 40, "send_invalidate");

/* ND_UNIX_BATCH_START: until SUBMIT, the QP's requests are checked and
 * given their slots (so each call returns its synchronous status as
 * before) but held back; ND_UNIX_BATCH_SUBMIT hands them to the device in
 * the order they were made, one chain per queue, and ends the batch
 * (without a batch it does nothing).  A batch longer than the unix side
 * holds is handed over early, which the v1 docs allow.  A request the
 * device refuses at SUBMIT completes through its CQ with the refusal's
 * status. */
struct nd_unix_qp_batch_params {
	uint64_t qp;
	uint32_t op;		/* ND_UNIX_BATCH_* */
	uint32_t pad;
};
_Static_assert(sizeof(struct nd_unix_qp_batch_params) == 16, "qp_batch");
#define ND_UNIX_BATCH_START 1
#define ND_UNIX_BATCH_SUBMIT 2

/* == ND_RESULT (v1, x64). */
struct nd_unix_v1_result {
	int32_t status;
	uint32_t pad;
	uint64_t bytes;
};
_Static_assert(sizeof(struct nd_unix_v1_result) == 16, "nd_unix_v1_result");

/* The ND_RESULT (PE memory, result 0: none) that the window's remote
 * invalidation fills: when a Receive that carried the peer's
 * send-with-invalidate for the window's current token is reaped, the
 * window is unbound and *result becomes { ND_SUCCESS, 0 } before the
 * Receive's own result is handed out. */
struct nd_unix_mw_watch_params {
	uint64_t mw;
	uint64_t result;	/* struct nd_unix_v1_result * */
};
_Static_assert(sizeof(struct nd_unix_mw_watch_params) == 16, "mw_watch");

/* ---- fast entries ------------------------------------------------------------
 *
 * Send, Receive and GetResults run once per message.  Through unix_call
 * each paid for ndrun's NdshimUnixCall (a realigned frame, its own pushes,
 * the table dispatch: 22 instructions besides the register saves) and for
 * a params struct written by one compiler and read back by the other.
 * ND_UNIX_FAST_ENTRIES hands the PE side these three calls as System V
 * functions, which it calls directly with the arguments in registers.
 * They are the same code as QP_SEND, QP_RECEIVE and CQ_GET_RESULTS: same
 * checks, same statuses, same rules as above.
 *
 * Registers: Microsoft x64 code expects rsi, rdi and xmm6-xmm15 to survive
 * a call; a System V function may clobber all of them, and these do reach
 * code that uses xmm registers (libibverbs, the rxe provider, glibc's
 * memcpy for inline data).  The types below carry sysv_abi, so the PE
 * side's compiler knows the callee's convention at every call and saves
 * those registers in the calling method's frame, exactly what
 * NdshimUnixCall did around its table call: nothing is skipped, the saves
 * only move to the caller (tests/nd2/ndxmm checks it on a live QP).  On
 * the host, sysv_abi is the default and changes nothing. */
#define ND_UNIX_SYSV __attribute__((sysv_abi))
/* Send (flags: ND_OP_FLAG_*) or Receive (flags 0): ND status. */
typedef int32_t (ND_UNIX_SYSV *nd_unix_post_fn)(uint64_t qp, uint64_t context, uint64_t sge, uint32_t nsge,
						uint32_t flags);
/* GetResults: the number of results written to results[0..capacity). */
typedef uint32_t (ND_UNIX_SYSV *nd_unix_get_results_fn)(uint64_t cq, uint64_t results, uint32_t capacity);

/* Function addresses as integers, so both compilers lay this out alike. */
struct nd_unix_fast_entries_params {
	uint64_t qp_send;	/* nd_unix_post_fn */
	uint64_t qp_receive;	/* nd_unix_post_fn */
	uint64_t cq_get_results; /* nd_unix_get_results_fn */
};
_Static_assert(sizeof(struct nd_unix_fast_entries_params) == 24, "fast_entries");

/* ---- the host side (ndrun), not seen by PE code ----------------------------- */
#ifndef _WIN32
/* ndrun's one overlapped-completion path: sets Internal/InternalHigh, queues
 * the port packet unless hEvent's low bit is set, sets the event.  Called
 * from any thread, possibly while the unix side holds the object's lock:
 * it must not call back into the unix side. */
struct nd_unix_wake_ops;
struct nd_unix_host {
	uint32_t abi_version;	/* ND_UNIX_ABI_VERSION */
	uint32_t pad;
	void (*complete)(uint64_t file, uint64_t overlapped, int32_t status, uint64_t bytes);
	/* Optional (NULL: not offered).  A wake source for the completion
	 * port associated with file: while attached, a thread that blocks
	 * alone on that port may poll fd and call ops->drain itself instead
	 * of waiting for the event thread's completion (ndrun's
	 * core/iocp.h, "Wake sources", has the rules).  NULL when file has
	 * no port (yet) or on failure; the attachment holds a reference on
	 * ctx (ops->hold) until wake_detach. */
	void *(*wake_attach)(uint64_t file, int fd, const struct nd_unix_wake_ops *ops, void *ctx);
	void (*wake_detach)(void *attachment);
};

/* Laid out as ndrun's struct iocp_source_ops (ndshim/unixcall.c checks
 * it).  claim: fd is in the port's epoll, make the waiter's watch win
 * over the event thread's; unclaim (optional, NULL for none): the waiter
 * is done with fd; drain: fd was readable, complete what it announced.
 * claim and drain return false once the source is gone.  hold may be
 * called under ndrun's port lock: it must not block. */
struct nd_unix_wake_ops {
	bool (*claim)(void *ctx);
	void (*unclaim)(void *ctx);
	bool (*drain)(void *ctx);
	void (*hold)(void *ctx);
	void (*release)(void *ctx);
};

typedef int32_t (*nd_unix_call_fn)(void *params);

/* nd2prov_unix.so exports one symbol, ND_UNIX_ENTRY_SYMBOL, of this type.
 * ndrun dlopens the .so when nd2prov.dll first asks for it, checks
 * abi_version and call_count, calls init once, then runs calls[code](params)
 * for each unix_call with code < call_count. */
struct nd_unix_entry {
	uint32_t abi_version;
	uint32_t call_count;
	int32_t (*init)(const struct nd_unix_host *host);
	const nd_unix_call_fn *calls;
};
#define ND_UNIX_ENTRY_SYMBOL "nd_unix_entry"
#define ND_UNIX_SONAME "nd2prov_unix.so"
#endif

#endif

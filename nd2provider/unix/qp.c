/* Queue pairs: creation (straight to INIT, so Receives can be posted
 * before a connection), the posting fast path, Flush, and the state changes
 * rdma_cm drives.  Each posted request owns a slot that wr_id points to:
 * the completion carries no valid opcode when it failed, so the slot says
 * what the request was. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nd_unix.h"

static uint32_t pow2_at_least(uint32_t v)
{
	uint32_t n = 1;

	while (n < v)
		n <<= 1;
	return n;
}

/* The device allocates every slot of a queue up front, each with room for
 * its SGEs, so a queue gets the depth that was asked.  Clients post more
 * SGEs than they asked for, though (docs/nd2-decisions.md): a queue short
 * enough that the room costs little gets the adapter's maximum, and a
 * deeper one room for ND_MIN_SGE_ROOM (the SDK's ndmw asks for 1 SGE on a
 * queue 16,384 deep, then sends 2; 4 cost rxe 12 MiB for such a QP, the
 * adapter's 32 would cost 64 MiB). */
#define ND_SGE_BUDGET 16384	/* SGE entries per queue, 256 KiB */
#define ND_MIN_SGE_ROOM 4

static uint32_t sge_room(const struct nd_adapter *a, uint32_t asked, uint32_t depth)
{
	uint32_t least = a->max_sge < ND_MIN_SGE_ROOM ? a->max_sge : ND_MIN_SGE_ROOM;

	if (!asked)
		asked = 1;
	if ((uint64_t)depth * a->max_sge <= ND_SGE_BUDGET && asked < a->max_sge)
		return a->max_sge;
	return asked > least ? asked : least;
}

ND_CALL(qp_create)
{
	struct nd_unix_qp_create_params *p = params;
	struct nd_adapter *a = nd_obj_get(p->adapter, ND_KIND_ADAPTER);
	struct nd_cq *rcq = nd_obj_get(p->recv_cq, ND_KIND_CQ);
	struct nd_cq *icq = nd_obj_get(p->initiator_cq, ND_KIND_CQ);
	struct nd_srq *srq = NULL;
	const struct ibv_device_attr *d;
	struct ibv_qp_init_attr ia;
	struct ibv_qp_attr qa;
	struct nd_qp *qp;
	bool s = p->srq != 0;
	int err;

	if (!a)
		return ND_INVALID_HANDLE;
	if (nd_adapter_removed(a))
		return ND_DEVICE_REMOVED;
	d = &a->attr;
	if (!rcq)
		return ND_INVALID_PARAMETER_2;
	if (!icq)
		return ND_INVALID_PARAMETER_3;
	if (s && !(srq = nd_obj_get(p->srq, ND_KIND_SRQ)))
		return ND_INVALID_PARAMETER_4;
	/* ND numbers parameters differently in CreateQueuePairWithSrq. */
	if (!s && (!p->recv_depth || p->recv_depth > (uint32_t)d->max_qp_wr))
		return ND_INVALID_PARAMETER_5;
	if (!p->initiator_depth || p->initiator_depth > (uint32_t)d->max_qp_wr)
		return s ? ND_INVALID_PARAMETER_6 : ND_INVALID_PARAMETER_6;
	if (!s && p->recv_sge > a->max_sge)
		return ND_INVALID_PARAMETER_7;
	if (p->initiator_sge > a->max_sge)
		return s ? ND_INVALID_PARAMETER_7 : ND_INVALID_PARAMETER_8;
	if (p->inline_size > a->max_inline)
		return s ? ND_INVALID_PARAMETER_8 : ND_INVALID_PARAMETER_9;

	qp = calloc(1, sizeof(*qp));
	if (!qp)
		return ND_NO_MEMORY;
	qp->obj.kind = ND_KIND_QP;
	qp->adapter = a;
	qp->send_cq = icq;
	qp->recv_cq = rcq;
	qp->srq = srq;
	qp->context = p->context;

	memset(&ia, 0, sizeof(ia));
	ia.send_cq = icq->cq;
	ia.recv_cq = rcq->cq;
	ia.srq = srq ? srq->srq : NULL;
	ia.qp_type = IBV_QPT_RC;
	ia.qp_context = qp;	/* the async QP events mark it failed */
	ia.sq_sig_all = 0;
	ia.cap.max_send_wr = p->initiator_depth;
	ia.cap.max_recv_wr = s ? 0 : p->recv_depth;
	ia.cap.max_send_sge = sge_room(a, p->initiator_sge, p->initiator_depth);
	ia.cap.max_recv_sge = s ? 0 : sge_room(a, p->recv_sge, p->recv_depth);
	ia.cap.max_inline_data = p->inline_size;
	qp->qp = ibv_create_qp(a->pd, &ia);
	if (!qp->qp) {
		ia.cap.max_send_wr = p->initiator_depth;
		ia.cap.max_recv_wr = s ? 0 : p->recv_depth;
		ia.cap.max_send_sge = p->initiator_sge ? p->initiator_sge : 1;
		ia.cap.max_recv_sge = s ? 0 : (p->recv_sge ? p->recv_sge : 1);
		ia.cap.max_inline_data = p->inline_size;
		qp->qp = ibv_create_qp(a->pd, &ia);
	}
	if (!qp->qp) {
		err = errno;
		goto fail_free;
	}
	qp->qp_num = qp->qp->qp_num;
	qp->max_send_sge = ia.cap.max_send_sge;
	qp->max_recv_sge = ia.cap.max_recv_sge;
	qp->max_inline = ia.cap.max_inline_data;
	qp->max_transfer = a->port.max_msg_sz;
	qp->max_send_wr = ia.cap.max_send_wr;
	qp->max_recv_wr = ia.cap.max_recv_wr;

	qp->sq_mask = pow2_at_least(ia.cap.max_send_wr) - 1;
	qp->sq = calloc(qp->sq_mask + 1, sizeof(*qp->sq));
	if (!s) {
		qp->rq_mask = pow2_at_least(ia.cap.max_recv_wr) - 1;
		qp->rq = calloc(qp->rq_mask + 1, sizeof(*qp->rq));
	}
	if (!qp->sq || (!s && !qp->rq)) {
		err = ENOMEM;
		goto fail_qp;
	}

	memset(&qa, 0, sizeof(qa));
	qa.qp_state = IBV_QPS_INIT;
	qa.pkey_index = 0;
	qa.port_num = 1;
	qa.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE;
	err = ibv_modify_qp(qp->qp, &qa, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
	if (err)
		goto fail_qp;

	if (srq) {
		__atomic_fetch_add(&srq->refs, 1, __ATOMIC_RELAXED);
		pthread_mutex_lock(&rcq->lock);
		nd_cq_add_srq_qp(rcq, qp);
		pthread_mutex_unlock(&rcq->lock);
	}
	nd_adapter_hold(a);
	p->qp = nd_handle(&qp->obj);
	return ND_SUCCESS;

fail_qp:
	ibv_destroy_qp(qp->qp);
fail_free:
	free(qp->sq);
	free(qp->rq);
	free(qp);
	return err == ENOMEM ? ND_INSUFFICIENT_RESOURCES : nd_status_from_errno(err);
}

void nd_qp_zombie_put(struct nd_qp *qp)
{
	if (__atomic_sub_fetch(&qp->zombie_refs, 1, __ATOMIC_ACQ_REL))
		return;
	if (qp->srq)
		nd_srq_put(qp->srq);
	free(qp->sq);
	free(qp->rq);
	free(qp);
}

ND_CALL(qp_destroy)
{
	struct nd_unix_object_params *p = params;
	struct nd_qp *qp = nd_obj_get(p->object, ND_KIND_QP);
	int err;

	if (!qp)
		return ND_INVALID_HANDLE;
	nd_mw_qp_gone(qp);
	err = ibv_destroy_qp(qp->qp);
	if (err)
		return nd_status_from_errno(err);
	qp->obj.kind = 0;
	qp->qp = NULL;
	nd_batch_free(qp);
	/* Its completions may still sit in its CQs, pointing at its slots:
	 * the CQs free it when they go. */
	qp->zombie_refs = qp->send_cq == qp->recv_cq ? 1 : 2;
	pthread_mutex_lock(&qp->send_cq->lock);
	qp->zombie_next[0] = qp->send_cq->zombies;
	qp->send_cq->zombies = qp;
	pthread_mutex_unlock(&qp->send_cq->lock);
	if (qp->recv_cq != qp->send_cq) {
		pthread_mutex_lock(&qp->recv_cq->lock);
		qp->zombie_next[1] = qp->recv_cq->zombies;
		qp->recv_cq->zombies = qp;
		pthread_mutex_unlock(&qp->recv_cq->lock);
	}
	nd_adapter_release(qp->adapter);
	return ND_SUCCESS;
}

void nd_qp_mark_failed(struct nd_qp *qp)
{
	__atomic_store_n(&qp->failed, 1, __ATOMIC_RELAXED);
}

int nd_qp_to_error(struct nd_qp *qp)
{
	struct ibv_qp_attr qa = { .qp_state = IBV_QPS_ERR };

	return ibv_modify_qp(qp->qp, &qa, IBV_QP_STATE);
}

ND_CALL(qp_flush)
{
	struct nd_unix_object_params *p = params;
	struct nd_qp *qp = nd_obj_get(p->object, ND_KIND_QP);
	int err;

	if (!qp)
		return ND_INVALID_HANDLE;
	/* Requests a batch holds are outstanding too: posted first, they
	 * complete ND_CANCELED with the rest.  (Posted after, they would wait:
	 * rxe's user-space post does not enter the kernel, and only the
	 * kernel flushes a QP in the error state, when it is moved there.) */
	nd_batch_flush(qp);
	err = nd_qp_to_error(qp);
	return nd_status_from_errno(err);
}

int nd_qp_modify_from_cm(struct nd_qp *qp, struct rdma_cm_id *id, enum ibv_qp_state state, uint32_t rd_atomic)
{
	struct ibv_qp_attr qa;
	int mask, err;

	memset(&qa, 0, sizeof(qa));
	qa.qp_state = state;
	err = rdma_init_qp_attr(id, &qa, &mask);
	if (err)
		return errno;
	if (state == IBV_QPS_RTR && (mask & IBV_QP_MAX_DEST_RD_ATOMIC))
		qa.max_dest_rd_atomic = rd_atomic;
	if (state == IBV_QPS_RTS && (mask & IBV_QP_MAX_QP_RD_ATOMIC))
		qa.max_rd_atomic = rd_atomic;
	err = ibv_modify_qp(qp->qp, &qa, mask);
	/* A QP connected anew is no longer the failed one. */
	if (!err && state == IBV_QPS_RTR)
		__atomic_store_n(&qp->failed, 0, __ATOMIC_RELAXED);
	return err;
}

/* ---- the fast path --------------------------------------------------------- */

static inline int32_t post_status(int err)
{
	return err == ENOMEM ? ND_NO_MORE_ENTRIES : nd_status_from_errno(err);
}

int32_t nd_post_status(int err)
{
	return post_status(err);
}

/* QP_RECEIVE and its fast entry (unix_call.h). */
static inline __attribute__((always_inline)) int32_t qp_receive(struct nd_qp *qp, uint64_t context, uint64_t sge,
								 uint32_t nsge)
{
	struct ibv_recv_wr wr, *bad;
	struct nd_slot *s;
	int err;

	if (unlikely(!qp->rq))
		return ND_INVALID_DEVICE_REQUEST;	/* on an SRQ */
	if (unlikely(nsge > qp->max_recv_sge))
		return ND_DATA_OVERRUN;
	if (unlikely(nd_sge_sum((const struct nd_unix_sge *)(uintptr_t)sge, nsge) > ND_MAX_RECEIVE_BYTES))
		return ND_BUFFER_OVERFLOW;
	s = &qp->rq[qp->rq_head & qp->rq_mask];
	if (unlikely(__atomic_load_n(&s->busy, __ATOMIC_ACQUIRE)))
		return ND_NO_MORE_ENTRIES;
	s->context = context;
	s->qp = qp;
	s->type = Nd2RequestTypeReceive;
	__atomic_store_n(&s->busy, 1, __ATOMIC_RELAXED);
	wr.wr_id = (uintptr_t)s;
	wr.next = NULL;
	wr.sg_list = (struct ibv_sge *)(uintptr_t)sge;	/* == ND2_SGE */
	wr.num_sge = nsge;
	if (unlikely(__atomic_load_n(&qp->batching, __ATOMIC_ACQUIRE))) {
		int32_t st = nd_batch_recv(qp, &wr);

		if (st) {
			__atomic_store_n(&s->busy, 0, __ATOMIC_RELAXED);
			return st;
		}
		qp->rq_head++;
		return ND_SUCCESS;
	}
	err = ibv_post_recv(qp->qp, &wr, &bad);
	if (unlikely(err)) {
		__atomic_store_n(&s->busy, 0, __ATOMIC_RELAXED);
		return post_status(err);
	}
	qp->rq_head++;
	/* After Flush, or after the device failed a request of this QP and
	 * moved it to ERR itself: rxe's user-space post never enters the
	 * kernel, which flushes an error-state QP only when moved there, so
	 * the Receive would wait for ever instead of completing ND_CANCELED.
	 * Moving it to ERR again flushes it (and updates the cached state). */
	if (unlikely(qp->qp->state == IBV_QPS_ERR || __atomic_load_n(&qp->failed, __ATOMIC_RELAXED)))
		nd_qp_to_error(qp);
	return ND_SUCCESS;
}

ND_CALL(qp_receive)
{
	struct nd_unix_post_params *p = params;

	return qp_receive((struct nd_qp *)(uintptr_t)p->object, p->context, p->sge, p->nsge);
}

int32_t ND_UNIX_SYSV nd_fast_qp_receive(uint64_t qp, uint64_t context, uint64_t sge, uint32_t nsge, uint32_t flags)
{
	return qp_receive((struct nd_qp *)(uintptr_t)qp, context, sge, nsge);
}

#define ND_SEND_FLAGS (ND_OP_FLAG_SILENT_SUCCESS | ND_OP_FLAG_READ_FENCE | \
		       ND_OP_FLAG_SEND_AND_SOLICIT_EVENT | ND_OP_FLAG_INLINE)

/* ND_OP_FLAG_* (the Send, Read, Write, Bind and Invalidate subset, within
 * ND_SEND_FLAGS) to IBV_SEND_*: one load instead of four tests. */
#define SEND_FLAGS_OF(f) \
	((((f) & ND_OP_FLAG_SILENT_SUCCESS) ? 0 : IBV_SEND_SIGNALED) | \
	 (((f) & ND_OP_FLAG_READ_FENCE) ? IBV_SEND_FENCE : 0) | \
	 (((f) & ND_OP_FLAG_SEND_AND_SOLICIT_EVENT) ? IBV_SEND_SOLICITED : 0) | \
	 (((f) & ND_OP_FLAG_INLINE) ? IBV_SEND_INLINE : 0))
#define SF4(f) SEND_FLAGS_OF(f), SEND_FLAGS_OF((f) + 1), SEND_FLAGS_OF((f) + 2), SEND_FLAGS_OF((f) + 3)
#define SF8(f) SF4(f), SF4((f) + 4)
static const uint8_t send_flags_map[ND_SEND_FLAGS + 1] = { SF8(0), SF8(8), SF8(16), SF8(24), SF8(32) };
_Static_assert(ND_SEND_FLAGS + 1 == 40, "send_flags_map holds every combination of ND_SEND_FLAGS");

static inline unsigned send_flags(uint32_t f)
{
	return send_flags_map[f & ND_SEND_FLAGS];
}

/* Claims the next send slot; NULL when the ring is full (requests the
 * poller has not reaped yet still own theirs). */
static inline struct nd_slot *sq_slot(struct nd_qp *qp, uint64_t context, uint32_t type)
{
	uint64_t head = qp->sq_head;	/* read once: the acquire below would reload it */
	struct nd_slot *s;

	if (unlikely(head - __atomic_load_n(&qp->sq_tail, __ATOMIC_ACQUIRE) > qp->sq_mask))
		return NULL;
	s = &qp->sq[head & qp->sq_mask];
	s->context = context;
	s->qp = qp;
	s->type = type;
	s->seq = head;
	s->silent = 0;
	return s;
}

/* Silent successes make no completion, so nothing would ever hand their
 * slots back: every half ring, one is signaled anyway and GetResults drops
 * its result. */
static inline unsigned retire(struct nd_qp *qp, struct nd_slot *s, unsigned flags)
{
	if (flags & IBV_SEND_SIGNALED) {
		qp->unsignaled = 0;
		return flags;
	}
	if (++qp->unsignaled < (qp->sq_mask + 1) / 2)
		return flags;
	qp->unsignaled = 0;
	s->silent = 1;
	return flags | IBV_SEND_SIGNALED;
}

static inline int32_t post_send(struct nd_qp *qp, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad;
	int err;

	/* A QP that was never connected takes no initiator requests (one in
	 * ERR does, and flushes them). */
	if (unlikely(qp->qp->state < IBV_QPS_RTS))
		return ND_CONNECTION_INVALID;
	if (unlikely(__atomic_load_n(&qp->batching, __ATOMIC_ACQUIRE)))
		return nd_batch_send(qp, wr);
	err = ibv_post_send(qp->qp, wr, &bad);
	if (unlikely(err))
		return post_status(err);
	qp->sq_head++;
	return ND_SUCCESS;
}

/* ND_BUFFER_OVERFLOW: more than one request carries (MaxTransferLength)
 * or than the QP's inline size. */
static inline int32_t check_send_sges(struct nd_qp *qp, uint64_t sge, uint32_t nsge, uint32_t flags)
{
	uint64_t total;

	if (unlikely(nsge > qp->max_send_sge))
		return ND_DATA_OVERRUN;
	total = nd_sge_sum((const struct nd_unix_sge *)(uintptr_t)sge, nsge);
	if (unlikely(total > qp->max_transfer))
		return ND_BUFFER_OVERFLOW;
	if ((flags & ND_OP_FLAG_INLINE) && unlikely(total > qp->max_inline))
		return ND_BUFFER_OVERFLOW;
	return ND_SUCCESS;
}

static inline int32_t check_sges(struct nd_qp *qp, const struct nd_unix_post_params *p, uint32_t flags)
{
	return check_send_sges(qp, p->sge, p->nsge, flags);
}

/* QP_SEND and its fast entry (unix_call.h). */
static inline __attribute__((always_inline)) int32_t qp_send(struct nd_qp *qp, uint64_t context, uint64_t sge,
							      uint32_t nsge, uint32_t flags)
{
	struct ibv_send_wr wr;
	struct nd_slot *s;
	int32_t st;

	if (unlikely(flags & ~ND_SEND_FLAGS))
		return ND_INVALID_PARAMETER_4;
	st = check_send_sges(qp, sge, nsge, flags);
	if (unlikely(st))
		return st;
	if (unlikely(!(s = sq_slot(qp, context, Nd2RequestTypeSend))))
		return ND_NO_MORE_ENTRIES;
	/* Only what a Send reads: the unions after imm_data belong to other
	 * opcodes (RDMA, atomic, UD, bind, TSO), and clearing all 128 bytes
	 * was a fifth of this call's instructions. */
	wr.wr_id = (uintptr_t)s;
	wr.next = NULL;
	wr.sg_list = (struct ibv_sge *)(uintptr_t)sge;
	wr.num_sge = nsge;
	wr.opcode = IBV_WR_SEND;
	wr.imm_data = 0;
	if (flags & ND_OP_FLAG_SEND_AND_SOLICIT_EVENT) {
		wr.opcode = IBV_WR_SEND_WITH_IMM;
		wr.imm_data = htonl(ND_IMM_SOLICITED);
	}
	wr.send_flags = retire(qp, s, send_flags(flags));
	return post_send(qp, &wr);
}

ND_CALL(qp_send)
{
	struct nd_unix_post_params *p = params;

	return qp_send((struct nd_qp *)(uintptr_t)p->object, p->context, p->sge, p->nsge, p->flags);
}

int32_t ND_UNIX_SYSV nd_fast_qp_send(uint64_t qp, uint64_t context, uint64_t sge, uint32_t nsge, uint32_t flags)
{
	return qp_send((struct nd_qp *)(uintptr_t)qp, context, sge, nsge, flags);
}

/* ND v1's SendAndInvalidate: a Send that carries the peer's token for it
 * to invalidate on arrival.  It needs the memory management extensions
 * (send with invalidate); without them nothing is posted. */
ND_CALL(qp_send_invalidate)
{
	struct nd_unix_send_invalidate_params *p = params;
	struct nd_qp *qp = nd_obj_get(p->qp, ND_KIND_QP);
	struct nd_unix_post_params pp = { p->qp, p->context, p->sge, p->nsge, p->flags };
	struct ibv_send_wr wr;
	struct nd_slot *s;
	int32_t st;

	if (!qp)
		return ND_INVALID_HANDLE;
	if (!(qp->adapter->attr.device_cap_flags & IBV_DEVICE_MEM_MGT_EXTENSIONS))
		return ND_NOT_SUPPORTED;
	if (p->flags & ~ND_SEND_FLAGS)
		return ND_INVALID_PARAMETER_5;
	st = check_sges(qp, &pp, p->flags);
	if (st)
		return st;
	if (!(s = sq_slot(qp, p->context, Nd2RequestTypeSend)))
		return ND_NO_MORE_ENTRIES;
	memset(&wr, 0, sizeof(wr));
	wr.wr_id = (uintptr_t)s;
	wr.sg_list = (struct ibv_sge *)(uintptr_t)p->sge;
	wr.num_sge = p->nsge;
	wr.opcode = IBV_WR_SEND_WITH_INV;
	wr.send_flags = retire(qp, s, send_flags(p->flags));
	wr.invalidate_rkey = ntohl(p->remote_token);
	return post_send(qp, &wr);
}

static int32_t rdma(struct nd_unix_rdma_params *p, enum ibv_wr_opcode op, uint32_t type)
{
	struct nd_qp *qp = (struct nd_qp *)(uintptr_t)p->qp;
	struct nd_unix_post_params pp = { p->qp, p->context, p->sge, p->nsge, p->flags };
	uint32_t allowed = type == Nd2RequestTypeRead ?
		(ND_OP_FLAG_SILENT_SUCCESS | ND_OP_FLAG_READ_FENCE) : ND_SEND_FLAGS & ~ND_OP_FLAG_SEND_AND_SOLICIT_EVENT;
	struct ibv_send_wr wr;
	struct nd_slot *s;
	int32_t st;

	if (unlikely(p->flags & ~allowed))
		return ND_INVALID_PARAMETER_6;
	st = check_sges(qp, &pp, p->flags);
	if (unlikely(st))
		return st;
	if (unlikely(!(s = sq_slot(qp, p->context, type))))
		return ND_NO_MORE_ENTRIES;
	memset(&wr, 0, sizeof(wr));
	wr.wr_id = (uintptr_t)s;
	wr.sg_list = (struct ibv_sge *)(uintptr_t)p->sge;
	wr.num_sge = p->nsge;
	wr.opcode = op;
	wr.send_flags = retire(qp, s, send_flags(p->flags));
	wr.wr.rdma.remote_addr = p->remote_address;
	wr.wr.rdma.rkey = ntohl(p->remote_token);
	return post_send(qp, &wr);
}

ND_CALL(qp_read)
{
	return rdma(params, IBV_WR_RDMA_READ, Nd2RequestTypeRead);
}

ND_CALL(qp_write)
{
	return rdma(params, IBV_WR_RDMA_WRITE, Nd2RequestTypeWrite);
}

/* ---- memory windows (type 2: bound and invalidated through the QP) ------------- */

ND_CALL(qp_bind)
{
	struct nd_unix_qp_bind_params *p = params;
	struct nd_qp *qp = nd_obj_get(p->qp, ND_KIND_QP);
	struct nd_mr *mr = nd_obj_get(p->mr, ND_KIND_MR);
	struct nd_mw *mw = nd_obj_get(p->mw, ND_KIND_MW);
	uint32_t allowed = ND_OP_FLAG_SILENT_SUCCESS | ND_OP_FLAG_READ_FENCE |
			   ND_OP_FLAG_ALLOW_READ | ND_OP_FLAG_ALLOW_WRITE;
	struct ibv_send_wr wr;
	struct nd_slot *s;
	uint32_t rkey;
	int32_t st;

	if (!qp)
		return ND_INVALID_HANDLE;
	if (!mr || !mr->mr)
		return ND_INVALID_PARAMETER_2;
	if (!mw)
		return ND_INVALID_PARAMETER_3;
	if (!mw->mw)
		return ND_INSUFFICIENT_RESOURCES;	/* its replacement could not be made (nd_mw_qp_gone) */
	/* No ALLOW flag is a window that grants nothing: clients bind those. */
	if (p->flags & ~allowed)
		return ND_INVALID_PARAMETER_6;
	if ((p->flags & ND_OP_FLAG_ALLOW_WRITE) && !(mr->mr_access & IBV_ACCESS_LOCAL_WRITE))
		return ND_ACCESS_VIOLATION;
	if (!(s = sq_slot(qp, p->context, Nd2RequestTypeBind)))
		return ND_NO_MORE_ENTRIES;
	rkey = ibv_inc_rkey(mw->rkey);
	memset(&wr, 0, sizeof(wr));
	wr.wr_id = (uintptr_t)s;
	wr.opcode = IBV_WR_BIND_MW;
	wr.send_flags = retire(qp, s, send_flags(p->flags & (ND_OP_FLAG_SILENT_SUCCESS | ND_OP_FLAG_READ_FENCE)));
	wr.bind_mw.mw = mw->mw;
	wr.bind_mw.rkey = rkey;
	wr.bind_mw.bind_info.mr = mr->mr;
	wr.bind_mw.bind_info.addr = p->buffer;
	wr.bind_mw.bind_info.length = p->length;
	wr.bind_mw.bind_info.mw_access_flags =
		((p->flags & ND_OP_FLAG_ALLOW_READ) ? IBV_ACCESS_REMOTE_READ : 0) |
		((p->flags & ND_OP_FLAG_ALLOW_WRITE) ? IBV_ACCESS_REMOTE_WRITE : 0);
	st = post_send(qp, &wr);
	if (st)
		return st;
	/* A Receive reaped on another thread may unbind it at the same time
	 * (nd_mw_remote_invalidated). */
	pthread_mutex_lock(&qp->adapter->lock);
	mw->rkey = rkey;
	/* rxe checks a bind's window key against the key the window has now,
	 * which only the kernel updates: without this a window could not be
	 * bound again after its Invalidate (the request fails with MW_BIND_ERR). */
	mw->mw->rkey = rkey;
	mw->bind_qp = qp;
	if (mw->bound_mr != mr) {
		nd_mr_bind(mr);
		if (mw->bound_mr)
			nd_mr_unbind(mw->bound_mr);
		mw->bound_mr = mr;
	}
	pthread_mutex_unlock(&qp->adapter->lock);
	p->remote_token = htonl(rkey);
	return ND_SUCCESS;
}

ND_CALL(qp_invalidate)
{
	struct nd_unix_qp_invalidate_params *p = params;
	struct nd_qp *qp = nd_obj_get(p->qp, ND_KIND_QP);
	struct nd_mw *mw = nd_obj_get(p->mw, ND_KIND_MW);
	struct ibv_send_wr wr;
	struct nd_slot *s;
	int32_t st;

	if (!qp)
		return ND_INVALID_HANDLE;
	if (!mw)
		return ND_INVALID_PARAMETER_2;
	if (p->flags & ~(ND_OP_FLAG_SILENT_SUCCESS | ND_OP_FLAG_READ_FENCE))
		return ND_INVALID_PARAMETER_3;
	if (unlikely(qp->qp->state < IBV_QPS_RTS))
		return ND_CONNECTION_INVALID;
	/* rxe (Linux 6.1) dereferences a NULL region in the kernel on a local
	 * invalidate of a window never bound, and the machine panics: the
	 * malformed request (ND2_RESULT's own example of
	 * ND_INVALID_DEVICE_REQUEST) never reaches the device, and fails here
	 * with the QP still usable (docs/nd2-decisions.md). */
	if (!mw->bound_mr)
		return ND_INVALID_DEVICE_REQUEST;
	if (!(s = sq_slot(qp, p->context, Nd2RequestTypeInvalidate)))
		return ND_NO_MORE_ENTRIES;
	memset(&wr, 0, sizeof(wr));
	wr.wr_id = (uintptr_t)s;
	wr.opcode = IBV_WR_LOCAL_INV;
	wr.send_flags = retire(qp, s, send_flags(p->flags));
	wr.invalidate_rkey = mw->rkey;
	st = post_send(qp, &wr);
	if (st)
		return st;
	pthread_mutex_lock(&qp->adapter->lock);
	if (mw->bound_mr) {
		nd_mr_unbind(mw->bound_mr);
		mw->bound_mr = NULL;
	}
	pthread_mutex_unlock(&qp->adapter->lock);
	return ND_SUCCESS;
}

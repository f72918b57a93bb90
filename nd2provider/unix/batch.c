/* ND v1 request batches (INDEndpoint::StartRequestBatch and
 * SubmitRequestBatch).  While a QP batches, each request is still checked
 * and given its slot by its own call, so every synchronous status (a full
 * queue, too many SGEs, no connection) is the one it would be without a
 * batch; only the hand-over to the device waits: the work requests, with
 * copies of their SGE lists (the caller's may be on its stack), queue
 * here until SUBMIT posts each queue's share as one chain (one doorbell).
 *
 * The queues' capacities are checked against what the device gave, not
 * only the slot rings (rounded up to a power of two), so a chain the
 * device refuses is a device failure, not a full queue; if it happens
 * anyway, the refused requests complete through their CQ with its status.
 *
 * The sender thread starts and submits; a receiving thread may post at
 * the same time (the batch's lock orders the two). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nd_unix.h"

/* Longer batches are handed over early, which the v1 docs allow. */
#define ND_BATCH_MAX 64

struct nd_batch {
	pthread_mutex_t lock;
	uint32_t nsend, nrecv;
	uint32_t send_sge, recv_sge;	/* room per request */
	struct ibv_send_wr send[ND_BATCH_MAX];
	struct ibv_recv_wr recv[ND_BATCH_MAX];
	struct ibv_sge *send_sges, *recv_sges;
};

/* batch->lock held. */
static void flush_recv(struct nd_qp *qp, struct nd_batch *b)
{
	struct ibv_recv_wr *bad = NULL;
	uint32_t i;
	int err;

	if (!b->nrecv)
		return;
	for (i = 0; i < b->nrecv; i++)
		b->recv[i].next = i + 1 < b->nrecv ? &b->recv[i + 1] : NULL;
	err = ibv_post_recv(qp->qp, b->recv, &bad);
	if (err) {
		nd_log("the device refused a batch of receives (%s)", strerror(err));
		for (; bad; bad = bad->next)
			nd_cq_soft_complete(qp->recv_cq, bad->wr_id, qp->qp_num, nd_post_status(err));
	}
	b->nrecv = 0;
}

/* batch->lock held. */
static void flush_send(struct nd_qp *qp, struct nd_batch *b)
{
	struct ibv_send_wr *bad = NULL;
	uint32_t i;
	int err;

	if (!b->nsend)
		return;
	for (i = 0; i < b->nsend; i++)
		b->send[i].next = i + 1 < b->nsend ? &b->send[i + 1] : NULL;
	err = ibv_post_send(qp->qp, b->send, &bad);
	if (err) {
		nd_log("the device refused a batch of requests (%s)", strerror(err));
		for (; bad; bad = bad->next)
			nd_cq_soft_complete(qp->send_cq, bad->wr_id, qp->qp_num, nd_post_status(err));
	}
	b->nsend = 0;
}

int32_t nd_batch_send(struct nd_qp *qp, struct ibv_send_wr *wr)
{
	struct nd_batch *b = qp->batch;
	struct ibv_send_wr *bad;
	struct ibv_send_wr *q;
	int err;

	pthread_mutex_lock(&b->lock);
	if (!qp->batching) {
		/* submitted meanwhile */
		pthread_mutex_unlock(&b->lock);
		err = ibv_post_send(qp->qp, wr, &bad);
		if (err)
			return nd_post_status(err);
		qp->sq_head++;
		return ND_SUCCESS;
	}
	/* The ring's slot is claimed; the device's queue may be shorter. */
	if (qp->sq_head - __atomic_load_n(&qp->sq_tail, __ATOMIC_ACQUIRE) >= qp->max_send_wr) {
		pthread_mutex_unlock(&b->lock);
		return ND_NO_MORE_ENTRIES;
	}
	if (b->nsend == ND_BATCH_MAX)
		flush_send(qp, b);
	q = &b->send[b->nsend];
	*q = *wr;
	/* Inline data is copied by the post, from the caller's buffers. */
	if (wr->num_sge) {
		q->sg_list = &b->send_sges[(size_t)b->nsend * b->send_sge];
		memcpy(q->sg_list, wr->sg_list, wr->num_sge * sizeof(*wr->sg_list));
	}
	b->nsend++;
	qp->sq_head++;
	pthread_mutex_unlock(&b->lock);
	return ND_SUCCESS;
}

int32_t nd_batch_recv(struct nd_qp *qp, struct ibv_recv_wr *wr)
{
	struct nd_batch *b = qp->batch;
	struct ibv_recv_wr *bad, *q;
	uint32_t next;
	int err;

	pthread_mutex_lock(&b->lock);
	if (!qp->batching) {
		pthread_mutex_unlock(&b->lock);
		err = ibv_post_recv(qp->qp, wr, &bad);
		return err ? nd_post_status(err) : ND_SUCCESS;
	}
	/* Receives complete in order, so the busy slots are one run behind
	 * rq_head: with the ring longer than the device's queue, the slot
	 * after ours must be free too, or the device's queue is full. */
	next = (qp->rq_head + 1) & qp->rq_mask;
	if (qp->rq_mask + 1 > qp->max_recv_wr && __atomic_load_n(&qp->rq[next].busy, __ATOMIC_ACQUIRE)) {
		pthread_mutex_unlock(&b->lock);
		return ND_NO_MORE_ENTRIES;
	}
	if (b->nrecv == ND_BATCH_MAX)
		flush_recv(qp, b);
	q = &b->recv[b->nrecv];
	*q = *wr;
	if (wr->num_sge) {
		q->sg_list = &b->recv_sges[(size_t)b->nrecv * b->recv_sge];
		memcpy(q->sg_list, wr->sg_list, wr->num_sge * sizeof(*wr->sg_list));
	}
	b->nrecv++;
	pthread_mutex_unlock(&b->lock);
	return ND_SUCCESS;
}

static int32_t batch_start(struct nd_qp *qp)
{
	struct nd_batch *b = qp->batch;

	if (!b) {
		b = calloc(1, sizeof(*b));
		if (!b)
			return ND_NO_MEMORY;
		b->send_sge = qp->max_send_sge ? qp->max_send_sge : 1;
		b->recv_sge = qp->max_recv_sge ? qp->max_recv_sge : 1;
		b->send_sges = calloc((size_t)ND_BATCH_MAX * b->send_sge, sizeof(struct ibv_sge));
		b->recv_sges = calloc((size_t)ND_BATCH_MAX * b->recv_sge, sizeof(struct ibv_sge));
		if (!b->send_sges || !b->recv_sges) {
			free(b->send_sges);
			free(b->recv_sges);
			free(b);
			return ND_NO_MEMORY;
		}
		pthread_mutex_init(&b->lock, NULL);
		__atomic_store_n(&qp->batch, b, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&qp->batching, 1, __ATOMIC_RELEASE);
	return ND_SUCCESS;
}

/* Receives first: a peer answering one of the batch's Sends finds them. */
static void batch_submit(struct nd_qp *qp)
{
	struct nd_batch *b = qp->batch;

	if (!b)
		return;
	pthread_mutex_lock(&b->lock);
	__atomic_store_n(&qp->batching, 0, __ATOMIC_RELEASE);
	flush_recv(qp, b);
	flush_send(qp, b);
	pthread_mutex_unlock(&b->lock);
}

void nd_batch_flush(struct nd_qp *qp)
{
	struct nd_batch *b = qp->batch;

	if (!b)
		return;
	pthread_mutex_lock(&b->lock);
	flush_recv(qp, b);
	flush_send(qp, b);
	pthread_mutex_unlock(&b->lock);
}

ND_CALL(qp_batch)
{
	struct nd_unix_qp_batch_params *p = params;
	struct nd_qp *qp = nd_obj_get(p->qp, ND_KIND_QP);

	if (!qp)
		return ND_INVALID_HANDLE;
	switch (p->op) {
	case ND_UNIX_BATCH_START:
		return batch_start(qp);
	case ND_UNIX_BATCH_SUBMIT:
		batch_submit(qp);
		return ND_SUCCESS;
	default:
		return ND_INVALID_PARAMETER_2;
	}
}

/* The QP is gone (qp_destroy): what a batch still held never reached the
 * device. */
void nd_batch_free(struct nd_qp *qp)
{
	struct nd_batch *b = qp->batch;

	if (!b)
		return;
	qp->batch = NULL;
	qp->batching = 0;
	pthread_mutex_destroy(&b->lock);
	free(b->send_sges);
	free(b->recv_sges);
	free(b);
}

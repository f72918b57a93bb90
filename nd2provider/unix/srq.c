/* Shared receive queues: Receive (fast path), Modify, and Notify through
 * the device's SRQ limit event. */
#include <errno.h>
#include <stdlib.h>

#include "nd_unix.h"

ND_CALL(srq_create)
{
	struct nd_unix_srq_create_params *p = params;
	struct nd_adapter *a = nd_obj_get(p->adapter, ND_KIND_ADAPTER);
	struct ibv_srq_init_attr ia = { 0 };
	struct nd_srq *srq;
	uint32_t n = 1;
	int err;

	if (!a)
		return ND_INVALID_HANDLE;
	if (nd_adapter_removed(a))
		return ND_DEVICE_REMOVED;
	if (!a->attr.max_srq)
		return ND_NOT_SUPPORTED;
	if (!p->depth || p->depth > (uint32_t)a->attr.max_srq_wr)
		return ND_INVALID_PARAMETER_3;
	if (p->max_sge > (uint32_t)a->attr.max_srq_sge)
		return ND_INVALID_PARAMETER_4;
	srq = calloc(1, sizeof(*srq));
	if (!srq)
		return ND_NO_MEMORY;
	srq->obj.kind = ND_KIND_SRQ;
	srq->adapter = a;
	srq->threshold = p->notify_threshold;
	srq->refs = 1;
	pthread_mutex_init(&srq->lock, NULL);
	nd_pending_init(&srq->notifies);
	ia.srq_context = srq;
	ia.attr.max_wr = p->depth;
	ia.attr.max_sge = p->max_sge ? p->max_sge : 1;
	srq->srq = ibv_create_srq(a->pd, &ia);
	if (!srq->srq) {
		err = errno;
		free(srq);
		return err == ENOMEM ? ND_INSUFFICIENT_RESOURCES : nd_status_from_errno(err);
	}
	srq->max_sge = ia.attr.max_sge;
	/* Receives on an SRQ complete out of order across its QPs: twice the
	 * depth in slots keeps a slow one from blocking the ring. */
	while (n < 2 * ia.attr.max_wr)
		n <<= 1;
	srq->mask = n - 1;
	srq->slots = calloc(n, sizeof(*srq->slots));
	if (!srq->slots) {
		ibv_destroy_srq(srq->srq);
		free(srq);
		return ND_NO_MEMORY;
	}
	pthread_mutex_lock(&a->lock);
	srq->next = a->srqs;
	a->srqs = srq;
	pthread_mutex_unlock(&a->lock);
	nd_adapter_hold(a);
	p->srq = nd_handle(&srq->obj);
	return ND_SUCCESS;
}

void nd_srq_put(struct nd_srq *srq)
{
	if (__atomic_sub_fetch(&srq->refs, 1, __ATOMIC_ACQ_REL))
		return;
	free(srq->slots);
	nd_ev_defer_free(srq);
}

ND_CALL(srq_destroy)
{
	struct nd_unix_object_params *p = params;
	struct nd_srq *srq = nd_obj_get(p->object, ND_KIND_SRQ), **pp;
	struct nd_adapter *a;
	int err;

	if (!srq)
		return ND_INVALID_HANDLE;
	a = srq->adapter;
	pthread_mutex_lock(&nd_ev_lock);
	err = ibv_destroy_srq(srq->srq);
	if (err) {
		pthread_mutex_unlock(&nd_ev_lock);
		return err == EBUSY ? ND_DEVICE_BUSY : nd_status_from_errno(err);
	}
	srq->obj.kind = 0;
	pthread_mutex_lock(&a->lock);
	for (pp = &a->srqs; *pp; pp = &(*pp)->next)
		if (*pp == srq) {
			*pp = srq->next;
			break;
		}
	pthread_mutex_unlock(&a->lock);
	pthread_mutex_unlock(&nd_ev_lock);
	pthread_mutex_lock(&srq->lock);
	srq->srq = NULL;
	nd_pending_complete(&srq->notifies, ND_TAG_ANY, ND_CANCELED);
	pthread_mutex_unlock(&srq->lock);
	nd_adapter_release(a);
	nd_srq_put(srq);
	return ND_SUCCESS;
}

ND_CALL(srq_receive)
{
	struct nd_unix_post_params *p = params;
	struct nd_srq *srq = (struct nd_srq *)(uintptr_t)p->object;
	struct ibv_recv_wr wr, *bad;
	struct nd_slot *s;
	int err;

	if (unlikely(p->nsge > srq->max_sge))
		return ND_DATA_OVERRUN;
	/* One poster at a time per SRQ, as on a QP. */
	s = &srq->slots[srq->head & srq->mask];
	if (unlikely(__atomic_load_n(&s->busy, __ATOMIC_ACQUIRE)))
		return ND_NO_MORE_ENTRIES;
	s->context = p->context;
	s->qp = NULL;
	s->type = Nd2RequestTypeReceive;
	__atomic_store_n(&s->busy, 1, __ATOMIC_RELAXED);
	wr.wr_id = (uintptr_t)s;
	wr.next = NULL;
	wr.sg_list = (struct ibv_sge *)(uintptr_t)p->sge;
	wr.num_sge = p->nsge;
	err = ibv_post_srq_recv(srq->srq, &wr, &bad);
	if (unlikely(err)) {
		__atomic_store_n(&s->busy, 0, __ATOMIC_RELAXED);
		return err == ENOMEM ? ND_NO_MORE_ENTRIES : nd_status_from_errno(err);
	}
	srq->head++;
	return ND_SUCCESS;
}

/* srq->lock held: ask the device for the limit event; a queue already
 * below the threshold (the device refuses the limit) notifies at once. */
static void arm_limit(struct nd_srq *srq)
{
	struct ibv_srq_attr attr = { .srq_limit = srq->threshold };

	if (!srq->threshold || !srq->notifies.head)
		return;
	if (ibv_modify_srq(srq->srq, &attr, IBV_SRQ_LIMIT))
		nd_pending_complete(&srq->notifies, ND_TAG_ANY, ND_SUCCESS);
}

ND_CALL(srq_modify)
{
	struct nd_unix_srq_modify_params *p = params;
	struct nd_srq *srq = nd_obj_get(p->srq, ND_KIND_SRQ);
	int err = 0;

	if (!srq)
		return ND_INVALID_HANDLE;
	if (p->depth > (uint32_t)srq->adapter->attr.max_srq_wr)
		return ND_INVALID_PARAMETER;
	pthread_mutex_lock(&srq->lock);
	if (p->depth) {
		struct ibv_srq_attr attr = { .max_wr = p->depth };
		err = ibv_modify_srq(srq->srq, &attr, IBV_SRQ_MAX_WR);
	}
	if (!err && p->notify_threshold) {
		srq->threshold = p->notify_threshold;
		arm_limit(srq);
	}
	pthread_mutex_unlock(&srq->lock);
	if (err == EINVAL && p->depth)
		return ND_BUFFER_OVERFLOW;
	return err == ENOMEM ? ND_INSUFFICIENT_RESOURCES : nd_status_from_errno(err);
}

ND_CALL(srq_notify)
{
	struct nd_unix_ov_params *p = params;
	struct nd_srq *srq = nd_obj_get(p->object, ND_KIND_SRQ);
	int32_t st;

	if (!srq)
		return ND_INVALID_HANDLE;
	if (nd_adapter_removed(srq->adapter))
		return ND_DEVICE_REMOVED;
	pthread_mutex_lock(&srq->lock);
	st = nd_pending_add(&srq->notifies, &p->ov, 0, NULL);
	if (st == ND_PENDING)
		arm_limit(srq);
	pthread_mutex_unlock(&srq->lock);
	return st;
}

void nd_srq_async_event(struct nd_srq *srq, enum ibv_event_type type)
{
	if (!srq)
		return;
	pthread_mutex_lock(&srq->lock);
	nd_pending_complete(&srq->notifies, ND_TAG_ANY,
			    type == IBV_EVENT_SRQ_LIMIT_REACHED ? ND_SUCCESS : ND_INTERNAL_ERROR);
	pthread_mutex_unlock(&srq->lock);
}

int32_t nd_srq_cancel(struct nd_srq *srq)
{
	pthread_mutex_lock(&srq->lock);
	nd_pending_complete(&srq->notifies, ND_TAG_ANY, ND_CANCELED);
	pthread_mutex_unlock(&srq->lock);
	return ND_SUCCESS;
}

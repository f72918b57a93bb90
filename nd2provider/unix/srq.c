/* Shared receive queues: Receive (fast path), Modify, and Notify: the
 * device's SRQ limit event says when the queue falls below the threshold,
 * and the count kept here answers a Notify issued when it already has
 * (the device only reports a crossing). */
#include <errno.h>
#include <stdlib.h>

#include "nd_unix.h"

struct slot_chunk {
	struct slot_chunk *next;
	struct nd_slot slots[];
};

/* srq->lock held (or not yet shared): n more slots for the poster. */
static int add_slots(struct nd_srq *srq, uint32_t n)
{
	struct slot_chunk *c = calloc(1, sizeof(*c) + n * sizeof(struct nd_slot));
	struct nd_slot *head;
	uint32_t i;

	if (!c)
		return ENOMEM;
	for (i = 0; i < n; i++) {
		c->slots[i].srq = srq;
		c->slots[i].type = Nd2RequestTypeReceive;
		c->slots[i].next = i + 1 < n ? &c->slots[i + 1] : NULL;
	}
	c->next = srq->chunks;
	srq->chunks = c;
	srq->nslots += n;
	head = __atomic_load_n(&srq->returned, __ATOMIC_RELAXED);
	do
		c->slots[n - 1].next = head;
	while (!__atomic_compare_exchange_n(&srq->returned, &head, &c->slots[0], true, __ATOMIC_RELEASE,
					    __ATOMIC_RELAXED));
	return 0;
}

static inline uint32_t outstanding(struct nd_srq *srq)
{
	return (uint32_t)(__atomic_load_n(&srq->posted, __ATOMIC_ACQUIRE) -
			  __atomic_load_n(&srq->retired, __ATOMIC_ACQUIRE));
}

ND_CALL(srq_create)
{
	struct nd_unix_srq_create_params *p = params;
	struct nd_adapter *a = nd_obj_get(p->adapter, ND_KIND_ADAPTER);
	struct ibv_srq_init_attr ia = { 0 };
	struct nd_srq *srq;
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
	srq->depth = p->depth;
	srq->device_depth = ia.attr.max_wr;
	if (add_slots(srq, p->depth)) {
		ibv_destroy_srq(srq->srq);
		free(srq);
		return ND_NO_MEMORY;
	}
	pthread_mutex_lock(&nd_ev_lock);	/* nd_device_removed walks the list */
	pthread_mutex_lock(&a->lock);
	srq->next = a->srqs;
	a->srqs = srq;
	pthread_mutex_unlock(&a->lock);
	pthread_mutex_unlock(&nd_ev_lock);
	nd_adapter_hold(a);
	p->srq = nd_handle(&srq->obj);
	return ND_SUCCESS;
}

void nd_srq_put(struct nd_srq *srq)
{
	struct slot_chunk *c, *next;

	if (__atomic_sub_fetch(&srq->refs, 1, __ATOMIC_ACQ_REL))
		return;
	for (c = srq->chunks; c; c = next) {
		next = c->next;
		free(c);
	}
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
	if (unlikely(nd_sge_bytes(p) > ND_MAX_RECEIVE_BYTES))
		return ND_BUFFER_OVERFLOW;
	/* One poster at a time per SRQ, as on a QP. */
	if (unlikely(srq->posted - __atomic_load_n(&srq->retired, __ATOMIC_ACQUIRE) >=
		     __atomic_load_n(&srq->depth, __ATOMIC_RELAXED)))
		return ND_NO_MORE_ENTRIES;
	s = srq->free;
	if (!s) {
		s = __atomic_exchange_n(&srq->returned, NULL, __ATOMIC_ACQUIRE);
		if (unlikely(!s))
			return ND_NO_MORE_ENTRIES;
	}
	srq->free = s->next;
	s->context = p->context;
	s->qp = NULL;
	wr.wr_id = (uintptr_t)s;
	wr.next = NULL;
	wr.sg_list = (struct ibv_sge *)(uintptr_t)p->sge;	/* ND2_SGE has ibv_sge's layout */
	wr.num_sge = p->nsge;
	err = ibv_post_srq_recv(srq->srq, &wr, &bad);
	if (unlikely(err)) {
		s->next = srq->free;
		srq->free = s;
		return err == ENOMEM ? ND_NO_MORE_ENTRIES : nd_status_from_errno(err);
	}
	__atomic_store_n(&srq->posted, srq->posted + 1, __ATOMIC_RELEASE);
	return ND_SUCCESS;
}

/* srq->lock held: with Notify requests waiting, complete them if the queue
 * is already below the threshold, else ask the device for the limit event
 * (and let pollers look too: the device counts receives the client has not
 * seen complete yet as gone, and only reports the next crossing). */
static int32_t evaluate(struct nd_srq *srq)
{
	struct ibv_srq_attr attr = { .srq_limit = srq->threshold };
	int err;

	if (!srq->notifies.head || !srq->threshold) {
		__atomic_store_n(&srq->armed, 0, __ATOMIC_RELAXED);
		return ND_SUCCESS;
	}
	if (outstanding(srq) < srq->threshold) {
		/* A limit armed for these requests would wake the next ones
		 * for nothing. */
		if (__atomic_exchange_n(&srq->armed, 0, __ATOMIC_RELAXED)) {
			attr.srq_limit = 0;
			ibv_modify_srq(srq->srq, &attr, IBV_SRQ_LIMIT);
		}
		nd_pending_complete(&srq->notifies, ND_TAG_ANY, ND_SUCCESS);
		return ND_SUCCESS;
	}
	err = ibv_modify_srq(srq->srq, &attr, IBV_SRQ_LIMIT);
	if (err)
		return err == ENOMEM ? ND_INSUFFICIENT_RESOURCES : nd_status_from_errno(err);
	__atomic_store_n(&srq->armed, 1, __ATOMIC_RELEASE);
	return ND_SUCCESS;
}

void nd_srq_retire(struct nd_slot *s)
{
	struct nd_srq *srq = s->srq;
	struct nd_slot *head = __atomic_load_n(&srq->returned, __ATOMIC_RELAXED);

	do
		s->next = head;
	while (!__atomic_compare_exchange_n(&srq->returned, &head, s, true, __ATOMIC_RELEASE, __ATOMIC_RELAXED));
	__atomic_add_fetch(&srq->retired, 1, __ATOMIC_RELEASE);
	if (unlikely(__atomic_load_n(&srq->armed, __ATOMIC_ACQUIRE))) {
		pthread_mutex_lock(&srq->lock);
		if (srq->srq && outstanding(srq) < srq->threshold)
			evaluate(srq);
		pthread_mutex_unlock(&srq->lock);
	}
}

ND_CALL(srq_modify)
{
	struct nd_unix_srq_modify_params *p = params;
	struct nd_srq *srq = nd_obj_get(p->srq, ND_KIND_SRQ);
	int32_t st = ND_SUCCESS;
	int err;

	if (!srq)
		return ND_INVALID_HANDLE;
	if (p->depth > (uint32_t)srq->adapter->attr.max_srq_wr)
		return ND_INVALID_PARAMETER;
	pthread_mutex_lock(&srq->lock);
	if (p->notify_threshold > (p->depth ? p->depth : srq->depth)) {
		st = ND_INVALID_PARAMETER;
		goto out;
	}
	/* Nothing changes unless all of it can. */
	if (p->depth && p->depth < outstanding(srq)) {
		st = ND_BUFFER_OVERFLOW;
		goto out;
	}
	if (p->depth > srq->device_depth) {
		struct ibv_srq_attr attr = { .max_wr = p->depth };

		err = ibv_modify_srq(srq->srq, &attr, IBV_SRQ_MAX_WR);
		if (err) {
			st = err == ENOMEM ? ND_INSUFFICIENT_RESOURCES : nd_status_from_errno(err);
			goto out;
		}
		srq->device_depth = p->depth;
	}
	if (p->depth > srq->nslots && add_slots(srq, p->depth - srq->nslots)) {
		st = ND_INSUFFICIENT_RESOURCES;
		goto out;
	}
	if (p->depth)
		__atomic_store_n(&srq->depth, p->depth, __ATOMIC_RELAXED);
	if (p->notify_threshold) {
		srq->threshold = p->notify_threshold;
		st = evaluate(srq);
	}
out:
	pthread_mutex_unlock(&srq->lock);
	return st;
}

ND_CALL(srq_notify)
{
	struct nd_unix_ov_params *p = params;
	struct nd_srq *srq = nd_obj_get(p->object, ND_KIND_SRQ);
	uint32_t tag;
	int32_t st;

	if (!srq)
		return ND_INVALID_HANDLE;
	if (nd_adapter_removed(srq->adapter))
		return ND_DEVICE_REMOVED;
	pthread_mutex_lock(&srq->lock);
	/* Again under the lock: nd_device_removed's sweep takes it. */
	if (nd_adapter_removed(srq->adapter)) {
		pthread_mutex_unlock(&srq->lock);
		return ND_DEVICE_REMOVED;
	}
	/* A tag of its own, to take this request back if arming fails. */
	tag = ++srq->notify_tag & 0x7fffffffu;
	st = nd_pending_add(&srq->notifies, &p->ov, tag, NULL);
	if (st == ND_PENDING) {
		int32_t err = evaluate(srq);

		if (err != ND_SUCCESS) {
			free(nd_pending_take(&srq->notifies, tag));
			st = err;
		}
	}
	pthread_mutex_unlock(&srq->lock);
	return st;
}

void nd_srq_async_event(struct nd_srq *srq, enum ibv_event_type type)
{
	if (!srq)
		return;
	/* The docs' ND_FAILURE for a catastrophic SRQ error is no status of
	 * ndstatus.h: ND_UNSUCCESSFUL is the generic failure it stands for. */
	pthread_mutex_lock(&srq->lock);
	__atomic_store_n(&srq->armed, 0, __ATOMIC_RELAXED);
	nd_pending_complete(&srq->notifies, ND_TAG_ANY,
			    type == IBV_EVENT_SRQ_LIMIT_REACHED ? ND_SUCCESS : ND_UNSUCCESSFUL);
	pthread_mutex_unlock(&srq->lock);
}

void nd_srq_device_removed(struct nd_srq *srq)
{
	pthread_mutex_lock(&srq->lock);
	__atomic_store_n(&srq->armed, 0, __ATOMIC_RELAXED);
	nd_pending_complete(&srq->notifies, ND_TAG_ANY, ND_DEVICE_REMOVED);
	pthread_mutex_unlock(&srq->lock);
}

int32_t nd_srq_cancel(struct nd_srq *srq)
{
	pthread_mutex_lock(&srq->lock);
	nd_pending_complete(&srq->notifies, ND_TAG_ANY, ND_CANCELED);
	pthread_mutex_unlock(&srq->lock);
	return ND_SUCCESS;
}

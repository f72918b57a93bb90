/* Completion queues: GetResults (fast path), Notify, Resize.
 *
 * Notify arms the CQ and then peeks: a completion that arrived after the
 * client's last GetResults but before the arm raises no event, so Notify
 * takes completions out of the CQ into a stash (returned first by the
 * next GetResults) and completes at once when one of them is of the kind
 * it waits for.  The fast path only reads stash_n; it takes the CQ's lock
 * when that is set. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nd_unix.h"

static void comp_handler(struct nd_ev_source *src);

struct nd_soft_wc {
	struct nd_soft_wc *next;
	struct ibv_wc wc;
	int32_t status;
};

ND_CALL(cq_create)
{
	struct nd_unix_cq_create_params *p = params;
	struct nd_adapter *a = nd_obj_get(p->adapter, ND_KIND_ADAPTER);
	struct nd_cq *cq;
	int err;

	if (!a)
		return ND_INVALID_HANDLE;
	if (nd_adapter_removed(a))
		return ND_DEVICE_REMOVED;
	if (!p->depth || p->depth > (uint32_t)a->attr.max_cqe)
		return ND_INVALID_PARAMETER_3;
	cq = calloc(1, sizeof(*cq));
	if (!cq)
		return ND_NO_MEMORY;
	cq->obj.kind = ND_KIND_CQ;
	cq->adapter = a;
	pthread_mutex_init(&cq->lock, NULL);
	nd_pending_init(&cq->notifies);
	cq->soft_tail = &cq->soft;
	cq->wake_refs = 1;
	cq->channel = ibv_create_comp_channel(a->ctx);
	if (!cq->channel) {
		err = errno;
		goto fail_free;
	}
	cq->cq = ibv_create_cq(a->ctx, p->depth, cq, cq->channel, 0);
	if (!cq->cq) {
		err = errno;
		goto fail_channel;
	}
	cq->src.fd = cq->channel->fd;
	cq->src.handler = comp_handler;
	pthread_mutex_lock(&nd_ev_lock);
	err = nd_ev_add(&cq->src) ? errno : 0;
	if (!err) {
		pthread_mutex_lock(&a->lock);
		cq->next = a->cqs;
		a->cqs = cq;
		pthread_mutex_unlock(&a->lock);
	}
	pthread_mutex_unlock(&nd_ev_lock);
	if (err)
		goto fail_cq;
	nd_adapter_hold(a);
	p->cq = nd_handle(&cq->obj);
	return ND_SUCCESS;

fail_cq:
	ibv_destroy_cq(cq->cq);
fail_channel:
	ibv_destroy_comp_channel(cq->channel);
fail_free:
	free(cq);
	return err == ENOMEM ? ND_INSUFFICIENT_RESOURCES : nd_status_from_errno(err);
}

ND_CALL(cq_destroy)
{
	struct nd_unix_object_params *p = params;
	struct nd_cq *cq = nd_obj_get(p->object, ND_KIND_CQ), **link;
	struct nd_qp *z, *next;
	int err;

	if (!cq)
		return ND_INVALID_HANDLE;
	/* Under nd_ev_lock no handler holds an unacknowledged event, which
	 * ibv_destroy_cq waits for. */
	pthread_mutex_lock(&nd_ev_lock);
	err = ibv_destroy_cq(cq->cq);
	if (err) {
		pthread_mutex_unlock(&nd_ev_lock);
		return err == EBUSY ? ND_DEVICE_BUSY : nd_status_from_errno(err);
	}
	nd_ev_remove(&cq->src);
	cq->obj.kind = 0;
	pthread_mutex_lock(&cq->adapter->lock);
	for (link = &cq->adapter->cqs; *link; link = &(*link)->next)
		if (*link == cq) {
			*link = cq->next;
			break;
		}
	pthread_mutex_unlock(&cq->adapter->lock);
	pthread_mutex_unlock(&nd_ev_lock);

	pthread_mutex_lock(&cq->lock);
	nd_pending_complete(&cq->notifies, ND_TAG_ANY, ND_CANCELED);
	while (cq->soft) {
		struct nd_soft_wc *w = cq->soft;
		cq->soft = w->next;
		free(w);
	}
	pthread_mutex_unlock(&cq->lock);
	/* Out of the port's epoll while the fd still names the channel. */
	nd_cq_wake_detach(cq);
	ibv_destroy_comp_channel(cq->channel);
	for (z = cq->zombies; z; z = next) {
		next = z->zombie_next[z->send_cq == cq ? 0 : 1];
		nd_qp_zombie_put(z);
	}
	while (cq->old_arrays) {
		void **arr = cq->old_arrays;
		cq->old_arrays = arr[0];
		free(arr);
	}
	free(cq->srq_qps ? (void **)cq->srq_qps - 1 : NULL);
	nd_adapter_release(cq->adapter);
	nd_cq_wake_put(cq);
	return ND_SUCCESS;
}

void nd_cq_add_srq_qp(struct nd_cq *cq, struct nd_qp *qp)
{
	if (cq->n_srq_qps == cq->cap_srq_qps) {
		uint32_t cap = cq->cap_srq_qps ? cq->cap_srq_qps * 2 : 8;
		/* element 0 links superseded arrays */
		void **arr = calloc(cap + 1, sizeof(void *));
		if (!arr) {
			nd_log("out of memory: SRQ completions of a QP will lack its context");
			return;
		}
		if (cq->n_srq_qps)
			memcpy(arr + 1, cq->srq_qps, cq->n_srq_qps * sizeof(void *));
		if (cq->srq_qps) {
			void **old = (void **)cq->srq_qps - 1;
			old[0] = cq->old_arrays;
			cq->old_arrays = old;
		}
		/* Publish the array before the count that covers it. */
		__atomic_store_n(&cq->srq_qps, (struct nd_qp **)(arr + 1), __ATOMIC_RELEASE);
		cq->cap_srq_qps = cap;
	}
	cq->srq_qps[cq->n_srq_qps] = qp;
	__atomic_store_n(&cq->n_srq_qps, cq->n_srq_qps + 1, __ATOMIC_RELEASE);
}

/* A completion on an SRQ carries only the QP number; newest QP first, so a
 * reused number finds the live QP. */
static struct nd_qp *srq_qp_lookup(struct nd_cq *cq, uint32_t qp_num)
{
	uint32_t n = __atomic_load_n(&cq->n_srq_qps, __ATOMIC_ACQUIRE);
	struct nd_qp **arr = __atomic_load_n(&cq->srq_qps, __ATOMIC_ACQUIRE);

	while (n--)
		if (arr[n]->qp_num == qp_num)
			return arr[n];
	return NULL;
}

/* Fills one ND2_RESULT and hands the request's slot back to its poster;
 * false for a silent success signaled only to retire its ring.  from_device:
 * the device reported it, so a failure means the QP went to ERR (a soft
 * completion never reached the device). */
static inline __attribute__((always_inline)) bool convert_wc(struct nd_cq *cq, const struct ibv_wc *wc, struct nd_unix_result *r,
							       bool from_device)
{
	struct nd_slot *s = (struct nd_slot *)(uintptr_t)wc->wr_id;
	struct nd_qp *qp = s->qp;
	uint32_t type = s->type;

	if (unlikely(s->silent) && likely(wc->status == IBV_WC_SUCCESS)) {
		__atomic_store_n(&qp->sq_tail, s->seq + 1, __ATOMIC_RELEASE);
		return false;
	}

	r->status = likely(wc->status == IBV_WC_SUCCESS) ? ND_SUCCESS : nd_status_from_wc(wc->status, type);
	r->bytes = (type == Nd2RequestTypeReceive || type == Nd2RequestTypeRead) ? wc->byte_len : 0;
	r->request_context = s->context;
	r->request_type = type;
	r->pad = 0;
	if (type == Nd2RequestTypeReceive) {
		/* A slot without a QP belongs to an SRQ. */
		bool from_srq = !qp;

		if (from_srq)
			qp = srq_qp_lookup(cq, wc->qp_num);
		/* The peer's SendAndInvalidate: its window is gone before the
		 * client learns of the Receive. */
		if (unlikely(wc->wc_flags & cq->adapter->wc_with_inv) && wc->status == IBV_WC_SUCCESS)
			nd_mw_remote_invalidated(cq->adapter, wc->invalidated_rkey);
		if (from_srq)
			nd_srq_retire(s);
		else
			__atomic_store_n(&s->busy, 0, __ATOMIC_RELEASE);
	} else {
		/* Initiator requests complete in order: everything up to this
		 * one is done, silent successes included. */
		__atomic_store_n(&qp->sq_tail, s->seq + 1, __ATOMIC_RELEASE);
	}
	r->qp_context = qp ? qp->context : 0;
	if (unlikely(wc->status != IBV_WC_SUCCESS) && from_device && qp)
		nd_qp_mark_failed(qp);
	return true;
}

static inline __attribute__((always_inline)) bool convert(struct nd_cq *cq, const struct ibv_wc *wc, struct nd_unix_result *r)
{
	return convert_wc(cq, wc, r, true);
}

/* convert() from the first completion that needs more than loads and
 * stores (see get_results). */
static __attribute__((noinline)) uint32_t convert_rest(struct nd_cq *cq, const struct ibv_wc *wc, int k,
							struct nd_unix_result *out)
{
	uint32_t n = 0;

	for (; k > 0; k--, wc++)
		n += convert(cq, wc, &out[n]);
	return n;
}

/* convert() for a success on a plain QP (not an SRQ) that invalidated
 * nothing: the same result and hand-over, with no call, so the loop that
 * runs it keeps its values in scratch registers.  Everything is read from
 * the slot before it is handed back (its poster may reuse it at once). */
static inline __attribute__((always_inline)) bool convert_plain(const struct ibv_wc *wc, struct nd_unix_result *r)
{
	struct nd_slot *s = (struct nd_slot *)(uintptr_t)wc->wr_id;
	struct nd_qp *qp = s->qp;
	uint32_t type = s->type;
	uint64_t context = s->context;

	if (unlikely(s->silent)) {
		__atomic_store_n(&qp->sq_tail, s->seq + 1, __ATOMIC_RELEASE);
		return false;
	}
	r->status = ND_SUCCESS;
	r->bytes = (type == Nd2RequestTypeReceive || type == Nd2RequestTypeRead) ? wc->byte_len : 0;
	r->qp_context = qp->context;
	r->request_context = context;
	r->request_type = type;
	r->pad = 0;
	if (type == Nd2RequestTypeReceive)
		__atomic_store_n(&s->busy, 0, __ATOMIC_RELEASE);
	else
		__atomic_store_n(&qp->sq_tail, s->seq + 1, __ATOMIC_RELEASE);
	return true;
}

/* Stashed or held-back results first, then the CQ, as many polls as the
 * array takes.  Out of line: its live values would cost the common case
 * (get_results below) their saves in its frame. */
static __attribute__((noinline)) uint32_t get_results_general(struct nd_cq *cq, struct nd_unix_result *out,
								uint32_t cap)
{
	uint32_t n = 0;
	struct ibv_wc wc[16];

	if (unlikely(__atomic_load_n(&cq->stash_n, __ATOMIC_ACQUIRE)) && cap) {
		uint32_t k = 0;

		pthread_mutex_lock(&cq->lock);
		while (k < cq->stash_n && n < cap)
			n += convert(cq, &cq->stash[k++], &out[n]);
		memmove(cq->stash, cq->stash + k, (cq->stash_n - k) * sizeof(cq->stash[0]));
		__atomic_store_n(&cq->stash_n, cq->stash_n - k, __ATOMIC_RELEASE);
		pthread_mutex_unlock(&cq->lock);
	}
	if (unlikely(__atomic_load_n(&cq->soft_pending, __ATOMIC_ACQUIRE)) && n < cap) {
		pthread_mutex_lock(&cq->lock);
		while (cq->soft && n < cap) {
			struct nd_soft_wc *w = cq->soft;

			if (!(cq->soft = w->next))
				cq->soft_tail = &cq->soft;
			convert_wc(cq, &w->wc, &out[n], false);	/* never silent: it failed */
			out[n++].status = w->status;
			free(w);
		}
		__atomic_store_n(&cq->soft_pending, cq->soft != NULL, __ATOMIC_RELEASE);
		pthread_mutex_unlock(&cq->lock);
	}
	while (n < cap) {
		int want = cap - n < 16 ? (int)(cap - n) : 16;
		int i, k = ibv_poll_cq(cq->cq, want, wc);

		if (k <= 0)
			break;
		for (i = 0; i < k; i++)
			n += convert(cq, &wc[i], &out[n]);
		if (k < want)
			break;
	}
	return n;
}

/* CQ_GET_RESULTS and its fast entry (unix_call.h).  The common case:
 * nothing stashed or held back, and room for at most one poll's worth
 * (1..16 results): one ibv_poll_cq and no loop. */
static inline __attribute__((always_inline)) uint32_t get_results(struct nd_cq *cq, struct nd_unix_result *out,
								   uint32_t cap)
{
	struct ibv_wc wc[16];
	uint32_t n = 0;
	unsigned inv;
	int i, k;

	if (unlikely((__atomic_load_n(&cq->stash_n, __ATOMIC_ACQUIRE) |
		      __atomic_load_n(&cq->soft_pending, __ATOMIC_ACQUIRE)) || cap - 1 >= 16))
		return get_results_general(cq, out, cap);
	k = ibv_poll_cq(cq->cq, (int)cap, wc);
	inv = cq->adapter->wc_with_inv;
	/* No call in this loop, so nothing it holds needs saving: a failure,
	 * an SRQ's Receive or a remote invalidation hands the rest of the
	 * batch to convert(). */
	for (i = 0; i < k; i++) {
		const struct ibv_wc *w = &wc[i];

		if (unlikely(w->status != IBV_WC_SUCCESS || !((struct nd_slot *)(uintptr_t)w->wr_id)->qp ||
			     (w->wc_flags & inv)))
			return n + convert_rest(cq, w, k - i, &out[n]);
		n += convert_plain(w, &out[n]);
	}
	return n;
}

ND_CALL(cq_get_results)
{
	struct nd_unix_cq_get_results_params *p = params;

	p->count = get_results((struct nd_cq *)(uintptr_t)p->cq, (struct nd_unix_result *)(uintptr_t)p->results,
			       p->capacity);
	return ND_SUCCESS;
}

uint32_t ND_UNIX_SYSV nd_fast_cq_get_results(uint64_t cq, uint64_t results, uint32_t capacity)
{
	return get_results((struct nd_cq *)(uintptr_t)cq, (struct nd_unix_result *)(uintptr_t)results, capacity);
}

/* Called with cq->lock held: arm for the strongest pending request. */
static int arm(struct nd_cq *cq, int want)
{
	if (cq->armed && cq->armed <= want)
		return 0;
	if (ibv_req_notify_cq(cq->cq, want == 2))
		return -1;
	cq->rearmed = cq->armed != 0;
	cq->armed = want;
	return 0;
}

/* What wakes a SOLICITED request: a Send that asked for it, or a failure. */
static bool solicited(const struct ibv_wc *wc)
{
	return wc->status != IBV_WC_SUCCESS ||
	       ((wc->wc_flags & IBV_WC_WITH_IMM) && ntohl(wc->imm_data) == ND_IMM_SOLICITED);
}

/* cq->lock held. */
static bool waits_for_any(const struct nd_cq *cq)
{
	const struct nd_pending *p;

	for (p = cq->notifies.head; p; p = p->next)
		if (p->tag == ND_CQ_NOTIFY_ANY)
			return true;
	return false;
}

ND_CALL(cq_notify)
{
	struct nd_unix_cq_notify_params *p = params;
	struct nd_cq *cq = nd_obj_get(p->cq, ND_KIND_CQ);
	bool any, hit = false;
	uint32_t k;
	int32_t st;

	if (!cq)
		return ND_INVALID_HANDLE;
	if (nd_adapter_removed(cq->adapter))
		return ND_DEVICE_REMOVED;
	if (p->type > ND_CQ_NOTIFY_SOLICITED)
		return ND_INVALID_PARAMETER_1;
	pthread_mutex_lock(&cq->lock);
	/* Again under the lock: nd_device_removed's sweep takes it. */
	if (nd_adapter_removed(cq->adapter)) {
		pthread_mutex_unlock(&cq->lock);
		return ND_DEVICE_REMOVED;
	}
	if (cq->error) {
		st = cq->error;
		pthread_mutex_unlock(&cq->lock);
		return st;
	}
	st = nd_pending_add(&cq->notifies, &p->ov, p->type, NULL);
	if (st != ND_PENDING || p->type == ND_CQ_NOTIFY_ERRORS) {
		pthread_mutex_unlock(&cq->lock);
		return st;
	}
	if (arm(cq, p->type == ND_CQ_NOTIFY_ANY ? 1 : 2)) {
		st = nd_status_from_errno(errno);
		free(nd_pending_take(&cq->notifies, p->type));
		pthread_mutex_unlock(&cq->lock);
		return st;
	}
	/* Peek after arming: anything found here raised no event.  A
	 * completion wakes ANY requests; SOLICITED ones only a solicited
	 * message or a failed request, as the device's own arming does, so
	 * the peek goes on past others.  A full stash wakes them all the
	 * same: a wake-up too many, never one lost. */
	any = waits_for_any(cq);
	for (k = 0; k < cq->stash_n && !hit; k++)
		hit = any || solicited(&cq->stash[k]);
	while (!hit && cq->stash_n < ND_CQ_STASH) {
		struct ibv_wc *wc = &cq->stash[cq->stash_n];
		struct nd_slot *s;

		if (ibv_poll_cq(cq->cq, 1, wc) != 1)
			break;
		s = (struct nd_slot *)(uintptr_t)wc->wr_id;
		if (s->silent && wc->status == IBV_WC_SUCCESS) {
			__atomic_store_n(&s->qp->sq_tail, s->seq + 1, __ATOMIC_RELEASE);
			continue;
		}
		__atomic_store_n(&cq->stash_n, cq->stash_n + 1, __ATOMIC_RELEASE);
		hit = any || solicited(wc);
	}
	/* Failed requests the provider completed itself wake every kind. */
	if (hit || cq->stash_n == ND_CQ_STASH || cq->soft) {
		nd_pending_complete(&cq->notifies, ND_CQ_NOTIFY_ANY, ND_SUCCESS);
		nd_pending_complete(&cq->notifies, ND_CQ_NOTIFY_SOLICITED, ND_SUCCESS);
	} else if (unlikely(!cq->wake_att)) {
		nd_cq_wake_attach(cq, &p->ov);
	}
	pthread_mutex_unlock(&cq->lock);
	return ND_PENDING;
}

static void comp_handler(struct nd_ev_source *src)
{
	struct nd_cq *cq = container_of(src, struct nd_cq, src);
	struct ibv_cq *ev_cq;
	void *ev_ctx;
	bool more = true;

	/* One read: the CQ is armed again only after its event was read
	 * (arm), so the channel holds one event at most, and a second read
	 * would only say EAGAIN, a system call per wake-up.  Two when a
	 * SOLICITED arm was widened to ANY before its event came. */
	while (more && ibv_get_cq_event(cq->channel, &ev_cq, &ev_ctx) == 0) {
		ibv_ack_cq_events(ev_cq, 1);
		pthread_mutex_lock(&cq->lock);
		more = cq->rearmed;
		cq->rearmed = false;
		cq->armed = 0;
		nd_pending_complete(&cq->notifies, ND_CQ_NOTIFY_ANY, ND_SUCCESS);
		nd_pending_complete(&cq->notifies, ND_CQ_NOTIFY_SOLICITED, ND_SUCCESS);
		pthread_mutex_unlock(&cq->lock);
	}
}

void nd_cq_soft_complete(struct nd_cq *cq, uint64_t wr_id, uint32_t qp_num, int32_t status)
{
	struct nd_soft_wc *w = calloc(1, sizeof(*w));

	if (!w) {
		nd_log("out of memory: a failed request's result is lost");
		return;
	}
	w->wc.wr_id = wr_id;
	w->wc.status = IBV_WC_GENERAL_ERR;
	w->wc.qp_num = qp_num;
	w->status = status;
	pthread_mutex_lock(&cq->lock);
	*cq->soft_tail = w;
	cq->soft_tail = &w->next;
	__atomic_store_n(&cq->soft_pending, 1, __ATOMIC_RELEASE);
	nd_pending_complete(&cq->notifies, ND_CQ_NOTIFY_ANY, ND_SUCCESS);
	nd_pending_complete(&cq->notifies, ND_CQ_NOTIFY_SOLICITED, ND_SUCCESS);
	pthread_mutex_unlock(&cq->lock);
}

void nd_cq_async_event(struct nd_cq *cq, enum ibv_event_type type)
{
	if (!cq || cq->src.dead)
		return;
	/* A CQ error is an overrun (ibv_get_async_event(3)), which ND reports
	 * as ND_BUFFER_OVERFLOW to every Notify, ERRORS or not; anything else
	 * the device says about a CQ is a catastrophic ND_INTERNAL_ERROR. */
	pthread_mutex_lock(&cq->lock);
	cq->error = type == IBV_EVENT_CQ_ERR ? ND_BUFFER_OVERFLOW : ND_INTERNAL_ERROR;
	nd_pending_complete(&cq->notifies, ND_TAG_ANY, cq->error);
	pthread_mutex_unlock(&cq->lock);
}

void nd_cq_device_removed(struct nd_cq *cq)
{
	pthread_mutex_lock(&cq->lock);
	nd_pending_complete(&cq->notifies, ND_TAG_ANY, ND_DEVICE_REMOVED);
	pthread_mutex_unlock(&cq->lock);
}

int32_t nd_cq_cancel(struct nd_cq *cq)
{
	pthread_mutex_lock(&cq->lock);
	nd_pending_complete(&cq->notifies, ND_TAG_ANY, ND_CANCELED);
	pthread_mutex_unlock(&cq->lock);
	return ND_SUCCESS;
}

ND_CALL(cq_resize)
{
	struct nd_unix_cq_resize_params *p = params;
	struct nd_cq *cq = nd_obj_get(p->cq, ND_KIND_CQ);
	int err;

	if (!cq)
		return ND_INVALID_HANDLE;
	if (!p->depth || p->depth > (uint32_t)cq->adapter->attr.max_cqe)
		return ND_INVALID_PARAMETER;
	if (!cq->adapter->cq_resize)
		return ND_NOT_SUPPORTED;
	err = ibv_resize_cq(cq->cq, p->depth);
	if (err == EINVAL)
		return ND_BUFFER_OVERFLOW;	/* fewer entries than the CQ holds */
	return err == ENOMEM ? ND_INSUFFICIENT_RESOURCES : nd_status_from_errno(err);
}

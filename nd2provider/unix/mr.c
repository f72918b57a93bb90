/* Memory regions and windows.  Register and Deregister do their work on
 * the caller's thread and complete through the host before returning
 * ND_PENDING: clients wait for that completion. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "nd_unix.h"

ND_CALL(mr_create)
{
	struct nd_unix_create_params *p = params;
	struct nd_adapter *a = nd_obj_get(p->adapter, ND_KIND_ADAPTER);
	struct nd_mr *mr;

	if (!a)
		return ND_INVALID_HANDLE;
	mr = calloc(1, sizeof(*mr));
	if (!mr)
		return ND_NO_MEMORY;
	mr->obj.kind = ND_KIND_MR;
	mr->adapter = a;
	mr->refs = 1;
	pthread_mutex_init(&mr->lock, NULL);
	nd_adapter_hold(a);
	p->object = nd_handle(&mr->obj);
	return ND_SUCCESS;
}

static int access_from_nd(uint32_t f, const struct ibv_device_attr *d)
{
	int acc = 0;

	if (f & (ND_MR_FLAG_ALLOW_LOCAL_WRITE | ND_MR_FLAG_RDMA_READ_SINK))
		acc |= IBV_ACCESS_LOCAL_WRITE;
	if (f & ND_MR_FLAG_ALLOW_REMOTE_READ)
		acc |= IBV_ACCESS_REMOTE_READ;
	/* ND_MR_FLAG_ALLOW_REMOTE_WRITE (0x5) includes local write */
	if ((f & ND_MR_FLAG_ALLOW_REMOTE_WRITE) == ND_MR_FLAG_ALLOW_REMOTE_WRITE)
		acc |= IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_LOCAL_WRITE;
	if (d->device_cap_flags & IBV_DEVICE_MEM_WINDOW_TYPE_2B)
		acc |= IBV_ACCESS_MW_BIND;
	return acc;
}

ND_CALL(mr_register)
{
	struct nd_unix_mr_register_params *p = params;
	struct nd_mr *mr = nd_obj_get(p->mr, ND_KIND_MR);
	struct nd_unix_mr_tokens *tok = (struct nd_unix_mr_tokens *)(uintptr_t)p->tokens;
	int acc, err;

	if (!mr)
		return ND_INVALID_HANDLE;
	if (nd_adapter_removed(mr->adapter))
		return ND_DEVICE_REMOVED;
	if (!p->buffer)
		return ND_INVALID_PARAMETER;
	if (!p->length)
		return ND_INVALID_BUFFER_SIZE;
	if (p->length > mr->adapter->attr.max_mr_size)
		return ND_INVALID_PARAMETER;
	if (p->flags & ~(ND_MR_FLAG_ALLOW_LOCAL_WRITE | ND_MR_FLAG_ALLOW_REMOTE_READ |
			 ND_MR_FLAG_ALLOW_REMOTE_WRITE | ND_MR_FLAG_RDMA_READ_SINK | ND_MR_FLAG_DO_NOT_SECURE_VM))
		return ND_INVALID_PARAMETER_3;
	pthread_mutex_lock(&mr->lock);
	if (mr->mr) {
		pthread_mutex_unlock(&mr->lock);
		return ND_INVALID_DEVICE_STATE;	/* one buffer per region */
	}
	acc = access_from_nd(p->flags, &mr->adapter->attr);
	mr->mr = ibv_reg_mr(mr->adapter->pd, (void *)(uintptr_t)p->buffer, p->length, acc);
	if (!mr->mr && (acc & IBV_ACCESS_MW_BIND)) {
		acc &= ~IBV_ACCESS_MW_BIND;
		mr->mr = ibv_reg_mr(mr->adapter->pd, (void *)(uintptr_t)p->buffer, p->length, acc);
	}
	if (!mr->mr) {
		err = errno;
		pthread_mutex_unlock(&mr->lock);
		return err == EFAULT ? ND_ACCESS_VIOLATION :
		       err == ENOMEM ? ND_INSUFFICIENT_RESOURCES : nd_status_from_errno(err);
	}
	mr->mr_access = acc;
	tok->local = mr->mr->lkey;
	tok->remote = htonl(mr->mr->rkey);
	nd_complete(&p->ov, ND_SUCCESS, 0);
	pthread_mutex_unlock(&mr->lock);
	return ND_PENDING;
}

static int32_t deregister(struct nd_mr *mr)
{
	int err;

	if (!mr->mr)
		return ND_INVALID_DEVICE_STATE;
	if (__atomic_load_n(&mr->bound_windows, __ATOMIC_RELAXED))
		return ND_DEVICE_BUSY;
	err = ibv_dereg_mr(mr->mr);
	if (err)
		return err == EBUSY ? ND_DEVICE_BUSY : nd_status_from_errno(err);
	mr->mr = NULL;
	return ND_SUCCESS;
}

ND_CALL(mr_deregister)
{
	struct nd_unix_ov_params *p = params;
	struct nd_mr *mr = nd_obj_get(p->object, ND_KIND_MR);
	int32_t st;

	if (!mr)
		return ND_INVALID_HANDLE;
	pthread_mutex_lock(&mr->lock);
	st = deregister(mr);
	if (st == ND_SUCCESS) {
		nd_complete(&p->ov, ND_SUCCESS, 0);
		st = ND_PENDING;
	}
	pthread_mutex_unlock(&mr->lock);
	return st;
}

static void mr_free(struct nd_mr *mr)
{
	int tries;

	/* A window's Invalidate is posted before the device has run it, and
	 * the device refuses to drop a region with a window still on it:
	 * give the queue pair a moment (only a region released under its
	 * last window comes here with one). */
	for (tries = 0; mr->mr && ibv_dereg_mr(mr->mr); tries++) {
		if (tries == 200 || (errno != EINVAL && errno != EBUSY)) {
			nd_log("leaking a memory registration its device refused to drop");
			break;
		}
		usleep(1000);
	}
	nd_adapter_release(mr->adapter);
	pthread_mutex_destroy(&mr->lock);
	free(mr);
}

static void mr_put(struct nd_mr *mr)
{
	if (!__atomic_sub_fetch(&mr->refs, 1, __ATOMIC_ACQ_REL))
		mr_free(mr);
}

/* A window was bound to mr (qp.c, before the Bind is posted). */
void nd_mr_bind(struct nd_mr *mr)
{
	__atomic_fetch_add(&mr->refs, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&mr->bound_windows, 1, __ATOMIC_RELAXED);
}

/* A window let go of mr (Invalidate, a Bind elsewhere, the window freed). */
void nd_mr_unbind(struct nd_mr *mr)
{
	__atomic_fetch_sub(&mr->bound_windows, 1, __ATOMIC_RELEASE);
	mr_put(mr);
}

ND_CALL(mr_destroy)
{
	struct nd_unix_object_params *p = params;
	struct nd_mr *mr = nd_obj_get(p->object, ND_KIND_MR);

	if (!mr)
		return ND_INVALID_HANDLE;
	/* Released without Deregister: the registration goes with it, once
	 * the last window bound to it is invalidated or freed. */
	mr->obj.kind = 0;
	mr_put(mr);
	return ND_SUCCESS;
}

ND_CALL(mw_create)
{
	struct nd_unix_create_params *p = params;
	struct nd_adapter *a = nd_obj_get(p->adapter, ND_KIND_ADAPTER);
	struct nd_mw *mw;
	int err;

	if (!a)
		return ND_INVALID_HANDLE;
	if (nd_adapter_removed(a))
		return ND_DEVICE_REMOVED;
	if (!(a->attr.device_cap_flags & IBV_DEVICE_MEM_WINDOW_TYPE_2B))
		return ND_NOT_SUPPORTED;
	mw = calloc(1, sizeof(*mw));
	if (!mw)
		return ND_NO_MEMORY;
	mw->obj.kind = ND_KIND_MW;
	mw->adapter = a;
	mw->mw = ibv_alloc_mw(a->pd, IBV_MW_TYPE_2);
	if (!mw->mw) {
		err = errno;
		free(mw);
		return err == ENOMEM ? ND_INSUFFICIENT_RESOURCES : nd_status_from_errno(err);
	}
	mw->rkey = mw->mw->rkey;
	pthread_mutex_lock(&a->lock);
	mw->next = a->mws;
	a->mws = mw;
	pthread_mutex_unlock(&a->lock);
	nd_adapter_hold(a);
	p->object = nd_handle(&mw->obj);
	return ND_SUCCESS;
}

ND_CALL(mw_destroy)
{
	struct nd_unix_object_params *p = params;
	struct nd_mw *mw = nd_obj_get(p->object, ND_KIND_MW);
	struct nd_mw **link;

	if (!mw)
		return ND_INVALID_HANDLE;
	if (mw->mw && ibv_dealloc_mw(mw->mw))
		return ND_DEVICE_BUSY;
	pthread_mutex_lock(&mw->adapter->lock);
	for (link = &mw->adapter->mws; *link; link = &(*link)->next)
		if (*link == mw) {
			*link = mw->next;
			break;
		}
	if (mw->bound_mr)
		nd_mr_unbind(mw->bound_mr);
	pthread_mutex_unlock(&mw->adapter->lock);
	mw->obj.kind = 0;
	nd_adapter_release(mw->adapter);
	free(mw);
	return ND_SUCCESS;
}

/* A type 2 window bound through a QP holds a reference on it in rxe
 * (Linux 6.1) until an Invalidate runs, and destroying the QP waits for
 * that reference until the kernel gives up, about 50 s later with a
 * warning.  Clients release in any order, and an Invalidate posted to a QP
 * in error is flushed, never run; deallocating the window is what drops
 * the reference at once, so each window last bound through qp is replaced
 * by a new, unbound one.  The window object stays valid (a later Bind
 * through another QP uses the new one); its region is let go. */
void nd_mw_qp_gone(struct nd_qp *qp)
{
	struct nd_adapter *a = qp->adapter;
	struct nd_mw *mw;

	pthread_mutex_lock(&a->lock);
	for (mw = a->mws; mw; mw = mw->next) {
		if (mw->bind_qp != qp)
			continue;
		mw->bind_qp = NULL;
		if (mw->mw && ibv_dealloc_mw(mw->mw)) {
			nd_log("a memory window its device would not free holds a queue pair being destroyed");
			continue;
		}
		mw->mw = ibv_alloc_mw(a->pd, IBV_MW_TYPE_2);
		if (mw->mw)
			mw->rkey = mw->mw->rkey;
		if (mw->bound_mr) {
			nd_mr_unbind(mw->bound_mr);
			mw->bound_mr = NULL;
		}
	}
	pthread_mutex_unlock(&a->lock);
}

ND_CALL(mw_watch)
{
	struct nd_unix_mw_watch_params *p = params;
	struct nd_mw *mw = nd_obj_get(p->mw, ND_KIND_MW);

	if (!mw)
		return ND_INVALID_HANDLE;
	pthread_mutex_lock(&mw->adapter->lock);
	mw->invalidate_result = p->result;
	pthread_mutex_unlock(&mw->adapter->lock);
	return ND_SUCCESS;
}

/* The device has invalidated the rkey already (the responder does it
 * before it completes the Receive); what is left is our bookkeeping: the
 * window no longer holds its region, and a v1 client's ND_RESULT for the
 * window says so.  A token that is no window of ours (a region's, or a
 * window's older one) changes nothing here. */
void nd_mw_remote_invalidated(struct nd_adapter *a, uint32_t rkey)
{
	struct nd_mw *mw;

	pthread_mutex_lock(&a->lock);
	for (mw = a->mws; mw; mw = mw->next)
		if (mw->rkey == rkey)
			break;
	if (mw && mw->bound_mr) {
		nd_mr_unbind(mw->bound_mr);
		mw->bound_mr = NULL;
		if (mw->invalidate_result) {
			struct nd_unix_v1_result *r = (struct nd_unix_v1_result *)(uintptr_t)mw->invalidate_result;

			r->bytes = 0;
			__atomic_store_n(&r->status, ND_SUCCESS, __ATOMIC_RELEASE);
		}
	}
	pthread_mutex_unlock(&a->lock);
}

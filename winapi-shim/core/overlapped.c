#include <stdlib.h>

#define WIN32_NO_STATUS /* the STATUS_* values come from ntstatus.h */
#include "core/debug.h"
#include "core/handle.h"
#include "core/iocp.h"
#include "core/futex.h"
#include "core/klock.h"
#include "core/overlapped.h"
#include "core/sync.h"
#include "core/thread.h"
#include "core/wait.h"
#undef WIN32_NO_STATUS
#include <ntstatus.h>
#include <winternl.h>

void io_target_init(struct io_target *t, struct object *obj, pthread_mutex_t *shared_lock)
{
	t->obj = obj;
	pthread_mutex_init(&t->own_lock, NULL);
	t->lock = shared_lock ? shared_lock : &t->own_lock;
	atomic_init(&t->port, NULL);
	t->key = 0;
	atomic_init(&t->modes, 0);
	t->signaled = false;
	list_init(&t->pending);
	t->cancel = NULL;
}

void io_target_destroy(struct io_target *t)
{
	struct object *port = atomic_load_explicit(&t->port, memory_order_acquire);
	struct list *cur, *tmp;

	LIST_FOR_EACH_SAFE(cur, tmp, &t->pending) {
		list_remove(cur);
		io_request_free(LIST_ENTRY(cur, struct io_request, entry));
	}
	if (port)
		object_unref(port);
	pthread_mutex_destroy(&t->own_lock);
}

struct io_target *io_target_get(HANDLE h, struct object **obj)
{
	struct io_target *t;

	*obj = handle_get(h, NULL);
	if (!*obj)
		return NULL;
	if (!(*obj)->ops->io_target || !(t = (*obj)->ops->io_target(*obj))) {
		object_unref(*obj);
		*obj = NULL;
		SetLastError(ERROR_INVALID_HANDLE);
		return NULL;
	}
	return t;
}

BOOL io_target_associate(struct io_target *t, struct object *port, ULONG_PTR key)
{
	BOOL ok = FALSE;

	klock(t->lock);
	if (!atomic_load_explicit(&t->port, memory_order_relaxed)) {
		t->key = key;
		atomic_store_explicit(&t->port, object_ref(port), memory_order_release);
		ok = TRUE;
	}
	kunlock(t->lock);
	if (!ok)
		SetLastError(ERROR_INVALID_PARAMETER);
	return ok;
}

void io_target_add_modes(struct io_target *t, unsigned char modes)
{
	atomic_fetch_or(&t->modes, modes);
}

/* The object's own event, for waits on its handle. */
static void set_object_state(struct io_target *t, bool signaled)
{
	wait_lock();
	t->signaled = signaled;
	if (signaled)
		wait_wake_object(t->obj);
	wait_unlock();
}

static HANDLE event_of(HANDLE h)
{
	return (HANDLE)((ULONG_PTR)h & ~(ULONG_PTR)1);
}

void io_begin(struct io_target *t, OVERLAPPED *ov)
{
	ov->Internal = STATUS_PENDING;
	ov->InternalHigh = 0;
	if (ov->hEvent) {
		struct object *ev = event_get(event_of(ov->hEvent), 0);

		if (ev) {
			event_reset(ev);
			object_unref(ev);
		}
	}
	if (!(atomic_load_explicit(&t->modes, memory_order_relaxed) & FILE_SKIP_SET_EVENT_ON_HANDLE))
		set_object_state(t, false);
}

/* Threads in io_wait_overlapped: completions wake the OVERLAPPED's futex
 * only while this is non-zero, so they cost nothing extra otherwise.
 * Waiter (count up, then read Internal) and completer (write Internal,
 * then read the count) are both sequentially consistent: one of them
 * sees the other. */
static atomic_uint ov_waiters;

/* The status is the low 32 bits of Internal (x86-64 is little-endian). */
static inline uint32_t *status_word(OVERLAPPED *ov) { return (uint32_t *)&ov->Internal; }

NTSTATUS io_wait_overlapped(OVERLAPPED *ov)
{
	uint32_t st;

	atomic_fetch_add(&ov_waiters, 1);
	while ((st = __atomic_load_n(status_word(ov), __ATOMIC_SEQ_CST)) == (uint32_t)STATUS_PENDING)
		futex_wait(status_word(ov), (uint32_t)STATUS_PENDING, NULL);
	atomic_fetch_sub(&ov_waiters, 1);
	return (NTSTATUS)st;
}

void io_publish(OVERLAPPED *ov, NTSTATUS status, ULONG_PTR info)
{
	ov->InternalHigh = info;
	/* Windows writes the 32-bit status into Internal's low half. */
	__atomic_store_n(&ov->Internal, (ULONG_PTR)(ULONG)status, __ATOMIC_SEQ_CST);
	if (atomic_load(&ov_waiters))
		futex_wake_all(status_word(ov));
}

void io_complete(struct io_target *t, OVERLAPPED *ov, NTSTATUS status, ULONG_PTR info, bool sync)
{
	/* Read before Internal is written: from then on the owner may reuse
	 * the OVERLAPPED. */
	HANDLE ev = ov->hEvent;
	unsigned char modes = atomic_load_explicit(&t->modes, memory_order_relaxed);
	struct object *port;

	TRACE(iocp, "%p: ov %p status %#x info %lu%s\n", (void *)t->obj, (void *)ov, (unsigned)status,
	      (unsigned long)info, sync ? " (sync)" : "");
	io_publish(ov, status, info);
	if (sync && NT_ERROR(status))
		return;
	/* The handle is the completion's signal only for a request that
	 * names no event of its own. */
	if (ev)
		event_set_handle(event_of(ev));
	else if (!(modes & FILE_SKIP_SET_EVENT_ON_HANDLE))
		set_object_state(t, true);
	if ((ULONG_PTR)ev & 1)
		return;
	if (sync && NT_SUCCESS(status) && (modes & FILE_SKIP_COMPLETION_PORT_ON_SUCCESS))
		return;
	port = atomic_load_explicit(&t->port, memory_order_acquire);
	if (port && !iocp_post(port, t->key, ov, status, info))
		TRACE(iocp, "out of memory: packet for ov %p lost\n", (void *)ov);
}

struct io_request *io_request_add_locked(struct io_target *t, OVERLAPPED *ov, int kind,
					 ULONG_PTR owner, size_t extra)
{
	struct io_request *req = malloc(sizeof(*req) + extra);

	if (!req)
		return NULL;
	req->ov = ov;
	req->tid = thread_current_id();
	req->kind = kind;
	req->owner = owner;
	list_add_tail(&t->pending, &req->entry);
	return req;
}

void io_request_remove_locked(struct io_request *req)
{
	list_remove(&req->entry);
}

void io_request_free(struct io_request *req)
{
	free(req);
}

bool io_finish(struct io_target *t, OVERLAPPED *ov, NTSTATUS status, ULONG_PTR info)
{
	struct io_request *req = NULL;
	struct list *cur;

	klock(t->lock);
	LIST_FOR_EACH(cur, &t->pending) {
		struct io_request *r = LIST_ENTRY(cur, struct io_request, entry);

		if (r->ov == ov) {
			req = r;
			list_remove(&r->entry);
			break;
		}
	}
	kunlock(t->lock);
	if (!req)
		return false;
	io_complete(t, ov, status, info, false);
	io_request_free(req);
	return true;
}

bool io_finish_handle(HANDLE h, OVERLAPPED *ov, NTSTATUS status, ULONG_PTR info)
{
	struct object *obj;
	struct io_target *t = io_target_get(h, &obj);
	bool done;

	if (!t)
		return false;
	done = io_finish(t, ov, status, info);
	object_unref(obj);
	return done;
}

unsigned int io_cancel(struct io_target *t, bool (*match)(struct io_request *req, void *ctx),
		       void *ctx, NTSTATUS status)
{
	struct list taken = LIST_INIT(taken), *cur, *tmp;
	unsigned int n = 0;

	klock(t->lock);
	LIST_FOR_EACH_SAFE(cur, tmp, &t->pending) {
		struct io_request *req = LIST_ENTRY(cur, struct io_request, entry);

		if (match(req, ctx)) {
			list_remove(&req->entry);
			list_add_tail(&taken, &req->entry);
		}
	}
	kunlock(t->lock);
	/* In issue order, all before we return. */
	LIST_FOR_EACH_SAFE(cur, tmp, &taken) {
		struct io_request *req = LIST_ENTRY(cur, struct io_request, entry);

		list_remove(&req->entry);
		io_complete(t, req->ov, status, 0, false);
		io_request_free(req);
		n++;
	}
	if (t->cancel)
		n += t->cancel(t, match, ctx, status);
	return n;
}

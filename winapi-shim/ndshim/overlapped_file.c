/* ndshim.dll: the ND provider's overlapped file and its requests, on the
 * one completion path (core/overlapped.h).  See include/ndshim.h. */
#define WIN32_NO_STATUS
#include "core/debug.h"
#include "core/file.h"
#include "core/handle.h"
#include "core/overlapped.h"
#include "ndshim/ndshim_private.h"
#undef WIN32_NO_STATUS
#include <ntstatus.h>

#define REQ_ND 1

HRESULT WINAPI NdshimCreateOverlappedFile(HANDLE *out)
{
	struct file *f;
	HANDLE h;

	if (!out)
		return E_POINTER;
	/* No fd: ReadFile/WriteFile on it fail; it only carries requests. */
	if (!(f = file_create(-1, GENERIC_READ | GENERIC_WRITE, FILE_FLAG_OVERLAPPED, false)))
		return E_OUTOFMEMORY;
	io_target_add_modes(&f->io, FILE_SKIP_COMPLETION_PORT_ON_SUCCESS | FILE_SKIP_SET_EVENT_ON_HANDLE);
	h = handle_create(&f->obj, f->access, 0);
	file_release(f);
	if (!h)
		return E_OUTOFMEMORY;
	TRACE(nd, "overlapped file %p\n", h);
	*out = h;
	return S_OK;
}

HRESULT WINAPI NdshimBeginOverlapped(HANDLE file, OVERLAPPED *ov, ULONG_PTR owner)
{
	struct io_request *req;
	struct io_target *t;
	struct object *obj;

	if (!ov)
		return STATUS_INVALID_PARAMETER;
	if (!(t = io_target_get(file, &obj)))
		return STATUS_INVALID_HANDLE;
	io_begin(t, ov);
	pthread_mutex_lock(t->lock);
	req = io_request_add_locked(t, ov, REQ_ND, owner, 0);
	pthread_mutex_unlock(t->lock);
	object_unref(obj);
	return req ? STATUS_SUCCESS : STATUS_NO_MEMORY;
}

HRESULT WINAPI NdshimCompleteOverlapped(HANDLE file, OVERLAPPED *ov, HRESULT status,
					ULONG_PTR bytes)
{
	struct io_target *t;
	struct object *obj;
	bool done;

	if (!(t = io_target_get(file, &obj)))
		return STATUS_INVALID_HANDLE;
	done = io_finish(t, ov, (NTSTATUS)status, bytes);
	object_unref(obj);
	return done ? STATUS_SUCCESS : STATUS_NOT_FOUND;
}

static bool match_ov(struct io_request *req, void *ctx)
{
	return req->ov == ctx;
}

HRESULT WINAPI NdshimCompleteOverlappedSync(HANDLE file, OVERLAPPED *ov, HRESULT status,
					    ULONG_PTR bytes)
{
	struct list *cur, *tmp;
	struct io_target *t;
	struct object *obj;

	if (!ov)
		return STATUS_INVALID_PARAMETER;
	if (!(t = io_target_get(file, &obj)))
		return STATUS_INVALID_HANDLE;
	/* Begun as pending but finished before returning: unlist it. */
	pthread_mutex_lock(t->lock);
	LIST_FOR_EACH_SAFE(cur, tmp, &t->pending) {
		struct io_request *req = LIST_ENTRY(cur, struct io_request, entry);

		if (match_ov(req, ov)) {
			io_request_remove_locked(req);
			io_request_free(req);
		}
	}
	pthread_mutex_unlock(t->lock);
	/* A provider's synchronous refusal is its return value alone, a
	 * warning (ND_DEVICE_BUSY from Deregister) as much as an error: the
	 * client never waits for it, so no event and no packet either. */
	if (NT_SUCCESS(status))
		io_complete(t, ov, (NTSTATUS)status, bytes, true);
	else
		io_publish(ov, (NTSTATUS)status, bytes);
	object_unref(obj);
	return STATUS_SUCCESS;
}

static bool match_owner(struct io_request *req, void *ctx)
{
	return req->kind == REQ_ND && req->owner == (ULONG_PTR)ctx;
}

ULONG WINAPI NdshimCancelOverlapped(HANDLE file, ULONG_PTR owner, HRESULT status)
{
	struct io_target *t;
	struct object *obj;
	unsigned int n;

	if (!(t = io_target_get(file, &obj)))
		return 0;
	n = io_cancel(t, match_owner, (void *)owner, (NTSTATUS)status);
	object_unref(obj);
	TRACE(nd, "%p: owner %#lx: %u requests ended with %#x\n", file, (unsigned long)owner, n,
	      (unsigned)status);
	return n;
}

HRESULT WINAPI NdshimWaitOverlapped(OVERLAPPED *ov)
{
	if (!ov)
		return STATUS_INVALID_PARAMETER;
	return io_wait_overlapped(ov);
}

/* Fiber local storage, and IsThreadAFiber.  ndshim has no fibers, so FLS is per thread: the
 * values live in the thread object; callbacks run for non-NULL values
 * when a thread exits and, for every thread, when the index is freed. */
#include <pthread.h>
#include <stdlib.h>

#include "core/debug.h"
#include "core/thread.h"
#include "kernel32/kernel32_private.h"
#include "loader.h"
#include "core/pecall.h"

#define FLS_SLOTS 128

static struct {
	bool used;
	PFLS_CALLBACK_FUNCTION callback;
} fls_index[FLS_SLOTS]; /* under the thread list lock */

/* Windows keeps the answer in the TEB (HasFiberData, bit 2 of
 * SameTebFlags), set by ConvertThreadToFiber; nothing here sets it. */
BOOL WINAPI IsThreadAFiber(void)
{
	TEB *teb = loader_current_teb();

	return teb && (teb->SameTebFlags & 0x4);
}

DWORD WINAPI FlsAlloc(PFLS_CALLBACK_FUNCTION callback)
{
	DWORD i;

	thread_list_lock();
	for (i = 0; i < FLS_SLOTS && fls_index[i].used; i++)
		;
	if (i < FLS_SLOTS) {
		fls_index[i].used = true;
		fls_index[i].callback = callback;
	}
	thread_list_unlock();
	if (i == FLS_SLOTS) {
		SetLastError(ERROR_NO_MORE_ITEMS);
		return FLS_OUT_OF_INDEXES;
	}
	TRACE(tls, "%p -> %u\n", (void *)callback, i);
	return i;
}

struct pending_callback {
	PFLS_CALLBACK_FUNCTION fn;
	void *value;
};

/* Thread list lock held: take t's value of index i, remembering the
 * callback to run for it (after the lock is dropped). */
static void take_value(struct thread *t, DWORD i, struct pending_callback *out, size_t *n)
{
	void *v = t->fls ? t->fls[i] : NULL;

	if (!v)
		return;
	t->fls[i] = NULL;
	if (fls_index[i].callback) {
		out[*n].fn = fls_index[i].callback;
		out[*n].value = v;
		(*n)++;
	}
}

struct free_ctx {
	DWORD index;
	struct pending_callback *calls;
	size_t n, cap;
};

static void count_thread(struct thread *t, void *ctx)
{
	((struct free_ctx *)ctx)->cap++;
}

static void free_in_thread(struct thread *t, void *arg)
{
	struct free_ctx *ctx = arg;

	if (ctx->calls)
		take_value(t, ctx->index, ctx->calls, &ctx->n);
	else if (t->fls)
		t->fls[ctx->index] = NULL;
}

BOOL WINAPI FlsFree(DWORD i)
{
	struct free_ctx ctx = { .index = i };

	TRACE(tls, "%u\n", i);
	thread_list_lock();
	if (i >= FLS_SLOTS || !fls_index[i].used) {
		thread_list_unlock();
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	thread_for_each(count_thread, &ctx);
	/* Without memory the values are dropped without their callbacks. */
	ctx.calls = ctx.cap ? calloc(ctx.cap, sizeof(*ctx.calls)) : NULL;
	thread_for_each(free_in_thread, &ctx);
	fls_index[i].used = false;
	fls_index[i].callback = NULL;
	thread_list_unlock();
	for (size_t k = 0; k < ctx.n; k++)
		PE_CALL1(ctx.calls[k].fn, ctx.calls[k].value);
	free(ctx.calls);
	return TRUE;
}

PVOID WINAPI FlsGetValue(DWORD i)
{
	struct thread *t = thread_current();
	void *v;

	if (i >= FLS_SLOTS || !t) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	thread_list_lock();
	v = fls_index[i].used && t->fls ? t->fls[i] : NULL;
	thread_list_unlock();
	SetLastError(ERROR_SUCCESS);
	return v;
}

BOOL WINAPI FlsSetValue(DWORD i, PVOID value)
{
	struct thread *t = thread_current();
	void **slots = NULL;

	if (i >= FLS_SLOTS || !t) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!t->fls && !(slots = calloc(FLS_SLOTS, sizeof(void *)))) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	thread_list_lock();
	if (!fls_index[i].used) {
		thread_list_unlock();
		free(slots);
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!t->fls) {
		t->fls = slots;
		slots = NULL;
	}
	t->fls[i] = value;
	thread_list_unlock();
	free(slots);
	return TRUE;
}

void fls_thread_exit(struct thread *t)
{
	struct pending_callback calls[FLS_SLOTS];
	size_t n = 0;

	if (!t->fls)
		return;
	thread_list_lock();
	for (DWORD i = 0; i < FLS_SLOTS; i++)
		if (fls_index[i].used)
			take_value(t, i, calls, &n);
	thread_list_unlock();
	for (size_t k = 0; k < n; k++)
		PE_CALL1(calls[k].fn, calls[k].value);
}

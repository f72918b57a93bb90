/* The thread pool: QueueUserWorkItem, BindIoCompletionCallback, and the
 * TP_WORK / TP_IO objects of the Vista pool.
 *
 * One private completion port feeds the workers: a work item is a packet
 * whose key is the item, an I/O completion on a bound handle is a packet
 * whose key is the binding (the handle is associated with the pool's port
 * by the one completion path).  Workers are ndshim threads with a TEB
 * (callbacks are PE code), started on demand when no worker is idle, up
 * to MAX_WORKERS, and kept for the life of the process.  Callback
 * environments (private pools, cleanup groups) are not supported: every
 * object runs on the process pool.  WaitForThreadpoolIoCallbacks waits for
 * callbacks that are running, not for completions still queued. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#define WIN32_NO_STATUS
#include "core/debug.h"
#include "core/errors.h"
#include "core/iocp.h"
#include "core/overlapped.h"
#include "core/thread.h"
#include "kernel32/kernel32_private.h"
#include "core/pecall.h"
#undef WIN32_NO_STATUS
#include <ntstatus.h>

#define MAX_WORKERS 32
#define MIN_IO_WORKERS 2

struct tp_item {
	/* Runs on a worker for the packet e whose key is the item. */
	void (*run)(struct tp_item *item, const OVERLAPPED_ENTRY *e);
};

/* Opaque to callbacks: the instance functions are not implemented. */
struct _TP_CALLBACK_INSTANCE {
	int unused;
};
static struct _TP_CALLBACK_INSTANCE the_instance;

static pthread_once_t pool_once = PTHREAD_ONCE_INIT;
static struct object *pool_port;
static atomic_int workers, idle;

static void pool_init(void)
{
	pool_port = iocp_create(MAX_WORKERS);
}

static DWORD WINAPI worker_main(void *arg)
{
	for (;;) {
		OVERLAPPED_ENTRY e;
		struct tp_item *item;
		ULONG n;

		atomic_fetch_add(&idle, 1);
		iocp_remove(pool_port, &e, 1, &n, INFINITE, false);
		atomic_fetch_sub(&idle, 1);
		item = (struct tp_item *)e.lpCompletionKey;
		item->run(item, &e);
	}
	return 0;
}

/* A new worker if none is idle (or fewer than min exist). */
static bool pool_grow(int min)
{
	struct thread *t;
	int n;

	pthread_once(&pool_once, pool_init);
	if (!pool_port) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return false;
	}
	for (;;) {
		n = atomic_load(&workers);
		if (n >= MAX_WORKERS || (n >= min && atomic_load(&idle) > 0))
			return true;
		if (atomic_compare_exchange_weak(&workers, &n, n + 1))
			break;
	}
	if (!(t = thread_create(0, worker_main, NULL, 0, NULL))) {
		atomic_fetch_sub(&workers, 1);
		return n > 0;
	}
	TRACE(thread, "thread pool: worker %u started\n", t->tid);
	object_unref(&t->obj);
	return true;
}

static bool pool_post(struct tp_item *item)
{
	if (!pool_grow(1))
		return false;
	if (!iocp_post(pool_port, (ULONG_PTR)item, NULL, STATUS_SUCCESS, 0)) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return false;
	}
	return true;
}

/* Associates h with the pool's port, key item. */
static bool pool_bind(HANDLE h, struct tp_item *item)
{
	struct io_target *t;
	struct object *obj;
	BOOL ok;

	if (!pool_grow(MIN_IO_WORKERS))
		return false;
	if (!(t = io_target_get(h, &obj)))
		return false;
	ok = io_target_associate(t, pool_port, (ULONG_PTR)item);
	object_unref(obj);
	return ok;
}

/* ---- QueueUserWorkItem ------------------------------------------------- */

struct user_work {
	struct tp_item item;
	LPTHREAD_START_ROUTINE fn;
	void *ctx;
};

static void run_user_work(struct tp_item *item, const OVERLAPPED_ENTRY *e)
{
	struct user_work *w = (struct user_work *)item;

	PE_CALL1(w->fn, w->ctx);
	free(w);
}

BOOL WINAPI QueueUserWorkItem(LPTHREAD_START_ROUTINE fn, PVOID ctx, ULONG flags)
{
	struct user_work *w = malloc(sizeof(*w));

	TRACE(thread, "%p(%p), flags %#x\n", (void *)fn, ctx, (unsigned)flags);
	if (!w) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	w->item.run = run_user_work;
	w->fn = fn;
	w->ctx = ctx;
	if (!pool_post(&w->item)) {
		free(w);
		return FALSE;
	}
	return TRUE;
}

/* ---- BindIoCompletionCallback ------------------------------------------ */

/* Bindings live as long as the process, like the handle's association. */
struct binding {
	struct tp_item item;
	LPOVERLAPPED_COMPLETION_ROUTINE fn;
	struct binding *next;
};
static struct binding *bindings;
static pthread_mutex_t bindings_lock = PTHREAD_MUTEX_INITIALIZER;

static void run_binding(struct tp_item *item, const OVERLAPPED_ENTRY *e)
{
	struct binding *b = (struct binding *)item;

	PE_CALL3(b->fn, RtlNtStatusToDosError((NTSTATUS)(ULONG)e->Internal), e->dwNumberOfBytesTransferred,
		 e->lpOverlapped);
}

BOOL WINAPI BindIoCompletionCallback(HANDLE h, LPOVERLAPPED_COMPLETION_ROUTINE fn, ULONG flags)
{
	struct binding *b = malloc(sizeof(*b));

	TRACE(iocp, "%p, %p, flags %#x\n", h, (void *)fn, (unsigned)flags);
	if (!b) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	b->item.run = run_binding;
	b->fn = fn;
	if (!pool_bind(h, &b->item)) {
		free(b);
		return FALSE;
	}
	pthread_mutex_lock(&bindings_lock);
	b->next = bindings;
	bindings = b;
	pthread_mutex_unlock(&bindings_lock);
	return TRUE;
}

/* ---- TP_WORK ------------------------------------------------------------- */

struct _TP_WORK {
	struct tp_item item;
	PTP_WORK_CALLBACK fn;
	void *ctx;
	pthread_mutex_t lock;
	pthread_cond_t idle; /* queued and running both reached 0 */
	unsigned int queued, running;
	unsigned int skip;   /* queued packets cancelled by WaitFor...(TRUE) */
	bool closing;        /* freed when the last callback is done */
};

static void work_free(TP_WORK *w)
{
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->idle);
	free(w);
}

/* w->lock held: does the object go away now?  (Caller unlocks, frees.) */
static bool work_done_locked(TP_WORK *w)
{
	if (!w->queued && !w->running)
		pthread_cond_broadcast(&w->idle);
	return w->closing && !w->queued && !w->running && !w->skip;
}

static void run_work(struct tp_item *item, const OVERLAPPED_ENTRY *e)
{
	TP_WORK *w = (TP_WORK *)item;
	bool gone;

	pthread_mutex_lock(&w->lock);
	if (w->skip) {
		w->skip--;
		gone = work_done_locked(w);
		pthread_mutex_unlock(&w->lock);
		if (gone)
			work_free(w);
		return;
	}
	w->queued--;
	w->running++;
	pthread_mutex_unlock(&w->lock);
	PE_CALL3(w->fn, &the_instance, w->ctx, w);
	pthread_mutex_lock(&w->lock);
	w->running--;
	gone = work_done_locked(w);
	pthread_mutex_unlock(&w->lock);
	if (gone)
		work_free(w);
}

TP_WORK *WINAPI CreateThreadpoolWork(PTP_WORK_CALLBACK fn, void *ctx, TP_CALLBACK_ENVIRON *env)
{
	TP_WORK *w = calloc(1, sizeof(*w));

	if (!w) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	w->item.run = run_work;
	w->fn = fn;
	w->ctx = ctx;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->idle, NULL);
	return w;
}

void WINAPI SubmitThreadpoolWork(TP_WORK *w)
{
	pthread_mutex_lock(&w->lock);
	w->queued++;
	pthread_mutex_unlock(&w->lock);
	if (!pool_post(&w->item)) {
		/* Windows cannot fail here either; say so loudly. */
		ndrun_error("SubmitThreadpoolWork: out of memory, work item dropped");
		pthread_mutex_lock(&w->lock);
		w->queued--;
		pthread_mutex_unlock(&w->lock);
	}
}

void WINAPI WaitForThreadpoolWorkCallbacks(TP_WORK *w, BOOL cancel)
{
	pthread_mutex_lock(&w->lock);
	if (cancel) {
		w->skip += w->queued;
		w->queued = 0;
	}
	while (w->queued || w->running)
		pthread_cond_wait(&w->idle, &w->lock);
	pthread_mutex_unlock(&w->lock);
}

void WINAPI CloseThreadpoolWork(TP_WORK *w)
{
	bool gone;

	pthread_mutex_lock(&w->lock);
	w->closing = true;
	gone = !w->queued && !w->running && !w->skip;
	pthread_mutex_unlock(&w->lock);
	if (gone)
		work_free(w);
}

/* ---- TP_IO ------------------------------------------------------------------ */

struct _TP_IO {
	struct tp_item item;
	PTP_WIN32_IO_CALLBACK fn;
	void *ctx;
	pthread_mutex_t lock;
	pthread_cond_t idle;     /* running reached 0 */
	unsigned int expected;   /* StartThreadpoolIo calls not yet matched */
	unsigned int running;
	bool closing;
};

static void io_free(TP_IO *io)
{
	pthread_mutex_destroy(&io->lock);
	pthread_cond_destroy(&io->idle);
	free(io);
}

static void run_io(struct tp_item *item, const OVERLAPPED_ENTRY *e)
{
	TP_IO *io = (TP_IO *)item;
	bool gone;

	pthread_mutex_lock(&io->lock);
	io->running++;
	pthread_mutex_unlock(&io->lock);
	PE_CALL6(io->fn, &the_instance, io->ctx, e->lpOverlapped,
		 RtlNtStatusToDosError((NTSTATUS)(ULONG)e->Internal), e->dwNumberOfBytesTransferred, io);
	pthread_mutex_lock(&io->lock);
	io->running--;
	if (io->expected)
		io->expected--;
	if (!io->running)
		pthread_cond_broadcast(&io->idle);
	gone = io->closing && !io->running && !io->expected;
	pthread_mutex_unlock(&io->lock);
	if (gone)
		io_free(io);
}

TP_IO *WINAPI CreateThreadpoolIo(HANDLE h, PTP_WIN32_IO_CALLBACK fn, void *ctx,
				 TP_CALLBACK_ENVIRON *env)
{
	TP_IO *io = calloc(1, sizeof(*io));

	if (!io) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	io->item.run = run_io;
	io->fn = fn;
	io->ctx = ctx;
	pthread_mutex_init(&io->lock, NULL);
	pthread_cond_init(&io->idle, NULL);
	if (!pool_bind(h, &io->item)) {
		io_free(io);
		return NULL;
	}
	return io;
}

void WINAPI StartThreadpoolIo(TP_IO *io)
{
	pthread_mutex_lock(&io->lock);
	io->expected++;
	pthread_mutex_unlock(&io->lock);
}

void WINAPI CancelThreadpoolIo(TP_IO *io)
{
	bool gone;

	pthread_mutex_lock(&io->lock);
	if (io->expected)
		io->expected--;
	gone = io->closing && !io->running && !io->expected;
	pthread_mutex_unlock(&io->lock);
	if (gone)
		io_free(io);
}

void WINAPI WaitForThreadpoolIoCallbacks(TP_IO *io, BOOL cancel)
{
	pthread_mutex_lock(&io->lock);
	while (io->running)
		pthread_cond_wait(&io->idle, &io->lock);
	pthread_mutex_unlock(&io->lock);
}

/* Freed once no callback runs and no started I/O is outstanding: the
 * handle stays bound to the object until then. */
void WINAPI CloseThreadpoolIo(TP_IO *io)
{
	bool gone;

	pthread_mutex_lock(&io->lock);
	io->closing = true;
	gone = !io->running && !io->expected;
	pthread_mutex_unlock(&io->lock);
	if (gone)
		io_free(io);
}

/* User APCs: queued to a thread, run by it in an alertable wait. */
#include <stdlib.h>

#include "core/debug.h"
#include "core/thread.h"
#include "core/wait.h"
#include "core/pecall.h"

struct apc {
	struct list entry;
	PAPCFUNC fn;
	ULONG_PTR data;
};

bool apc_queue(struct thread *t, PAPCFUNC fn, ULONG_PTR data)
{
	struct apc *apc = malloc(sizeof(*apc));

	if (!apc) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return false;
	}
	apc->fn = fn;
	apc->data = data;
	wait_lock();
	if (t->finished) {
		wait_unlock();
		free(apc);
		SetLastError(ERROR_GEN_FAILURE);
		return false;
	}
	list_add_tail(&t->apcs, &apc->entry);
	wait_alert_locked(t);
	wait_unlock();
	TRACE(thread, "%04x: %p(%#lx)\n", t->tid, (void *)fn, (unsigned long)data);
	return true;
}

bool apc_pending_locked(struct thread *t)
{
	return !list_empty(&t->apcs);
}

/* One at a time, without the lock: an APC may queue more or wait. */
bool apc_run_pending(struct thread *t)
{
	bool ran = false;

	for (;;) {
		struct apc *apc = NULL;

		wait_lock();
		if (!list_empty(&t->apcs)) {
			apc = LIST_ENTRY(t->apcs.next, struct apc, entry);
			list_remove(&apc->entry);
		}
		wait_unlock();
		if (!apc)
			return ran;
		PE_CALL1(apc->fn, apc->data);
		free(apc);
		ran = true;
	}
}

void apc_discard(struct thread *t)
{
	struct list *cur, *tmp;

	LIST_FOR_EACH_SAFE(cur, tmp, &t->apcs) {
		list_remove(cur);
		free(LIST_ENTRY(cur, struct apc, entry));
	}
}

bool apc_remove(struct thread *t, PAPCFUNC fn, ULONG_PTR data)
{
	struct list *cur;
	bool found = false;

	wait_lock();
	LIST_FOR_EACH(cur, &t->apcs) {
		struct apc *apc = LIST_ENTRY(cur, struct apc, entry);

		if (apc->fn == fn && apc->data == data) {
			list_remove(&apc->entry);
			free(apc);
			found = true;
			break;
		}
	}
	wait_unlock();
	return found;
}

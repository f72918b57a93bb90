/* Vectored exception and continue handlers.
 *
 * A handler may remove itself (or another) while it runs, or raise a new
 * exception that walks the same list, so no lock is held across a call:
 * each entry carries a count of the calls in progress, and a removed
 * entry is freed by whoever drops the last one. */
#include <pthread.h>
#include <stdlib.h>

#include "core/debug.h"
#include "core/list.h"
#include "ntdll/ntdll_private.h"
#include "ntdll/seh_private.h"
#include "core/pecall.h"

struct vectored_handler {
	struct list entry;
	PVECTORED_EXCEPTION_HANDLER func;
	unsigned int busy;  /* calls in progress */
	int removed;
};

static struct list lists[2] = {
	LIST_INIT(lists[SEH_VECTORED_EXCEPTION]),
	LIST_INIT(lists[SEH_VECTORED_CONTINUE]),
};
static pthread_mutex_t vectored_lock = PTHREAD_MUTEX_INITIALIZER;

static PVOID add_handler(enum seh_vectored_list which, ULONG first, PVECTORED_EXCEPTION_HANDLER func)
{
	struct vectored_handler *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->func = func;
	pthread_mutex_lock(&vectored_lock);
	if (first)
		list_add_head(&lists[which], &h->entry);
	else
		list_add_tail(&lists[which], &h->entry);
	pthread_mutex_unlock(&vectored_lock);
	TRACE(seh, "list %d: %p -> %p\n", which, func, h);
	return h;
}

static ULONG remove_handler(enum seh_vectored_list which, PVOID handle)
{
	struct list *pos;
	ULONG found = 0;

	pthread_mutex_lock(&vectored_lock);
	LIST_FOR_EACH(pos, &lists[which]) {
		struct vectored_handler *h = LIST_ENTRY(pos, struct vectored_handler, entry);
		if (h != handle || h->removed)
			continue;
		found = 1;
		if (h->busy) {
			h->removed = 1;
		} else {
			list_remove(&h->entry);
			free(h);
		}
		break;
	}
	pthread_mutex_unlock(&vectored_lock);
	return found;
}

int seh_call_vectored(enum seh_vectored_list which, EXCEPTION_RECORD *rec, CONTEXT *ctx)
{
	EXCEPTION_POINTERS ptrs = { rec, ctx };
	struct list *head = &lists[which], *pos;
	struct vectored_handler *h = NULL;
	int handled = 0;

	pthread_mutex_lock(&vectored_lock);
	pos = head->next;
	while (pos != head && !handled) {
		struct list *next;
		LONG ret;

		h = LIST_ENTRY(pos, struct vectored_handler, entry);
		if (h->removed) {
			pos = pos->next;
			continue;
		}
		h->busy++;
		pthread_mutex_unlock(&vectored_lock);
		ret = (LONG)PE_CALL1(h->func, &ptrs);
		TRACE(seh, "list %d: %p returned %d\n", which, h->func, (int)ret);
		handled = ret == EXCEPTION_CONTINUE_EXECUTION;
		pthread_mutex_lock(&vectored_lock);
		next = pos->next;
		if (!--h->busy && h->removed) {
			list_remove(&h->entry);
			free(h);
		}
		pos = next;
	}
	pthread_mutex_unlock(&vectored_lock);
	return handled;
}

PVOID WINAPI RtlAddVectoredExceptionHandler(ULONG first, PVECTORED_EXCEPTION_HANDLER func)
{
	return add_handler(SEH_VECTORED_EXCEPTION, first, func);
}

ULONG WINAPI RtlRemoveVectoredExceptionHandler(PVOID handle)
{
	return remove_handler(SEH_VECTORED_EXCEPTION, handle);
}

PVOID WINAPI RtlAddVectoredContinueHandler(ULONG first, PVECTORED_EXCEPTION_HANDLER func)
{
	return add_handler(SEH_VECTORED_CONTINUE, first, func);
}

ULONG WINAPI RtlRemoveVectoredContinueHandler(PVOID handle)
{
	return remove_handler(SEH_VECTORED_CONTINUE, handle);
}

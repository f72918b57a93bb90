/* Pending overlapped requests: a FIFO per object, so cancel completes them
 * in the order they were issued.  Slow path only (allocates). */
#include <stdlib.h>

#include "nd_unix.h"

void nd_pending_init(struct nd_pending_list *l)
{
	l->head = NULL;
	l->tail = &l->head;
}

int32_t nd_pending_add(struct nd_pending_list *l, const struct nd_unix_ov *ov, uint32_t tag, void *arg)
{
	struct nd_pending *p = malloc(sizeof(*p));

	if (!p)
		return ND_NO_MEMORY;
	p->next = NULL;
	p->ov = *ov;
	p->tag = tag;
	p->arg = arg;
	*l->tail = p;
	l->tail = &p->next;
	return ND_PENDING;
}

struct nd_pending *nd_pending_take(struct nd_pending_list *l, uint32_t tag)
{
	struct nd_pending **pp;

	for (pp = &l->head; *pp; pp = &(*pp)->next) {
		struct nd_pending *p = *pp;
		if (tag != ND_TAG_ANY && p->tag != tag)
			continue;
		*pp = p->next;
		if (l->tail == &p->next)
			l->tail = pp;
		return p;
	}
	return NULL;
}

void nd_pending_complete(struct nd_pending_list *l, uint32_t tag, int32_t status)
{
	struct nd_pending *p;

	while ((p = nd_pending_take(l, tag))) {
		nd_complete(&p->ov, status, 0);
		free(p);
	}
}

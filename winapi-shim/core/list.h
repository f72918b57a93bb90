/* Intrusive doubly linked list with a sentinel head. */
#ifndef NDSHIM_LIST_H
#define NDSHIM_LIST_H

#include <stdbool.h>

struct list {
	struct list *next, *prev;
};

#define LIST_INIT(name) { &(name), &(name) }

static inline void list_init(struct list *head) { head->next = head->prev = head; }
static inline bool list_empty(const struct list *head) { return head->next == head; }

static inline void list_add_before(struct list *pos, struct list *item)
{
	item->next = pos;
	item->prev = pos->prev;
	pos->prev->next = item;
	pos->prev = item;
}
static inline void list_add_tail(struct list *head, struct list *item) { list_add_before(head, item); }
static inline void list_add_head(struct list *head, struct list *item) { list_add_before(head->next, item); }

static inline void list_remove(struct list *item)
{
	item->prev->next = item->next;
	item->next->prev = item->prev;
	item->next = item->prev = item;
}

#define LIST_FOR_EACH(cur, head) for ((cur) = (head)->next; (cur) != (head); (cur) = (cur)->next)
#define LIST_FOR_EACH_SAFE(cur, tmp, head) \
	for ((cur) = (head)->next, (tmp) = (cur)->next; (cur) != (head); (cur) = (tmp), (tmp) = (cur)->next)
#define LIST_ENTRY(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))

#endif

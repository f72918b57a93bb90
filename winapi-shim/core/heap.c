#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/debug.h"
#include "core/heap.h"
#include "core/list.h"

#define HEAP_MAGIC  0x50414548u /* "HEAP" */
#define BLOCK_MAGIC 0x4b434f4c42504148ull

/* Windows refuses single blocks this big in a non-growable heap. */
#define MAX_FIXED_HEAP_BLOCK 0x7fff8

struct heap {
	unsigned int magic;
	DWORD flags;
	SIZE_T max_size; /* 0: growable */
	SIZE_T used;     /* bytes requested, for max_size */
	pthread_mutex_t lock; /* recursive: HeapLock, then HeapAlloc */
	struct list blocks;
	struct list entry; /* all_heaps, under heaps_lock */
};

/* sizeof is a multiple of 16, so data stays as aligned as malloc's. */
struct block {
	struct list entry; /* heap->blocks, under heap->lock */
	struct heap *heap;
	size_t size;      /* as requested */
	size_t capacity;  /* bytes usable after the header */
	uint64_t magic;   /* BLOCK_MAGIC ^ address */
};
_Static_assert(sizeof(struct block) % 16 == 0, "heap blocks must keep 16-byte alignment");

static struct list all_heaps; /* defined below: it and the process heap point at each other */
static pthread_mutex_t heaps_lock = PTHREAD_MUTEX_INITIALIZER;

static struct heap process_heap = {
	.magic = HEAP_MAGIC,
	.flags = HEAP_GROWABLE,
	.lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP,
	.blocks = LIST_INIT(process_heap.blocks),
	.entry = { &all_heaps, &all_heaps },
};

static struct list all_heaps = { &process_heap.entry, &process_heap.entry };

HANDLE heap_process_heap(void)
{
	return &process_heap;
}

static struct heap *to_heap(HANDLE h)
{
	struct heap *heap = h;

	return heap && heap->magic == HEAP_MAGIC ? heap : NULL;
}

static struct block *to_block(const void *ptr)
{
	struct block *b = (struct block *)ptr - 1;

	return b->magic == (BLOCK_MAGIC ^ (uintptr_t)b) ? b : NULL;
}

/* ---- raw memory: malloc, or whole pages for executable heaps ---------- */

static size_t page_round(size_t n)
{
	return (n + 4095) & ~(size_t)4095;
}

static struct block *raw_alloc(struct heap *heap, size_t size)
{
	size_t total = sizeof(struct block) + size;
	struct block *b;

	if (total < size)
		return NULL;
	if (heap->flags & HEAP_CREATE_ENABLE_EXECUTE) {
		b = mmap(NULL, page_round(total), PROT_READ | PROT_WRITE | PROT_EXEC,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (b == MAP_FAILED)
			return NULL;
		b->capacity = page_round(total) - sizeof(struct block);
	} else {
		if (!(b = malloc(total)))
			return NULL;
		b->capacity = malloc_usable_size(b) - sizeof(struct block);
	}
	return b;
}

static void raw_free(struct heap *heap, struct block *b)
{
	b->magic = 0;
	if (heap->flags & HEAP_CREATE_ENABLE_EXECUTE)
		munmap(b, sizeof(struct block) + b->capacity);
	else
		free(b);
}

/* A moved copy of b with room for size bytes, or NULL (b unchanged). */
static struct block *raw_realloc(struct heap *heap, struct block *b, size_t size)
{
	size_t total = sizeof(struct block) + size;
	struct block *nb;

	if (total < size)
		return NULL;
	if (heap->flags & HEAP_CREATE_ENABLE_EXECUTE) {
		nb = mremap(b, sizeof(struct block) + b->capacity, page_round(total), MREMAP_MAYMOVE);
		if (nb == MAP_FAILED)
			return NULL;
		nb->capacity = page_round(total) - sizeof(struct block);
	} else {
		if (!(nb = realloc(b, total)))
			return NULL;
		nb->capacity = malloc_usable_size(nb) - sizeof(struct block);
	}
	return nb;
}

/* ---- heaps ------------------------------------------------------------- */

HANDLE heap_create(DWORD flags, SIZE_T initial_size, SIZE_T max_size)
{
	pthread_mutexattr_t attr;
	struct heap *heap;

	if (!(heap = calloc(1, sizeof(*heap))))
		return NULL;
	heap->magic = HEAP_MAGIC;
	heap->flags = flags | (max_size ? 0 : HEAP_GROWABLE);
	heap->max_size = max_size;
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&heap->lock, &attr);
	pthread_mutexattr_destroy(&attr);
	list_init(&heap->blocks);
	pthread_mutex_lock(&heaps_lock);
	list_add_tail(&all_heaps, &heap->entry);
	pthread_mutex_unlock(&heaps_lock);
	TRACE(heap, "flags %#x initial %zu max %zu -> %p\n", (unsigned)flags, (size_t)initial_size,
	      (size_t)max_size, (void *)heap);
	return heap;
}

BOOL heap_is_valid(HANDLE h)
{
	struct list *cur;
	BOOL found = FALSE;

	pthread_mutex_lock(&heaps_lock);
	LIST_FOR_EACH(cur, &all_heaps)
		if (LIST_ENTRY(cur, struct heap, entry) == h)
			found = TRUE;
	pthread_mutex_unlock(&heaps_lock);
	return found;
}

BOOL heap_destroy(HANDLE h)
{
	struct heap *heap;
	struct list *cur, *next;

	if (h == &process_heap || !heap_is_valid(h))
		return FALSE;
	heap = h;
	pthread_mutex_lock(&heaps_lock);
	list_remove(&heap->entry);
	pthread_mutex_unlock(&heaps_lock);
	heap->magic = 0;
	LIST_FOR_EACH_SAFE(cur, next, &heap->blocks)
		raw_free(heap, LIST_ENTRY(cur, struct block, entry));
	pthread_mutex_destroy(&heap->lock);
	TRACE(heap, "%p\n", h);
	free(heap);
	return TRUE;
}

/* heap->lock held. */
static BOOL within_limit(struct heap *heap, size_t old_size, size_t new_size)
{
	if (!heap->max_size)
		return TRUE;
	if (new_size > MAX_FIXED_HEAP_BLOCK)
		return FALSE;
	return heap->used - old_size + new_size <= heap->max_size;
}

void *heap_alloc(HANDLE h, DWORD flags, SIZE_T size)
{
	struct heap *heap = to_heap(h);
	struct block *b;

	if (!heap)
		return NULL;
	pthread_mutex_lock(&heap->lock);
	if (!within_limit(heap, 0, size) || !(b = raw_alloc(heap, size))) {
		pthread_mutex_unlock(&heap->lock);
		TRACE(heap, "%p: %zu bytes: out of memory\n", h, (size_t)size);
		return NULL;
	}
	b->heap = heap;
	b->size = size;
	b->magic = BLOCK_MAGIC ^ (uintptr_t)b;
	list_add_tail(&heap->blocks, &b->entry);
	heap->used += size;
	pthread_mutex_unlock(&heap->lock);
	if ((flags | heap->flags) & HEAP_ZERO_MEMORY)
		memset(b + 1, 0, size);
	return b + 1;
}

void *heap_realloc(HANDLE h, DWORD flags, void *ptr, SIZE_T size)
{
	struct heap *heap = to_heap(h);
	struct block *b, *nb;
	size_t old;

	if (!heap || !ptr || !(b = to_block(ptr)) || b->heap != heap)
		return NULL;
	pthread_mutex_lock(&heap->lock);
	old = b->size;
	if (!within_limit(heap, old, size)) {
		pthread_mutex_unlock(&heap->lock);
		return NULL;
	}
	if (size <= b->capacity) {
		nb = b;
	} else if (flags & HEAP_REALLOC_IN_PLACE_ONLY) {
		pthread_mutex_unlock(&heap->lock);
		return NULL;
	} else {
		list_remove(&b->entry);
		if (!(nb = raw_realloc(heap, b, size))) {
			list_add_tail(&heap->blocks, &b->entry);
			pthread_mutex_unlock(&heap->lock);
			return NULL;
		}
		nb->magic = BLOCK_MAGIC ^ (uintptr_t)nb;
		list_add_tail(&heap->blocks, &nb->entry);
	}
	nb->size = size;
	heap->used = heap->used - old + size;
	pthread_mutex_unlock(&heap->lock);
	if (size > old && ((flags | heap->flags) & HEAP_ZERO_MEMORY))
		memset((char *)(nb + 1) + old, 0, size - old);
	return nb + 1;
}

BOOL heap_free(HANDLE h, DWORD flags, void *ptr)
{
	struct heap *heap = to_heap(h);
	struct block *b;

	if (!ptr)
		return TRUE;
	if (!heap || !(b = to_block(ptr)) || b->heap != heap)
		return FALSE;
	pthread_mutex_lock(&heap->lock);
	list_remove(&b->entry);
	heap->used -= b->size;
	raw_free(heap, b);
	pthread_mutex_unlock(&heap->lock);
	return TRUE;
}

SIZE_T heap_size(HANDLE h, DWORD flags, const void *ptr)
{
	struct heap *heap = to_heap(h);
	struct block *b;

	if (!heap || !ptr || !(b = to_block(ptr)) || b->heap != heap)
		return (SIZE_T)-1;
	return b->size;
}

BOOL heap_validate(HANDLE h, DWORD flags, const void *ptr)
{
	struct heap *heap;
	struct list *cur;
	BOOL ok = TRUE;

	if (!heap_is_valid(h))
		return FALSE;
	heap = h;
	if (ptr) {
		struct block *b = to_block(ptr);
		return b && b->heap == heap;
	}
	pthread_mutex_lock(&heap->lock);
	LIST_FOR_EACH(cur, &heap->blocks) {
		struct block *b = LIST_ENTRY(cur, struct block, entry);

		if (b->magic != (BLOCK_MAGIC ^ (uintptr_t)b) || b->heap != heap ||
		    b->size > b->capacity)
			ok = FALSE;
	}
	pthread_mutex_unlock(&heap->lock);
	return ok;
}

void heap_lock(HANDLE h)
{
	pthread_mutex_lock(&((struct heap *)h)->lock);
}

void heap_unlock(HANDLE h)
{
	pthread_mutex_unlock(&((struct heap *)h)->lock);
}

DWORD heap_list(DWORD count, HANDLE *heaps)
{
	struct list *cur;
	DWORD n = 0;

	pthread_mutex_lock(&heaps_lock);
	LIST_FOR_EACH(cur, &all_heaps) {
		if (n < count)
			heaps[n] = LIST_ENTRY(cur, struct heap, entry);
		n++;
	}
	pthread_mutex_unlock(&heaps_lock);
	return n;
}

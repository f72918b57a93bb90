/* LocalAlloc/GlobalAlloc families (winbase.h), on the process heap.
 *
 * Fixed memory is a process-heap block and its handle is its address
 * (16-byte aligned).  Moveable memory has a small entry whose second
 * field holds the data pointer; the handle is the address of that field
 * (8 mod 16), so `*(void **)h` gives the data as on Windows.  Local and
 * Global memory are the same thing on Win32; the flag values agree. */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "core/heap.h"
#include "core/list.h"
#include "kernel32/kernel32_private.h"

#define MOVEABLE_MAGIC 0x4d4f56454142ull /* "MOVEAB" */

struct moveable {
	uint64_t magic;
	void *ptr; /* the handle points here; NULL: discarded */
	unsigned int lock_count;
	unsigned int flags; /* LMEM_DISCARDABLE */
	struct list entry; /* all_moveable, for LocalHandle */
};

static struct list all_moveable = LIST_INIT(all_moveable);
static pthread_mutex_t moveable_lock = PTHREAD_MUTEX_INITIALIZER;

static bool is_moveable_handle(HLOCAL h)
{
	return ((uintptr_t)h & 15) == 8;
}

static struct moveable *to_moveable(HLOCAL h)
{
	struct moveable *m = (struct moveable *)((char *)h - offsetof(struct moveable, ptr));

	return m->magic == MOVEABLE_MAGIC ? m : NULL;
}

HLOCAL WINAPI LocalAlloc(UINT flags, SIZE_T size)
{
	HANDLE heap = heap_process_heap();
	DWORD hflags = (flags & LMEM_ZEROINIT) ? HEAP_ZERO_MEMORY : 0;
	struct moveable *m;

	if (!(flags & LMEM_MOVEABLE)) {
		void *p = heap_alloc(heap, hflags, size);

		if (!p)
			SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return p;
	}
	if (!(m = heap_alloc(heap, HEAP_ZERO_MEMORY, sizeof(*m)))) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	if (size && !(m->ptr = heap_alloc(heap, hflags, size))) {
		heap_free(heap, 0, m);
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	m->magic = MOVEABLE_MAGIC;
	m->flags = flags & LMEM_DISCARDABLE;
	pthread_mutex_lock(&moveable_lock);
	list_add_tail(&all_moveable, &m->entry);
	pthread_mutex_unlock(&moveable_lock);
	return &m->ptr;
}

HLOCAL WINAPI LocalFree(HLOCAL h)
{
	HANDLE heap = heap_process_heap();
	struct moveable *m;

	if (!h)
		return NULL;
	if (!is_moveable_handle(h)) {
		if (heap_free(heap, 0, h))
			return NULL;
		SetLastError(ERROR_INVALID_HANDLE);
		return h;
	}
	if (!(m = to_moveable(h))) {
		SetLastError(ERROR_INVALID_HANDLE);
		return h;
	}
	pthread_mutex_lock(&moveable_lock);
	list_remove(&m->entry);
	pthread_mutex_unlock(&moveable_lock);
	m->magic = 0;
	heap_free(heap, 0, m->ptr);
	heap_free(heap, 0, m);
	return NULL;
}

LPVOID WINAPI LocalLock(HLOCAL h)
{
	struct moveable *m;

	if (!is_moveable_handle(h)) {
		if (!h || !heap_validate(heap_process_heap(), 0, h)) {
			SetLastError(ERROR_INVALID_HANDLE);
			return NULL;
		}
		return h;
	}
	if (!(m = to_moveable(h))) {
		SetLastError(ERROR_INVALID_HANDLE);
		return NULL;
	}
	if (!m->ptr) {
		SetLastError(ERROR_DISCARDED);
		return NULL;
	}
	__atomic_add_fetch(&m->lock_count, 1, __ATOMIC_RELAXED);
	return m->ptr;
}

BOOL WINAPI LocalUnlock(HLOCAL h)
{
	struct moveable *m;
	unsigned int left;

	if (!is_moveable_handle(h)) {
		/* fixed memory is never locked */
		SetLastError(ERROR_NOT_LOCKED);
		return FALSE;
	}
	if (!(m = to_moveable(h))) {
		SetLastError(ERROR_INVALID_HANDLE);
		return FALSE;
	}
	if (!m->lock_count) {
		SetLastError(ERROR_NOT_LOCKED);
		return FALSE;
	}
	left = __atomic_sub_fetch(&m->lock_count, 1, __ATOMIC_RELAXED);
	if (!left)
		SetLastError(NO_ERROR);
	return left != 0;
}

SIZE_T WINAPI LocalSize(HLOCAL h)
{
	HANDLE heap = heap_process_heap();
	struct moveable *m;
	SIZE_T size;

	if (!is_moveable_handle(h)) {
		size = h ? heap_size(heap, 0, h) : (SIZE_T)-1;
		if (size == (SIZE_T)-1) {
			SetLastError(ERROR_INVALID_HANDLE);
			return 0;
		}
		return size;
	}
	if (!(m = to_moveable(h))) {
		SetLastError(ERROR_INVALID_HANDLE);
		return 0;
	}
	return m->ptr ? heap_size(heap, 0, m->ptr) : 0;
}

HLOCAL WINAPI LocalReAlloc(HLOCAL h, SIZE_T size, UINT flags)
{
	HANDLE heap = heap_process_heap();
	DWORD hflags = (flags & LMEM_ZEROINIT) ? HEAP_ZERO_MEMORY : 0;
	struct moveable *m;
	void *p;

	if (!is_moveable_handle(h)) {
		if (flags & LMEM_MODIFY)
			return h;
		/* A fixed block moves only when the caller allows it. */
		if (!(flags & LMEM_MOVEABLE))
			hflags |= HEAP_REALLOC_IN_PLACE_ONLY;
		if (!(p = heap_realloc(heap, hflags, h, size)))
			SetLastError(heap_validate(heap, 0, h) ? ERROR_NOT_ENOUGH_MEMORY
							       : ERROR_INVALID_HANDLE);
		return p;
	}
	if (!(m = to_moveable(h))) {
		SetLastError(ERROR_INVALID_HANDLE);
		return NULL;
	}
	if (flags & LMEM_MODIFY) {
		if (flags & LMEM_DISCARDABLE)
			m->flags |= LMEM_DISCARDABLE;
		return h;
	}
	if (!size) {
		if (m->lock_count) {
			SetLastError(ERROR_INVALID_HANDLE);
			return NULL;
		}
		heap_free(heap, 0, m->ptr);
		m->ptr = NULL;
		return h;
	}
	if (!m->ptr)
		p = heap_alloc(heap, hflags, size);
	else
		p = heap_realloc(heap, hflags | (m->lock_count ? HEAP_REALLOC_IN_PLACE_ONLY : 0), m->ptr,
				 size);
	if (!p) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	m->ptr = p;
	return h;
}

HLOCAL WINAPI LocalHandle(LPCVOID ptr)
{
	struct list *cur;
	HLOCAL h = NULL;

	if (!ptr) {
		SetLastError(ERROR_INVALID_HANDLE);
		return NULL;
	}
	if (is_moveable_handle((HLOCAL)ptr) && to_moveable((HLOCAL)ptr))
		return (HLOCAL)ptr;
	pthread_mutex_lock(&moveable_lock);
	LIST_FOR_EACH(cur, &all_moveable) {
		struct moveable *m = LIST_ENTRY(cur, struct moveable, entry);

		if (m->ptr == ptr)
			h = &m->ptr;
	}
	pthread_mutex_unlock(&moveable_lock);
	if (h)
		return h;
	if (!heap_validate(heap_process_heap(), 0, ptr)) {
		SetLastError(ERROR_INVALID_HANDLE);
		return NULL;
	}
	return (HLOCAL)ptr;
}

UINT WINAPI LocalFlags(HLOCAL h)
{
	struct moveable *m;

	if (!is_moveable_handle(h)) {
		if (!h || !heap_validate(heap_process_heap(), 0, h)) {
			SetLastError(ERROR_INVALID_HANDLE);
			return LMEM_INVALID_HANDLE;
		}
		return 0;
	}
	if (!(m = to_moveable(h))) {
		SetLastError(ERROR_INVALID_HANDLE);
		return LMEM_INVALID_HANDLE;
	}
	return (m->lock_count & LMEM_LOCKCOUNT) | (m->ptr ? 0 : LMEM_DISCARDED) | m->flags;
}

/* Global memory is Local memory (the GMEM_* values are the LMEM_* ones). */
_Static_assert(GMEM_MOVEABLE == LMEM_MOVEABLE && GMEM_ZEROINIT == LMEM_ZEROINIT &&
		       GMEM_MODIFY == LMEM_MODIFY && GMEM_DISCARDED == LMEM_DISCARDED,
	       "GMEM and LMEM flags differ");

/* ... except GMEM_DISCARDABLE (0x100) and LMEM_DISCARDABLE (0xf00). */
static UINT gmem_to_lmem(UINT flags)
{
	return (flags & (GMEM_MOVEABLE | GMEM_ZEROINIT | GMEM_MODIFY)) |
	       ((flags & GMEM_DISCARDABLE) ? LMEM_DISCARDABLE : 0);
}

HGLOBAL WINAPI GlobalAlloc(UINT flags, SIZE_T size)
{
	return LocalAlloc(gmem_to_lmem(flags), size);
}

HGLOBAL WINAPI GlobalFree(HGLOBAL h)
{
	return LocalFree(h);
}

LPVOID WINAPI GlobalLock(HGLOBAL h)
{
	return LocalLock(h);
}

BOOL WINAPI GlobalUnlock(HGLOBAL h)
{
	return LocalUnlock(h);
}

SIZE_T WINAPI GlobalSize(HGLOBAL h)
{
	return LocalSize(h);
}

HGLOBAL WINAPI GlobalReAlloc(HGLOBAL h, SIZE_T size, UINT flags)
{
	return LocalReAlloc(h, size, gmem_to_lmem(flags));
}

HGLOBAL WINAPI GlobalHandle(LPCVOID ptr)
{
	return LocalHandle(ptr);
}

UINT WINAPI GlobalFlags(HGLOBAL h)
{
	UINT f = LocalFlags(h);

	if (f == LMEM_INVALID_HANDLE)
		return GMEM_INVALID_HANDLE;
	return (f & ~LMEM_DISCARDABLE) | ((f & LMEM_DISCARDABLE) ? GMEM_DISCARDABLE : 0);
}

/* Win32 heaps (HeapCreate/HeapAlloc, RtlAllocateHeap, LocalAlloc...).
 *
 * A heap handle points to a struct heap; blocks come from glibc malloc
 * (mmap for HEAP_CREATE_ENABLE_EXECUTE heaps) behind a 48-byte header
 * that keeps user data 16-byte aligned and links the block into its heap,
 * so HeapDestroy frees every block.  Every heap is serialized by its own
 * recursive lock (HEAP_NO_SERIALIZE is accepted and ignored) and works
 * from any thread.
 *
 * These functions do not touch the last error: HeapAlloc does not set it
 * on Windows either, and the wrappers that do (HeapFree, HeapCreate) know
 * which code to use. */
#ifndef NDSHIM_HEAP_H
#define NDSHIM_HEAP_H

#include <windef.h>
#include <winbase.h>

/* The process heap.  Statically initialised, so it exists before any PE
 * code runs; the loader stores it in PEB.ProcessHeap. */
HANDLE heap_process_heap(void);

/* max_size 0: growable.  NULL for unsupported flags or out of memory. */
HANDLE heap_create(DWORD flags, SIZE_T initial_size, SIZE_T max_size);
BOOL heap_destroy(HANDLE heap); /* FALSE: not a heap, or the process heap */
BOOL heap_is_valid(HANDLE heap);

/* flags: HEAP_ZERO_MEMORY, HEAP_REALLOC_IN_PLACE_ONLY (realloc). */
void *heap_alloc(HANDLE heap, DWORD flags, SIZE_T size);
void *heap_realloc(HANDLE heap, DWORD flags, void *ptr, SIZE_T size);
BOOL heap_free(HANDLE heap, DWORD flags, void *ptr); /* NULL ptr: TRUE */
SIZE_T heap_size(HANDLE heap, DWORD flags, const void *ptr); /* (SIZE_T)-1: not a block */
/* ptr NULL: every block of the heap. */
BOOL heap_validate(HANDLE heap, DWORD flags, const void *ptr);
void heap_lock(HANDLE heap);
void heap_unlock(HANDLE heap);

/* GetProcessHeaps: stores up to count handles, returns the total. */
DWORD heap_list(DWORD count, HANDLE *heaps);

#endif

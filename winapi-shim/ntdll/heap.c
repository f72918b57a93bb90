/* The Rtl heap functions: the same heaps as kernel32's Heap*. */
#include "core/heap.h"
#include "ntdll/ntdll_private.h"

PVOID WINAPI RtlAllocateHeap(HANDLE heap, ULONG flags, SIZE_T size)
{
	return heap_alloc(heap, flags, size);
}

PVOID WINAPI RtlReAllocateHeap(HANDLE heap, ULONG flags, PVOID ptr, SIZE_T size)
{
	return heap_realloc(heap, flags, ptr, size);
}

BOOLEAN WINAPI RtlFreeHeap(HANDLE heap, ULONG flags, PVOID ptr)
{
	return heap_free(heap, flags, ptr);
}

SIZE_T WINAPI RtlSizeHeap(HANDLE heap, ULONG flags, const void *ptr)
{
	return heap_size(heap, flags, ptr);
}

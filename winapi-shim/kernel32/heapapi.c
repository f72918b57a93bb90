/* Heaps (heapapi.h): thin wrappers over core/heap.c, which the ntdll Rtl*
 * heap functions share. */
#include "core/debug.h"
#include "core/heap.h"
#include "kernel32/kernel32_private.h"

/* Missing from the Wine headers' HEAP_INFORMATION_CLASS. */
#define HeapEnableTerminationOnCorruption ((HEAP_INFORMATION_CLASS)1)

HANDLE WINAPI GetProcessHeap(void)
{
	return heap_process_heap();
}

HANDLE WINAPI HeapCreate(DWORD flags, SIZE_T initial_size, SIZE_T max_size)
{
	HANDLE h = heap_create(flags, initial_size, max_size);

	if (!h)
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
	return h;
}

BOOL WINAPI HeapDestroy(HANDLE heap)
{
	if (!heap_destroy(heap)) {
		SetLastError(ERROR_INVALID_HANDLE);
		return FALSE;
	}
	return TRUE;
}

/* Windows' HeapAlloc and HeapReAlloc do not set the last error. */
LPVOID WINAPI HeapAlloc(HANDLE heap, DWORD flags, SIZE_T size)
{
	return heap_alloc(heap, flags, size);
}

LPVOID WINAPI HeapReAlloc(HANDLE heap, DWORD flags, LPVOID ptr, SIZE_T size)
{
	return heap_realloc(heap, flags, ptr, size);
}

BOOL WINAPI HeapFree(HANDLE heap, DWORD flags, LPVOID ptr)
{
	if (!heap_free(heap, flags, ptr)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	return TRUE;
}

SIZE_T WINAPI HeapSize(HANDLE heap, DWORD flags, LPCVOID ptr)
{
	SIZE_T size = heap_size(heap, flags, ptr);

	if (size == (SIZE_T)-1)
		SetLastError(ERROR_INVALID_PARAMETER);
	return size;
}

BOOL WINAPI HeapValidate(HANDLE heap, DWORD flags, LPCVOID ptr)
{
	return heap_validate(heap, flags, ptr);
}

BOOL WINAPI HeapLock(HANDLE heap)
{
	if (!heap_is_valid(heap)) {
		SetLastError(ERROR_INVALID_HANDLE);
		return FALSE;
	}
	heap_lock(heap);
	return TRUE;
}

BOOL WINAPI HeapUnlock(HANDLE heap)
{
	if (!heap_is_valid(heap)) {
		SetLastError(ERROR_INVALID_HANDLE);
		return FALSE;
	}
	heap_unlock(heap);
	return TRUE;
}

DWORD WINAPI GetProcessHeaps(DWORD count, PHANDLE heaps)
{
	return heap_list(heaps ? count : 0, heaps);
}

BOOL WINAPI HeapSetInformation(HANDLE heap, HEAP_INFORMATION_CLASS cls, PVOID info, SIZE_T len)
{
	switch ((int)cls) {
	case HeapCompatibilityInformation:
		/* 2 asks for the low-fragmentation heap, which is what every
		 * heap is since Vista; glibc's allocator stands in for it. */
		if (!info || len < sizeof(ULONG) || (*(ULONG *)info != 0 && *(ULONG *)info != 2) ||
		    !heap_is_valid(heap)) {
			SetLastError(ERROR_INVALID_PARAMETER);
			return FALSE;
		}
		return TRUE;
	case HeapEnableTerminationOnCorruption:
		/* Corruption of glibc's heap already aborts the process. */
		return TRUE;
	default:
		TRACE(heap, "information class %d not supported\n", (int)cls);
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
}

BOOL WINAPI HeapQueryInformation(HANDLE heap, HEAP_INFORMATION_CLASS cls, PVOID info, SIZE_T len,
				 PSIZE_T ret_len)
{
	if (cls != HeapCompatibilityInformation) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!heap_is_valid(heap)) {
		SetLastError(ERROR_INVALID_HANDLE);
		return FALSE;
	}
	if (ret_len)
		*ret_len = sizeof(ULONG);
	if (!info || len < sizeof(ULONG)) {
		SetLastError(ERROR_INSUFFICIENT_BUFFER);
		return FALSE;
	}
	*(ULONG *)info = 2;
	return TRUE;
}

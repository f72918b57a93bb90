/* Buffers of the network management API (lmapibuf.h): what the Net*
 * functions return is freed with NetApiBufferFree.  They come from the
 * process heap. */
#include "core/heap.h"
#include "netapi32/netapi32_private.h"

NET_API_STATUS WINAPI NetApiBufferAllocate(DWORD size, LPVOID *out)
{
	if (!out)
		return ERROR_INVALID_PARAMETER;
	*out = heap_alloc(heap_process_heap(), 0, size ? size : 1);
	return *out ? NERR_Success : ERROR_NOT_ENOUGH_MEMORY;
}

NET_API_STATUS WINAPI NetApiBufferFree(LPVOID buf)
{
	heap_free(heap_process_heap(), 0, buf);
	return NERR_Success;
}

NET_API_STATUS WINAPI NetApiBufferSize(LPVOID buf, LPDWORD size)
{
	SIZE_T n;

	if (!buf || !size)
		return ERROR_INVALID_PARAMETER;
	n = heap_size(heap_process_heap(), 0, buf);
	if (n == (SIZE_T)-1)
		return ERROR_INVALID_PARAMETER;
	*size = (DWORD)n;
	return NERR_Success;
}

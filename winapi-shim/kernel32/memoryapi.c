/* Virtual memory (memoryapi.h): the bodies live in core/virtual.c. */
#include "core/handle.h"
#include "core/virtual.h"
#include "kernel32/kernel32_private.h"

/* Only the current process has an address space ndrun can change. */
static BOOL is_current_process(HANDLE process)
{
	if (process == PSEUDO_HANDLE_CURRENT_PROCESS)
		return TRUE;
	SetLastError(ERROR_INVALID_HANDLE);
	return FALSE;
}

LPVOID WINAPI VirtualAlloc(LPVOID addr, SIZE_T size, DWORD type, DWORD protect)
{
	return virtual_alloc(addr, size, type, protect);
}

LPVOID WINAPI VirtualAllocEx(HANDLE process, LPVOID addr, SIZE_T size, DWORD type, DWORD protect)
{
	if (!is_current_process(process))
		return NULL;
	return virtual_alloc(addr, size, type, protect);
}

BOOL WINAPI VirtualFree(LPVOID addr, SIZE_T size, DWORD type)
{
	return virtual_free(addr, size, type);
}

BOOL WINAPI VirtualFreeEx(HANDLE process, LPVOID addr, SIZE_T size, DWORD type)
{
	if (!is_current_process(process))
		return FALSE;
	return virtual_free(addr, size, type);
}

BOOL WINAPI VirtualProtect(LPVOID addr, SIZE_T size, DWORD protect, PDWORD old_protect)
{
	return virtual_protect(addr, size, protect, old_protect);
}

BOOL WINAPI VirtualProtectEx(HANDLE process, LPVOID addr, SIZE_T size, DWORD protect,
			     PDWORD old_protect)
{
	if (!is_current_process(process))
		return FALSE;
	return virtual_protect(addr, size, protect, old_protect);
}

SIZE_T WINAPI VirtualQuery(LPCVOID addr, PMEMORY_BASIC_INFORMATION info, SIZE_T len)
{
	return virtual_query(addr, info, len);
}

SIZE_T WINAPI VirtualQueryEx(HANDLE process, LPCVOID addr, PMEMORY_BASIC_INFORMATION info, SIZE_T len)
{
	if (!is_current_process(process))
		return 0;
	return virtual_query(addr, info, len);
}

/* x86 keeps instruction fetch coherent with stores: nothing to flush. */
BOOL WINAPI FlushInstructionCache(HANDLE process, LPCVOID addr, SIZE_T size)
{
	return is_current_process(process);
}

/* MEM_LARGE_PAGES is not supported, which Windows says with 0. */
SIZE_T WINAPI GetLargePageMinimum(void)
{
	return 0;
}

/* The address space as Win32 sees it (VirtualAlloc/Free/Protect/Query).
 *
 * ndrun keeps a map of the regions it knows: VirtualAlloc reservations
 * (MEM_PRIVATE, 64 KiB aligned) and PE images the loader registers
 * (MEM_IMAGE), each with its pages' state and Win32 protection, kept
 * exact by VirtualAlloc/VirtualFree/VirtualProtect.  Anything else is
 * described from /proc/self/maps: MEM_COMMIT (MEM_PRIVATE for anonymous,
 * MEM_MAPPED for file-backed mappings) with the protection Linux reports,
 * and MEM_FREE for holes.
 *
 * The functions set the Win32 last error on failure (they are the bodies
 * of the kernel32 exports, usable by the loader too). */
#ifndef NDSHIM_VIRTUAL_H
#define NDSHIM_VIRTUAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <windef.h>
#include <winbase.h>

#define VIRTUAL_PAGE_SIZE   4096
#define VIRTUAL_GRANULARITY 0x10000
#define VIRTUAL_MIN_ADDRESS ((uintptr_t)0x10000)
#define VIRTUAL_MAX_ADDRESS ((uintptr_t)0x7ffffffeffff)

void *virtual_alloc(void *addr, SIZE_T size, DWORD type, DWORD protect);
BOOL virtual_free(void *addr, SIZE_T size, DWORD type);
BOOL virtual_protect(void *addr, SIZE_T size, DWORD protect, DWORD *old_protect);
SIZE_T virtual_query(const void *addr, MEMORY_BASIC_INFORMATION *info, SIZE_T len);

/* The loader maps an image, applies its section protections (with
 * virtual_protect, or mprotect before registering), then registers it:
 * the current Linux protections of its pages become its Win32 ones, and
 * VirtualQuery reports it as MEM_IMAGE with AllocationBase == base.
 * Unregister before unmapping it. */
void virtual_register_image(void *base, size_t size);
void virtual_unregister_image(void *base);

/* For the exception code: a fault at addr hit a PAGE_GUARD page of ours.
 * The guard is removed (the page gets its base protection back) and the
 * caller raises STATUS_GUARD_PAGE_VIOLATION.  false: not a guard page. */
bool virtual_handle_guard_fault(void *addr);

/* For the fault handler (never waits, never allocates): a fault at addr
 * on a PAGE_GUARD page of a VirtualAlloc reservation.  The guard goes (the
 * page gets its base protection back); when the page lies in the thread's
 * stack, [stack_low, stack_high), or below rsp in the reservation rsp is
 * in (a stack a runtime made itself), the page below becomes the new
 * guard page (*new_limit is the stack's new committed limit) -- until
 * less than reserve bytes would be left below it: then what is left is
 * committed for the overflow's handlers.
 *   NONE         not a guard page of ours (or the map was busy)
 *   PAGE         a guard page: raise STATUS_GUARD_PAGE_VIOLATION
 *   STACK_GREW   the stack grew: retry the access
 *   STACK_END    the stack's guard is used up: EXCEPTION_STACK_OVERFLOW */
enum virtual_guard { VIRTUAL_GUARD_NONE, VIRTUAL_GUARD_PAGE, VIRTUAL_GUARD_STACK_GREW, VIRTUAL_GUARD_STACK_END };
enum virtual_guard virtual_guard_fault(void *addr, uintptr_t stack_low, uintptr_t stack_high, uintptr_t rsp,
				       size_t reserve, void **new_limit);

/* For the exception code: addr lies in a VirtualAlloc reservation (not
 * an image).  Safe in a signal handler: false when the map is busy. */
bool virtual_is_private(const void *addr);

/* PAGE_* -> PROT_*; -1 for an invalid combination. */
int virtual_prot_from_win32(DWORD protect);

#endif

/* VirtualLock and VirtualUnlock: pages held in memory, with mlock.
 *
 * Windows' rules (Microsoft's VirtualLock/VirtualUnlock docs): every page
 * of the range must be committed and accessible; a lock is not counted,
 * one VirtualUnlock undoes it; unlocking a range any page of which is
 * not locked fails with ERROR_NOT_LOCKED (and trims those pages from the
 * working set, which runtimes call it for: nothing to do here, the
 * contents stay).  Which pages are locked is the kernel's record: the
 * "lo" flag of the mappings in /proc/self/smaps, since mlock splits a
 * mapping where a locked range begins and ends. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/errors.h"
#include "core/virtual.h"
#include "kernel32/kernel32_private.h"

/* The kernel's mlock and munlock themselves: AddressSanitizer's
 * interceptors of the libc calls ignore them and return 0, and the
 * locked state is read back from the kernel (all_locked). */
static int sys_mlock(uintptr_t start, uintptr_t len)
{
	return (int)syscall(SYS_mlock, start, len);
}

static int sys_munlock(uintptr_t start, uintptr_t len)
{
	return (int)syscall(SYS_munlock, start, len);
}

/* The page-aligned range [*start, *end) of (addr, size); FALSE with the
 * last error when a page of it is not committed or not accessible. */
static BOOL committed_range(const void *addr, SIZE_T size, uintptr_t *start, uintptr_t *end)
{
	uintptr_t a = (uintptr_t)addr & ~(uintptr_t)(VIRTUAL_PAGE_SIZE - 1);
	uintptr_t b = ((uintptr_t)addr + size + VIRTUAL_PAGE_SIZE - 1) & ~(uintptr_t)(VIRTUAL_PAGE_SIZE - 1);
	MEMORY_BASIC_INFORMATION mbi;

	if (!size || b <= a) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	for (uintptr_t p = a; p < b; p = (uintptr_t)mbi.BaseAddress + mbi.RegionSize) {
		if (!virtual_query((void *)p, &mbi, sizeof(mbi)) || mbi.State != MEM_COMMIT ||
		    (mbi.Protect & (PAGE_NOACCESS | PAGE_GUARD))) {
			SetLastError(ERROR_NOACCESS);
			return FALSE;
		}
	}
	*start = a;
	*end = b;
	return TRUE;
}

/* Whether every page of [start, end) is locked; also TRUE when smaps
 * cannot be read (the unlock then succeeds, as a lock may have). */
static BOOL all_locked(uintptr_t start, uintptr_t end)
{
	FILE *f = fopen("/proc/self/smaps", "re");
	char line[512];
	unsigned long lo = 0, hi = 0;
	BOOL in = FALSE, locked = TRUE;
	uintptr_t covered = start;

	if (!f)
		return TRUE;
	while (locked && fgets(line, sizeof(line), f)) {
		unsigned long a, b;

		if (sscanf(line, "%lx-%lx ", &a, &b) == 2 && strchr(line, '-') < strchr(line, ' ')) {
			lo = a;
			hi = b;
			in = hi > start && lo < end;
		} else if (in && !strncmp(line, "VmFlags:", 8)) {
			/* a hole between mappings is not locked either */
			if (lo > covered || !strstr(line, " lo"))
				locked = FALSE;
			else if (hi > covered)
				covered = hi;
		}
	}
	fclose(f);
	return locked && covered >= end;
}

BOOL WINAPI VirtualLock(LPVOID addr, SIZE_T size)
{
	uintptr_t start, end;

	if (!committed_range(addr, size, &start, &end))
		return FALSE;
	if (sys_mlock(start, end - start)) {
		/* the Linux limit (RLIMIT_MEMLOCK) is the working-set quota */
		SetLastError(errno == ENOMEM || errno == EPERM || errno == EAGAIN ? ERROR_WORKING_SET_QUOTA :
										    win32_error_from_errno(errno));
		return FALSE;
	}
	return TRUE;
}

BOOL WINAPI VirtualUnlock(LPVOID addr, SIZE_T size)
{
	uintptr_t start, end;
	BOOL locked;

	if (!committed_range(addr, size, &start, &end))
		return FALSE;
	locked = all_locked(start, end);
	sys_munlock(start, end - start);
	if (!locked) {
		SetLastError(ERROR_NOT_LOCKED);
		return FALSE;
	}
	return TRUE;
}

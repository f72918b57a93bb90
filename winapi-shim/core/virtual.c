#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/debug.h"
#include "core/errors.h"
#include "core/klock.h"
#include "core/virtual.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

/* A page's state: COMMITTED plus its PAGE_* protection (0 when only
 * reserved). */
#define COMMITTED 0x8000u

/* A run of pages with one state, from start to the next run's start. */
struct run {
	size_t start; /* page index in the region */
	uint16_t state;
};

struct region {
	uintptr_t base;
	size_t npages;
	DWORD type; /* MEM_PRIVATE or MEM_IMAGE */
	DWORD alloc_protect;
	struct run *runs;
	size_t nruns;
	size_t cap; /* runs' room, for changes the fault handler makes */
	struct region *next; /* sorted by base */
};

static struct region *regions;
static pthread_mutex_t virtual_lock = PTHREAD_MUTEX_INITIALIZER;

#define PAGE_MASK ((uintptr_t)VIRTUAL_PAGE_SIZE - 1)
#define page_down(a) ((uintptr_t)(a) & ~PAGE_MASK)
#define page_up(a) (((uintptr_t)(a) + PAGE_MASK) & ~PAGE_MASK)

int virtual_prot_from_win32(DWORD protect)
{
	DWORD base = protect & 0xff, mods = protect & ~0xffu;

	if (!base || (base & (base - 1)) || (mods & ~(PAGE_GUARD | PAGE_NOCACHE | PAGE_WRITECOMBINE)))
		return -1;
	if ((mods & PAGE_NOCACHE) && (mods & (PAGE_GUARD | PAGE_WRITECOMBINE)))
		return -1;
	if (base == PAGE_NOACCESS && mods)
		return -1;
	if (mods & PAGE_GUARD)
		return PROT_NONE; /* until the first touch: virtual_handle_guard_fault */
	switch (base) {
	case PAGE_NOACCESS:
		return PROT_NONE;
	case PAGE_READONLY:
		return PROT_READ;
	case PAGE_READWRITE:
	case PAGE_WRITECOPY:
		return PROT_READ | PROT_WRITE;
	case PAGE_EXECUTE:
		return PROT_EXEC;
	case PAGE_EXECUTE_READ:
		return PROT_READ | PROT_EXEC;
	default: /* PAGE_EXECUTE_READWRITE, PAGE_EXECUTE_WRITECOPY */
		return PROT_READ | PROT_WRITE | PROT_EXEC;
	}
}

static DWORD win32_from_linux_perms(const char *perms)
{
	int r = perms[0] == 'r', w = perms[1] == 'w', x = perms[2] == 'x';

	if (x)
		return w ? PAGE_EXECUTE_READWRITE : r ? PAGE_EXECUTE_READ : PAGE_EXECUTE;
	return w ? PAGE_READWRITE : r ? PAGE_READONLY : PAGE_NOACCESS;
}

/* ---- /proc/self/maps ---------------------------------------------------- */

struct mapping {
	uintptr_t start, end;
	char perms[5];
	unsigned long inode;
};

/* Reads every mapping; the caller frees *out.  Returns the count, or -1. */
static ssize_t read_maps(struct mapping **out)
{
	FILE *f = fopen("/proc/self/maps", "re");
	struct mapping *maps = NULL, *tmp;
	size_t n = 0, cap = 0;
	char line[512];

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		struct mapping m;
		unsigned long long s, e;
		size_t len = strlen(line);

		if (len && line[len - 1] != '\n') {
			/* a long path: skip the rest of the line */
			int c;
			while ((c = fgetc(f)) != EOF && c != '\n')
				;
		}
		if (sscanf(line, "%llx-%llx %4s %*x %*s %lu", &s, &e, m.perms, &m.inode) != 4)
			continue;
		m.start = (uintptr_t)s;
		m.end = (uintptr_t)e;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			if (!(tmp = realloc(maps, cap * sizeof(*maps)))) {
				free(maps);
				fclose(f);
				return -1;
			}
			maps = tmp;
		}
		maps[n++] = m;
	}
	fclose(f);
	*out = maps;
	return (ssize_t)n;
}

/* The Linux protection of the page at addr as PAGE_*, or 0 if unmapped. */
static DWORD linux_protect_at(const struct mapping *maps, size_t n, uintptr_t addr)
{
	for (size_t i = 0; i < n; i++)
		if (addr >= maps[i].start && addr < maps[i].end)
			return win32_from_linux_perms(maps[i].perms);
	return 0;
}

/* ---- regions and runs (virtual_lock held) ------------------------------ */

static struct region *find_region(uintptr_t addr)
{
	for (struct region *r = regions; r; r = r->next)
		if (addr >= r->base && addr < r->base + r->npages * VIRTUAL_PAGE_SIZE)
			return r;
	return NULL;
}

static bool overlaps_region(uintptr_t start, uintptr_t end)
{
	for (struct region *r = regions; r; r = r->next)
		if (start < r->base + r->npages * VIRTUAL_PAGE_SIZE && end > r->base)
			return true;
	return false;
}

static size_t run_end(const struct region *r, size_t i)
{
	return i + 1 < r->nruns ? r->runs[i + 1].start : r->npages;
}

static size_t run_index(const struct region *r, size_t page)
{
	size_t i = 0;

	while (i + 1 < r->nruns && r->runs[i + 1].start <= page)
		i++;
	return i;
}

/* Sets pages [first, last) of r to state.  false when out of memory. */
static bool set_pages(struct region *r, size_t first, size_t last, uint16_t state)
{
	size_t room = r->nruns + 2;
	struct run *nr = malloc(room * sizeof(*nr));
	size_t n = 0;

	if (!nr)
		return false;
	for (size_t i = 0; i < r->nruns; i++) {
		size_t s = r->runs[i].start, e = run_end(r, i);
		uint16_t st = r->runs[i].state;

		if (e <= first || s >= last) {
			nr[n++] = (struct run){ s, st };
			continue;
		}
		if (s < first)
			nr[n++] = (struct run){ s, st };
		if (first >= s && first < e)
			nr[n++] = (struct run){ first, state };
		if (e > last)
			nr[n++] = (struct run){ last, st };
	}
	/* merge neighbours with the same state */
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (!m || nr[m - 1].state != nr[i].state)
			nr[m++] = nr[i];
	free(r->runs);
	r->runs = nr;
	r->nruns = m;
	r->cap = room;
	return true;
}

static struct region *new_region(uintptr_t base, size_t size, DWORD type, DWORD alloc_protect)
{
	struct region *r = calloc(1, sizeof(*r)), **pp;

	if (!r || !(r->runs = malloc(sizeof(struct run)))) {
		free(r);
		return NULL;
	}
	r->base = base;
	r->npages = size / VIRTUAL_PAGE_SIZE;
	r->type = type;
	r->alloc_protect = alloc_protect;
	r->runs[0] = (struct run){ 0, 0 };
	r->nruns = 1;
	r->cap = 1;
	for (pp = &regions; *pp && (*pp)->base < base; pp = &(*pp)->next)
		;
	r->next = *pp;
	*pp = r;
	return r;
}

static void delete_region(struct region *r)
{
	struct region **pp;

	for (pp = &regions; *pp != r; pp = &(*pp)->next)
		;
	*pp = r->next;
	free(r->runs);
	free(r);
}

/* Is every page of [first, last) committed? */
static bool all_committed(const struct region *r, size_t first, size_t last)
{
	for (size_t i = run_index(r, first); i < r->nruns && r->runs[i].start < last; i++)
		if (!(r->runs[i].state & COMMITTED))
			return false;
	return true;
}

/* ---- VirtualAlloc ------------------------------------------------------- */

static void *reserve_anywhere(size_t size)
{
	size_t span = size + VIRTUAL_GRANULARITY - VIRTUAL_PAGE_SIZE;
	uintptr_t p, aligned;
	void *m;

	m = mmap(NULL, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	p = (uintptr_t)m;
	aligned = (p + VIRTUAL_GRANULARITY - 1) & ~((uintptr_t)VIRTUAL_GRANULARITY - 1);
	if (aligned > p)
		munmap(m, aligned - p);
	if (p + span > aligned + size)
		munmap((void *)(aligned + size), p + span - (aligned + size));
	return (void *)aligned;
}

static BOOL commit_pages(struct region *r, uintptr_t start, uintptr_t end, DWORD protect, int prot)
{
	size_t first = (start - r->base) / VIRTUAL_PAGE_SIZE, last = (end - r->base) / VIRTUAL_PAGE_SIZE;

	if (mprotect((void *)start, end - start, prot)) {
		set_last_error_from_errno(errno);
		return FALSE;
	}
	if (!set_pages(r, first, last, (uint16_t)(COMMITTED | protect))) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	return TRUE;
}

void *virtual_alloc(void *addr, SIZE_T size, DWORD type, DWORD protect)
{
	const DWORD known = MEM_COMMIT | MEM_RESERVE | MEM_RESET | MEM_RESET_UNDO | MEM_TOP_DOWN |
			    MEM_WRITE_WATCH | MEM_LARGE_PAGES | MEM_PHYSICAL;
	uintptr_t start, end;
	struct region *r;
	void *result = NULL;
	int prot;

	TRACE(virtual, "%p %#zx type %#x protect %#x\n", addr, (size_t)size, (unsigned)type,
	      (unsigned)protect);
	if (!size || (type & ~known)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	if (type & (MEM_WRITE_WATCH | MEM_LARGE_PAGES | MEM_PHYSICAL)) {
		TRACE(virtual, "write-watch, large-page and physical memory are not supported\n");
		SetLastError(ERROR_NOT_SUPPORTED);
		return NULL;
	}
	if (type & (MEM_RESET | MEM_RESET_UNDO)) {
		/* The contents may be discarded (MEM_RESET) or are wanted again
		 * (MEM_RESET_UNDO): MADV_FREE pages keep their data until the
		 * kernel needs them, which is what both promise. */
		if ((type & (MEM_COMMIT | MEM_RESERVE)) || !addr ||
		    (type & (MEM_RESET | MEM_RESET_UNDO)) == (MEM_RESET | MEM_RESET_UNDO)) {
			SetLastError(ERROR_INVALID_PARAMETER);
			return NULL;
		}
		start = page_down(addr);
		end = page_up((uintptr_t)addr + size);
		if ((type & MEM_RESET) && madvise((void *)start, end - start, MADV_FREE)) {
			set_last_error_from_errno(errno);
			return NULL;
		}
		return (void *)start;
	}
	if (!(type & (MEM_COMMIT | MEM_RESERVE))) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	prot = virtual_prot_from_win32(protect);
	if (prot < 0 || (protect & (PAGE_WRITECOPY | PAGE_EXECUTE_WRITECOPY))) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	if (size > VIRTUAL_MAX_ADDRESS || (addr && (uintptr_t)addr + size > VIRTUAL_MAX_ADDRESS + 1)) {
		SetLastError(addr ? ERROR_INVALID_ADDRESS : ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}

	klock(&virtual_lock);
	if ((type & MEM_RESERVE) || !addr) {
		void *m;

		if (addr) {
			start = (uintptr_t)addr & ~((uintptr_t)VIRTUAL_GRANULARITY - 1);
			end = page_up((uintptr_t)addr + size);
			if (start < VIRTUAL_MIN_ADDRESS || overlaps_region(start, end)) {
				SetLastError(ERROR_INVALID_ADDRESS);
				goto out;
			}
			m = mmap((void *)start, end - start, PROT_NONE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
			if (m == MAP_FAILED || m != (void *)start) {
				if (m != MAP_FAILED)
					munmap(m, end - start); /* an old kernel ignoring the flag */
				SetLastError(ERROR_INVALID_ADDRESS);
				goto out;
			}
		} else {
			size = page_up(size);
			if (!(m = reserve_anywhere(size))) {
				SetLastError(ERROR_NOT_ENOUGH_MEMORY);
				goto out;
			}
			start = (uintptr_t)m;
			end = start + size;
		}
		if (!(r = new_region(start, end - start, MEM_PRIVATE, protect))) {
			munmap((void *)start, end - start);
			SetLastError(ERROR_NOT_ENOUGH_MEMORY);
			goto out;
		}
		if ((type & MEM_COMMIT) && !commit_pages(r, start, end, protect, prot)) {
			munmap((void *)start, end - start);
			delete_region(r);
			goto out;
		}
		result = (void *)start;
		goto out;
	}

	/* MEM_COMMIT inside an existing reservation */
	start = page_down(addr);
	end = page_up((uintptr_t)addr + size);
	r = find_region(start);
	if (!r || r->type != MEM_PRIVATE || end > r->base + r->npages * VIRTUAL_PAGE_SIZE) {
		SetLastError(ERROR_INVALID_ADDRESS);
		goto out;
	}
	if (commit_pages(r, start, end, protect, prot))
		result = (void *)start;
out:
	kunlock(&virtual_lock);
	TRACE(virtual, "-> %p\n", result);
	return result;
}

/* ---- VirtualFree -------------------------------------------------------- */

BOOL virtual_free(void *addr, SIZE_T size, DWORD type)
{
	uintptr_t start, end;
	struct region *r;
	BOOL ret = FALSE;

	TRACE(virtual, "%p %#zx type %#x\n", addr, (size_t)size, (unsigned)type);
	if (type != MEM_RELEASE && type != MEM_DECOMMIT) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	klock(&virtual_lock);
	r = find_region((uintptr_t)addr);
	if (!r || r->type != MEM_PRIVATE) {
		SetLastError(ERROR_INVALID_ADDRESS);
		goto out;
	}
	if (type == MEM_RELEASE) {
		if (size || (uintptr_t)addr != r->base) {
			SetLastError(ERROR_INVALID_PARAMETER);
			goto out;
		}
		munmap((void *)r->base, r->npages * VIRTUAL_PAGE_SIZE);
		delete_region(r);
		ret = TRUE;
		goto out;
	}
	if (!size) {
		if ((uintptr_t)addr != r->base) {
			SetLastError(ERROR_INVALID_PARAMETER);
			goto out;
		}
		start = r->base;
		end = r->base + r->npages * VIRTUAL_PAGE_SIZE;
	} else {
		start = page_down(addr);
		end = page_up((uintptr_t)addr + size);
		if (end > r->base + r->npages * VIRTUAL_PAGE_SIZE) {
			SetLastError(ERROR_INVALID_PARAMETER);
			goto out;
		}
	}
	/* A fresh PROT_NONE mapping drops the contents: a later commit
	 * gets zero pages, as on Windows. */
	if (mmap((void *)start, end - start, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0) == MAP_FAILED) {
		set_last_error_from_errno(errno);
		goto out;
	}
	if (!set_pages(r, (start - r->base) / VIRTUAL_PAGE_SIZE, (end - r->base) / VIRTUAL_PAGE_SIZE, 0)) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		goto out;
	}
	ret = TRUE;
out:
	kunlock(&virtual_lock);
	return ret;
}

/* ---- VirtualProtect ----------------------------------------------------- */

BOOL virtual_protect(void *addr, SIZE_T size, DWORD protect, DWORD *old_protect)
{
	uintptr_t start = page_down(addr), end = page_up((uintptr_t)addr + (size ? size : 1));
	struct region *r;
	BOOL ret = FALSE;
	int prot;

	TRACE(virtual, "%p %#zx protect %#x\n", addr, (size_t)size, (unsigned)protect);
	if (!old_protect) {
		SetLastError(ERROR_NOACCESS);
		return FALSE;
	}
	if ((prot = virtual_prot_from_win32(protect)) < 0) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	klock(&virtual_lock);
	r = find_region(start);
	if (r) {
		size_t first = (start - r->base) / VIRTUAL_PAGE_SIZE;
		size_t last = (end - r->base) / VIRTUAL_PAGE_SIZE;

		if (end > r->base + r->npages * VIRTUAL_PAGE_SIZE || !all_committed(r, first, last)) {
			SetLastError(ERROR_INVALID_ADDRESS);
			goto out;
		}
		if (r->type == MEM_PRIVATE && (protect & (PAGE_WRITECOPY | PAGE_EXECUTE_WRITECOPY))) {
			SetLastError(ERROR_INVALID_PARAMETER);
			goto out;
		}
		*old_protect = r->runs[run_index(r, first)].state & ~COMMITTED;
		ret = commit_pages(r, start, end, protect, prot);
		goto out;
	}
	/* Memory ndrun did not map through here: ask Linux what it is. */
	struct mapping *maps;
	ssize_t n = read_maps(&maps);
	DWORD old = n > 0 ? linux_protect_at(maps, (size_t)n, start) : 0;

	if (n > 0)
		free(maps);
	if (!old) {
		SetLastError(ERROR_INVALID_ADDRESS);
		goto out;
	}
	if (mprotect((void *)start, end - start, prot)) {
		SetLastError(errno == ENOMEM ? ERROR_INVALID_ADDRESS : win32_error_from_errno(errno));
		goto out;
	}
	*old_protect = old;
	ret = TRUE;
out:
	kunlock(&virtual_lock);
	return ret;
}

bool virtual_handle_guard_fault(void *addr)
{
	uintptr_t page = page_down(addr);
	struct region *r;
	bool ret = false;

	klock(&virtual_lock);
	r = find_region(page);
	if (r) {
		size_t idx = (page - r->base) / VIRTUAL_PAGE_SIZE;
		uint16_t st = r->runs[run_index(r, idx)].state;

		if ((st & COMMITTED) && (st & PAGE_GUARD)) {
			DWORD protect = st & ~(COMMITTED | PAGE_GUARD);

			ret = !mprotect((void *)page, VIRTUAL_PAGE_SIZE, virtual_prot_from_win32(protect)) &&
			      set_pages(r, idx, idx + 1, (uint16_t)(COMMITTED | protect));
		}
	}
	kunlock(&virtual_lock);
	return ret;
}

/* set_pages for the fault handler: no allocation -- the new runs are
 * built in scratch and copied over when the region's array has room. */
static bool set_pages_in_place(struct region *r, size_t first, size_t last, uint16_t state)
{
	static struct run scratch[512];
	size_t n = 0, m = 0;

	if (r->nruns + 2 > sizeof(scratch) / sizeof(scratch[0]))
		return false;
	for (size_t i = 0; i < r->nruns; i++) {
		size_t s = r->runs[i].start, e = run_end(r, i);
		uint16_t st = r->runs[i].state;

		if (e <= first || s >= last) {
			scratch[n++] = (struct run){ s, st };
			continue;
		}
		if (s < first)
			scratch[n++] = (struct run){ s, st };
		if (first >= s && first < e)
			scratch[n++] = (struct run){ first, state };
		if (e > last)
			scratch[n++] = (struct run){ last, st };
	}
	for (size_t i = 0; i < n; i++)
		if (!m || scratch[m - 1].state != scratch[i].state)
			scratch[m++] = scratch[i];
	if (m > r->cap)
		return false;
	memcpy(r->runs, scratch, m * sizeof(*scratch));
	r->nruns = m;
	return true;
}

/* The fault handler must not wait: the interrupted thread may be the one
 * holding the lock.  Another thread holds it only briefly. */
static bool lock_from_handler(void)
{
	suspend_hold();
	for (int tries = 0; pthread_mutex_trylock(&virtual_lock); tries++) {
		if (tries == 1000) {
			suspend_allow();
			return false;
		}
		sched_yield();
	}
	return true;
}

enum virtual_guard virtual_guard_fault(void *addr, uintptr_t stack_low, uintptr_t stack_high, uintptr_t rsp,
				       size_t reserve, void **new_limit)
{
	uintptr_t page = page_down(addr);
	enum virtual_guard ret = VIRTUAL_GUARD_NONE;
	struct region *r;
	size_t idx;
	uint16_t st, below;
	DWORD protect;

	if (!lock_from_handler())
		return VIRTUAL_GUARD_NONE;
	r = find_region(page);
	if (!r || r->type != MEM_PRIVATE)
		goto out;
	idx = (page - r->base) / VIRTUAL_PAGE_SIZE;
	st = r->runs[run_index(r, idx)].state;
	if (!(st & COMMITTED) || !(st & PAGE_GUARD))
		goto out;
	protect = st & ~(COMMITTED | PAGE_GUARD);
	if (mprotect((void *)page, VIRTUAL_PAGE_SIZE, virtual_prot_from_win32(protect)) ||
	    !set_pages_in_place(r, idx, idx + 1, (uint16_t)(COMMITTED | protect)))
		goto out;
	ret = VIRTUAL_GUARD_PAGE;
	/* A stack the program switched to without telling the TEB (a
	 * runtime's own): rsp in the same reservation, above the guard. */
	if ((page < stack_low || page >= stack_high) &&
	    !(rsp >= page && rsp < r->base + r->npages * VIRTUAL_PAGE_SIZE))
		goto out;
	if (page < stack_low || page >= stack_high) {
		stack_low = r->base;
		stack_high = r->base + r->npages * VIRTUAL_PAGE_SIZE;
	}
	/* A small stack keeps three quarters for itself. */
	if (reserve > (stack_high - stack_low) / 4)
		reserve = (stack_high - stack_low) / 4;
	/* A thread's stack: the guard moves down a page, as Windows grows
	 * stacks -- unless that would leave less than reserve bytes below
	 * it (or the page below is taken): the stack is used up.  Then all
	 * that is left but the reservation's last page (never committed, as
	 * on Windows) is committed, for the handlers of the overflow. */
	*new_limit = (void *)page;
	ret = VIRTUAL_GUARD_STACK_END;
	below = idx ? r->runs[run_index(r, idx - 1)].state : COMMITTED;
	if (idx >= 2 && page - VIRTUAL_PAGE_SIZE > stack_low && page - VIRTUAL_PAGE_SIZE - stack_low > reserve &&
	    !(below & COMMITTED)) {
		if (set_pages_in_place(r, idx - 1, idx, (uint16_t)(COMMITTED | PAGE_GUARD | protect)))
			ret = VIRTUAL_GUARD_STACK_GREW;
		goto out;
	}
	if (page - VIRTUAL_PAGE_SIZE > stack_low && !(below & COMMITTED)) {
		uintptr_t first = stack_low + VIRTUAL_PAGE_SIZE;
		size_t fidx = (first - r->base) / VIRTUAL_PAGE_SIZE;

		if (first >= r->base && first < page &&
		    !mprotect((void *)first, page - first, virtual_prot_from_win32(protect)) &&
		    set_pages_in_place(r, fidx, idx, (uint16_t)(COMMITTED | protect)))
			*new_limit = (void *)first;
	}
out:
	kunlock(&virtual_lock);
	return ret;
}

bool virtual_is_private(const void *addr)
{
	struct region *r;
	bool ret;

	if (!lock_from_handler())
		return false;
	r = find_region((uintptr_t)addr);
	ret = r && r->type == MEM_PRIVATE;
	kunlock(&virtual_lock);
	return ret;
}

/* ---- VirtualQuery ------------------------------------------------------- */

static void query_region(const struct region *r, uintptr_t page, MEMORY_BASIC_INFORMATION *info)
{
	size_t idx = (page - r->base) / VIRTUAL_PAGE_SIZE, i = run_index(r, idx);
	uint16_t st = r->runs[i].state;

	info->BaseAddress = (void *)page;
	info->AllocationBase = (void *)r->base;
	info->AllocationProtect = r->alloc_protect;
	info->RegionSize = (run_end(r, i) - idx) * VIRTUAL_PAGE_SIZE;
	info->State = (st & COMMITTED) ? MEM_COMMIT : MEM_RESERVE;
	info->Protect = (st & COMMITTED) ? (st & ~COMMITTED) : 0;
	info->Type = r->type;
}

/* virtual_lock held.  From /proc/self/maps, stopping at our regions. */
static BOOL query_linux(uintptr_t page, MEMORY_BASIC_INFORMATION *info)
{
	struct mapping *maps;
	ssize_t n = read_maps(&maps);
	uintptr_t next = VIRTUAL_MAX_ADDRESS + 1;

	if (n < 0) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	info->BaseAddress = (void *)page;
	for (ssize_t i = 0; i < n; i++) {
		if (page >= maps[i].start && page < maps[i].end) {
			info->AllocationBase = (void *)maps[i].start;
			info->AllocationProtect = win32_from_linux_perms(maps[i].perms);
			info->RegionSize = maps[i].end - page;
			info->State = MEM_COMMIT;
			info->Protect = info->AllocationProtect;
			info->Type = maps[i].inode ? MEM_MAPPED : MEM_PRIVATE;
			free(maps);
			return TRUE;
		}
		if (maps[i].start > page && maps[i].start < next)
			next = maps[i].start;
	}
	free(maps);
	for (struct region *r = regions; r; r = r->next)
		if (r->base > page && r->base < next)
			next = r->base;
	info->AllocationBase = NULL;
	info->AllocationProtect = 0;
	info->RegionSize = next - page;
	info->State = MEM_FREE;
	info->Protect = PAGE_NOACCESS;
	info->Type = 0;
	return TRUE;
}

SIZE_T virtual_query(const void *addr, MEMORY_BASIC_INFORMATION *info, SIZE_T len)
{
	uintptr_t page = page_down(addr);
	struct region *r;
	BOOL ok;

	if (len < sizeof(*info)) {
		SetLastError(ERROR_BAD_LENGTH);
		return 0;
	}
	if (page > VIRTUAL_MAX_ADDRESS) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return 0;
	}
	memset(info, 0, sizeof(*info));
	klock(&virtual_lock);
	if ((r = find_region(page))) {
		query_region(r, page, info);
		ok = TRUE;
	} else {
		ok = query_linux(page, info);
	}
	kunlock(&virtual_lock);
	return ok ? sizeof(*info) : 0;
}

/* ---- images ------------------------------------------------------------- */

void virtual_register_image(void *base, size_t size)
{
	uintptr_t start = page_down(base), end = page_up((uintptr_t)base + size);
	struct mapping *maps;
	struct region *r;
	ssize_t n;

	klock(&virtual_lock);
	if (overlaps_region(start, end) ||
	    !(r = new_region(start, end - start, MEM_IMAGE, PAGE_EXECUTE_WRITECOPY))) {
		kunlock(&virtual_lock);
		ndrun_error("cannot register the image at %p in the address-space map", base);
		return;
	}
	n = read_maps(&maps);
	for (size_t i = 0; i < r->npages; i++) {
		DWORD p = n > 0 ? linux_protect_at(maps, (size_t)n, start + i * VIRTUAL_PAGE_SIZE) : 0;

		set_pages(r, i, i + 1, (uint16_t)(p ? COMMITTED | p : 0));
	}
	if (n > 0)
		free(maps);
	kunlock(&virtual_lock);
	TRACE(virtual, "image %p-%p, %zu runs\n", (void *)start, (void *)end, r->nruns);
}

void virtual_unregister_image(void *base)
{
	struct region *r;

	klock(&virtual_lock);
	r = find_region(page_down(base));
	if (r && r->type == MEM_IMAGE && r->base == page_down(base))
		delete_region(r);
	kunlock(&virtual_lock);
}

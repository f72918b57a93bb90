/* VirtualAlloc/VirtualFree/VirtualProtect/VirtualQuery round trips, PE
 * image regions, guard pages. */
#include <sys/mman.h>

#include "k32_test.h"
#include "core/virtual.h"

#define PAGE 4096

static void query(const void *addr, MEMORY_BASIC_INFORMATION *mbi)
{
	assert_int_equal(VirtualQuery(addr, mbi, sizeof(*mbi)), sizeof(*mbi));
}

static void test_reserve_commit_release(void **state)
{
	MEMORY_BASIC_INFORMATION mbi;
	char *base = VirtualAlloc(NULL, 10 * PAGE, MEM_RESERVE, PAGE_READWRITE), *p;

	assert_non_null(base);
	assert_int_equal((uintptr_t)base % 0x10000, 0);
	query(base + 5 * PAGE + 123, &mbi);
	assert_ptr_equal(mbi.BaseAddress, base + 5 * PAGE);
	assert_ptr_equal(mbi.AllocationBase, base);
	assert_int_equal(mbi.AllocationProtect, PAGE_READWRITE);
	assert_int_equal(mbi.State, MEM_RESERVE);
	assert_int_equal(mbi.Protect, 0);
	assert_int_equal(mbi.Type, MEM_PRIVATE);
	assert_int_equal(mbi.RegionSize, 5 * PAGE);

	/* commit pages 2-3, at an unaligned address */
	p = VirtualAlloc(base + 2 * PAGE + 100, PAGE, MEM_COMMIT, PAGE_READONLY);
	assert_ptr_equal(p, base + 2 * PAGE);
	query(base, &mbi);
	assert_int_equal(mbi.State, MEM_RESERVE);
	assert_int_equal(mbi.RegionSize, 2 * PAGE);
	query(base + 2 * PAGE, &mbi);
	assert_int_equal(mbi.State, MEM_COMMIT);
	assert_int_equal(mbi.Protect, PAGE_READONLY);
	assert_int_equal(mbi.RegionSize, 2 * PAGE); /* 100 + PAGE spans two pages */
	assert_int_equal(p[0], 0);
	query(base + 4 * PAGE, &mbi);
	assert_int_equal(mbi.State, MEM_RESERVE);
	assert_int_equal(mbi.RegionSize, 6 * PAGE);

	/* committing outside any reservation fails */
	SetLastError(SENTINEL_ERROR);
	assert_null(VirtualAlloc(base + 10 * PAGE, PAGE, MEM_COMMIT, PAGE_READWRITE));
	assert_last_error(ERROR_INVALID_ADDRESS);

	/* release needs the base and size 0 */
	SetLastError(SENTINEL_ERROR);
	assert_false(VirtualFree(base + PAGE, 0, MEM_RELEASE));
	assert_last_error(ERROR_INVALID_PARAMETER);
	SetLastError(SENTINEL_ERROR);
	assert_false(VirtualFree(base, PAGE, MEM_RELEASE));
	assert_last_error(ERROR_INVALID_PARAMETER);
	assert_true(VirtualFree(base, 0, MEM_RELEASE));
	query(base, &mbi);
	assert_int_equal(mbi.State, MEM_FREE);
	assert_int_equal(mbi.Protect, PAGE_NOACCESS);
	assert_null(mbi.AllocationBase);
}

static void test_commit_decommit_zeroes(void **state)
{
	MEMORY_BASIC_INFORMATION mbi;
	char *p = VirtualAlloc(NULL, 3 * PAGE, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);

	assert_non_null(p);
	query(p, &mbi);
	assert_int_equal(mbi.State, MEM_COMMIT);
	assert_int_equal(mbi.RegionSize, 3 * PAGE);
	memset(p, 0x5a, 3 * PAGE);
	assert_true(VirtualFree(p + PAGE, PAGE, MEM_DECOMMIT));
	query(p + PAGE, &mbi);
	assert_int_equal(mbi.State, MEM_RESERVE);
	assert_int_equal(mbi.RegionSize, PAGE);
	assert_ptr_equal(VirtualAlloc(p + PAGE, PAGE, MEM_COMMIT, PAGE_READWRITE), p + PAGE);
	assert_int_equal(p[PAGE], 0);          /* recommitted: zero */
	assert_int_equal(p[0], 0x5a);          /* untouched neighbours */
	assert_int_equal((unsigned char)p[2 * PAGE], 0x5a);
	query(p, &mbi);
	assert_int_equal(mbi.RegionSize, 3 * PAGE); /* runs merged again */
	assert_true(VirtualFree(p, 0, MEM_DECOMMIT));
	query(p, &mbi);
	assert_int_equal(mbi.State, MEM_RESERVE);
	assert_int_equal(mbi.RegionSize, 3 * PAGE);
	assert_true(VirtualFree(p, 0, MEM_RELEASE));
}

static void test_protect(void **state)
{
	MEMORY_BASIC_INFORMATION mbi;
	char *p = VirtualAlloc(NULL, 4 * PAGE, MEM_COMMIT, PAGE_READWRITE);
	DWORD old = 0;

	assert_true(VirtualProtect(p + PAGE, 2 * PAGE, PAGE_EXECUTE_READ, &old));
	assert_int_equal(old, PAGE_READWRITE);
	query(p, &mbi);
	assert_int_equal(mbi.RegionSize, PAGE);
	query(p + PAGE, &mbi);
	assert_int_equal(mbi.Protect, PAGE_EXECUTE_READ);
	assert_int_equal(mbi.RegionSize, 2 * PAGE);
	assert_true(VirtualProtect(p + PAGE, 2 * PAGE, PAGE_READWRITE, &old));
	assert_int_equal(old, PAGE_EXECUTE_READ);
	p[PAGE] = 1;
	SetLastError(SENTINEL_ERROR);
	assert_false(VirtualProtect(p, PAGE, PAGE_READWRITE, NULL));
	assert_last_error(ERROR_NOACCESS);
	SetLastError(SENTINEL_ERROR);
	assert_false(VirtualProtect(p, PAGE, PAGE_READWRITE | PAGE_READONLY, &old));
	assert_last_error(ERROR_INVALID_PARAMETER);
	/* reserved pages cannot be protected */
	assert_true(VirtualFree(p + 3 * PAGE, PAGE, MEM_DECOMMIT));
	SetLastError(SENTINEL_ERROR);
	assert_false(VirtualProtect(p + 2 * PAGE, 2 * PAGE, PAGE_READONLY, &old));
	assert_last_error(ERROR_INVALID_ADDRESS);
	assert_true(VirtualFree(p, 0, MEM_RELEASE));
}

static void test_alloc_errors(void **state)
{
	SetLastError(SENTINEL_ERROR);
	assert_null(VirtualAlloc(NULL, 0, MEM_COMMIT, PAGE_READWRITE));
	assert_last_error(ERROR_INVALID_PARAMETER);
	SetLastError(SENTINEL_ERROR);
	assert_null(VirtualAlloc(NULL, PAGE, MEM_COMMIT, PAGE_WRITECOPY));
	assert_last_error(ERROR_INVALID_PARAMETER);
	SetLastError(SENTINEL_ERROR);
	assert_null(VirtualAlloc(NULL, PAGE, 0, PAGE_READWRITE));
	assert_last_error(ERROR_INVALID_PARAMETER);
	SetLastError(SENTINEL_ERROR);
	assert_false(VirtualFree(NULL, 0, MEM_RELEASE | MEM_DECOMMIT));
	assert_last_error(ERROR_INVALID_PARAMETER);
}

static void test_reserve_at_address(void **state)
{
	char *p = VirtualAlloc(NULL, 0x40000, MEM_RESERVE, PAGE_NOACCESS), *q;

	assert_true(VirtualFree(p, 0, MEM_RELEASE));
	/* the address is free again: reserve there, rounded down to 64 KiB */
	q = VirtualAlloc(p + 0x10000 + 5, 0x1000, MEM_RESERVE, PAGE_READWRITE);
	assert_ptr_equal(q, p + 0x10000);
	/* overlapping an existing reservation fails */
	SetLastError(SENTINEL_ERROR);
	assert_null(VirtualAlloc(q, 0x1000, MEM_RESERVE, PAGE_READWRITE));
	assert_last_error(ERROR_INVALID_ADDRESS);
	assert_true(VirtualFree(q, 0, MEM_RELEASE));
}

static int global_data = 42;

static void test_query_foreign_memory(void **state)
{
	MEMORY_BASIC_INFORMATION mbi;
	int local = 1;

	query(&local, &mbi);
	assert_int_equal(mbi.State, MEM_COMMIT);
	assert_int_equal(mbi.Protect, PAGE_READWRITE);
	assert_ptr_equal(mbi.BaseAddress, (void *)((uintptr_t)&local & ~(uintptr_t)(PAGE - 1)));
	assert_true((char *)mbi.BaseAddress + mbi.RegionSize > (char *)&local);
	query(&global_data, &mbi);
	assert_int_equal(mbi.State, MEM_COMMIT);
	assert_int_equal(mbi.Protect, PAGE_READWRITE);
	query((void *)test_query_foreign_memory, &mbi);
	assert_int_equal(mbi.Protect, PAGE_EXECUTE_READ);
	query((void *)0x10000, &mbi);
	assert_int_equal(mbi.State, MEM_FREE);
	assert_true(mbi.RegionSize > 0);
	SetLastError(SENTINEL_ERROR);
	assert_int_equal(VirtualQuery((void *)0x7fffffff0000, &mbi, sizeof(mbi)), 0);
	assert_last_error(ERROR_INVALID_PARAMETER);
	SetLastError(SENTINEL_ERROR);
	assert_int_equal(VirtualQuery(&local, &mbi, sizeof(mbi) - 1), 0);
	assert_last_error(ERROR_BAD_LENGTH);
}

/* What mingw's CRT does in _pei386_runtime_relocator: find the region of
 * an address in its own image, make it writable, patch, restore. */
static void test_image_regions(void **state)
{
	MEMORY_BASIC_INFORMATION mbi;
	char *img = mmap(NULL, 5 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	DWORD old, dummy;

	assert_true(img != MAP_FAILED);
	mprotect(img, PAGE, PROT_READ);                          /* headers */
	mprotect(img + PAGE, 2 * PAGE, PROT_READ | PROT_EXEC);   /* .text */
	virtual_register_image(img, 5 * PAGE);                  /* .data rw */

	query(img + 100, &mbi);
	assert_int_equal(mbi.Type, MEM_IMAGE);
	assert_ptr_equal(mbi.AllocationBase, img);
	assert_int_equal(mbi.Protect, PAGE_READONLY);
	assert_int_equal(mbi.RegionSize, PAGE);
	query(img + PAGE + 8, &mbi);
	assert_ptr_equal(mbi.BaseAddress, img + PAGE);
	assert_int_equal(mbi.Protect, PAGE_EXECUTE_READ);
	assert_int_equal(mbi.RegionSize, 2 * PAGE);
	assert_int_equal(mbi.State, MEM_COMMIT);
	query(img + 4 * PAGE, &mbi);
	assert_int_equal(mbi.Protect, PAGE_READWRITE);

	query(img + PAGE + 8, &mbi);
	assert_true(VirtualProtect(mbi.BaseAddress, mbi.RegionSize, PAGE_EXECUTE_READWRITE, &old));
	assert_int_equal(old, PAGE_EXECUTE_READ);
	img[PAGE + 8] = (char)0xc3;
	query(img + 2 * PAGE, &mbi);
	assert_int_equal(mbi.Protect, PAGE_EXECUTE_READWRITE);
	assert_true(VirtualProtect(img + PAGE, 2 * PAGE, old, &dummy));
	assert_int_equal(dummy, PAGE_EXECUTE_READWRITE);
	query(img + PAGE, &mbi);
	assert_int_equal(mbi.Protect, PAGE_EXECUTE_READ);
	/* images are not VirtualFree's business */
	SetLastError(SENTINEL_ERROR);
	assert_false(VirtualFree(img, 0, MEM_RELEASE));
	assert_last_error(ERROR_INVALID_ADDRESS);

	virtual_unregister_image(img);
	query(img, &mbi);
	assert_int_equal(mbi.Type, MEM_PRIVATE);
	munmap(img, 5 * PAGE);
}

static void test_protect_unregistered(void **state)
{
	char *m = mmap(NULL, 2 * PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	DWORD old = 0;

	assert_true(VirtualProtect(m, PAGE, PAGE_READWRITE, &old));
	assert_int_equal(old, PAGE_READONLY);
	m[0] = 1;
	munmap(m, 2 * PAGE);
}

static void test_guard_page(void **state)
{
	MEMORY_BASIC_INFORMATION mbi;
	char *p = VirtualAlloc(NULL, 2 * PAGE, MEM_COMMIT, PAGE_READWRITE | PAGE_GUARD);

	assert_non_null(p);
	query(p, &mbi);
	assert_int_equal(mbi.Protect, PAGE_READWRITE | PAGE_GUARD);
	assert_true(virtual_handle_guard_fault(p + 10));
	query(p, &mbi);
	assert_int_equal(mbi.Protect, PAGE_READWRITE);
	assert_int_equal(mbi.RegionSize, PAGE);
	p[0] = 1; /* accessible now */
	assert_false(virtual_handle_guard_fault(p + 10));
	VirtualFree(p, 0, MEM_RELEASE);
}

/* The fault handler's guard pages (virtual_guard_fault): one-shot outside
 * a stack; a stack grows a page at a time and, near its bottom, gives
 * what is left to the overflow. */
static void test_guard_fault_stack(void **state)
{
	MEMORY_BASIC_INFORMATION mbi;
	const size_t size = 64 * PAGE;
	char *base = VirtualAlloc(NULL, size, MEM_RESERVE, PAGE_READWRITE), *top = base + size;
	void *limit = NULL;

	assert_non_null(base);
	assert_non_null(VirtualAlloc(top - PAGE, PAGE, MEM_COMMIT, PAGE_READWRITE));
	assert_non_null(VirtualAlloc(top - 2 * PAGE, PAGE, MEM_COMMIT, PAGE_READWRITE | PAGE_GUARD));

	/* Not a guard page: nothing. */
	assert_int_equal(virtual_guard_fault(top - 8, (uintptr_t)base, (uintptr_t)top, 0, 8 * PAGE, &limit),
			 VIRTUAL_GUARD_NONE);
	/* In the stack: the guard moves down. */
	assert_int_equal(virtual_guard_fault(top - PAGE - 8, (uintptr_t)base, (uintptr_t)top, 0, 8 * PAGE, &limit),
			 VIRTUAL_GUARD_STACK_GREW);
	assert_ptr_equal(limit, top - 2 * PAGE);
	query(top - 2 * PAGE, &mbi);
	assert_int_equal(mbi.Protect, PAGE_READWRITE);
	assert_int_equal(mbi.RegionSize, 2 * PAGE);
	query(top - 3 * PAGE, &mbi);
	assert_int_equal(mbi.Protect, PAGE_READWRITE | PAGE_GUARD);
	top[-2 * PAGE] = 1;

	/* Down to the reserve (8 pages above the bottom): then the rest is
	 * committed at once, and it is the end. */
	for (char *g = top - 3 * PAGE;; g -= PAGE) {
		enum virtual_guard r = virtual_guard_fault(g, (uintptr_t)base, (uintptr_t)top, 0, 8 * PAGE, &limit);

		if (r == VIRTUAL_GUARD_STACK_END)
			break;
		assert_int_equal(r, VIRTUAL_GUARD_STACK_GREW);
		assert_true(g > base + 8 * PAGE);
	}
	assert_ptr_equal(limit, base + PAGE);
	query(base + PAGE, &mbi);
	assert_int_equal(mbi.State, MEM_COMMIT);
	assert_int_equal(mbi.Protect, PAGE_READWRITE);
	query(base, &mbi);
	assert_int_equal(mbi.State, MEM_RESERVE);
	base[PAGE] = 1;
	VirtualFree(base, 0, MEM_RELEASE);

	/* Outside any stack (and rsp elsewhere): one shot. */
	base = VirtualAlloc(NULL, 2 * PAGE, MEM_COMMIT, PAGE_READWRITE | PAGE_GUARD);
	assert_non_null(base);
	assert_int_equal(virtual_guard_fault(base + PAGE + 8, 0, 0, 0, 8 * PAGE, &limit), VIRTUAL_GUARD_PAGE);
	assert_int_equal(virtual_guard_fault(base + PAGE + 8, 0, 0, 0, 8 * PAGE, &limit), VIRTUAL_GUARD_NONE);
	base[PAGE] = 1;
	/* rsp in the same reservation, above the guard: a runtime's stack. */
	assert_int_equal(virtual_guard_fault(base + 8, 0, 0, (uintptr_t)base + PAGE + 64, 8 * PAGE, &limit),
			 VIRTUAL_GUARD_STACK_END);
	VirtualFree(base, 0, MEM_RELEASE);
}

static void test_other_process(void **state)
{
	SetLastError(SENTINEL_ERROR);
	assert_null(VirtualAllocEx((HANDLE)0x1234, NULL, PAGE, MEM_COMMIT, PAGE_READWRITE));
	assert_last_error(ERROR_INVALID_HANDLE);
	assert_true(FlushInstructionCache((HANDLE)(LONG_PTR)-1, NULL, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reserve_commit_release),
		cmocka_unit_test(test_commit_decommit_zeroes),
		cmocka_unit_test(test_protect),
		cmocka_unit_test(test_alloc_errors),
		cmocka_unit_test(test_reserve_at_address),
		cmocka_unit_test(test_query_foreign_memory),
		cmocka_unit_test(test_image_regions),
		cmocka_unit_test(test_protect_unregistered),
		cmocka_unit_test(test_guard_page),
		cmocka_unit_test(test_guard_fault_stack),
		cmocka_unit_test(test_other_process),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

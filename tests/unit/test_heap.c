/* Heaps, Local/Global memory and the ntdll Rtl heap functions. */
#include <pthread.h>

#include "k32_test.h"
#include "core/heap.h"

static void test_process_heap(void **state)
{
	HANDLE heap = GetProcessHeap();
	HANDLE heaps[64];
	DWORD n;

	assert_non_null(heap);
	assert_ptr_equal(heap, heap_process_heap());
	n = GetProcessHeaps(64, heaps);
	assert_true(n >= 1);
	assert_ptr_equal(heaps[0], heap);
	assert_false(HeapDestroy(heap)); /* the process heap stays */
}

static void test_alloc_zero_align_size(void **state)
{
	HANDLE heap = GetProcessHeap();

	for (SIZE_T size = 0; size < 300; size += 7) {
		unsigned char *p = HeapAlloc(heap, HEAP_ZERO_MEMORY, size);

		assert_non_null(p);
		assert_int_equal((uintptr_t)p % 16, 0);
		assert_int_equal(HeapSize(heap, 0, p), size);
		for (SIZE_T i = 0; i < size; i++)
			assert_int_equal(p[i], 0);
		assert_true(HeapValidate(heap, 0, p));
		assert_true(HeapFree(heap, 0, p));
	}
	assert_true(HeapFree(heap, 0, NULL));
	assert_true(HeapValidate(heap, 0, NULL));
}

static void test_heap_realloc(void **state)
{
	HANDLE heap = HeapCreate(0, 0, 0);
	unsigned char *p, *q;

	assert_non_null(heap);
	p = HeapAlloc(heap, 0, 10);
	memset(p, 0xab, 10);
	q = HeapReAlloc(heap, HEAP_ZERO_MEMORY, p, 100000);
	assert_non_null(q);
	assert_int_equal(HeapSize(heap, 0, q), 100000);
	for (int i = 0; i < 10; i++)
		assert_int_equal(q[i], 0xab);
	for (int i = 10; i < 100000; i++)
		if (q[i])
			fail_msg("byte %d not zeroed", i);
	/* shrinking in place always works */
	p = HeapReAlloc(heap, HEAP_REALLOC_IN_PLACE_ONLY, q, 50);
	assert_ptr_equal(p, q);
	assert_int_equal(HeapSize(heap, 0, p), 50);
	/* growing a small block far beyond its chunk cannot stay in place */
	q = HeapReAlloc(heap, HEAP_REALLOC_IN_PLACE_ONLY, p, 1 << 24);
	assert_null(q);
	assert_int_equal(HeapSize(heap, 0, p), 50);
	assert_null(HeapReAlloc(heap, 0, NULL, 10));
	assert_true(HeapDestroy(heap));
}

static void test_destroy_frees_everything(void **state)
{
	HANDLE heap = HeapCreate(0, 0, 0), heaps[64];
	DWORD n;
	int found = 0;

	for (int i = 0; i < 1000; i++)
		assert_non_null(HeapAlloc(heap, 0, (SIZE_T)i * 3 + 1));
	n = GetProcessHeaps(64, heaps);
	for (DWORD i = 0; i < n && i < 64; i++)
		found |= heaps[i] == heap;
	assert_true(found);
	/* valgrind/ASan report the blocks if this leaks them */
	assert_true(HeapDestroy(heap));
	SetLastError(SENTINEL_ERROR);
	assert_false(HeapDestroy(heap));
	assert_last_error(ERROR_INVALID_HANDLE);
}

/* A failed HeapFree leaves the block alive; gcc cannot know that. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuse-after-free"
static void test_free_wrong_heap(void **state)
{
	HANDLE a = HeapCreate(0, 0, 0), b = HeapCreate(0, 0, 0);
	void *p = HeapAlloc(a, 0, 16);

	SetLastError(SENTINEL_ERROR);
	assert_false(HeapFree(b, 0, p));
	assert_last_error(ERROR_INVALID_PARAMETER);
	assert_int_equal(HeapSize(b, 0, p), (SIZE_T)-1);
	assert_false(HeapValidate(b, 0, p));
	assert_true(HeapFree(a, 0, p));
	HeapDestroy(a);
	HeapDestroy(b);
}
#pragma GCC diagnostic pop

static void test_fixed_size_heap(void **state)
{
	HANDLE heap = HeapCreate(0, 0, 64 * 1024);
	void *p, *q;

	p = HeapAlloc(heap, 0, 40 * 1024);
	assert_non_null(p);
	assert_null(HeapAlloc(heap, 0, 40 * 1024)); /* over the maximum */
	q = HeapAlloc(heap, 0, 10 * 1024);
	assert_non_null(q);
	HeapFree(heap, 0, p);
	assert_non_null(HeapAlloc(heap, 0, 40 * 1024));
	HeapDestroy(heap);
}

static void test_executable_heap(void **state)
{
	HANDLE heap = HeapCreate(HEAP_CREATE_ENABLE_EXECUTE, 0, 0);
	MEMORY_BASIC_INFORMATION mbi;
	unsigned char *p = HeapAlloc(heap, 0, 100);

	assert_non_null(p);
	assert_int_equal(VirtualQuery(p, &mbi, sizeof(mbi)), sizeof(mbi));
	assert_int_equal(mbi.Protect, PAGE_EXECUTE_READWRITE);
	p = HeapReAlloc(heap, 0, p, 3 * 4096);
	assert_non_null(p);
	p[3 * 4096 - 1] = 1;
	HeapDestroy(heap);
}

struct thread_arg {
	HANDLE heap;
	int seed;
};

static void *heap_thread(void *arg)
{
	struct thread_arg *a = arg;
	void *blocks[64] = { 0 };
	unsigned int r = (unsigned int)a->seed;

	for (int i = 0; i < 20000; i++) {
		int k;
		SIZE_T size;

		r = r * 1103515245 + 12345;
		k = (r >> 16) % 64;
		size = (r >> 8) % 512;
		if (blocks[k]) {
			if (HeapSize(a->heap, 0, blocks[k]) == (SIZE_T)-1)
				return (void *)1;
			if (r & 1) {
				void *n = HeapReAlloc(a->heap, 0, blocks[k], size);
				if (!n)
					return (void *)1;
				blocks[k] = n;
				continue;
			}
			if (!HeapFree(a->heap, 0, blocks[k]))
				return (void *)1;
			blocks[k] = NULL;
		} else if (!(blocks[k] = HeapAlloc(a->heap, 0, size))) {
			return (void *)1;
		}
	}
	for (int k = 0; k < 64; k++)
		HeapFree(a->heap, 0, blocks[k]);
	return NULL;
}

static void test_many_threads(void **state)
{
	HANDLE heaps[2] = { GetProcessHeap(), HeapCreate(0, 0, 0) };
	pthread_t t[8];
	struct thread_arg args[8];
	void *ret;

	for (int i = 0; i < 8; i++) {
		args[i].heap = heaps[i & 1];
		args[i].seed = i;
		assert_int_equal(pthread_create(&t[i], NULL, heap_thread, &args[i]), 0);
	}
	for (int i = 0; i < 8; i++) {
		pthread_join(t[i], &ret);
		assert_null(ret);
	}
	assert_true(HeapValidate(heaps[1], 0, NULL));
	HeapDestroy(heaps[1]);
}

static void test_rtl_heap(void **state)
{
	HANDLE heap = GetProcessHeap();
	char *p = RtlAllocateHeap(heap, HEAP_ZERO_MEMORY, 33);

	assert_non_null(p);
	assert_int_equal(RtlSizeHeap(heap, 0, p), 33);
	p = RtlReAllocateHeap(heap, 0, p, 77);
	assert_int_equal(HeapSize(heap, 0, p), 77);
	assert_true(RtlFreeHeap(heap, 0, p));
}

static void test_heap_information(void **state)
{
	ULONG lfh = 2, got = 0;
	SIZE_T len = 0;

	assert_true(HeapSetInformation(GetProcessHeap(), HeapCompatibilityInformation, &lfh, sizeof(lfh)));
	assert_true(HeapSetInformation(NULL, (HEAP_INFORMATION_CLASS)1 /* termination on corruption */, NULL, 0));
	assert_true(HeapQueryInformation(GetProcessHeap(), HeapCompatibilityInformation, &got, sizeof(got), &len));
	assert_int_equal(got, 2);
	assert_int_equal(len, sizeof(ULONG));
	lfh = 7;
	assert_false(HeapSetInformation(GetProcessHeap(), HeapCompatibilityInformation, &lfh, sizeof(lfh)));
}

static void test_local_fixed(void **state)
{
	unsigned char *p = LocalAlloc(LMEM_ZEROINIT, 100), *q;

	assert_non_null(p);
	assert_int_equal(LocalSize(p), 100);
	assert_ptr_equal(LocalLock(p), p);
	assert_ptr_equal(LocalHandle(p), p);
	assert_int_equal(LocalFlags(p), 0);
	for (int i = 0; i < 100; i++)
		assert_int_equal(p[i], 0);
	/* a fixed block only moves when LMEM_MOVEABLE allows it */
	assert_null(LocalReAlloc(p, 1 << 24, 0));
	q = LocalReAlloc(p, 1 << 20, LMEM_MOVEABLE | LMEM_ZEROINIT);
	assert_non_null(q);
	assert_int_equal(LocalSize(q), 1 << 20);
	assert_int_equal(q[(1 << 20) - 1], 0);
	assert_null(LocalFree(q));
	assert_null(LocalFree(NULL));
	assert_null(GlobalFree(GlobalAlloc(GMEM_FIXED, 10)));
}

static void test_local_moveable(void **state)
{
	HLOCAL h = LocalAlloc(LMEM_MOVEABLE | LMEM_ZEROINIT, 64);
	char *p, *p2;

	assert_non_null(h);
	assert_int_equal((uintptr_t)h % 16, 8); /* not a block address */
	p = LocalLock(h);
	assert_non_null(p);
	assert_ptr_equal(*(void **)h, p);
	assert_int_equal(p[63], 0);
	strcpy(p, "hello");
	assert_int_equal(LocalFlags(h) & LMEM_LOCKCOUNT, 1);
	assert_ptr_equal(LocalHandle(p), h);
	SetLastError(SENTINEL_ERROR);
	assert_false(LocalUnlock(h));
	assert_last_error(NO_ERROR);
	SetLastError(SENTINEL_ERROR);
	assert_false(LocalUnlock(h));
	assert_last_error(ERROR_NOT_LOCKED);
	assert_ptr_equal(LocalReAlloc(h, 1 << 20, 0), h);
	assert_int_equal(LocalSize(h), 1 << 20);
	p2 = LocalLock(h);
	assert_string_equal(p2, "hello");
	LocalUnlock(h);
	/* size 0 discards the memory but keeps the handle */
	assert_ptr_equal(LocalReAlloc(h, 0, LMEM_MOVEABLE), h);
	assert_int_equal(LocalFlags(h) & LMEM_DISCARDED, LMEM_DISCARDED);
	assert_null(LocalLock(h));
	assert_null(LocalFree(h));

	h = GlobalAlloc(GMEM_MOVEABLE, 10);
	assert_non_null(GlobalLock(h));
	assert_int_equal(GlobalSize(h), 10);
	assert_false(GlobalUnlock(h));
	assert_null(GlobalFree(h));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_process_heap),
		cmocka_unit_test(test_alloc_zero_align_size),
		cmocka_unit_test(test_heap_realloc),
		cmocka_unit_test(test_destroy_frees_everything),
		cmocka_unit_test(test_free_wrong_heap),
		cmocka_unit_test(test_fixed_size_heap),
		cmocka_unit_test(test_executable_heap),
		cmocka_unit_test(test_many_threads),
		cmocka_unit_test(test_rtl_heap),
		cmocka_unit_test(test_heap_information),
		cmocka_unit_test(test_local_fixed),
		cmocka_unit_test(test_local_moveable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

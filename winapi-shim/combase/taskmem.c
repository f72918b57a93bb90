/* COM task memory (CoTaskMemAlloc and the IMalloc CoGetMalloc returns):
 * blocks that one module allocates and another frees, such as the strings
 * StringFromCLSID and SHGetKnownFolderPath return.  They live in the
 * process heap. */
#include "core/heap.h"
#include "combase/combase_private.h"

LPVOID WINAPI CoTaskMemAlloc(SIZE_T size)
{
	/* A zero-byte request still gives a distinct block, as on Windows. */
	return heap_alloc(heap_process_heap(), 0, size ? size : 1);
}

void WINAPI CoTaskMemFree(LPVOID ptr)
{
	heap_free(heap_process_heap(), 0, ptr);
}

/* NULL reallocates into a new block; size 0 frees and returns NULL
 * (the docs of CoTaskMemRealloc). */
LPVOID WINAPI CoTaskMemRealloc(LPVOID ptr, SIZE_T size)
{
	if (!ptr)
		return CoTaskMemAlloc(size);
	if (!size) {
		CoTaskMemFree(ptr);
		return NULL;
	}
	return heap_realloc(heap_process_heap(), 0, ptr, size);
}

/* IUnknown's and IMalloc's interface ids (objidl.h). */
static const IID iid_unknown = { 0x00000000, 0x0000, 0x0000, { 0xc0, 0, 0, 0, 0, 0, 0, 0x46 } };
static const IID iid_malloc = { 0x00000002, 0x0000, 0x0000, { 0xc0, 0, 0, 0, 0, 0, 0, 0x46 } };

/* The task allocator: one static object for the process, whose reference
 * count does not matter (CoGetMalloc's docs: it is never destroyed). */
static HRESULT WINAPI malloc_query_interface(IMalloc *iface, REFIID riid, void **out)
{
	if (!out)
		return E_POINTER;
	if (IsEqualIID(riid, &iid_unknown) || IsEqualIID(riid, &iid_malloc)) {
		*out = iface;
		return S_OK;
	}
	*out = NULL;
	return E_NOINTERFACE;
}

static ULONG WINAPI malloc_add_ref(IMalloc *iface)
{
	return 2;
}

static ULONG WINAPI malloc_release(IMalloc *iface)
{
	return 1;
}

static void *WINAPI malloc_alloc(IMalloc *iface, SIZE_T size)
{
	return CoTaskMemAlloc(size);
}

static void *WINAPI malloc_realloc(IMalloc *iface, void *ptr, SIZE_T size)
{
	return CoTaskMemRealloc(ptr, size);
}

static void WINAPI malloc_free(IMalloc *iface, void *ptr)
{
	CoTaskMemFree(ptr);
}

/* (SIZE_T)-1 for NULL, as IMalloc::GetSize documents. */
static SIZE_T WINAPI malloc_get_size(IMalloc *iface, void *ptr)
{
	return ptr ? heap_size(heap_process_heap(), 0, ptr) : (SIZE_T)-1;
}

/* -1: cannot tell (allowed by the docs), since telling would mean reading
 * memory in front of a pointer that may belong to anyone. */
static INT WINAPI malloc_did_alloc(IMalloc *iface, void *ptr)
{
	return -1;
}

static void WINAPI malloc_heap_minimize(IMalloc *iface)
{
}

static const IMallocVtbl malloc_vtbl = {
	malloc_query_interface, malloc_add_ref, malloc_release, malloc_alloc, malloc_realloc,
	malloc_free, malloc_get_size, malloc_did_alloc, malloc_heap_minimize,
};

static IMalloc task_malloc = { (IMallocVtbl *)&malloc_vtbl };

HRESULT WINAPI CoGetMalloc(DWORD context, LPMALLOC *out)
{
	if (context != MEMCTX_TASK) {
		*out = NULL;
		return E_INVALIDARG;
	}
	*out = &task_malloc;
	return S_OK;
}

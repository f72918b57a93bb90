/* The CRT heap, on glibc's malloc.  Each block carries a 16-byte header
 * holding the requested size, because _msize must return exactly what
 * was asked for (malloc_usable_size rounds up); 16 keeps the alignment. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "loader.h"
#include "msvcrt/msvcrt_private.h"

#define HDR 16

/* What a block of size bytes takes from glibc: its header, and its size
 * rounded up to MEMORY_ALLOCATION_ALIGNMENT (16).  The CRT heap is
 * glibc's, shared with ndrun (docs/exceptions.md), and glibc gives out
 * exact sizes: 4 bytes written past an 8-byte block (a damaged program's
 * start-up code did that) are the next chunk's size field, and the next
 * malloc anywhere in ndrun aborted it ("malloc(): invalid next size").
 * With the slack, a write that stays within the block's last 16-byte
 * unit harms nothing and the program goes on (wine64 ran that program
 * to its end too); a longer overrun still corrupts the shared heap, the
 * known limit.  Blocks are 16-aligned either way, so the cost is at
 * most 15 bytes a block. */
static size_t raw_size(size_t size)
{
	return ((size + (HDR - 1)) & ~(size_t)(HDR - 1)) + HDR;
}

/* The header's second word: the block's address scrambled, so that
 * free and realloc know a block they gave out. */
#define COOKIE(raw) ((uintptr_t)(raw) ^ (uintptr_t)0x6e647368696d6870ull)

static void *to_user(void *raw, size_t size)
{
	((size_t *)raw)[0] = size;
	((uintptr_t *)raw)[1] = COOKIE(raw);
	return (char *)raw + HDR;
}

/* A pointer that is no block of this heap (below 64 KiB, off the 16-byte
 * alignment, or without the header's cookie) handed to free, realloc or
 * _msize: Windows' heap, which ends a 64-bit process on corruption it
 * detects, stops the program with STATUS_HEAP_CORRUPTION at once
 * (nothing flushed); glibc's free would abort ndrun instead.  Reading
 * the cookie of a pointer into unmapped memory faults in the program's
 * caller (ntdll/hostfault.c). */
static void *to_raw(void *user)
{
	char *raw = (char *)user - HDR;

	if ((uintptr_t)user < 0x10000 || ((uintptr_t)user & (HDR - 1)) || ((uintptr_t *)raw)[1] != COOKIE(raw))
		loader_terminate_process(STATUS_HEAP_CORRUPTION);
	return raw;
}

void *__cdecl crt_malloc(size_t size)
{
	if (size > SIZE_MAX - 2 * HDR) {
		crt_set_errno(ENOMEM);
		return NULL;
	}
	void *raw = malloc(raw_size(size));
	if (!raw) {
		crt_set_errno(ENOMEM);
		return NULL;
	}
	return to_user(raw, size);
}

void *__cdecl crt_calloc(size_t count, size_t size)
{
	if (size && count > (SIZE_MAX - HDR) / size) {
		crt_set_errno(ENOMEM);
		return NULL;
	}
	void *p = crt_malloc(count * size);
	if (p)
		memset(p, 0, count * size);
	return p;
}

void __cdecl crt_free(void *p)
{
	if (p)
		free(to_raw(p));
}

/* realloc(p, 0) frees and returns NULL, as msvcrt's does. */
void *__cdecl crt_realloc(void *p, size_t size)
{
	if (!p)
		return crt_malloc(size);
	if (!size) {
		crt_free(p);
		return NULL;
	}
	if (size > SIZE_MAX - 2 * HDR) {
		crt_set_errno(ENOMEM);
		return NULL;
	}
	void *raw = realloc(to_raw(p), raw_size(size));
	if (!raw) {
		crt_set_errno(ENOMEM);
		return NULL;
	}
	return to_user(raw, size);
}

size_t __cdecl crt__msize(void *p)
{
	if (!p) {
		crt_set_errno(EINVAL);
		return (size_t)-1;
	}
	return *(size_t *)to_raw(p);
}

char *__cdecl crt__strdup(const char *s)
{
	if (!s)
		return NULL;
	size_t n = strlen(s) + 1;
	char *r = crt_malloc(n);
	if (r)
		memcpy(r, s, n);
	return r;
}

WCHAR *__cdecl crt__wcsdup(const WCHAR *s)
{
	if (!s)
		return NULL;
	size_t n = (crt_wcslen(s) + 1) * sizeof(WCHAR);
	WCHAR *r = crt_malloc(n);
	if (r)
		memcpy(r, s, n);
	return r;
}

/* _aligned_malloc blocks: the CRT block holds padding, then the offset
 * back to its start just below the aligned address. */
void *__cdecl crt__aligned_malloc(size_t size, size_t align)
{
	if (!align || (align & (align - 1))) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return NULL;
	}
	if (align < sizeof(void *))
		align = sizeof(void *);
	if (size > SIZE_MAX - align - sizeof(void *)) {
		crt_set_errno(ENOMEM);
		return NULL;
	}
	char *raw = crt_malloc(size + align + sizeof(void *));
	if (!raw)
		return NULL;
	uintptr_t user = ((uintptr_t)raw + sizeof(void *) + align - 1) & ~(uintptr_t)(align - 1);
	((void **)user)[-1] = raw;
	return (void *)user;
}

void __cdecl crt__aligned_free(void *p)
{
	if (p)
		crt_free(((void **)p)[-1]);
}

void *__cdecl crt__aligned_realloc(void *p, size_t size, size_t align)
{
	if (!p)
		return crt__aligned_malloc(size, align);
	if (!size) {
		crt__aligned_free(p);
		return NULL;
	}
	void *raw = ((void **)p)[-1];
	size_t old = crt__msize(raw) - ((char *)p - (char *)raw);
	void *n = crt__aligned_malloc(size, align);
	if (!n)
		return NULL;
	memcpy(n, p, old < size ? old : size);
	crt__aligned_free(p);
	return n;
}

/* calloc-like growth: the new tail is zeroed. */
void *__cdecl crt__recalloc(void *p, size_t count, size_t size)
{
	size_t old = p ? crt__msize(p) : 0, total;

	if (size && count > SIZE_MAX / size) {
		crt_set_errno(ENOMEM);
		return NULL;
	}
	total = count * size;
	void *n = crt_realloc(p, total);
	if (n && total > old)
		memset((char *)n + old, 0, total - old);
	return n;
}

/* No new handler is ever installed (there is no _set_new_handler):
 * 0 tells the caller that nothing freed memory, so it reports failure. */
int __cdecl crt__callnewh(size_t size)
{
	return 0;
}

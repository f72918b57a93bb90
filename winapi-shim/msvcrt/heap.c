/* The CRT heap, on glibc's malloc.  Each block carries a 16-byte header
 * holding the requested size, because _msize must return exactly what
 * was asked for (malloc_usable_size rounds up); 16 keeps the alignment. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "msvcrt/msvcrt_private.h"

#define HDR 16

static void *to_user(void *raw, size_t size)
{
	*(size_t *)raw = size;
	return (char *)raw + HDR;
}

static void *to_raw(void *user)
{
	return (char *)user - HDR;
}

void *__cdecl crt_malloc(size_t size)
{
	if (size > SIZE_MAX - HDR) {
		crt_set_errno(ENOMEM);
		return NULL;
	}
	void *raw = malloc(size + HDR);
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
	if (size > SIZE_MAX - HDR) {
		crt_set_errno(ENOMEM);
		return NULL;
	}
	void *raw = realloc(to_raw(p), size + HDR);
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

/* stdlib.h and search.h beyond the common ones: qsort_s and bsearch_s
 * (a context for the comparator), _lfind/_lsearch (linear, _s forms
 * too), the wide _wtof/_wtoi64/_wtoll, _get/_set_doserrno, _sleep, and
 * the heap checks that have nothing to check here (_heapchk: _HEAPOK;
 * _heapmin: 0). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msvcrt/msvcrt_private.h"
#include "core/pecall.h"

typedef int(__cdecl *cmp_ctx_fn)(void *ctx, const void *a, const void *b);

static int fail(int err)
{
	crt_set_errno(err);
	crt_invalid_parameter_noinfo();
	return err;
}

struct sort_ctx {
	cmp_ctx_fn cmp;
	void *ctx;
};

static int call_sort(const void *a, const void *b, void *p)
{
	struct sort_ctx *s = p;

	return (int)PE_CALL3(s->cmp, s->ctx, a, b);
}

void __cdecl crt_qsort_s(void *base, size_t n, size_t size, cmp_ctx_fn cmp, void *ctx)
{
	struct sort_ctx s = { cmp, ctx };

	if ((!base && n) || !size || !cmp) {
		fail(EINVAL);
		return;
	}
	if (n > 1)
		qsort_r(base, n, size, call_sort, &s);
}

void *__cdecl crt_bsearch_s(const void *key, const void *base, size_t n, size_t size, cmp_ctx_fn cmp, void *ctx)
{
	size_t lo = 0, hi = n;

	if (!key || (!base && n) || !size || !cmp) {
		fail(EINVAL);
		return NULL;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *p = (const char *)base + mid * size;
		int r = (int)PE_CALL3(cmp, ctx, key, p);

		if (!r)
			return (void *)p;
		if (r < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* ---- linear search ------------------------------------------------------------ */

void *__cdecl crt__lfind(const void *key, const void *base, unsigned int *n, unsigned int size, crt_cmp_fn cmp)
{
	if (!key || !n || (!base && *n) || !cmp) {
		fail(EINVAL);
		return NULL;
	}
	for (unsigned int i = 0; i < *n; i++)
		if (!(int)PE_CALL2(cmp, key, (const char *)base + (size_t)i * size))
			return (char *)base + (size_t)i * size;
	return NULL;
}

/* Not found: the key is appended and *n grows (the array must have room). */
void *__cdecl crt__lsearch(const void *key, void *base, unsigned int *n, unsigned int size, crt_cmp_fn cmp)
{
	void *p = crt__lfind(key, base, n, size, cmp);

	if (p || !key || !n || !base || !cmp)
		return p;
	p = (char *)base + (size_t)*n * size;
	memcpy(p, key, size);
	(*n)++;
	return p;
}

void *__cdecl crt__lfind_s(const void *key, const void *base, unsigned int *n, size_t size, cmp_ctx_fn cmp,
			   void *ctx)
{
	if (!key || !n || (!base && *n) || !size || !cmp) {
		fail(EINVAL);
		return NULL;
	}
	for (unsigned int i = 0; i < *n; i++)
		if (!(int)PE_CALL3(cmp, ctx, key, (const char *)base + i * size))
			return (char *)base + i * size;
	return NULL;
}

void *__cdecl crt__lsearch_s(const void *key, void *base, unsigned int *n, size_t size, cmp_ctx_fn cmp, void *ctx)
{
	void *p = crt__lfind_s(key, base, n, size, cmp, ctx);

	if (p || !key || !n || !base || !size || !cmp)
		return p;
	p = (char *)base + *n * size;
	memcpy(p, key, size);
	(*n)++;
	return p;
}

/* ---- wide numbers ------------------------------------------------------------- */

double __cdecl crt__wtof(const WCHAR *s)
{
	return crt_wcstod(s, NULL);
}

int64_t __cdecl crt__wtoi64(const WCHAR *s)
{
	return crt__wcstoi64(s, NULL, 10);
}

/* ---- odds and ends ----------------------------------------------------------- */

int __cdecl crt__get_doserrno(unsigned int *value)
{
	if (!value)
		return fail(EINVAL);
	*value = *crt___doserrno();
	return 0;
}

int __cdecl crt__set_doserrno(unsigned int value)
{
	*crt___doserrno() = value;
	return 0;
}

void __cdecl crt__sleep(unsigned int ms)
{
	Sleep(ms ? ms : 1);
}

#define HEAPOK (-2)

int __cdecl crt__heapchk(void)
{
	return HEAPOK;
}

int __cdecl crt__heapmin(void)
{
	return 0;
}

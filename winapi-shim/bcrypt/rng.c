/* BCryptGenRandom and the RNG algorithm provider.
 *
 * Algorithm handles are heap objects recorded in a list, so that a
 * handle that was never opened (or was closed) is recognised without
 * dereferencing it: STATUS_INVALID_HANDLE, as CNG answers. */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#define WIN32_NO_STATUS
#include "bcrypt/bcrypt_private.h"
#include "core/debug.h"
#include "core/random.h"
#include "core/wstr.h"
#undef WIN32_NO_STATUS
#include <ntstatus.h>

struct alg {
	struct alg *next;
};

static pthread_mutex_t algs_lock = PTHREAD_MUTEX_INITIALIZER;
static struct alg *algs;

static bool is_rng_handle(BCRYPT_ALG_HANDLE h)
{
	bool found = false;

	/* Windows 10's pseudo-handle for the RNG needs no opening. */
	if (h == BCRYPT_RNG_ALG_HANDLE)
		return true;
	pthread_mutex_lock(&algs_lock);
	for (struct alg *a = algs; a && !found; a = a->next)
		found = (BCRYPT_ALG_HANDLE)a == h;
	pthread_mutex_unlock(&algs_lock);
	return found;
}

NTSTATUS WINAPI BCryptOpenAlgorithmProvider(BCRYPT_ALG_HANDLE *handle, LPCWSTR id, LPCWSTR impl, ULONG flags)
{
	static const WCHAR rng[] = { 'R', 'N', 'G', 0 };
	static const WCHAR primitive[] = { 'M', 'i', 'c', 'r', 'o', 's', 'o', 'f', 't', ' ', 'P', 'r', 'i', 'm', 'i',
					   't', 'i', 'v', 'e', ' ', 'P', 'r', 'o', 'v', 'i', 'd', 'e', 'r', 0 };
	struct alg *a;

	TRACE(misc, "%s %s %#x\n", debugstr_w(id), debugstr_w(impl), (unsigned)flags);
	if (!handle || !id)
		return STATUS_INVALID_PARAMETER;
	if (flags)
		return STATUS_INVALID_PARAMETER;
	/* Algorithm identifiers are compared exactly, as CNG does. */
	if (wstr_cmp(id, rng))
		return STATUS_NOT_FOUND;
	if (impl && wstr_cmp(impl, primitive))
		return STATUS_NOT_FOUND;
	a = malloc(sizeof(*a));
	if (!a)
		return STATUS_NO_MEMORY;
	pthread_mutex_lock(&algs_lock);
	a->next = algs;
	algs = a;
	pthread_mutex_unlock(&algs_lock);
	*handle = a;
	return STATUS_SUCCESS;
}

NTSTATUS WINAPI BCryptCloseAlgorithmProvider(BCRYPT_ALG_HANDLE handle, ULONG flags)
{
	struct alg **p, *found = NULL;

	pthread_mutex_lock(&algs_lock);
	for (p = &algs; *p; p = &(*p)->next) {
		if ((BCRYPT_ALG_HANDLE)*p == handle) {
			found = *p;
			*p = found->next;
			break;
		}
	}
	pthread_mutex_unlock(&algs_lock);
	if (!found)
		return STATUS_INVALID_HANDLE;
	free(found);
	return STATUS_SUCCESS;
}

NTSTATUS WINAPI BCryptGenRandom(BCRYPT_ALG_HANDLE handle, PUCHAR buf, ULONG len, ULONG flags)
{
	TRACE(misc, "%p %p %u %#x\n", handle, buf, (unsigned)len, (unsigned)flags);
	/* BCRYPT_RNG_USE_ENTROPY_IN_BUFFER is accepted and ignored, as
	 * Windows 8 and later do. */
	if (flags & ~(BCRYPT_USE_SYSTEM_PREFERRED_RNG | BCRYPT_RNG_USE_ENTROPY_IN_BUFFER))
		return STATUS_INVALID_PARAMETER;
	if (flags & BCRYPT_USE_SYSTEM_PREFERRED_RNG) {
		if (handle)
			return STATUS_INVALID_PARAMETER;
	} else if (!handle || !is_rng_handle(handle)) {
		return STATUS_INVALID_HANDLE;
	}
	if (!buf)
		return STATUS_INVALID_PARAMETER;
	random_fill(buf, len);
	return STATUS_SUCCESS;
}

/* FIPS mode is a registry policy of Windows' (Lsa\FipsAlgorithmPolicy);
 * ndrun has no such policy, so the answer is "not enabled", which is what
 * Windows answers until an administrator turns it on. */
NTSTATUS WINAPI BCryptGetFipsAlgorithmMode(BOOLEAN *enabled)
{
	if (!enabled)
		return STATUS_INVALID_PARAMETER;
	*enabled = FALSE;
	return STATUS_SUCCESS;
}

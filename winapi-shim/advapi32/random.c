/* Random bytes through advapi32: RtlGenRandom (exported as
 * SystemFunction036, which Rust's and Go's runtimes import) and the CryptoAPI
 * context that C runtimes and libraries open only to call CryptGenRandom
 * (ffmpeg, OCaml's Random.self_init).  Both read the kernel's generator
 * (core/random.h).  A context is for random numbers only: it is acquired
 * for the Microsoft providers' RSA and AES types, and the rest of
 * CryptoAPI (hashes, keys) stays a trap. */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "advapi32/advapi32_private.h"
#include "core/debug.h"
#include "core/random.h"

BOOLEAN WINAPI SystemFunction036(PVOID buf, ULONG len)
{
	random_fill(buf, len);
	return TRUE;
}

/* Contexts are heap objects on a list, so that a handle never acquired
 * (or released) is recognised without being dereferenced. */
struct prov {
	struct prov *next;
};

static pthread_mutex_t provs_lock = PTHREAD_MUTEX_INITIALIZER;
static struct prov *provs;

static bool find_prov(HCRYPTPROV h, bool unlink)
{
	bool found = false;

	pthread_mutex_lock(&provs_lock);
	for (struct prov **p = &provs; *p; p = &(*p)->next) {
		if ((HCRYPTPROV)*p != h)
			continue;
		found = true;
		if (unlink) {
			struct prov *dead = *p;
			*p = dead->next;
			free(dead);
		}
		break;
	}
	pthread_mutex_unlock(&provs_lock);
	return found;
}

/* Key containers are not kept: only CRYPT_VERIFYCONTEXT (no container),
 * which is what a program that wants random bytes asks for, succeeds;
 * naming or creating a container fails with NTE_BAD_KEYSET as for a
 * container that does not exist. */
static BOOL acquire(HCRYPTPROV *out, bool has_container, DWORD type, DWORD flags)
{
	struct prov *p;

	if (!out) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (type != PROV_RSA_FULL && type != PROV_RSA_AES && type != PROV_RSA_SIG && type != PROV_RSA_SCHANNEL &&
	    type != PROV_DSS && type != PROV_DSS_DH && type != PROV_DH_SCHANNEL) {
		SetLastError(NTE_BAD_PROV_TYPE);
		return FALSE;
	}
	if (!(flags & CRYPT_VERIFYCONTEXT) || (has_container && (flags & CRYPT_NEWKEYSET))) {
		TRACE(misc, "key containers are not kept (flags 0x%lx)\n", (unsigned long)flags);
		SetLastError(NTE_BAD_KEYSET);
		return FALSE;
	}
	p = malloc(sizeof(*p));
	if (!p) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	pthread_mutex_lock(&provs_lock);
	p->next = provs;
	provs = p;
	pthread_mutex_unlock(&provs_lock);
	*out = (HCRYPTPROV)p;
	return TRUE;
}

BOOL WINAPI CryptAcquireContextW(HCRYPTPROV *prov, LPCWSTR container, LPCWSTR provider, DWORD type, DWORD flags)
{
	(void)provider; /* every Microsoft provider draws from the same generator */
	return acquire(prov, container && *container, type, flags);
}

BOOL WINAPI CryptAcquireContextA(HCRYPTPROV *prov, LPCSTR container, LPCSTR provider, DWORD type, DWORD flags)
{
	(void)provider;
	return acquire(prov, container && *container, type, flags);
}

BOOL WINAPI CryptGenRandom(HCRYPTPROV prov, DWORD len, BYTE *buf)
{
	if (!find_prov(prov, false)) {
		SetLastError(ERROR_INVALID_HANDLE);
		return FALSE;
	}
	random_fill(buf, len);
	return TRUE;
}

BOOL WINAPI CryptReleaseContext(HCRYPTPROV prov, DWORD flags)
{
	if (!find_prov(prov, false)) {
		SetLastError(ERROR_INVALID_HANDLE);
		return FALSE;
	}
	if (flags) {
		SetLastError(NTE_BAD_FLAGS);
		return FALSE;
	}
	find_prov(prov, true);
	return TRUE;
}

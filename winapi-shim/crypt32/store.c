/* Certificate stores: the system stores and memory stores.
 *
 * The system store "ROOT" holds the machine's trusted certificate
 * authorities, which on Linux are the PEM bundle of the distribution
 * (SSL_CERT_FILE when set, else /etc/ssl/certs/ca-certificates.crt,
 * /etc/pki/tls/certs/ca-bundle.crt, /etc/ssl/cert.pem); every other system
 * store ("MY", "CA", ...) holds nothing here, and a memory store starts
 * empty.  Other store providers (files, PKCS #7, collections, the
 * registry) are not implemented and stop the program naming the case
 * (core/unimpl.h).
 *
 * Contexts are counted: a store holds one reference to each of its
 * certificates, each context a program holds keeps its store alive, and
 * CertEnumCertificatesInStore releases the context it is given. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/debug.h"
#include "core/unimpl.h"
#include "core/wstr.h"
#include "crypt32/cert.h"

#define STORE_MAGIC 0x53545245u /* "STRE" */

struct cert_store {
	DWORD magic;
	LONG refs;
	struct cert **certs;
	unsigned int count;
};

static void store_release(struct cert_store *s)
{
	if (InterlockedDecrement(&s->refs))
		return;
	for (unsigned int i = 0; i < s->count; i++)
		if (!InterlockedDecrement(&s->certs[i]->refs))
			cert_free(s->certs[i]);
	free(s->certs);
	s->magic = 0;
	free(s);
}

static struct cert_store *store_new(void)
{
	struct cert_store *s = calloc(1, sizeof(*s));

	if (s) {
		s->magic = STORE_MAGIC;
		s->refs = 1;
	}
	return s;
}

/* The distribution's bundle of trusted authorities. */
static void load_roots(struct cert_store *s)
{
	static const char *const paths[] = { "/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt",
					     "/etc/ssl/cert.pem" };
	const char *env = getenv("SSL_CERT_FILE");
	char *text = NULL;
	size_t len = 0;
	FILE *f = NULL;

	if (env && *env)
		f = fopen(env, "re");
	for (size_t i = 0; !f && i < sizeof(paths) / sizeof(paths[0]); i++)
		f = fopen(paths[i], "re");
	if (!f) {
		TRACE(misc, "no bundle of certificate authorities found: the ROOT store is empty\n");
		return;
	}
	for (;;) {
		char *n = realloc(text, len + 65536);
		size_t got;
		if (!n)
			break;
		text = n;
		got = fread(text + len, 1, 65536, f);
		len += got;
		if (got < 65536)
			break;
	}
	fclose(f);
	if (text)
		s->count = cert_read_pem(text, len, &s->certs);
	free(text);
	for (unsigned int i = 0; i < s->count; i++) {
		s->certs[i]->store = s;
		s->certs[i]->ctx.hCertStore = s;
	}
}

static HCERTSTORE open_system(const WCHAR *name)
{
	struct cert_store *s = store_new();

	if (!s) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	if (name && !wstr_icmp(name, u"ROOT"))
		load_roots(s);
	return s;
}

HCERTSTORE WINAPI CertOpenStore(LPCSTR provider, DWORD encoding, HCRYPTPROV_LEGACY prov, DWORD flags,
				const void *para)
{
	ULONG_PTR id = (ULONG_PTR)provider;
	WCHAR name[64];

	if (id >> 16) {
		/* a provider named by string: "System" and "Memory" */
		if (!strcasecmp(provider, sz_CERT_STORE_PROV_SYSTEM))
			id = (ULONG_PTR)CERT_STORE_PROV_SYSTEM_W;
		else if (!strcasecmp(provider, sz_CERT_STORE_PROV_MEMORY))
			id = (ULONG_PTR)CERT_STORE_PROV_MEMORY;
		else
			unimplemented_case("crypt32.CertOpenStore", "provider \"%s\"", provider);
	}
	if (id == (ULONG_PTR)CERT_STORE_PROV_MEMORY)
		return open_system(NULL);
	if (id == (ULONG_PTR)CERT_STORE_PROV_SYSTEM_A) {
		if (!para || !MultiByteToWideChar(CP_ACP, 0, para, -1, name, 64)) {
			SetLastError(ERROR_INVALID_PARAMETER);
			return NULL;
		}
		return open_system(name);
	}
	if (id == (ULONG_PTR)CERT_STORE_PROV_SYSTEM_W) {
		if (!para) {
			SetLastError(ERROR_INVALID_PARAMETER);
			return NULL;
		}
		return open_system(para);
	}
	unimplemented_case("crypt32.CertOpenStore", "provider %lu", (unsigned long)id);
}

HCERTSTORE WINAPI CertOpenSystemStoreW(HCRYPTPROV_LEGACY prov, LPCWSTR name)
{
	if (!name) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	return open_system(name);
}

HCERTSTORE WINAPI CertOpenSystemStoreA(HCRYPTPROV_LEGACY prov, LPCSTR name)
{
	WCHAR w[64];

	if (!name || !MultiByteToWideChar(CP_ACP, 0, name, -1, w, 64)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	return open_system(w);
}

static struct cert_store *get_store(HCERTSTORE h)
{
	struct cert_store *s = h;

	return s && s->magic == STORE_MAGIC ? s : NULL;
}

BOOL WINAPI CertCloseStore(HCERTSTORE h, DWORD flags)
{
	struct cert_store *s;

	if (!h)
		return TRUE;
	s = get_store(h);
	if (!s) {
		SetLastError(E_INVALIDARG);
		return FALSE;
	}
	/* CERT_CLOSE_STORE_CHECK_FLAG would report contexts still held:
	 * they keep the store alive, as documented, so it stays quiet. */
	store_release(s);
	return TRUE;
}

PCCERT_CONTEXT WINAPI CertDuplicateCertificateContext(PCCERT_CONTEXT ctx)
{
	struct cert *c = (struct cert *)ctx;

	if (!c)
		return NULL;
	InterlockedIncrement(&c->refs);
	if (c->store)
		InterlockedIncrement(&c->store->refs);
	return ctx;
}

BOOL WINAPI CertFreeCertificateContext(PCCERT_CONTEXT ctx)
{
	struct cert *c = (struct cert *)ctx;
	struct cert_store *s;

	if (!c)
		return TRUE;
	s = c->store;
	if (!InterlockedDecrement(&c->refs))
		cert_free(c);
	if (s)
		store_release(s);
	return TRUE;
}

/* The certificate after prev (the first when prev is NULL), which is
 * released; NULL and CRYPT_E_NOT_FOUND at the end. */
PCCERT_CONTEXT WINAPI CertEnumCertificatesInStore(HCERTSTORE h, PCCERT_CONTEXT prev)
{
	struct cert_store *s = get_store(h);
	unsigned int next = 0;

	if (!s) {
		SetLastError(E_INVALIDARG);
		return NULL;
	}
	if (prev) {
		for (next = 0; next < s->count && &s->certs[next]->ctx != prev; next++)
			;
		next++;
		CertFreeCertificateContext(prev);
	}
	if (next >= s->count) {
		SetLastError(CRYPT_E_NOT_FOUND);
		return NULL;
	}
	return CertDuplicateCertificateContext(&s->certs[next]->ctx);
}

/* -1 before NotBefore, 1 after NotAfter, 0 inside (time NULL: now). */
LONG WINAPI CertVerifyTimeValidity(LPFILETIME time, PCERT_INFO info)
{
	FILETIME now;
	ULONGLONG t, nb, na;

	if (!time) {
		GetSystemTimeAsFileTime(&now);
		time = &now;
	}
	t = (ULONGLONG)time->dwHighDateTime << 32 | time->dwLowDateTime;
	nb = (ULONGLONG)info->NotBefore.dwHighDateTime << 32 | info->NotBefore.dwLowDateTime;
	na = (ULONGLONG)info->NotAfter.dwHighDateTime << 32 | info->NotAfter.dwLowDateTime;
	return t < nb ? -1 : t > na ? 1 : 0;
}

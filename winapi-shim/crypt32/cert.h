/* Certificates and the stores that hold them (cert.c, store.c). */
#ifndef NDSHIM_CRYPT32_CERT_H
#define NDSHIM_CRYPT32_CERT_H

#include "crypt32/crypt32_private.h"

struct cert_store;

/* A certificate context: the CERT_CONTEXT a program sees comes first,
 * so a PCCERT_CONTEXT is a struct cert. */
struct cert {
	CERT_CONTEXT ctx;
	CERT_INFO info;
	LONG refs;
	struct cert_store *store;
	void **allocs;		/* what the context owns, freed with it */
	unsigned int nallocs;
};

/* A context decoded from an X.509 certificate (DER, len bytes, copied),
 * with one reference, or NULL when it is malformed or memory runs out. */
struct cert *cert_decode(const BYTE *der, size_t len);
void cert_free(struct cert *c);

/* The certificates of a PEM bundle's text (each "-----BEGIN
 * CERTIFICATE-----" block); malformed ones are skipped.  Returns the
 * count; *out is malloc'd. */
unsigned int cert_read_pem(const char *text, size_t len, struct cert ***out);

#endif

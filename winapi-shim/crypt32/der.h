/* A reader of DER (the ASN.1 encoding of X.509 certificates): one
 * element at a time, every length checked against what encloses it. */
#ifndef NDSHIM_CRYPT32_DER_H
#define NDSHIM_CRYPT32_DER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <windef.h>

struct der {
	const BYTE *p;	/* what is left to read */
	size_t len;
};

/* One element of in: its tag (the first byte; only single-byte tags),
 * its contents, and the whole element (tag and length included); false
 * when in is empty or malformed. */
bool der_next(struct der *in, BYTE *tag, struct der *contents, struct der *whole);
/* The same, only when the next element has this tag. */
bool der_expect(struct der *in, BYTE tag, struct der *contents, struct der *whole);

/* An OBJECT IDENTIFIER's contents as "1.2.840.113549.1.1.11" into buf;
 * false when it does not fit or is malformed. */
bool der_oid_string(const struct der *oid, char *buf, size_t size);

/* UTCTime (tag 0x17, years 1950-2049) or GeneralizedTime (0x18) ending in
 * 'Z', as 100 ns since 1601 (FILETIME); false when malformed. */
bool der_time(BYTE tag, const struct der *contents, uint64_t *filetime);

#endif

/* Decoding X.509 certificates (RFC 5280) into CERT_CONTEXT/CERT_INFO as
 * wincrypt.h lays them out: the serial number little-endian, names and
 * algorithm parameters as their DER, the times as FILETIMEs, each
 * extension's value as its OCTET STRING's contents. */
#include <stdlib.h>
#include <string.h>

#include "crypt32/cert.h"
#include "crypt32/der.h"

static void *own(struct cert *c, size_t size)
{
	void **n = realloc(c->allocs, (c->nallocs + 1) * sizeof(*n));
	void *p;

	if (!n)
		return NULL;
	c->allocs = n;
	p = calloc(1, size ? size : 1);
	if (p)
		c->allocs[c->nallocs++] = p;
	return p;
}

static char *own_oid(struct cert *c, const struct der *oid)
{
	char buf[256], *s;

	if (!der_oid_string(oid, buf, sizeof(buf)))
		return NULL;
	s = own(c, strlen(buf) + 1);
	if (s)
		strcpy(s, buf);
	return s;
}

static bool algorithm(struct cert *c, struct der *in, CRYPT_ALGORITHM_IDENTIFIER *alg)
{
	struct der seq, oid, params;
	BYTE tag;

	if (!der_expect(in, 0x30, &seq, NULL) || !der_expect(&seq, 0x06, &oid, NULL))
		return false;
	alg->pszObjId = own_oid(c, &oid);
	if (!alg->pszObjId)
		return false;
	if (seq.len && der_next(&seq, &tag, NULL, &params)) {
		alg->Parameters.pbData = (BYTE *)params.p;
		alg->Parameters.cbData = (DWORD)params.len;
	}
	return true;
}

static void filetime(uint64_t v, FILETIME *ft)
{
	ft->dwLowDateTime = (DWORD)v;
	ft->dwHighDateTime = (DWORD)(v >> 32);
}

static bool extensions(struct cert *c, struct der *in)
{
	struct der wrap, seq, ext, oid, val, tmp;
	unsigned int n = 0;
	BYTE tag;

	if (!der_expect(in, 0xa3, &wrap, NULL) || !der_expect(&wrap, 0x30, &seq, NULL))
		return false;
	for (tmp = seq; tmp.len; n++)
		if (!der_next(&tmp, &tag, NULL, NULL))
			return false;
	c->info.rgExtension = own(c, n * sizeof(CERT_EXTENSION));
	if (!c->info.rgExtension)
		return false;
	for (unsigned int i = 0; i < n; i++) {
		CERT_EXTENSION *e = &c->info.rgExtension[i];
		struct der crit;
		if (!der_expect(&seq, 0x30, &ext, NULL) || !der_expect(&ext, 0x06, &oid, NULL))
			return false;
		e->pszObjId = own_oid(c, &oid);
		if (!e->pszObjId)
			return false;
		if (der_expect(&ext, 0x01, &crit, NULL))
			e->fCritical = crit.len == 1 && crit.p[0] != 0;
		if (!der_expect(&ext, 0x04, &val, NULL))
			return false;
		e->Value.pbData = (BYTE *)val.p;
		e->Value.cbData = (DWORD)val.len;
	}
	c->info.cExtension = n;
	return true;
}

static bool decode(struct cert *c)
{
	struct der all = { c->ctx.pbCertEncoded, c->ctx.cbCertEncoded }, cert, tbs, v, serial, name, validity, t, spki,
		   key;
	CERT_INFO *info = &c->info;
	uint64_t ft;
	BYTE tag;

	if (!der_expect(&all, 0x30, &cert, NULL) || all.len || !der_expect(&cert, 0x30, &tbs, NULL))
		return false;
	info->dwVersion = CERT_V1;
	if (der_expect(&tbs, 0xa0, &v, NULL)) {
		struct der ver;
		if (!der_expect(&v, 0x02, &ver, NULL) || ver.len != 1 || ver.p[0] > 2)
			return false;
		info->dwVersion = ver.p[0];
	}
	if (!der_expect(&tbs, 0x02, &serial, NULL) || !serial.len)
		return false;
	info->SerialNumber.pbData = own(c, serial.len);
	if (!info->SerialNumber.pbData)
		return false;
	for (size_t i = 0; i < serial.len; i++)
		info->SerialNumber.pbData[i] = serial.p[serial.len - 1 - i];
	info->SerialNumber.cbData = (DWORD)serial.len;
	if (!algorithm(c, &tbs, &info->SignatureAlgorithm))
		return false;
	if (!der_expect(&tbs, 0x30, NULL, &name))
		return false;
	info->Issuer.pbData = (BYTE *)name.p;
	info->Issuer.cbData = (DWORD)name.len;
	if (!der_expect(&tbs, 0x30, &validity, NULL))
		return false;
	if (!der_next(&validity, &tag, &t, NULL) || !der_time(tag, &t, &ft))
		return false;
	filetime(ft, &info->NotBefore);
	if (!der_next(&validity, &tag, &t, NULL) || !der_time(tag, &t, &ft))
		return false;
	filetime(ft, &info->NotAfter);
	if (!der_expect(&tbs, 0x30, NULL, &name))
		return false;
	info->Subject.pbData = (BYTE *)name.p;
	info->Subject.cbData = (DWORD)name.len;
	if (!der_expect(&tbs, 0x30, &spki, NULL) || !algorithm(c, &spki, &info->SubjectPublicKeyInfo.Algorithm) ||
	    !der_expect(&spki, 0x03, &key, NULL) || !key.len)
		return false;
	info->SubjectPublicKeyInfo.PublicKey.cUnusedBits = key.p[0] & 7;
	info->SubjectPublicKeyInfo.PublicKey.pbData = (BYTE *)key.p + 1;
	info->SubjectPublicKeyInfo.PublicKey.cbData = (DWORD)key.len - 1;
	if (der_expect(&tbs, 0x81, &key, NULL) && key.len) {
		info->IssuerUniqueId.cUnusedBits = key.p[0] & 7;
		info->IssuerUniqueId.pbData = (BYTE *)key.p + 1;
		info->IssuerUniqueId.cbData = (DWORD)key.len - 1;
	}
	if (der_expect(&tbs, 0x82, &key, NULL) && key.len) {
		info->SubjectUniqueId.cUnusedBits = key.p[0] & 7;
		info->SubjectUniqueId.pbData = (BYTE *)key.p + 1;
		info->SubjectUniqueId.cbData = (DWORD)key.len - 1;
	}
	if (tbs.len && !extensions(c, &tbs))
		return false;
	return true;
}

struct cert *cert_decode(const BYTE *der, size_t len)
{
	struct cert *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->refs = 1;
	c->ctx.dwCertEncodingType = X509_ASN_ENCODING | PKCS_7_ASN_ENCODING;
	c->ctx.pbCertEncoded = own(c, len);
	if (!c->ctx.pbCertEncoded) {
		cert_free(c);
		return NULL;
	}
	memcpy(c->ctx.pbCertEncoded, der, len);
	c->ctx.cbCertEncoded = (DWORD)len;
	c->ctx.pCertInfo = &c->info;
	if (!decode(c)) {
		cert_free(c);
		return NULL;
	}
	return c;
}

void cert_free(struct cert *c)
{
	for (unsigned int i = 0; i < c->nallocs; i++)
		free(c->allocs[i]);
	free(c->allocs);
	free(c);
}

unsigned int cert_read_pem(const char *text, size_t len, struct cert ***out)
{
	static const char begin[] = "-----BEGIN CERTIFICATE-----", end[] = "-----END CERTIFICATE-----";
	struct cert **list = NULL;
	unsigned int n = 0;
	const char *p = text, *limit = text + len;

	while (p < limit) {
		const char *b = memmem(p, limit - p, begin, sizeof(begin) - 1), *e;
		DWORD size = 0;
		BYTE *der;
		if (!b)
			break;
		e = memmem(b, limit - b, end, sizeof(end) - 1);
		if (!e)
			break;
		p = e + sizeof(end) - 1;
		if (!CryptStringToBinaryA(b, (DWORD)(p - b), CRYPT_STRING_BASE64HEADER, NULL, &size, NULL, NULL) || !size)
			continue;
		der = malloc(size);
		if (!der)
			break;
		if (CryptStringToBinaryA(b, (DWORD)(p - b), CRYPT_STRING_BASE64HEADER, der, &size, NULL, NULL)) {
			struct cert *c = cert_decode(der, size), **nl;
			if (c && (nl = realloc(list, (n + 1) * sizeof(*nl)))) {
				list = nl;
				list[n++] = c;
			} else if (c) {
				cert_free(c);
			}
		}
		free(der);
	}
	*out = list;
	return n;
}

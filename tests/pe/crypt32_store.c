/* crypt32's certificate stores as TLS libraries read them (Rust's
 * schannel and rustls-native-certs crates): the system ROOT store holds
 * the machine's certificate authorities (decoded: DER, times, extended
 * key usage), enumeration hands out and takes back references, and the
 * personal and memory stores are empty here. */
#include <windows.h>
#include <wincrypt.h>

#include "test.h"

static unsigned int count_store(HCERTSTORE s, unsigned int *valid)
{
	PCCERT_CONTEXT c = NULL;
	unsigned int n = 0;

	*valid = 0;
	while ((c = CertEnumCertificatesInStore(s, c))) {
		DWORD size = 0;
		LONG v;
		n++;
		ok(c->cbCertEncoded > 100 && c->pbCertEncoded[0] == 0x30, "certificate %u: DER %lu bytes\n", n,
		   c->cbCertEncoded);
		ok(c->pCertInfo != NULL && c->hCertStore == s, "certificate %u: info, store\n", n);
		v = CertVerifyTimeValidity(NULL, c->pCertInfo);
		ok(v >= -1 && v <= 1, "certificate %u: validity %ld\n", n, v);
		*valid += v == 0;
		ok(CertGetEnhancedKeyUsage(c, 0, NULL, &size) && size >= sizeof(CERT_ENHKEY_USAGE),
		   "certificate %u: key usage size %lu (%lu)\n", n, size, GetLastError());
	}
	ok(GetLastError() == (DWORD)CRYPT_E_NOT_FOUND, "end of enumeration: %#lx\n", GetLastError());
	return n;
}

int main(void)
{
	HCERTSTORE root, root2, my, mem;
	PCCERT_CONTEXT c, dup;
	unsigned int n, n2, valid;
	BOOL bundle = GetFileAttributesW(L"Z:\\etc\\ssl\\certs\\ca-certificates.crt") != INVALID_FILE_ATTRIBUTES;

	root = CertOpenSystemStoreW(0, L"ROOT");
	ok(root != NULL, "ROOT: %lu\n", GetLastError());
	if (!root)
		return test_summary();
	n = count_store(root, &valid);
	if (bundle) {
		ok(n > 0, "no certificate authority in ROOT\n");
		ok(valid > 0, "no certificate authority valid now\n");
	} else {
		printf("crypt32_store: this machine has no /etc/ssl/certs/ca-certificates.crt: ROOT's contents not checked\n");
	}

	root2 = CertOpenStore(CERT_STORE_PROV_SYSTEM_W, 0, 0, CERT_SYSTEM_STORE_CURRENT_USER | CERT_STORE_READONLY_FLAG,
			      L"ROOT");
	ok(root2 != NULL, "CertOpenStore ROOT\n");
	if (root2) {
		n2 = count_store(root2, &valid);
		ok(n2 == n, "two ROOT stores: %u and %u certificates\n", n, n2);
	}

	/* A context outlives the enumeration and its store. */
	c = CertEnumCertificatesInStore(root, NULL);
	if (c) {
		dup = CertDuplicateCertificateContext(c);
		ok(dup == c, "CertDuplicateCertificateContext\n");
		ok(CertFreeCertificateContext(c), "free\n");
		ok(CertCloseStore(root, 0), "CertCloseStore\n");
		root = NULL;
		ok(dup->pbCertEncoded[0] == 0x30 && CertVerifyTimeValidity(NULL, dup->pCertInfo) >= -1,
		   "the context after its store closed\n");
		ok(CertFreeCertificateContext(dup), "free the last reference\n");
	}
	if (root)
		CertCloseStore(root, 0);
	if (root2)
		CertCloseStore(root2, 0);

	my = CertOpenSystemStoreA(0, "MY");
	ok(my != NULL, "MY\n");
	if (my) {
		SetLastError(0);
		ok(CertEnumCertificatesInStore(my, NULL) == NULL, "the personal store is not empty\n");
		CertCloseStore(my, 0);
	}
	mem = CertOpenStore(CERT_STORE_PROV_MEMORY, 0, 0, 0, NULL);
	ok(mem != NULL && CertEnumCertificatesInStore(mem, NULL) == NULL, "memory store\n");
	if (mem)
		CertCloseStore(mem, 0);
	return test_summary();
}

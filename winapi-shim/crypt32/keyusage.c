/* CertGetEnhancedKeyUsage: the purposes a certificate may serve, from
 * its extended key usage extension (2.5.29.37, a sequence of OIDs).
 * There are no context properties here, so the property form adds
 * nothing.  A certificate without the extension may serve every
 * purpose: TRUE with no usages and CRYPT_E_NOT_FOUND as the last error,
 * as documented.  The usages are laid out in the caller's buffer
 * (CERT_ENHKEY_USAGE, the pointers, the strings). */
#include <string.h>

#include "crypt32/cert.h"
#include "crypt32/der.h"

#define EKU_OID "2.5.29.37"

static const CERT_EXTENSION *find_eku(const CERT_INFO *info)
{
	for (DWORD i = 0; i < info->cExtension; i++)
		if (!strcmp(info->rgExtension[i].pszObjId, EKU_OID))
			return &info->rgExtension[i];
	return NULL;
}

BOOL WINAPI CertGetEnhancedKeyUsage(PCCERT_CONTEXT ctx, DWORD flags, PCERT_ENHKEY_USAGE usage, DWORD *size)
{
	const CERT_EXTENSION *ext = NULL;
	struct der seq = { NULL, 0 }, tmp, oid;
	DWORD count = 0, need, strings = 0;
	char buf[256];
	BYTE tag;

	if (!ctx || !size) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!(flags & CERT_FIND_PROP_ONLY_ENHKEY_USAGE_FLAG))
		ext = find_eku(ctx->pCertInfo);
	if (ext) {
		struct der v = { ext->Value.pbData, ext->Value.cbData };
		if (!der_expect(&v, 0x30, &seq, NULL)) {
			SetLastError(CRYPT_E_ASN1_BADTAG);
			return FALSE;
		}
		for (tmp = seq; tmp.len; count++) {
			if (!der_next(&tmp, &tag, &oid, NULL) || tag != 0x06 || !der_oid_string(&oid, buf, sizeof(buf))) {
				SetLastError(CRYPT_E_ASN1_BADTAG);
				return FALSE;
			}
			strings += (DWORD)strlen(buf) + 1;
		}
	}
	need = sizeof(CERT_ENHKEY_USAGE) + count * sizeof(LPSTR) + strings;
	if (!usage) {
		*size = need;
		return TRUE;
	}
	if (*size < need) {
		*size = need;
		SetLastError(ERROR_MORE_DATA);
		return FALSE;
	}
	usage->cUsageIdentifier = count;
	usage->rgpszUsageIdentifier = count ? (LPSTR *)(usage + 1) : NULL;
	char *s = (char *)(usage + 1) + count * sizeof(LPSTR);
	for (DWORD i = 0; i < count; i++) {
		der_next(&seq, &tag, &oid, NULL);
		der_oid_string(&oid, s, strings);
		usage->rgpszUsageIdentifier[i] = s;
		s += strlen(s) + 1;
	}
	*size = need;
	if (!ext)
		SetLastError(CRYPT_E_NOT_FOUND);
	return TRUE;
}

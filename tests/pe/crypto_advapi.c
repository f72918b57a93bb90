/* Random numbers through advapi32, as Rust's and Go's runtimes and C
 * libraries ask for them: RtlGenRandom (exported as SystemFunction036),
 * and a CryptoAPI context acquired only to call CryptGenRandom.  A context
 * that names a key container is refused (none exists); a released or
 * made-up one is an invalid handle.  BCryptGetFipsAlgorithmMode reports
 * FIPS mode off, as on a Windows nobody set it up on. */
#include <windows.h>
#include <wincrypt.h>
#include <bcrypt.h>

#include "test.h"

typedef BOOLEAN(WINAPI *genrandom_fn)(PVOID, ULONG);
typedef NTSTATUS(WINAPI *fips_fn)(BOOLEAN *);

static int differs(const BYTE *a, const BYTE *b, size_t n)
{
	return memcmp(a, b, n) != 0;
}

int main(void)
{
	genrandom_fn gen = (genrandom_fn)(void *)GetProcAddress(LoadLibraryA("advapi32.dll"), "SystemFunction036");
	fips_fn fips = (fips_fn)(void *)GetProcAddress(LoadLibraryA("bcrypt.dll"), "BCryptGetFipsAlgorithmMode");
	BYTE a[64], b[64], zero[64] = { 0 };
	HCRYPTPROV prov = 0, prov2 = 0;
	BOOLEAN on = 7;

	ok(gen != NULL, "advapi32 lacks SystemFunction036\n");
	if (gen) {
		memset(a, 0, sizeof(a));
		memset(b, 0, sizeof(b));
		ok(gen(a, sizeof(a)) && gen(b, sizeof(b)), "RtlGenRandom failed\n");
		ok(differs(a, zero, sizeof(a)) && differs(a, b, sizeof(a)), "RtlGenRandom gave the same bytes twice\n");
		ok(gen(a, 0), "RtlGenRandom of 0 bytes failed\n");
	}

	ok(CryptAcquireContextW(&prov, NULL, NULL, PROV_RSA_FULL, CRYPT_VERIFYCONTEXT), "acquire failed: %#lx\n",
	   GetLastError());
	ok(CryptAcquireContextA(&prov2, NULL, NULL, PROV_RSA_AES, CRYPT_VERIFYCONTEXT | CRYPT_SILENT),
	   "acquire (AES) failed: %#lx\n", GetLastError());
	memset(a, 0, sizeof(a));
	memset(b, 0, sizeof(b));
	ok(CryptGenRandom(prov, sizeof(a), a) && CryptGenRandom(prov2, sizeof(b), b), "CryptGenRandom failed: %#lx\n",
	   GetLastError());
	ok(differs(a, zero, sizeof(a)) && differs(a, b, sizeof(a)), "CryptGenRandom gave the same bytes twice\n");
	ok(CryptReleaseContext(prov, 0) && CryptReleaseContext(prov2, 0), "release failed: %#lx\n", GetLastError());
	SetLastError(0xdeadbeef);
	ok(!CryptGenRandom(prov, sizeof(a), a), "CryptGenRandom on a released context succeeded\n");
	ok(!CryptReleaseContext((HCRYPTPROV)(ULONG_PTR)0x1234560, 0), "releasing a made-up context succeeded\n");
	SetLastError(0xdeadbeef);
	ok(!CryptAcquireContextW(&prov, L"ndshim-no-such-container", NULL, PROV_RSA_FULL, 0) &&
		   GetLastError() == (DWORD)NTE_BAD_KEYSET,
	   "a missing key container: error %#lx\n", GetLastError());

	ok(fips != NULL, "bcrypt lacks BCryptGetFipsAlgorithmMode\n");
	if (fips) {
		ok(fips(&on) == 0 && on == FALSE, "FIPS mode %d\n", on);
		ok(fips(NULL) == (NTSTATUS)0xc000000d, "NULL accepted\n"); /* STATUS_INVALID_PARAMETER */
	}
	return test_summary();
}

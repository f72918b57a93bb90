/* Random numbers for MSVC and Rust runtimes: bcryptprimitives.dll's
 * ProcessPrng (Rust's std since 1.78) and bcrypt.dll's BCryptGenRandom
 * with the system-preferred RNG, the RNG algorithm provider and its
 * pseudo-handle, and the status codes of the documented misuses. */
#include <windows.h>
#include <bcrypt.h>

#include "test.h"

#ifndef BCRYPT_RNG_ALG_HANDLE
#define BCRYPT_RNG_ALG_HANDLE ((BCRYPT_ALG_HANDLE)0x81)
#endif
#define ST_INVALID_HANDLE ((NTSTATUS)0xc0000008)
#define ST_INVALID_PARAMETER ((NTSTATUS)0xc000000d)
#define ST_NOT_FOUND ((NTSTATUS)0xc0000225)

typedef BOOL(WINAPI *prng_fn)(PBYTE, SIZE_T);

/* Random-looking: not all one byte value, and different from another
 * draw (a 2^-256 chance of a false failure). */
static int all_same(const BYTE *b, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (b[i] != b[0])
			return 0;
	return 1;
}

static void test_process_prng(void)
{
	HMODULE mod = LoadLibraryA("bcryptprimitives.dll");
	prng_fn prng;
	BYTE a[32], b[32];
	BYTE *big;

	/* Wine has no bcryptprimitives.dll. */
	ok_todo_wine(mod != NULL, "bcryptprimitives.dll: error %lu\n", GetLastError());
	if (!mod)
		return;
	prng = (prng_fn)(void *)GetProcAddress(mod, "ProcessPrng");
	ok(prng != NULL, "no ProcessPrng\n");
	if (!prng)
		return;
	memset(a, 0, sizeof(a));
	memset(b, 0, sizeof(b));
	ok(prng(a, sizeof(a)) == TRUE, "ProcessPrng failed\n");
	ok(prng(b, sizeof(b)) == TRUE, "ProcessPrng failed\n");
	ok(!all_same(a, sizeof(a)) && memcmp(a, b, sizeof(a)), "not random\n");
	/* Large requests are filled completely (getrandom returns at most
	 * 32 MiB at once). */
	big = VirtualAlloc(NULL, 40 << 20, MEM_COMMIT, PAGE_READWRITE);
	ok(big != NULL, "VirtualAlloc\n");
	if (big) {
		ok(prng(big, 40 << 20) == TRUE, "ProcessPrng 40 MiB failed\n");
		ok(!all_same(big + (40 << 20) - 64, 64), "end of a 40 MiB request not filled\n");
		VirtualFree(big, 0, MEM_RELEASE);
	}
	ok(prng(a, 0) == TRUE, "empty request failed\n");
}

static void test_gen_random(void)
{
	BCRYPT_ALG_HANDLE alg = NULL;
	BYTE a[48], b[48];
	NTSTATUS st;

	memset(a, 0, sizeof(a));
	st = BCryptGenRandom(NULL, a, sizeof(a), BCRYPT_USE_SYSTEM_PREFERRED_RNG);
	ok(st == 0, "system-preferred RNG: %#lx\n", st);
	ok(!all_same(a, sizeof(a)), "not random\n");

	/* Rule: without BCRYPT_USE_SYSTEM_PREFERRED_RNG a handle is needed;
	 * with it, none may be given. */
	st = BCryptGenRandom(NULL, a, sizeof(a), 0);
	ok(st == ST_INVALID_HANDLE, "no handle, no flag: %#lx\n", st);

	st = BCryptOpenAlgorithmProvider(&alg, BCRYPT_RNG_ALGORITHM, NULL, 0);
	ok(st == 0 && alg, "open RNG: %#lx\n", st);
	memset(b, 0, sizeof(b));
	st = BCryptGenRandom(alg, b, sizeof(b), 0);
	ok(st == 0, "RNG handle: %#lx\n", st);
	ok(!all_same(b, sizeof(b)) && memcmp(a, b, sizeof(a)), "not random\n");
	/* Wine ignores the handle when the flag is given. */
	st = BCryptGenRandom(alg, a, sizeof(a), BCRYPT_USE_SYSTEM_PREFERRED_RNG);
	ok_todo_wine(st == ST_INVALID_PARAMETER, "handle and flag: %#lx\n", st);
	st = BCryptGenRandom(alg, NULL, 0, 0);
	ok(st == ST_INVALID_PARAMETER, "no buffer: %#lx\n", st);
	st = BCryptCloseAlgorithmProvider(alg, 0);
	ok(st == 0, "close: %#lx\n", st);

	st = BCryptOpenAlgorithmProvider(&alg, MS_PRIMITIVE_PROVIDER, NULL, 0);
	/* Wine answers STATUS_NOT_IMPLEMENTED for algorithms it lacks. */
	ok_todo_wine(st == ST_NOT_FOUND, "a provider name as algorithm: %#lx\n", st);
	st = BCryptOpenAlgorithmProvider(&alg, BCRYPT_RNG_ALGORITHM, MS_PRIMITIVE_PROVIDER, 0);
	ok(st == 0, "RNG from the primitive provider: %#lx\n", st);
	if (!st)
		BCryptCloseAlgorithmProvider(alg, 0);

	/* Windows 10's pseudo-handle needs no opening. */
	st = BCryptGenRandom(BCRYPT_RNG_ALG_HANDLE, a, sizeof(a), 0);
	ok(st == 0, "BCRYPT_RNG_ALG_HANDLE: %#lx\n", st);
}

int main(void)
{
	test_process_prng();
	test_gen_random();
	return test_summary();
}

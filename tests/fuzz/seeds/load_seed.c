/* A seed for tests/fuzz/load_fuzz.c: small, and using every part of the
 * load the fuzzer damages -- imports from two DLLs (by name, and the C
 * runtime's data), base relocations (pointers in data), a TLS callback
 * and TLS data, and an entry point that does a little work and ends. */
#include <stdio.h>
#include <string.h>
#include <windows.h>

static __thread int tls_counter = 5;
static volatile LONG callbacks;
static const char *const words[] = { "alpha", "beta", "gamma" }; /* relocated pointers */

static void NTAPI seed_tls_callback(PVOID module, DWORD reason, PVOID reserved)
{
	(void)module;
	(void)reserved;
	if (reason == DLL_PROCESS_ATTACH || reason == DLL_THREAD_ATTACH)
		InterlockedIncrement(&callbacks);
}

/* mingw's CRT walks .CRT$XL? as the TLS callback array. */
__attribute__((section(".CRT$XLB"), used)) PIMAGE_TLS_CALLBACK seed_tls_entry = seed_tls_callback;

int main(int argc, char **argv)
{
	char buf[64];
	size_t total = 0;

	for (int i = 0; i < 3; i++)
		total += strlen(words[i]);
	snprintf(buf, sizeof(buf), "%d %zu %ld %lu", argc, total, (long)callbacks, GetCurrentProcessId() ? 1ul : 0ul);
	tls_counter += (int)strlen(buf);
	printf("%s %d %s\n", buf, tls_counter, argv[0] ? "named" : "?");
	return 0;
}

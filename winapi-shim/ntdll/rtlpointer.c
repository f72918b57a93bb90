/* Pointer encoding (RtlEncodePointer and friends; kernel32's
 * EncodePointer forwards here, as on Windows).  Runtimes store function
 * pointers encoded so that an overwrite cannot plant a usable address:
 * the pointer is XORed with a secret cookie and rotated right by the
 * cookie's low six bits.  Process pointers use a per-process cookie,
 * "system" pointers the per-boot one of KUSER_SHARED_DATA. */
#include <errno.h>
#include <pthread.h>

#include "ntdll/ntdll_private.h"
#include "core/random.h"
#include "ntdll/usershared.h"

static uint64_t process_cookie;
static pthread_once_t process_once = PTHREAD_ONCE_INIT;

static void make_process_cookie(void)
{
	random_fill(&process_cookie, sizeof(process_cookie));
}

static uint64_t rotr(uint64_t v, unsigned int n)
{
	n &= 63;
	return n ? (v >> n) | (v << (64 - n)) : v;
}

static uint64_t rotl(uint64_t v, unsigned int n)
{
	n &= 63;
	return n ? (v << n) | (v >> (64 - n)) : v;
}

static uint64_t cookie_of_process(void)
{
	pthread_once(&process_once, make_process_cookie);
	return process_cookie;
}

PVOID WINAPI RtlEncodePointer(PVOID ptr)
{
	uint64_t c = cookie_of_process();

	return (PVOID)(uintptr_t)rotr((uintptr_t)ptr ^ c, (unsigned int)c);
}

PVOID WINAPI RtlDecodePointer(PVOID ptr)
{
	uint64_t c = cookie_of_process();

	return (PVOID)(uintptr_t)(rotl((uintptr_t)ptr, (unsigned int)c) ^ c);
}

PVOID WINAPI RtlEncodeSystemPointer(PVOID ptr)
{
	uint64_t c = user_shared_cookie();

	return (PVOID)(uintptr_t)rotr((uintptr_t)ptr ^ c, (unsigned int)c);
}

PVOID WINAPI RtlDecodeSystemPointer(PVOID ptr)
{
	uint64_t c = user_shared_cookie();

	return (PVOID)(uintptr_t)(rotl((uintptr_t)ptr, (unsigned int)c) ^ c);
}

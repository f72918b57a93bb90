/* ntdll's RtlIpv4StringToAddressA/W (MS-MPI parses MPICH_NETMASK with it):
 * strict dotted decimal, the inet_addr forms when not strict (fewer
 * parts, octal, hex), where the terminator points, and what fails. */
#include <winsock2.h>
#include <windows.h>

#include "test.h"

typedef LONG(WINAPI *ipv4w_fn)(const WCHAR *, BOOLEAN, const WCHAR **, IN_ADDR *);
typedef LONG(WINAPI *ipv4a_fn)(const char *, BOOLEAN, const char **, IN_ADDR *);
static ipv4w_fn to_addr_w;
static ipv4a_fn to_addr_a;

static void check_a(const char *s, BOOLEAN strict, LONG want, ULONG addr, int used)
{
	const char *term = NULL;
	IN_ADDR a;
	LONG st;

	a.S_un.S_addr = 0xdeadbeef;
	st = to_addr_a(s, strict, &term, &a);
	ok(st == want, "%s (strict %d): status %#lx, not %#lx\n", s, strict, st, want);
	if (!want) {
		ok(a.S_un.S_addr == __builtin_bswap32(addr), "%s: address %#lx, not %#lx\n", s, (unsigned long)__builtin_bswap32(a.S_un.S_addr), addr);
		ok(term == s + used, "%s: terminator at %d, not %d\n", s, (int)(term - s), used);
	}
}

int main(void)
{
	HMODULE ntdll = GetModuleHandleA("ntdll.dll");
	const WCHAR *wterm;
	IN_ADDR a;

	to_addr_w = (ipv4w_fn)(void *)GetProcAddress(ntdll, "RtlIpv4StringToAddressW");
	to_addr_a = (ipv4a_fn)(void *)GetProcAddress(ntdll, "RtlIpv4StringToAddressA");
	ok(to_addr_w && to_addr_a, "not exported\n");
	if (!to_addr_w || !to_addr_a)
		return test_summary();
	check_a("192.168.0.1", TRUE, 0, 0xc0a80001, 11);
	check_a("10.0.0.255/24", TRUE, 0, 0x0a0000ff, 10);
	check_a("10.1", FALSE, 0, 0x0a000001, 4);
	check_a("0x7f000001", FALSE, 0, 0x7f000001, 10);
	check_a("010.0.0.1", FALSE, 0, 0x08000001, 9);
	check_a("10.1", TRUE, (LONG)0xC000000D, 0, 0);
	check_a("256.1.1.1", TRUE, (LONG)0xC000000D, 0, 0);
	check_a("abc", FALSE, (LONG)0xC000000D, 0, 0);
	check_a("", TRUE, (LONG)0xC000000D, 0, 0);
	ok(to_addr_w(L"198.18.0.2 rest", TRUE, &wterm, &a) == 0 && a.S_un.S_addr == __builtin_bswap32(0xc6120002),
	   "W: %#lx\n", (unsigned long)__builtin_bswap32(a.S_un.S_addr));
	ok(!lstrcmpW(wterm, L" rest"), "W terminator at %ls\n", wterm);
	return test_summary();
}

/* rpcrt4's string bindings and binding handles for local RPC (ncalrpc):
 * RpcStringBindingCompose/Parse (A and W) with and without each part,
 * RpcBindingFromStringBinding / ToStringBinding round trips,
 * RpcBindingSetAuthInfo for NTLM at packet privacy (what MS-MPI's ranks
 * ask for), RpcBindingFree and its misuse. */
#include <windows.h>
#include <rpc.h>

#include "test.h"

static void test_compose_parse(void)
{
	RPC_WSTR s = NULL, obj, prot, addr, ep, opt;
	RPC_CSTR a = NULL, aprot, aep;

	ok(RpcStringBindingComposeW(NULL, (RPC_WSTR)L"ncalrpc", NULL, (RPC_WSTR)L"msmpi-ep", NULL, &s) == RPC_S_OK,
	   "compose\n");
	ok(s && !lstrcmpW((WCHAR *)s, L"ncalrpc:[msmpi-ep]"), "got %ls\n", s ? (WCHAR *)s : L"");
	RpcStringFreeW(&s);
	ok(RpcStringBindingComposeW((RPC_WSTR)L"4fd29f8a-d2e2-485e-9eb9-ad66107a5d06", (RPC_WSTR)L"ncacn_ip_tcp",
				    (RPC_WSTR)L"host1", (RPC_WSTR)L"8080", (RPC_WSTR)L"Security=x", &s) == RPC_S_OK,
	   "compose all parts\n");
	ok(s && !lstrcmpW((WCHAR *)s, L"4fd29f8a-d2e2-485e-9eb9-ad66107a5d06@ncacn_ip_tcp:host1[8080,Security=x]"),
	   "got %ls\n", s ? (WCHAR *)s : L"");
	ok(RpcStringBindingParseW(s, &obj, &prot, &addr, &ep, &opt) == RPC_S_OK, "parse\n");
	ok(!lstrcmpW((WCHAR *)obj, L"4fd29f8a-d2e2-485e-9eb9-ad66107a5d06") && !lstrcmpW((WCHAR *)prot, L"ncacn_ip_tcp") &&
		   !lstrcmpW((WCHAR *)addr, L"host1") && !lstrcmpW((WCHAR *)ep, L"8080") &&
		   !lstrcmpW((WCHAR *)opt, L"Security=x"),
	   "parsed %ls %ls %ls %ls %ls\n", (WCHAR *)obj, (WCHAR *)prot, (WCHAR *)addr, (WCHAR *)ep, (WCHAR *)opt);
	RpcStringFreeW(&obj);
	RpcStringFreeW(&prot);
	RpcStringFreeW(&addr);
	RpcStringFreeW(&ep);
	RpcStringFreeW(&opt);
	RpcStringFreeW(&s);
	/* Missing parts come back as empty strings; NULL outputs are skipped. */
	ok(RpcStringBindingParseW((RPC_WSTR)L"ncalrpc:[ep1]", &obj, &prot, &addr, NULL, NULL) == RPC_S_OK, "parse\n");
	/* A missing part: an empty string (Wine gives NULL for some). */
	ok((!obj || !*obj) && prot && !lstrcmpW((WCHAR *)prot, L"ncalrpc") && (!addr || !*addr), "missing parts\n");
	RpcStringFreeW(&obj);
	RpcStringFreeW(&prot);
	RpcStringFreeW(&addr);
	ok(RpcStringBindingComposeA(NULL, (RPC_CSTR) "ncalrpc", NULL, (RPC_CSTR) "ep2", NULL, &a) == RPC_S_OK &&
		   a && !strcmp((char *)a, "ncalrpc:[ep2]"),
	   "compose A: %s\n", a ? (char *)a : "");
	ok(RpcStringBindingParseA(a, NULL, &aprot, NULL, &aep, NULL) == RPC_S_OK && !strcmp((char *)aprot, "ncalrpc") &&
		   !strcmp((char *)aep, "ep2"),
	   "parse A\n");
	RpcStringFreeA(&aprot);
	RpcStringFreeA(&aep);
	RpcStringFreeA(&a);
}

static void test_handles(void)
{
	RPC_BINDING_HANDLE h = NULL, h2;
	RPC_WSTR s = NULL;
	RPC_STATUS st;

	st = RpcBindingFromStringBindingW((RPC_WSTR)L"ncalrpc:[ndshim-test]", &h);
	ok(st == RPC_S_OK && h, "RpcBindingFromStringBindingW: %ld\n", st);
	ok(RpcBindingToStringBindingW(h, &s) == RPC_S_OK && s && !lstrcmpW((WCHAR *)s, L"ncalrpc:[ndshim-test]"),
	   "back to a string: %ls\n", s ? (WCHAR *)s : L"");
	RpcStringFreeW(&s);
	st = RpcBindingSetAuthInfoW(h, NULL, RPC_C_AUTHN_LEVEL_PKT_PRIVACY, RPC_C_AUTHN_WINNT, NULL, RPC_C_AUTHZ_NONE);
	/* Wine has no NTLM without winbind: RPC_S_UNKNOWN_AUTHN_SERVICE. */
	ok_todo_wine(st == RPC_S_OK, "NTLM at packet privacy: %ld\n", st);
	st = RpcBindingSetAuthInfoA(h, NULL, RPC_C_AUTHN_LEVEL_PKT_PRIVACY, RPC_C_AUTHN_WINNT, NULL, RPC_C_AUTHZ_NONE);
	ok_todo_wine(st == RPC_S_OK, "A: %ld\n", st);
	st = RpcBindingSetAuthInfoExW(h, NULL, RPC_C_AUTHN_LEVEL_PKT_PRIVACY, RPC_C_AUTHN_WINNT, NULL, RPC_C_AUTHZ_NONE,
				      NULL);
	ok_todo_wine(st == RPC_S_OK, "Ex: %ld\n", st);
	st = RpcBindingSetAuthInfoW(h, NULL, RPC_C_AUTHN_LEVEL_PKT_PRIVACY, 0x7777, NULL, RPC_C_AUTHZ_NONE);
	ok(st == RPC_S_UNKNOWN_AUTHN_SERVICE, "an unknown service: %ld\n", st);
	ok(RpcBindingFree(&h) == RPC_S_OK && !h, "RpcBindingFree\n");
	ok(RpcBindingFromStringBindingA((RPC_CSTR) "ncalrpc:[ep]", &h2) == RPC_S_OK, "A\n");
	ok(RpcBindingFree(&h2) == RPC_S_OK, "RpcBindingFree\n");
	h = NULL;
	ok(RpcBindingFree(&h) == RPC_S_INVALID_BINDING, "freeing NULL\n");
	st = RpcBindingFromStringBindingW((RPC_WSTR)L"not a binding", &h);
	/* Wine makes a binding of it. */
	ok_todo_wine(st == RPC_S_INVALID_STRING_BINDING, "a malformed binding: %ld\n", st);
	if (st == RPC_S_OK)
		RpcBindingFree(&h);
	st = RpcBindingFromStringBindingW((RPC_WSTR)L"zz-12@ncalrpc:[ep]", &h);
	ok(st == RPC_S_INVALID_STRING_UUID, "a malformed object UUID: %ld\n", st);
}

int main(void)
{
	test_compose_parse();
	test_handles();
	return test_summary();
}

/* rpcrt4's server side under ndrun, which runs no MS-RPC server: each
 * function fails with the status Windows documents for what is not
 * available (ndrun only: on Windows and Wine these succeed).  Also
 * I_RpcExceptionFilter, which RpcExcept blocks call on every runner. */
#include <windows.h>
#include <rpc.h>
#include <rpcasync.h>

#include "test.h"

#ifndef STATUS_POSSIBLE_DEADLOCK
#define STATUS_POSSIBLE_DEADLOCK 0xC0000194
#endif

static RPC_SERVER_INTERFACE iface = {
	sizeof(RPC_SERVER_INTERFACE),
	{ { 0x9b1af77c, 0x4719, 0x48f2, { 0xab, 0xb7, 0xb5, 0xcd, 0x2f, 0x69, 0xd1, 0x6c } }, { 1, 0 } },
	{ { 0x8a885d04, 0x1ceb, 0x11c9, { 0x9f, 0xe8, 0x08, 0x00, 0x2b, 0x10, 0x48, 0x60 } }, { 2, 0 } },
	0, 0, 0, 0, 0, 0
};

static void test_filter(void)
{
	ok(I_RpcExceptionFilter(RPC_S_SERVER_UNAVAILABLE) == EXCEPTION_EXECUTE_HANDLER, "RPC status not handled\n");
	ok(I_RpcExceptionFilter(RPC_S_UNKNOWN_IF) == EXCEPTION_EXECUTE_HANDLER, "RPC status not handled\n");
	ok(I_RpcExceptionFilter(STATUS_ACCESS_VIOLATION) == EXCEPTION_CONTINUE_SEARCH, "access violation handled\n");
	ok(I_RpcExceptionFilter(STATUS_BREAKPOINT) == EXCEPTION_CONTINUE_SEARCH, "breakpoint handled\n");
	ok(I_RpcExceptionFilter(STATUS_STACK_OVERFLOW) == EXCEPTION_CONTINUE_SEARCH, "stack overflow handled\n");
	ok(I_RpcExceptionFilter(STATUS_POSSIBLE_DEADLOCK) == EXCEPTION_CONTINUE_SEARCH, "deadlock handled\n");
}

static void test_server(void)
{
	RPC_BINDING_VECTOR *v = (void *)1;
	void *ctx = (void *)1;
	LUID luid = { 0, 0 };

	if (test_on_wine())
		return; /* Wine serves RPC: the refusals are ndrun's */
	ok(RpcServerUseProtseqEpW((RPC_WSTR)L"ncalrpc", 10, (RPC_WSTR)L"ep", NULL) == RPC_S_PROTSEQ_NOT_SUPPORTED,
	   "RpcServerUseProtseqEpW\n");
	ok(RpcServerUseProtseqEpA((RPC_CSTR) "ncalrpc", 10, (RPC_CSTR) "ep", NULL) == RPC_S_PROTSEQ_NOT_SUPPORTED,
	   "RpcServerUseProtseqEpA\n");
	ok(RpcServerUseProtseqW((RPC_WSTR)L"ncalrpc", 10, NULL) == RPC_S_PROTSEQ_NOT_SUPPORTED, "RpcServerUseProtseqW\n");
	ok(RpcServerUseProtseqA((RPC_CSTR) "ncalrpc", 10, NULL) == RPC_S_PROTSEQ_NOT_SUPPORTED, "RpcServerUseProtseqA\n");
	ok(RpcServerRegisterIfEx(&iface, NULL, NULL, 0, 10, NULL) == RPC_S_NO_PROTSEQS, "RpcServerRegisterIfEx\n");
	ok(RpcServerUnregisterIf(&iface, NULL, 0) == RPC_S_UNKNOWN_IF, "RpcServerUnregisterIf\n");
	ok(RpcServerInqBindings(&v) == RPC_S_NO_BINDINGS && v == NULL, "RpcServerInqBindings\n");
	ok(RpcServerRegisterAuthInfoW(NULL, RPC_C_AUTHN_WINNT, NULL, NULL) == RPC_S_UNKNOWN_AUTHN_SERVICE,
	   "RpcServerRegisterAuthInfoW\n");
	ok(RpcServerRegisterAuthInfoA(NULL, RPC_C_AUTHN_WINNT, NULL, NULL) == RPC_S_UNKNOWN_AUTHN_SERVICE,
	   "RpcServerRegisterAuthInfoA\n");
	ok(RpcServerTestCancel(NULL) == RPC_S_NO_CALL_ACTIVE, "RpcServerTestCancel\n");
	ok(RpcGetAuthorizationContextForClient(NULL, FALSE, NULL, NULL, luid, 0, NULL, &ctx) == RPC_S_NO_CALL_ACTIVE &&
		   ctx == NULL,
	   "RpcGetAuthorizationContextForClient\n");
	ctx = NULL;
	ok(RpcFreeAuthorizationContext(&ctx) == RPC_S_OK, "freeing no context\n");
	v = NULL;
	ok(RpcBindingVectorFree(&v) == RPC_S_INVALID_ARG, "freeing no vector\n");
}

int main(void)
{
	test_filter();
	test_server();
	return test_summary();
}

/* The server side of MS-RPC, which ndrun does not provide: registering
 * protocol sequences, interfaces and authentication fails with the codes
 * Windows documents for what is not available, so a program that would
 * serve RPC (MS-MPI's smpd, MPI_Comm_accept's DynProc listener) gets an
 * error it reports.  Also the exception filter and context-handle
 * helpers clients use. */
#include <stdlib.h>

#define WIN32_NO_STATUS
#include "rpcrt4/rpcrt4_private.h"
#include <winternl.h>
#undef WIN32_NO_STATUS
#include <ntstatus.h>

#include "core/debug.h"

static RPC_STATUS no_protseq(const char *fn)
{
	TRACE(rpc, "%s: ndrun serves no RPC protocol sequence\n", fn);
	return RPC_S_PROTSEQ_NOT_SUPPORTED;
}

RPC_STATUS WINAPI RpcServerUseProtseqW(RPC_WSTR protseq, unsigned int max_calls, void *sd)
{
	return no_protseq(__func__);
}

RPC_STATUS WINAPI RpcServerUseProtseqA(RPC_CSTR protseq, unsigned int max_calls, void *sd)
{
	return no_protseq(__func__);
}

RPC_STATUS WINAPI RpcServerUseProtseqEpW(RPC_WSTR protseq, unsigned int max_calls, RPC_WSTR endpoint, void *sd)
{
	return no_protseq(__func__);
}

RPC_STATUS WINAPI RpcServerUseProtseqEpA(RPC_CSTR protseq, unsigned int max_calls, RPC_CSTR endpoint, void *sd)
{
	return no_protseq(__func__);
}

/* With no protocol sequence in use there is nothing to listen on. */
RPC_STATUS WINAPI RpcServerRegisterIfEx(RPC_IF_HANDLE spec, UUID *mgr_type, RPC_MGR_EPV *epv, unsigned int flags,
					unsigned int max_calls, RPC_IF_CALLBACK_FN *callback)
{
	TRACE(rpc, "no RPC server: interface not registered\n");
	return RPC_S_NO_PROTSEQS;
}

RPC_STATUS WINAPI RpcServerUnregisterIf(RPC_IF_HANDLE spec, UUID *mgr_type, unsigned int wait)
{
	return RPC_S_UNKNOWN_IF;
}

RPC_STATUS WINAPI RpcServerInqBindings(RPC_BINDING_VECTOR **vector)
{
	if (vector)
		*vector = NULL;
	return RPC_S_NO_BINDINGS;
}

RPC_STATUS WINAPI RpcServerRegisterAuthInfoW(RPC_WSTR principal, ULONG svc, RPC_AUTH_KEY_RETRIEVAL_FN fn, void *arg)
{
	return RPC_S_UNKNOWN_AUTHN_SERVICE;
}

RPC_STATUS WINAPI RpcServerRegisterAuthInfoA(RPC_CSTR principal, ULONG svc, RPC_AUTH_KEY_RETRIEVAL_FN fn, void *arg)
{
	return RPC_S_UNKNOWN_AUTHN_SERVICE;
}

/* Both are only meaningful inside a server call, which never happens. */
RPC_STATUS WINAPI RpcServerTestCancel(RPC_BINDING_HANDLE binding)
{
	return RPC_S_NO_CALL_ACTIVE;
}

RPC_STATUS WINAPI RpcGetAuthorizationContextForClient(RPC_BINDING_HANDLE binding, BOOL impersonate, LPVOID reserved1,
						      PLARGE_INTEGER expiration, LUID reserved2, DWORD reserved3,
						      PVOID reserved4, PVOID *context)
{
	if (context)
		*context = NULL;
	return RPC_S_NO_CALL_ACTIVE;
}

RPC_STATUS WINAPI RpcFreeAuthorizationContext(PVOID *context)
{
	/* None is ever handed out. */
	if (!context || *context)
		return RPC_S_INVALID_ARG;
	return RPC_S_OK;
}

/* Which exceptions an RpcExcept block may swallow: not the ones that mean
 * the process itself is broken (rpcdce.h's list for I_RpcExceptionFilter). */
int WINAPI I_RpcExceptionFilter(ULONG code)
{
	switch (code) {
	case STATUS_ACCESS_VIOLATION:
	case STATUS_POSSIBLE_DEADLOCK:
	case STATUS_INSTRUCTION_MISALIGNMENT:
	case STATUS_DATATYPE_MISALIGNMENT:
	case STATUS_PRIVILEGED_INSTRUCTION:
	case STATUS_ILLEGAL_INSTRUCTION:
	case STATUS_BREAKPOINT:
	case STATUS_STACK_OVERFLOW:
	case STATUS_HANDLE_NOT_CLOSABLE:
	case STATUS_IN_PAGE_ERROR:
	case STATUS_ASSERTION_FAILURE:
	case STATUS_STACK_BUFFER_OVERRUN:
	case STATUS_GUARD_PAGE_VIOLATION:
	case STATUS_REG_NAT_CONSUMPTION:
		return EXCEPTION_CONTINUE_SEARCH;
	default:
		return EXCEPTION_EXECUTE_HANDLER;
	}
}

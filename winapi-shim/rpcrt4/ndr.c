/* The client calls of MIDL/widl stubs, both families:
 *   NdrClientCall2 / NdrAsyncClientCall (-Oif stubs: widl's, MIDL's /Oicf)
 *   NdrClientCall3 / Ndr64AsyncClientCall (MIDL's x64 default, NDR64)
 * Nothing is marshalled: the procedure number comes from the format
 * string (or the caller), the interface from the stub descriptor, and the
 * interface's in-process server reads the arguments where the stub put
 * them.  A call that cannot be made fails as on Windows, by raising its
 * RPC status as an exception in the caller. */
#include <string.h>

#include "core/debug.h"
#include "core/wstr.h"
#include "ntdll/seh.h"
#include "rpcrt4/rpcrt4_private.h"
#include "rpcrt4/rpc_async.h"

/* The -Oi/-Oif procedure header (MS-RPCE: "Oi header"): handle type,
 * Oi flags, [4-byte RPC flags if Oi_HAS_RPCFLAGS], procedure number,
 * stack size; for an explicit handle, its descriptor follows. */
#define OI_HAS_RPCFLAGS 0x08
#define FC_BIND_CONTEXT 0x30
#define FC_BIND_PRIMITIVE 0x32

struct oi_proc {
	unsigned int proc;
	int binding_offset; /* stack offset of a primitive binding handle, or -1 */
};

static void parse_oi(PFORMAT_STRING f, struct oi_proc *p)
{
	unsigned char handle_type = f[0], flags = f[1];
	const unsigned char *q = f + 2 + ((flags & OI_HAS_RPCFLAGS) ? 4 : 0);

	p->proc = q[0] | q[1] << 8;
	q += 4; /* procedure number, stack size */
	p->binding_offset = -1;
	if (handle_type == 0 && q[0] == FC_BIND_PRIMITIVE)
		p->binding_offset = q[2] | q[3] << 8;
}

/* Runs the call; RPC_S_OK or the status the call fails with. */
static RPC_STATUS dispatch(const MIDL_STUB_DESC *stub, unsigned int proc, int binding_offset,
			   const ULONG_PTR *args, ULONG_PTR *retval)
{
	const RPC_CLIENT_INTERFACE *cif;
	const struct rpc_server_if *srv;
	struct rpc_call call = { proc, args, stub, 0 };
	RPC_STATUS st;

	if (!stub || !(cif = stub->RpcInterfaceInformation))
		return RPC_S_INTERFACE_NOT_FOUND;
	if (!(srv = rpc_find_server(&cif->InterfaceId)))
		return RPC_S_UNKNOWN_IF;
	if (binding_offset >= 0) {
		struct rpc_binding *b = rpc_binding_from_handle((void *)args[binding_offset / 8]);

		if (!b)
			return RPC_S_INVALID_BINDING;
		/* The binding must name the endpoint this server is on. */
		if (wstr_cmp(b->endpoint, srv->endpoint))
			return RPC_S_SERVER_UNAVAILABLE;
	}
	st = srv->call(&call);
	TRACE(rpc, "interface %08x proc %u -> %lu\n", (unsigned)cif->InterfaceId.SyntaxGUID.Data1, proc,
	      (unsigned long)st);
	*retval = call.retval;
	return st;
}

CLIENT_CALL_RETURN WINAPIV NdrClientCall2(PMIDL_STUB_DESC stub, PFORMAT_STRING fmt, ...)
{
	CLIENT_CALL_RETURN r = { 0 };
	struct oi_proc p;
	__ms_va_list ap;
	RPC_STATUS st;

	__ms_va_start(ap, fmt);
	parse_oi(fmt, &p);
	st = dispatch(stub, p.proc, p.binding_offset, (const ULONG_PTR *)ap, (ULONG_PTR *)&r.Simple);
	__ms_va_end(ap);
	if (st != RPC_S_OK)
		SEH_RAISE_ON_RETURN(st);
	return r;
}

CLIENT_CALL_RETURN WINAPIV NdrClientCall3(MIDL_STUBLESS_PROXY_INFO *info, ULONG proc, void *retval, ...)
{
	CLIENT_CALL_RETURN r = { 0 };
	__ms_va_list ap;
	RPC_STATUS st;

	/* NDR64 format strings carry the binding in the procedure's own
	 * header; the servers here check their handles themselves. */
	__ms_va_start(ap, retval);
	st = dispatch(info ? info->pStubDesc : NULL, proc, -1, (const ULONG_PTR *)ap, (ULONG_PTR *)&r.Simple);
	__ms_va_end(ap);
	if (st != RPC_S_OK)
		SEH_RAISE_ON_RETURN(st);
	return r;
}

/* An asynchronous call runs to its end here and is completed at once
 * through the caller's notification (rpc_async_complete); the caller
 * collects the outcome with RpcAsyncCompleteCall. */
static RPC_STATUS async_call(const MIDL_STUB_DESC *stub, unsigned int proc, int binding_offset,
			     RPC_ASYNC_STATE *async, const ULONG_PTR *args)
{
	ULONG_PTR retval = 0;
	RPC_STATUS st;

	if (!async || async->Signature != RPC_ASYNC_SIGNATURE || async->RuntimeInfo)
		return RPC_S_INVALID_ASYNC_HANDLE;
	st = rpc_async_start(async);
	if (st != RPC_S_OK)
		return st;
	st = dispatch(stub, proc, binding_offset, args, &retval);
	if (st == RPC_S_UNKNOWN_IF || st == RPC_S_INVALID_BINDING || st == RPC_S_INTERFACE_NOT_FOUND) {
		/* Never sent: the call fails now, as an exception. */
		rpc_async_abandon(async);
		return st;
	}
	rpc_async_complete(async, st, retval);
	return RPC_S_OK;
}

CLIENT_CALL_RETURN WINAPIV NdrAsyncClientCall(PMIDL_STUB_DESC stub, PFORMAT_STRING fmt, ...)
{
	CLIENT_CALL_RETURN r = { 0 };
	RPC_ASYNC_STATE *async;
	struct oi_proc p;
	__ms_va_list ap;
	RPC_STATUS st;

	/* The asynchronous handle comes first; the procedure's own
	 * arguments follow it, laid out as for a synchronous call. */
	__ms_va_start(ap, fmt);
	async = __builtin_va_arg(ap, RPC_ASYNC_STATE *);
	parse_oi(fmt, &p);
	st = async_call(stub, p.proc, p.binding_offset, async, (const ULONG_PTR *)ap);
	__ms_va_end(ap);
	if (st != RPC_S_OK)
		SEH_RAISE_ON_RETURN(st);
	return r;
}

CLIENT_CALL_RETURN WINAPIV Ndr64AsyncClientCall(MIDL_STUBLESS_PROXY_INFO *info, ULONG proc, void *retval, ...)
{
	CLIENT_CALL_RETURN r = { 0 };
	RPC_ASYNC_STATE *async;
	__ms_va_list ap;
	RPC_STATUS st;

	__ms_va_start(ap, retval);
	async = __builtin_va_arg(ap, RPC_ASYNC_STATE *);
	st = async_call(info ? info->pStubDesc : NULL, proc, -1, async, (const ULONG_PTR *)ap);
	__ms_va_end(ap);
	if (st != RPC_S_OK)
		SEH_RAISE_ON_RETURN(st);
	return r;
}

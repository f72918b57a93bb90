/* rpcrt4.dll: the client side of MS-RPC as in-process calls.
 *
 * There is no RPC wire protocol here.  A binding names a protocol
 * sequence and an endpoint; the only ones served are ncalrpc endpoints
 * that ndrun itself implements, listed in an interface table keyed by
 * interface UUID and version (iftable.c).  A client stub's call
 * (NdrClientCall2 & co.) finds the interface of its stub descriptor and
 * the procedure number in its format string, and the interface's server,
 * Linux-native code, gets the caller's arguments as the stub passed them.
 * The first entry is MS-MPI's SmpdMgrRpc (smpdmgr.c), which speaks PMI to
 * the process manager that started the rank.  Server-side functions
 * refuse with the documented error codes: ndrun runs no RPC server. */
#ifndef NDSHIM_RPCRT4_PRIVATE_H
#define NDSHIM_RPCRT4_PRIVATE_H

#include <stdint.h>

#include <windef.h>
#include <winbase.h>
#include <rpc.h>
#include <rpcndr.h>
#include <rpcasync.h>

/* A binding handle (RPC_BINDING_HANDLE points at one). */
struct rpc_binding {
	uint32_t magic;
	WCHAR *obj_uuid, *protseq, *network_addr, *endpoint, *options;
	ULONG authn_level, authn_svc;
};
#define RPC_BINDING_MAGIC 0x52504342u /* "RPCB" */

/* The binding behind a handle, or NULL when it is not one. */
struct rpc_binding *rpc_binding_from_handle(RPC_BINDING_HANDLE h);

/* One call of a procedure: what the server needs and gives back. */
struct rpc_call {
	unsigned int proc;
	/* The arguments in the order the stub passed them, one 8-byte slot
	 * each (the x64 calling convention's home area and stack). */
	const ULONG_PTR *args;
	const MIDL_STUB_DESC *stub; /* its allocator frees [out] memory */
	ULONG_PTR retval;	    /* the procedure's return value */
};

/* A server inside ndrun for one interface. */
struct rpc_server_if {
	RPC_SYNTAX_IDENTIFIER id; /* interface UUID and version */
	const WCHAR *endpoint;	  /* the ncalrpc endpoint it is served on */
	/* Runs the call; RPC_S_OK or the status the client call fails
	 * with (raised as an exception, as a failed call is on Windows). */
	RPC_STATUS (*call)(struct rpc_call *call);
};

/* A context handle's client side (the server hands out a pointer to
 * one); RpcSsDestroyClientContext destroys it without a call. */
struct rpc_context {
	uint32_t magic;
	void (*destroy)(struct rpc_context *c);
};
#define RPC_CONTEXT_MAGIC 0x52504358u /* "RPCX" */

/* The server of interface id, or NULL (RPC_S_UNKNOWN_IF). */
const struct rpc_server_if *rpc_find_server(const RPC_SYNTAX_IDENTIFIER *id);
/* Whether an ncalrpc endpoint is one of ndrun's. */
BOOL rpc_endpoint_served(const WCHAR *endpoint);

/* SmpdMgrRpc v1.0 (smpdmgr.c). */
extern const struct rpc_server_if rpc_smpdmgr_server;

/* Strings: RpcString* frees what these return (malloc). */
WCHAR *rpc_wstrdup(const WCHAR *s);
WCHAR *rpc_wstr_from_a(const unsigned char *s);
unsigned char *rpc_astr_from_w(const WCHAR *s);

/* RPC_ASYNC_STATE.Signature of an initialised handle ("ASYC"). */
#define RPC_ASYNC_SIGNATURE 0x43595341u

/* The declarations the Wine headers leave out. */
RPC_STATUS WINAPI RpcServerTestCancel(RPC_BINDING_HANDLE binding);

#endif

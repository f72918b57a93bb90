/* Binding handles.  Only ncalrpc (local RPC) bindings can be made: both
 * ends are the same user on the same host, so authentication at any
 * level is accepted without anything to check. */
#include <stdlib.h>
#include <string.h>

#include "core/wstr.h"
#include "rpcrt4/rpcrt4_private.h"

struct rpc_binding *rpc_binding_from_handle(RPC_BINDING_HANDLE h)
{
	struct rpc_binding *b = h;

	return b && b->magic == RPC_BINDING_MAGIC ? b : NULL;
}

static void binding_free(struct rpc_binding *b)
{
	b->magic = 0;
	free(b->obj_uuid);
	free(b->protseq);
	free(b->network_addr);
	free(b->endpoint);
	free(b->options);
	free(b);
}

RPC_STATUS WINAPI RpcBindingFromStringBindingW(RPC_WSTR string, RPC_BINDING_HANDLE *binding)
{
	struct rpc_binding *b;
	UUID obj;
	RPC_STATUS st;

	if (!binding)
		return RPC_S_INVALID_ARG;
	*binding = NULL;
	if (!(b = calloc(1, sizeof(*b))))
		return RPC_S_OUT_OF_MEMORY;
	st = RpcStringBindingParseW(string, &b->obj_uuid, &b->protseq, &b->network_addr, &b->endpoint, &b->options);
	if (st != RPC_S_OK) {
		free(b);
		return st;
	}
	b->magic = RPC_BINDING_MAGIC;
	if (*b->obj_uuid && UuidFromStringW(b->obj_uuid, &obj) != RPC_S_OK)
		st = RPC_S_INVALID_STRING_UUID;
	else if (wstr_cmp(b->protseq, u"ncalrpc"))
		/* ncacn_ip_tcp, ncacn_np &c. would need a real RPC transport. */
		st = RPC_S_PROTSEQ_NOT_SUPPORTED;
	if (st != RPC_S_OK) {
		binding_free(b);
		return st;
	}
	b->authn_level = RPC_C_AUTHN_LEVEL_NONE;
	b->authn_svc = RPC_C_AUTHN_NONE;
	*binding = b;
	return RPC_S_OK;
}

RPC_STATUS WINAPI RpcBindingFromStringBindingA(RPC_CSTR string, RPC_BINDING_HANDLE *binding)
{
	WCHAR *w;
	RPC_STATUS st;

	if (!string)
		return RPC_S_INVALID_STRING_BINDING;
	if (!(w = rpc_wstr_from_a(string)))
		return RPC_S_OUT_OF_MEMORY;
	st = RpcBindingFromStringBindingW(w, binding);
	free(w);
	return st;
}

RPC_STATUS WINAPI RpcBindingToStringBindingW(RPC_BINDING_HANDLE h, RPC_WSTR *string)
{
	struct rpc_binding *b = rpc_binding_from_handle(h);

	if (!b)
		return RPC_S_INVALID_BINDING;
	return RpcStringBindingComposeW(b->obj_uuid, b->protseq, b->network_addr, b->endpoint, b->options, string);
}

RPC_STATUS WINAPI RpcBindingToStringBindingA(RPC_BINDING_HANDLE h, RPC_CSTR *string)
{
	WCHAR *w;
	RPC_STATUS st = RpcBindingToStringBindingW(h, &w);

	if (st != RPC_S_OK)
		return st;
	if (!(*string = rpc_astr_from_w(w)))
		st = RPC_S_OUT_OF_MEMORY;
	free(w);
	return st;
}

RPC_STATUS WINAPI RpcBindingFree(RPC_BINDING_HANDLE *binding)
{
	struct rpc_binding *b;

	if (!binding || !(b = rpc_binding_from_handle(*binding)))
		return RPC_S_INVALID_BINDING;
	binding_free(b);
	*binding = NULL;
	return RPC_S_OK;
}

RPC_STATUS WINAPI RpcBindingVectorFree(RPC_BINDING_VECTOR **vector)
{
	if (!vector || !*vector)
		return RPC_S_INVALID_ARG;
	for (ULONG i = 0; i < (*vector)->Count; i++)
		if ((*vector)->BindingH[i])
			RpcBindingFree(&(*vector)->BindingH[i]);
	free(*vector);
	*vector = NULL;
	return RPC_S_OK;
}

RPC_STATUS WINAPI RpcBindingSetAuthInfoExW(RPC_BINDING_HANDLE h, RPC_WSTR principal, ULONG level, ULONG svc,
					   RPC_AUTH_IDENTITY_HANDLE identity, ULONG authz,
					   RPC_SECURITY_QOS *qos);
RPC_STATUS WINAPI RpcBindingSetAuthInfoExW(RPC_BINDING_HANDLE h, RPC_WSTR principal, ULONG level, ULONG svc,
					   RPC_AUTH_IDENTITY_HANDLE identity, ULONG authz, RPC_SECURITY_QOS *qos)
{
	struct rpc_binding *b = rpc_binding_from_handle(h);

	if (!b)
		return RPC_S_INVALID_BINDING;
	if (level > RPC_C_AUTHN_LEVEL_PKT_PRIVACY)
		return RPC_S_INVALID_AUTH_IDENTITY;
	switch (svc) {
	case RPC_C_AUTHN_NONE:
	case RPC_C_AUTHN_WINNT:
	case RPC_C_AUTHN_GSS_NEGOTIATE:
	case RPC_C_AUTHN_GSS_KERBEROS:
	case RPC_C_AUTHN_DEFAULT:
		break;
	default:
		return RPC_S_UNKNOWN_AUTHN_SERVICE;
	}
	b->authn_level = level == RPC_C_AUTHN_LEVEL_DEFAULT ? RPC_C_AUTHN_LEVEL_PKT_PRIVACY : level;
	b->authn_svc = svc == RPC_C_AUTHN_DEFAULT ? RPC_C_AUTHN_WINNT : svc;
	return RPC_S_OK;
}

RPC_STATUS WINAPI RpcBindingSetAuthInfoW(RPC_BINDING_HANDLE h, RPC_WSTR principal, ULONG level, ULONG svc,
					 RPC_AUTH_IDENTITY_HANDLE identity, ULONG authz)
{
	return RpcBindingSetAuthInfoExW(h, principal, level, svc, identity, authz, NULL);
}

RPC_STATUS WINAPI RpcBindingSetAuthInfoA(RPC_BINDING_HANDLE h, RPC_CSTR principal, ULONG level, ULONG svc,
					 RPC_AUTH_IDENTITY_HANDLE identity, ULONG authz)
{
	/* The principal name means nothing to a local binding. */
	return RpcBindingSetAuthInfoExW(h, NULL, level, svc, identity, authz, NULL);
}

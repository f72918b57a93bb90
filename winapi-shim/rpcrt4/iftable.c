/* The interfaces ndrun serves, keyed by interface UUID and version: a
 * client binds to one of their ncalrpc endpoints and its stub's calls
 * come here.  The major version must match, the minor be at least the
 * client's (MS-RPC's rule). */
#include <string.h>

#include "core/wstr.h"
#include "rpcrt4/rpcrt4_private.h"

static const struct rpc_server_if *const servers[] = {
	&rpc_smpdmgr_server,
};

const struct rpc_server_if *rpc_find_server(const RPC_SYNTAX_IDENTIFIER *id)
{
	for (size_t i = 0; i < sizeof(servers) / sizeof(servers[0]); i++) {
		const RPC_SYNTAX_IDENTIFIER *s = &servers[i]->id;

		if (!memcmp(&s->SyntaxGUID, &id->SyntaxGUID, sizeof(GUID)) &&
		    s->SyntaxVersion.MajorVersion == id->SyntaxVersion.MajorVersion &&
		    s->SyntaxVersion.MinorVersion >= id->SyntaxVersion.MinorVersion)
			return servers[i];
	}
	return NULL;
}

BOOL rpc_endpoint_served(const WCHAR *endpoint)
{
	for (size_t i = 0; i < sizeof(servers) / sizeof(servers[0]); i++)
		if (!wstr_cmp(servers[i]->endpoint, endpoint))
			return TRUE;
	return FALSE;
}

void WINAPI RpcSsDestroyClientContext(void **handle)
{
	struct rpc_context *c;

	if (!handle || !(c = *handle) || c->magic != RPC_CONTEXT_MAGIC)
		return;
	c->magic = 0;
	c->destroy(c);
	*handle = NULL;
}

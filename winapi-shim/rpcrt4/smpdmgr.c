/* SmpdMgrRpc v1.0, the interface through which an MS-MPI rank talks to
 * its smpd (MS-MPI's pmilib/SmpdRpc.idl, public): served here on the
 * Linux process manager's PMI connection (pmi_env.h).
 *
 *   INIT             the PMI handshake was made at start-up: success
 *   BARRIER          PMI fence (PMI-1 barrier_in, PMI-2 kvs-fence)
 *   DBPUT / DBGET    PMI put / get of "db-<key>"
 *   BCPUT / BCGET    PMI put / get of "bc-<rank>" (business cards)
 *   FINALIZE         noted; MS-MPI's PMI_Finalize still fences after it
 *   ABORT_JOB        PMI abort with the rank's exit code and message
 *   DeleteSmpdMgrContext  PMI finalize
 *
 * The command and result structures are laid out as MIDL lays out the
 * IDL's (checked below); each result's header carries a Win32 error. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/debug.h"
#include "core/errors.h"
#include "rpcrt4/pmi_env.h"
#include "rpcrt4/rpcrt4_private.h"

enum smpd_cmd {
	SMPD_ABORT_JOB = 1,
	SMPD_BARRIER = 2,
	SMPD_BCGET = 7,
	SMPD_BCPUT = 8,
	SMPD_DBGET = 9,
	SMPD_DBPUT = 10,
	SMPD_FINALIZE = 13,
	SMPD_INIT = 14,
};

struct smpd_cmd_hdr {
	int cmd_type;
	INT16 src, dest;
	UINT16 ctx_key;
};
struct smpd_res_hdr {
	INT16 src, dest;
	DWORD err;
};
struct smpd_kvs_cmd { /* BARRIER, INIT, FINALIZE: the header and the KVS */
	struct smpd_cmd_hdr hdr;
	GUID kvs;
};
struct smpd_db_cmd { /* DBGET, DBPUT */
	struct smpd_cmd_hdr hdr;
	GUID kvs;
	char key[32];
	char value[512];
};
struct smpd_bc_cmd { /* BCGET, BCPUT */
	struct smpd_cmd_hdr hdr;
	GUID kvs;
	UINT16 rank, nprocs;
	char value[512];
};
struct smpd_abort_job_cmd {
	struct smpd_cmd_hdr hdr;
	GUID kvs;
	UINT16 rank;
	INT32 exit_code;
	BOOL intern;
	WCHAR *error_msg;
};
struct smpd_value_res { /* DBGET, BCGET */
	struct smpd_res_hdr hdr;
	char value[512];
};
_Static_assert(sizeof(struct smpd_cmd_hdr) == 12, "SmpdCmdHdr");
_Static_assert(offsetof(struct smpd_db_cmd, key) == 28, "SmpdDbputCmd.key");
_Static_assert(offsetof(struct smpd_bc_cmd, value) == 32, "SmpdBcputCmd.value");
_Static_assert(offsetof(struct smpd_abort_job_cmd, exit_code) == 32, "SmpdAbortJobCmd.exit_code");
_Static_assert(offsetof(struct smpd_abort_job_cmd, error_msg) == 40, "SmpdAbortJobCmd.error_msg");
_Static_assert(sizeof(struct smpd_value_res) == 520, "SmpdDbgetRes");

/* The context handle CreateSmpdMgrContext hands the client. */
struct smpd_context {
	struct rpc_context base;
	BOOL finalizing;
};

static DWORD pmi_error(void)
{
	return errno == ENOENT ? ERROR_NOT_FOUND : win32_error_from_errno(errno);
}

static DWORD command(struct smpd_context *ctx, int type, void *cmd, void *res)
{
	struct pmi *p = pmi_env_client();
	char key[48];

	switch (type) {
	case SMPD_INIT:
		return NOERROR;
	case SMPD_BARRIER:
		return pmi_fence(p) ? pmi_error() : NOERROR;
	case SMPD_DBPUT: {
		struct smpd_db_cmd *c = cmd;

		snprintf(key, sizeof(key), "db-%.32s", c->key);
		return pmi_put(p, key, c->value) ? pmi_error() : NOERROR;
	}
	case SMPD_DBGET: {
		struct smpd_db_cmd *c = cmd;

		snprintf(key, sizeof(key), "db-%.32s", c->key);
		return pmi_get(p, key, ((struct smpd_value_res *)res)->value, 512) ? pmi_error() : NOERROR;
	}
	case SMPD_BCPUT: {
		struct smpd_bc_cmd *c = cmd;

		snprintf(key, sizeof(key), "bc-%u", c->rank);
		return pmi_put(p, key, c->value) ? pmi_error() : NOERROR;
	}
	case SMPD_BCGET: {
		struct smpd_bc_cmd *c = cmd;

		snprintf(key, sizeof(key), "bc-%u", c->rank);
		return pmi_get(p, key, ((struct smpd_value_res *)res)->value, 512) ? pmi_error() : NOERROR;
	}
	case SMPD_FINALIZE:
		ctx->finalizing = TRUE;
		return NOERROR;
	case SMPD_ABORT_JOB: {
		struct smpd_abort_job_cmd *c = cmd;
		int code = c->exit_code;
		char msg[512];

		WideCharToMultiByte(CP_UTF8, 0, c->error_msg ? c->error_msg : u"", -1, msg, sizeof(msg), NULL,
				    NULL);
		/* MS-MPI leaves the message to its mpiexec to print; the Linux
		 * process manager does not know it.  An internal error comes
		 * with exit code 0, which would report the job a success. */
		fprintf(stderr, "ndrun: rank %u aborted the job (exit code %d)%s%s\n", c->rank, code, *msg ? ": " : "",
			msg);
		fflush(stderr);
		if (c->intern && !code)
			code = 1;
		return pmi_abort(p, code, msg) ? pmi_error() : NOERROR;
	}
	default:
		/* The commands smpd trees and mpiexec exchange. */
		TRACE(rpc, "SmpdMgrRpc: command %d is not one a rank sends\n", type);
		return ERROR_NOT_SUPPORTED;
	}
}

static void context_destroy(struct rpc_context *c)
{
	free(c);
}

static struct smpd_context *context_of(void *h)
{
	struct rpc_context *c = h;

	return c && c->magic == RPC_CONTEXT_MAGIC && c->destroy == context_destroy ? (struct smpd_context *)c
										    : NULL;
}

static RPC_STATUS smpdmgr_call(struct rpc_call *call)
{
	const ULONG_PTR *a = call->args;
	struct smpd_context *ctx;

	if (!pmi_env_client())
		return RPC_S_SERVER_UNAVAILABLE;
	switch (call->proc) {
	case 0: /* CreateSmpdMgrContext(binding, version, host, data, len, *context) */
		if (!(ctx = calloc(1, sizeof(*ctx))))
			return RPC_S_OUT_OF_MEMORY;
		ctx->base.magic = RPC_CONTEXT_MAGIC;
		ctx->base.destroy = context_destroy;
		pmi_env_claim();
		*(void **)a[5] = ctx;
		call->retval = NOERROR;
		return RPC_S_OK;
	case 1: /* SmpdMgrCommandAsync(context, type, cmd, res) */
	case 2: /* SmpdMgrCommandSync(context, type, cmd, res) */ {
		struct smpd_res_hdr *res = (void *)a[3];
		int type = (int)a[1];

		if (!(ctx = context_of((void *)a[0])))
			return RPC_X_SS_CONTEXT_MISMATCH;
		res->err = command(ctx, type, (void *)a[2], res);
		TRACE(rpc, "SmpdMgrRpc command %d: error %u\n", type, (unsigned)res->err);
		return RPC_S_OK;
	}
	case 3: /* DeleteSmpdMgrContext(*context) */ {
		void **h = (void **)a[0];

		if (!h || !(ctx = context_of(*h)))
			return RPC_X_SS_CONTEXT_MISMATCH;
		call->retval = pmi_finalize(pmi_env_client()) ? pmi_error() : NOERROR;
		context_destroy(&ctx->base);
		*h = NULL;
		return RPC_S_OK;
	}
	default:
		return RPC_S_PROCNUM_OUT_OF_RANGE;
	}
}

const struct rpc_server_if rpc_smpdmgr_server = {
	{ { 0x4fd29f8a, 0xd2e2, 0x485e, { 0x9e, 0xb9, 0xad, 0x66, 0x10, 0x7a, 0x5d, 0x06 } }, { 1, 0 } },
	PMI_ENV_ENDPOINT,
	smpdmgr_call,
};

/* Asynchronous RPC handles: RpcAsyncInitializeHandle, RpcAsyncCompleteCall,
 * RpcAsyncCancelCall, and how a finished call is announced. */
#include <stdlib.h>
#include <string.h>

#include "core/debug.h"
#include "rpcrt4/rpc_async.h"

struct async_call {
	BOOL done;
	RPC_STATUS status;
	ULONG_PTR retval;
};

RPC_STATUS WINAPI RpcAsyncInitializeHandle(PRPC_ASYNC_STATE async, unsigned int size)
{
	/* Smaller than this runtime's structure: RPC_S_INVALID_ARG, as
	 * documented ("the size is either too small or too large"). */
	if (!async)
		return RPC_S_INVALID_ASYNC_HANDLE;
	if (size < sizeof(RPC_ASYNC_STATE))
		return RPC_S_INVALID_ARG;
	async->Size = sizeof(RPC_ASYNC_STATE);
	async->Signature = RPC_ASYNC_SIGNATURE;
	async->Lock = 0;
	async->Flags = 0;
	async->StubInfo = NULL;
	async->RuntimeInfo = NULL;
	async->Event = RpcCallComplete;
	return RPC_S_OK;
}

RPC_STATUS rpc_async_start(RPC_ASYNC_STATE *async)
{
	struct async_call *c;

	switch (async->NotificationType) {
	case RpcNotificationTypeNone:
	case RpcNotificationTypeEvent:
	case RpcNotificationTypeIoc:
		break;
	default:
		/* APCs, window messages and callbacks are not delivered. */
		TRACE(rpc, "asynchronous notification type %d not supported\n", (int)async->NotificationType);
		return RPC_S_CANNOT_SUPPORT;
	}
	if (!(c = calloc(1, sizeof(*c))))
		return RPC_S_OUT_OF_MEMORY;
	async->RuntimeInfo = c;
	return RPC_S_OK;
}

void rpc_async_abandon(RPC_ASYNC_STATE *async)
{
	free(async->RuntimeInfo);
	async->RuntimeInfo = NULL;
}

void rpc_async_complete(RPC_ASYNC_STATE *async, RPC_STATUS status, ULONG_PTR retval)
{
	struct async_call *c = async->RuntimeInfo;

	c->status = status;
	c->retval = retval;
	c->done = TRUE;
	async->Event = RpcCallComplete;
	switch (async->NotificationType) {
	case RpcNotificationTypeEvent:
		SetEvent(async->u.hEvent);
		break;
	case RpcNotificationTypeIoc:
		PostQueuedCompletionStatus(async->u.IOC.hIOPort, async->u.IOC.dwNumberOfBytesTransferred,
					   async->u.IOC.dwCompletionKey, async->u.IOC.lpOverlapped);
		break;
	default:
		break;
	}
}

/* The caller collects a finished call: its status, and the procedure's
 * return value into reply when it has one. */
RPC_STATUS WINAPI RpcAsyncCompleteCall(PRPC_ASYNC_STATE async, void *reply)
{
	struct async_call *c;
	RPC_STATUS st;

	if (!async || async->Signature != RPC_ASYNC_SIGNATURE || !(c = async->RuntimeInfo))
		return RPC_S_INVALID_ASYNC_HANDLE;
	if (!c->done)
		return RPC_S_ASYNC_CALL_PENDING;
	st = c->status;
	if (reply && st == RPC_S_OK)
		memcpy(reply, &c->retval, sizeof(c->retval));
	free(c);
	async->RuntimeInfo = NULL;
	return st;
}

/* Every call here has finished before its client call returns: there is
 * nothing left to cancel, and the call completes with its own outcome. */
RPC_STATUS WINAPI RpcAsyncCancelCall(PRPC_ASYNC_STATE async, BOOL abort)
{
	if (!async || async->Signature != RPC_ASYNC_SIGNATURE || !async->RuntimeInfo)
		return RPC_S_INVALID_ASYNC_HANDLE;
	return RPC_S_OK;
}

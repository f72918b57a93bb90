/* The state of an asynchronous call (RPC_ASYNC_STATE.RuntimeInfo). */
#ifndef NDSHIM_RPC_ASYNC_H
#define NDSHIM_RPC_ASYNC_H

#include "rpcrt4/rpcrt4_private.h"

/* A call begins on a handle RpcAsyncInitializeHandle prepared. */
RPC_STATUS rpc_async_start(RPC_ASYNC_STATE *async);
/* It was never made: the handle is free again. */
void rpc_async_abandon(RPC_ASYNC_STATE *async);
/* It ended with status (and the procedure's return value): records them
 * and notifies the caller as RPC_ASYNC_STATE asks (completion port,
 * event, or nothing). */
void rpc_async_complete(RPC_ASYNC_STATE *async, RPC_STATUS status, ULONG_PTR retval);

#endif

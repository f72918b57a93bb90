/* rpcrt4's asynchronous call handles outside a call: RpcAsyncInitializeHandle
 * (the size it needs, the fields it sets), and RpcAsyncCompleteCall and
 * RpcAsyncCancelCall on a handle no call was made with.  Calls on them are
 * in tests/msmpi/progs/rpc_ndr.c, against ndrun's SmpdMgrRpc server. */
#include <windows.h>
#include <rpc.h>
#include <rpcasync.h>

#include "test.h"

int main(void)
{
	RPC_ASYNC_STATE a;
	RPC_STATUS st;

	memset(&a, 0xcc, sizeof(a));
	st = RpcAsyncInitializeHandle(&a, sizeof(a) - 1);
	ok(st == RPC_S_INVALID_ARG, "a short handle: %ld\n", st);
	st = RpcAsyncInitializeHandle(&a, sizeof(a));
	ok(st == RPC_S_OK, "RpcAsyncInitializeHandle: %ld\n", st);
	ok(a.Size == sizeof(a), "Size %u\n", a.Size);
	ok(a.Signature == 0x43595341, "Signature %#lx\n", a.Signature);
	ok(a.Lock == 0 && a.Flags == 0, "Lock %ld Flags %#lx\n", a.Lock, a.Flags);
	ok(a.StubInfo == NULL && a.RuntimeInfo == NULL, "StubInfo %p RuntimeInfo %p\n", a.StubInfo, a.RuntimeInfo);
	/* Wine dereferences the call state a handle without a call lacks. */
	if (test_on_wine())
		return test_summary();
	st = RpcAsyncCompleteCall(&a, NULL);
	ok(st == RPC_S_INVALID_ASYNC_HANDLE, "completing a handle without a call: %ld\n", st);
	st = RpcAsyncCancelCall(&a, TRUE);
	ok(st == RPC_S_INVALID_ASYNC_HANDLE, "cancelling a handle without a call: %ld\n", st);
	return test_summary();
}

/* NDSHIM_DEBUG=+nd for the COM methods: each interface's vtable is swapped
 * for one of ndrun's tracing thunks (NdshimTraceVtbl) the first time an
 * object of it is made, when the channel is on.  Off, objects get the
 * static vtable and calls cost nothing more; to_xxx() checks accept both.
 * Method names in vtable order, as include/ndspi.h declares them. */
#include "nd2prov.h"

#define NAMES(...) ((const char *const[]){ __VA_ARGS__ })
#define COUNT(...) (sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(const char *))
#define IFACE(id, name, ...) [id] = { name, NAMES(__VA_ARGS__), COUNT(__VA_ARGS__) }
#define UNKNOWN "QueryInterface", "AddRef", "Release"
#define OVERLAPPED_M UNKNOWN, "CancelOverlappedRequests", "GetOverlappedResult"

static const struct {
	const char *name;
	const char *const *methods;
	ULONG count;
} ifaces[ND_IFACE_COUNT] = {
	IFACE(ND_IFACE_PROVIDER, "IND2Provider", UNKNOWN, "QueryAddressList", "ResolveAddress", "OpenAdapter"),
	IFACE(ND_IFACE_ADAPTER, "IND2Adapter", UNKNOWN, "CreateOverlappedFile", "Query", "QueryAddressList",
	      "CreateCompletionQueue", "CreateMemoryRegion", "CreateMemoryWindow", "CreateSharedReceiveQueue",
	      "CreateQueuePair", "CreateQueuePairWithSrq", "CreateConnector", "CreateListener"),
	IFACE(ND_IFACE_CQ, "IND2CompletionQueue", OVERLAPPED_M, "GetNotifyAffinity", "Resize", "Notify", "GetResults"),
	IFACE(ND_IFACE_SRQ, "IND2SharedReceiveQueue", OVERLAPPED_M, "GetNotifyAffinity", "Modify", "Notify", "Receive"),
	IFACE(ND_IFACE_MR, "IND2MemoryRegion", OVERLAPPED_M, "Register", "Deregister", "GetLocalToken", "GetRemoteToken"),
	IFACE(ND_IFACE_MW, "IND2MemoryWindow", UNKNOWN, "GetRemoteToken"),
	IFACE(ND_IFACE_QP, "IND2QueuePair", UNKNOWN, "Flush", "Send", "Receive", "Bind", "Invalidate", "Read", "Write"),
	IFACE(ND_IFACE_CONNECTOR, "IND2Connector", OVERLAPPED_M, "Bind", "Connect", "CompleteConnect", "Accept", "Reject",
	      "GetReadLimits", "GetPrivateData", "GetLocalAddress", "GetPeerAddress", "NotifyDisconnect", "Disconnect"),
	IFACE(ND_IFACE_LISTENER, "IND2Listener", OVERLAPPED_M, "Bind", "Listen", "GetLocalAddress",
	      "GetConnectionRequest"),
};

/* Published once per interface; NULL until then or when tracing is off. */
static void *volatile traced[ND_IFACE_COUNT];
static volatile LONG state[ND_IFACE_COUNT]; /* 0 unknown, 1 traced, 2 plain */

const void *nd_vtbl(enum nd_iface id, const void *vtbl, size_t size)
{
	void **copy;
	HRESULT hr;

	if (state[id] == 2)
		return vtbl;
	if (state[id] == 1)
		return traced[id];
	if (size != ifaces[id].count * sizeof(void *))
		return vtbl; /* a names table out of step with the vtable: stay quiet */
	copy = nd_alloc(size);
	if (!copy)
		return vtbl;
	hr = NdshimTraceVtbl(ifaces[id].name, ifaces[id].methods, ifaces[id].count, (const void *const *)vtbl, copy);
	if (hr != S_OK) {
		nd_free(copy);
		InterlockedCompareExchange(&state[id], 2, 0);
		return vtbl;
	}
	/* Two first objects on two threads: one copy wins, the thunks are
	 * ndrun's and the same for both. */
	if (InterlockedCompareExchangePointer((void *volatile *)&traced[id], copy, NULL) != NULL)
		nd_free(copy);
	InterlockedExchange(&state[id], 1);
	return traced[id];
}

BOOL nd_vtbl_is(enum nd_iface id, const void *lpVtbl, const void *vtbl)
{
	return lpVtbl && (lpVtbl == vtbl || lpVtbl == traced[id]);
}

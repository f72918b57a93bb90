/* The ND2 ABI facts (docs/nd2/ABI-facts.md) as checks, compiled by both
 * the host compiler (tests/unit/test_nd2_abi.c) and mingw-w64
 * (tests/pe/nd2_abi.c).  The includer defines
 *     static void report(const char *what, long long got, long long want);
 * and calls nd2_abi_check(), which returns the number of mismatches. */
#include <stddef.h>

#include "ndspi.h"

#define CHECK(what, got, want) \
	do { \
		long long g_ = (long long)(got), w_ = (long long)(want); \
		if (g_ != w_) { report(what, g_, w_); bad++; } \
		checked++; \
	} while (0)
#define CHECK_OFF(type, field, off) CHECK(#type "." #field " offset", offsetof(type, field), off)
#define CHECK_SIZE(type, size) CHECK("sizeof(" #type ")", sizeof(type), size)
/* The vtable slot of each method, counted in pointers. */
#define CHECK_SLOT(iface, method, slot) \
	CHECK(#iface "::" #method " vtable slot", offsetof(iface##Vtbl, method) / sizeof(void *), slot)
#define CHECK_GUID(iid, d1, d2, d3) \
	CHECK(#iid, (iid).Data1 == (d1) && (iid).Data2 == (d2) && (iid).Data3 == (d3), 1)

static int nd2_abi_checked;

static int nd2_abi_check(void)
{
	int bad = 0, checked = 0;

	CHECK_SIZE(ND2_ADAPTER_INFO, 96);
	CHECK_OFF(ND2_ADAPTER_INFO, InfoVersion, 0);
	CHECK_OFF(ND2_ADAPTER_INFO, VendorId, 4);
	CHECK_OFF(ND2_ADAPTER_INFO, DeviceId, 6);
	CHECK_OFF(ND2_ADAPTER_INFO, AdapterId, 8);
	CHECK_OFF(ND2_ADAPTER_INFO, MaxRegistrationSize, 16);
	CHECK_OFF(ND2_ADAPTER_INFO, MaxWindowSize, 24);
	CHECK_OFF(ND2_ADAPTER_INFO, MaxInitiatorSge, 32);
	CHECK_OFF(ND2_ADAPTER_INFO, MaxReceiveSge, 36);
	CHECK_OFF(ND2_ADAPTER_INFO, MaxReadSge, 40);
	CHECK_OFF(ND2_ADAPTER_INFO, MaxTransferLength, 44);
	CHECK_OFF(ND2_ADAPTER_INFO, MaxInlineDataSize, 48);
	CHECK_OFF(ND2_ADAPTER_INFO, MaxInboundReadLimit, 52);
	CHECK_OFF(ND2_ADAPTER_INFO, MaxOutboundReadLimit, 56);
	CHECK_OFF(ND2_ADAPTER_INFO, MaxReceiveQueueDepth, 60);
	CHECK_OFF(ND2_ADAPTER_INFO, MaxInitiatorQueueDepth, 64);
	CHECK_OFF(ND2_ADAPTER_INFO, MaxSharedReceiveQueueDepth, 68);
	CHECK_OFF(ND2_ADAPTER_INFO, MaxCompletionQueueDepth, 72);
	CHECK_OFF(ND2_ADAPTER_INFO, InlineRequestThreshold, 76);
	CHECK_OFF(ND2_ADAPTER_INFO, LargeRequestThreshold, 80);
	CHECK_OFF(ND2_ADAPTER_INFO, MaxCallerData, 84);
	CHECK_OFF(ND2_ADAPTER_INFO, MaxCalleeData, 88);
	CHECK_OFF(ND2_ADAPTER_INFO, AdapterFlags, 92);
	CHECK_SIZE(ND2_RESULT, 32);
	CHECK_OFF(ND2_RESULT, Status, 0);
	CHECK_OFF(ND2_RESULT, BytesTransferred, 4);
	CHECK_OFF(ND2_RESULT, QueuePairContext, 8);
	CHECK_OFF(ND2_RESULT, RequestContext, 16);
	CHECK_OFF(ND2_RESULT, RequestType, 24);
	CHECK_SIZE(ND2_SGE, 16);
	CHECK_OFF(ND2_SGE, Buffer, 0);
	CHECK_OFF(ND2_SGE, BufferLength, 8);
	CHECK_OFF(ND2_SGE, MemoryRegionToken, 12);
	CHECK_SIZE(OVERLAPPED, 32);
	CHECK_OFF(OVERLAPPED, Internal, 0);
	CHECK_OFF(OVERLAPPED, InternalHigh, 8);
	CHECK_OFF(OVERLAPPED, hEvent, 24);

	CHECK("ND_VERSION_2", ND_VERSION_2, 0x20000);
	CHECK("ND_MR_FLAG_ALLOW_REMOTE_WRITE", ND_MR_FLAG_ALLOW_REMOTE_WRITE, 5);
	CHECK("ND_OP_FLAG_INLINE", ND_OP_FLAG_INLINE, 0x20);
	CHECK("ND_CQ_NOTIFY_SOLICITED", ND_CQ_NOTIFY_SOLICITED, 2);
	CHECK("ND_ADAPTER_FLAG_LOOPBACK_CONNECTIONS_SUPPORTED", ND_ADAPTER_FLAG_LOOPBACK_CONNECTIONS_SUPPORTED, 0x10000);
	CHECK("PFL_NETWORKDIRECT_PROVIDER", PFL_NETWORKDIRECT_PROVIDER, 0x10);
	CHECK("Nd2RequestTypeWrite", Nd2RequestTypeWrite, 5);
	CHECK("ND_PENDING", (unsigned)ND_PENDING, 0x103);
	CHECK("ND_TIMEOUT", (unsigned)ND_TIMEOUT, 0x102);
	CHECK("ND_BUFFER_OVERFLOW", (unsigned)ND_BUFFER_OVERFLOW, 0x80000005u);
	CHECK("ND_CANCELED", (unsigned)ND_CANCELED, 0xc0000120u);
	CHECK("ND_INVALID_PARAMETER_10", (unsigned)ND_INVALID_PARAMETER_10, 0xc00000f8u);
	CHECK("ND_CONNECTION_REFUSED", (unsigned)ND_CONNECTION_REFUSED, 0xc0000236u);
	CHECK("ND_DEVICE_REMOVED", (unsigned)ND_DEVICE_REMOVED, 0xc00002b6u);
	CHECK("ND2 status travels as a 32-bit HRESULT", sizeof(HRESULT), 4);

	CHECK_GUID(IID_IND2Provider, 0x49EAE6C1, 0x76C4, 0x46D0);
	CHECK_GUID(IID_IND2Adapter, 0xD89C798C, 0x4823, 0x4D69);
	CHECK_GUID(IID_IND2MemoryWindow, 0x070FE1F5, 0x0AB5, 0x4361);
	CHECK("IID_IND2Provider tail", IID_IND2Provider.Data4[0] == 0x80 && IID_IND2Provider.Data4[7] == 0x8E, 1);
	CHECK("IID_IND2Connector tail", IID_IND2Connector.Data4[1] == 0x0C && IID_IND2Connector.Data4[7] == 0x02, 1);

	CHECK_SLOT(IND2Overlapped, QueryInterface, 0);
	CHECK_SLOT(IND2Overlapped, AddRef, 1);
	CHECK_SLOT(IND2Overlapped, Release, 2);
	CHECK_SLOT(IND2Overlapped, CancelOverlappedRequests, 3);
	CHECK_SLOT(IND2Overlapped, GetOverlappedResult, 4);
	CHECK_SLOT(IND2CompletionQueue, QueryInterface, 0);
	CHECK_SLOT(IND2CompletionQueue, AddRef, 1);
	CHECK_SLOT(IND2CompletionQueue, Release, 2);
	CHECK_SLOT(IND2CompletionQueue, CancelOverlappedRequests, 3);
	CHECK_SLOT(IND2CompletionQueue, GetOverlappedResult, 4);
	CHECK_SLOT(IND2CompletionQueue, GetNotifyAffinity, 5);
	CHECK_SLOT(IND2CompletionQueue, Resize, 6);
	CHECK_SLOT(IND2CompletionQueue, Notify, 7);
	CHECK_SLOT(IND2CompletionQueue, GetResults, 8);
	CHECK_SLOT(IND2SharedReceiveQueue, QueryInterface, 0);
	CHECK_SLOT(IND2SharedReceiveQueue, AddRef, 1);
	CHECK_SLOT(IND2SharedReceiveQueue, Release, 2);
	CHECK_SLOT(IND2SharedReceiveQueue, CancelOverlappedRequests, 3);
	CHECK_SLOT(IND2SharedReceiveQueue, GetOverlappedResult, 4);
	CHECK_SLOT(IND2SharedReceiveQueue, GetNotifyAffinity, 5);
	CHECK_SLOT(IND2SharedReceiveQueue, Modify, 6);
	CHECK_SLOT(IND2SharedReceiveQueue, Notify, 7);
	CHECK_SLOT(IND2SharedReceiveQueue, Receive, 8);
	CHECK_SLOT(IND2MemoryWindow, QueryInterface, 0);
	CHECK_SLOT(IND2MemoryWindow, AddRef, 1);
	CHECK_SLOT(IND2MemoryWindow, Release, 2);
	CHECK_SLOT(IND2MemoryWindow, GetRemoteToken, 3);
	CHECK_SLOT(IND2MemoryRegion, QueryInterface, 0);
	CHECK_SLOT(IND2MemoryRegion, AddRef, 1);
	CHECK_SLOT(IND2MemoryRegion, Release, 2);
	CHECK_SLOT(IND2MemoryRegion, CancelOverlappedRequests, 3);
	CHECK_SLOT(IND2MemoryRegion, GetOverlappedResult, 4);
	CHECK_SLOT(IND2MemoryRegion, Register, 5);
	CHECK_SLOT(IND2MemoryRegion, Deregister, 6);
	CHECK_SLOT(IND2MemoryRegion, GetLocalToken, 7);
	CHECK_SLOT(IND2MemoryRegion, GetRemoteToken, 8);
	CHECK_SLOT(IND2QueuePair, QueryInterface, 0);
	CHECK_SLOT(IND2QueuePair, AddRef, 1);
	CHECK_SLOT(IND2QueuePair, Release, 2);
	CHECK_SLOT(IND2QueuePair, Flush, 3);
	CHECK_SLOT(IND2QueuePair, Send, 4);
	CHECK_SLOT(IND2QueuePair, Receive, 5);
	CHECK_SLOT(IND2QueuePair, Bind, 6);
	CHECK_SLOT(IND2QueuePair, Invalidate, 7);
	CHECK_SLOT(IND2QueuePair, Read, 8);
	CHECK_SLOT(IND2QueuePair, Write, 9);
	CHECK_SLOT(IND2Connector, QueryInterface, 0);
	CHECK_SLOT(IND2Connector, AddRef, 1);
	CHECK_SLOT(IND2Connector, Release, 2);
	CHECK_SLOT(IND2Connector, CancelOverlappedRequests, 3);
	CHECK_SLOT(IND2Connector, GetOverlappedResult, 4);
	CHECK_SLOT(IND2Connector, Bind, 5);
	CHECK_SLOT(IND2Connector, Connect, 6);
	CHECK_SLOT(IND2Connector, CompleteConnect, 7);
	CHECK_SLOT(IND2Connector, Accept, 8);
	CHECK_SLOT(IND2Connector, Reject, 9);
	CHECK_SLOT(IND2Connector, GetReadLimits, 10);
	CHECK_SLOT(IND2Connector, GetPrivateData, 11);
	CHECK_SLOT(IND2Connector, GetLocalAddress, 12);
	CHECK_SLOT(IND2Connector, GetPeerAddress, 13);
	CHECK_SLOT(IND2Connector, NotifyDisconnect, 14);
	CHECK_SLOT(IND2Connector, Disconnect, 15);
	CHECK_SLOT(IND2Listener, QueryInterface, 0);
	CHECK_SLOT(IND2Listener, AddRef, 1);
	CHECK_SLOT(IND2Listener, Release, 2);
	CHECK_SLOT(IND2Listener, CancelOverlappedRequests, 3);
	CHECK_SLOT(IND2Listener, GetOverlappedResult, 4);
	CHECK_SLOT(IND2Listener, Bind, 5);
	CHECK_SLOT(IND2Listener, Listen, 6);
	CHECK_SLOT(IND2Listener, GetLocalAddress, 7);
	CHECK_SLOT(IND2Listener, GetConnectionRequest, 8);
	CHECK_SLOT(IND2Adapter, QueryInterface, 0);
	CHECK_SLOT(IND2Adapter, AddRef, 1);
	CHECK_SLOT(IND2Adapter, Release, 2);
	CHECK_SLOT(IND2Adapter, CreateOverlappedFile, 3);
	CHECK_SLOT(IND2Adapter, Query, 4);
	CHECK_SLOT(IND2Adapter, QueryAddressList, 5);
	CHECK_SLOT(IND2Adapter, CreateCompletionQueue, 6);
	CHECK_SLOT(IND2Adapter, CreateMemoryRegion, 7);
	CHECK_SLOT(IND2Adapter, CreateMemoryWindow, 8);
	CHECK_SLOT(IND2Adapter, CreateSharedReceiveQueue, 9);
	CHECK_SLOT(IND2Adapter, CreateQueuePair, 10);
	CHECK_SLOT(IND2Adapter, CreateQueuePairWithSrq, 11);
	CHECK_SLOT(IND2Adapter, CreateConnector, 12);
	CHECK_SLOT(IND2Adapter, CreateListener, 13);
	CHECK_SLOT(IND2Provider, QueryInterface, 0);
	CHECK_SLOT(IND2Provider, AddRef, 1);
	CHECK_SLOT(IND2Provider, Release, 2);
	CHECK_SLOT(IND2Provider, QueryAddressList, 3);
	CHECK_SLOT(IND2Provider, ResolveAddress, 4);
	CHECK_SLOT(IND2Provider, OpenAdapter, 5);

	/* ND v1: interface IDs, vtable slots, structures. */
	CHECK_GUID(IID_INDOverlapped, 0xC859E15E, 0x75E2, 0x4FE3);
	CHECK_GUID(IID_INDCompletionQueue, 0x1245A633, 0x2A32, 0x473A);
	CHECK_GUID(IID_INDMemoryWindow, 0x070FE1F5, 0x0AB5, 0x4361);
	CHECK_GUID(IID_INDEndpoint, 0xDBD00EAB, 0xB679, 0x44A9);
	CHECK_GUID(IID_INDConnector, 0x1BCAF2D1, 0xE274, 0x4AEB);
	CHECK_GUID(IID_INDListen, 0xBB902588, 0xBA3F, 0x4441);
	CHECK_GUID(IID_INDAdapter, 0xA023C5A0, 0x5B73, 0x43BC);
	CHECK_GUID(IID_INDProvider, 0x0C5DD316, 0x5FDF, 0x47E6);
	CHECK_SLOT(INDOverlapped, QueryInterface, 0);
	CHECK_SLOT(INDOverlapped, AddRef, 1);
	CHECK_SLOT(INDOverlapped, Release, 2);
	CHECK_SLOT(INDOverlapped, CancelOverlappedRequests, 3);
	CHECK_SLOT(INDOverlapped, GetOverlappedResult, 4);
	CHECK_SLOT(INDCompletionQueue, QueryInterface, 0);
	CHECK_SLOT(INDCompletionQueue, AddRef, 1);
	CHECK_SLOT(INDCompletionQueue, Release, 2);
	CHECK_SLOT(INDCompletionQueue, CancelOverlappedRequests, 3);
	CHECK_SLOT(INDCompletionQueue, GetOverlappedResult, 4);
	CHECK_SLOT(INDCompletionQueue, Resize, 5);
	CHECK_SLOT(INDCompletionQueue, Notify, 6);
	CHECK_SLOT(INDCompletionQueue, GetResults, 7);
	CHECK_SLOT(INDMemoryWindow, QueryInterface, 0);
	CHECK_SLOT(INDMemoryWindow, AddRef, 1);
	CHECK_SLOT(INDMemoryWindow, Release, 2);
	CHECK_SLOT(INDEndpoint, QueryInterface, 0);
	CHECK_SLOT(INDEndpoint, AddRef, 1);
	CHECK_SLOT(INDEndpoint, Release, 2);
	CHECK_SLOT(INDEndpoint, Flush, 3);
	CHECK_SLOT(INDEndpoint, StartRequestBatch, 4);
	CHECK_SLOT(INDEndpoint, SubmitRequestBatch, 5);
	CHECK_SLOT(INDEndpoint, Send, 6);
	CHECK_SLOT(INDEndpoint, SendAndInvalidate, 7);
	CHECK_SLOT(INDEndpoint, Receive, 8);
	CHECK_SLOT(INDEndpoint, Bind, 9);
	CHECK_SLOT(INDEndpoint, Invalidate, 10);
	CHECK_SLOT(INDEndpoint, Read, 11);
	CHECK_SLOT(INDEndpoint, Write, 12);
	CHECK_SLOT(INDConnector, QueryInterface, 0);
	CHECK_SLOT(INDConnector, AddRef, 1);
	CHECK_SLOT(INDConnector, Release, 2);
	CHECK_SLOT(INDConnector, CancelOverlappedRequests, 3);
	CHECK_SLOT(INDConnector, GetOverlappedResult, 4);
	CHECK_SLOT(INDConnector, CreateEndpoint, 5);
	CHECK_SLOT(INDConnector, Connect, 6);
	CHECK_SLOT(INDConnector, CompleteConnect, 7);
	CHECK_SLOT(INDConnector, Accept, 8);
	CHECK_SLOT(INDConnector, Reject, 9);
	CHECK_SLOT(INDConnector, GetConnectionData, 10);
	CHECK_SLOT(INDConnector, GetLocalAddress, 11);
	CHECK_SLOT(INDConnector, GetPeerAddress, 12);
	CHECK_SLOT(INDConnector, NotifyDisconnect, 13);
	CHECK_SLOT(INDConnector, Disconnect, 14);
	CHECK_SLOT(INDListen, QueryInterface, 0);
	CHECK_SLOT(INDListen, AddRef, 1);
	CHECK_SLOT(INDListen, Release, 2);
	CHECK_SLOT(INDListen, CancelOverlappedRequests, 3);
	CHECK_SLOT(INDListen, GetOverlappedResult, 4);
	CHECK_SLOT(INDListen, GetConnectionRequest, 5);
	CHECK_SLOT(INDAdapter, QueryInterface, 0);
	CHECK_SLOT(INDAdapter, AddRef, 1);
	CHECK_SLOT(INDAdapter, Release, 2);
	CHECK_SLOT(INDAdapter, CancelOverlappedRequests, 3);
	CHECK_SLOT(INDAdapter, GetOverlappedResult, 4);
	CHECK_SLOT(INDAdapter, GetFileHandle, 5);
	CHECK_SLOT(INDAdapter, Query, 6);
	CHECK_SLOT(INDAdapter, Control, 7);
	CHECK_SLOT(INDAdapter, CreateCompletionQueue, 8);
	CHECK_SLOT(INDAdapter, RegisterMemory, 9);
	CHECK_SLOT(INDAdapter, DeregisterMemory, 10);
	CHECK_SLOT(INDAdapter, CreateMemoryWindow, 11);
	CHECK_SLOT(INDAdapter, CreateConnector, 12);
	CHECK_SLOT(INDAdapter, Listen, 13);
	CHECK_SLOT(INDProvider, QueryInterface, 0);
	CHECK_SLOT(INDProvider, AddRef, 1);
	CHECK_SLOT(INDProvider, Release, 2);
	CHECK_SLOT(INDProvider, QueryAddressList, 3);
	CHECK_SLOT(INDProvider, OpenAdapter, 4);

	/* ND v1's structures (x64): not in the measured facts; the layout of
	 * Microsoft's v1 ndspi.h, SIZE_T and pointers 8 bytes, natural
	 * alignment. */
	CHECK_SIZE(ND_ADAPTER_INFO1, 128);
	CHECK_OFF(ND_ADAPTER_INFO1, VendorId, 0);
	CHECK_OFF(ND_ADAPTER_INFO1, DeviceId, 4);
	CHECK_OFF(ND_ADAPTER_INFO1, MaxInboundSge, 8);
	CHECK_OFF(ND_ADAPTER_INFO1, MaxInboundRequests, 16);
	CHECK_OFF(ND_ADAPTER_INFO1, MaxInboundLength, 24);
	CHECK_OFF(ND_ADAPTER_INFO1, MaxOutboundSge, 32);
	CHECK_OFF(ND_ADAPTER_INFO1, MaxOutboundRequests, 40);
	CHECK_OFF(ND_ADAPTER_INFO1, MaxOutboundLength, 48);
	CHECK_OFF(ND_ADAPTER_INFO1, MaxInlineData, 56);
	CHECK_OFF(ND_ADAPTER_INFO1, MaxInboundReadLimit, 64);
	CHECK_OFF(ND_ADAPTER_INFO1, MaxOutboundReadLimit, 72);
	CHECK_OFF(ND_ADAPTER_INFO1, MaxCqEntries, 80);
	CHECK_OFF(ND_ADAPTER_INFO1, MaxRegistrationSize, 88);
	CHECK_OFF(ND_ADAPTER_INFO1, MaxWindowSize, 96);
	CHECK_OFF(ND_ADAPTER_INFO1, LargeRequestThreshold, 104);
	CHECK_OFF(ND_ADAPTER_INFO1, MaxCallerData, 112);
	CHECK_OFF(ND_ADAPTER_INFO1, MaxCalleeData, 120);
	CHECK_SIZE(ND_RESULT, 16);
	CHECK_OFF(ND_RESULT, Status, 0);
	CHECK_OFF(ND_RESULT, BytesTransferred, 8);
	CHECK_SIZE(ND_SGE, 24);
	CHECK_OFF(ND_SGE, pAddr, 0);
	CHECK_OFF(ND_SGE, Length, 8);
	CHECK_OFF(ND_SGE, hMr, 16);
	CHECK_SIZE(ND_MW_DESCRIPTOR, 24);
	CHECK_OFF(ND_MW_DESCRIPTOR, Base, 0);
	CHECK_OFF(ND_MW_DESCRIPTOR, Length, 8);
	CHECK_OFF(ND_MW_DESCRIPTOR, Token, 16);
	CHECK("ND_VERSION_1", ND_VERSION_1, 0x1);

	nd2_abi_checked = checked;
	return bad;
}

/* The NetworkDirect v2 service provider interface: interface IDs and the
 * ten COM interfaces, in vtable order (docs/nd2/ABI-facts.md).  ndshim's
 * own header.  The standard COM declaration macros make each interface a
 * C++ abstract class under C++ and a struct with a vtable of
 * `This`-first function pointers under C, so providers and clients can be
 * written in either language:
 *
 *     C++:  adapter->Query(&info, &len);
 *     C:    adapter->lpVtbl->Query(adapter, &info, &len);
 *
 * Include <winsock2.h> (SOCKET_ADDRESS_LIST, struct sockaddr) first. */
#ifndef NDSHIM_NDSPI_H
#define NDSHIM_NDSPI_H

#include <unknwn.h>

#include "nddef.h"
#include "ndstatus.h"

DEFINE_GUID(IID_IND2Overlapped, 0xABF72719, 0xB016, 0x4A40, 0xA6, 0xF7, 0x62, 0x27, 0x91, 0xA7, 0x04, 0x4C);
DEFINE_GUID(IID_IND2CompletionQueue, 0x20CC445E, 0x64A0, 0x4CBB, 0xAA, 0x75, 0xF6, 0xA7, 0x25, 0x1F, 0xDA, 0x9E);
DEFINE_GUID(IID_IND2SharedReceiveQueue, 0xAABD67DC, 0x459A, 0x4DB1, 0x82, 0x6B, 0x56, 0xCF, 0xCC, 0x27, 0x88, 0x83);
DEFINE_GUID(IID_IND2MemoryWindow, 0x070FE1F5, 0x0AB5, 0x4361, 0x88, 0xDB, 0x97, 0x4B, 0xA7, 0x04, 0xD4, 0xB9);
DEFINE_GUID(IID_IND2MemoryRegion, 0x55DFEA2F, 0xBC56, 0x4982, 0x8A, 0x45, 0x03, 0x01, 0xBE, 0x46, 0xC4, 0x13);
DEFINE_GUID(IID_IND2QueuePair, 0xEEF2F332, 0xB75D, 0x4063, 0xBC, 0xE3, 0x3A, 0x0B, 0xAD, 0x2D, 0x02, 0xCE);
DEFINE_GUID(IID_IND2Connector, 0x7DD615C4, 0x6B4C, 0x4866, 0x95, 0x0C, 0xF3, 0xB1, 0xD2, 0x5A, 0x53, 0x02);
DEFINE_GUID(IID_IND2Listener, 0x65D23D83, 0x3A57, 0x4E02, 0x86, 0xA4, 0x35, 0x01, 0x65, 0xC2, 0xD1, 0x30);
DEFINE_GUID(IID_IND2Adapter, 0xD89C798C, 0x4823, 0x4D69, 0x84, 0x6C, 0xDF, 0xDC, 0xCF, 0xF9, 0xE5, 0xF3);
DEFINE_GUID(IID_IND2Provider, 0x49EAE6C1, 0x76C4, 0x46D0, 0x80, 0x03, 0x5C, 0x2E, 0xAA, 0x2C, 0x9A, 0x8E);
/* ND v1: the INDxxx interfaces below (the SIZE_T-sized, ND_RESULT-based
 * generation older clients use).  v1's memory window has v2's IID. */
DEFINE_GUID(IID_INDOverlapped, 0xC859E15E, 0x75E2, 0x4FE3, 0x8D, 0x6D, 0x0D, 0xFF, 0x36, 0xF0, 0x24, 0x42);
DEFINE_GUID(IID_INDCompletionQueue, 0x1245A633, 0x2A32, 0x473A, 0x83, 0x0C, 0xE0, 0x5D, 0x1F, 0x86, 0x9D, 0x02);
DEFINE_GUID(IID_INDMemoryWindow, 0x070FE1F5, 0x0AB5, 0x4361, 0x88, 0xDB, 0x97, 0x4B, 0xA7, 0x04, 0xD4, 0xB9);
DEFINE_GUID(IID_INDEndpoint, 0xDBD00EAB, 0xB679, 0x44A9, 0xBD, 0x65, 0xE8, 0x2F, 0x3D, 0xE1, 0x2D, 0x1A);
DEFINE_GUID(IID_INDConnector, 0x1BCAF2D1, 0xE274, 0x4AEB, 0xAC, 0x57, 0xCD, 0x5D, 0x43, 0x76, 0xE0, 0xB7);
DEFINE_GUID(IID_INDListen, 0xBB902588, 0xBA3F, 0x4441, 0x9F, 0xE1, 0x3B, 0x67, 0x95, 0xE4, 0xE6, 0x68);
DEFINE_GUID(IID_INDProvider, 0x0C5DD316, 0x5FDF, 0x47E6, 0xB2, 0xD0, 0x2A, 0x6E, 0xDA, 0x8D, 0x39, 0xDD);
DEFINE_GUID(IID_INDAdapter, 0xA023C5A0, 0x5B73, 0x43BC, 0x8D, 0x20, 0x33, 0xAA, 0x07, 0xE9, 0x51, 0x0F);

#undef INTERFACE
#define INTERFACE IND2Overlapped
DECLARE_INTERFACE_(IND2Overlapped, IUnknown)
{
	STDMETHOD(QueryInterface)(THIS_ REFIID riid, LPVOID *ppvObj) PURE;
	STDMETHOD_(ULONG, AddRef)(THIS) PURE;
	STDMETHOD_(ULONG, Release)(THIS) PURE;
	STDMETHOD(CancelOverlappedRequests)(THIS) PURE;
	STDMETHOD(GetOverlappedResult)(THIS_ OVERLAPPED *pOverlapped, BOOL wait) PURE;
};

#undef INTERFACE
#define INTERFACE IND2CompletionQueue
DECLARE_INTERFACE_(IND2CompletionQueue, IND2Overlapped)
{
	STDMETHOD(QueryInterface)(THIS_ REFIID riid, LPVOID *ppvObj) PURE;
	STDMETHOD_(ULONG, AddRef)(THIS) PURE;
	STDMETHOD_(ULONG, Release)(THIS) PURE;
	STDMETHOD(CancelOverlappedRequests)(THIS) PURE;
	STDMETHOD(GetOverlappedResult)(THIS_ OVERLAPPED *pOverlapped, BOOL wait) PURE;
	STDMETHOD(GetNotifyAffinity)(THIS_ USHORT *pGroup, KAFFINITY *pAffinity) PURE;
	STDMETHOD(Resize)(THIS_ ULONG queueDepth) PURE;
	STDMETHOD(Notify)(THIS_ ULONG type, OVERLAPPED *pOverlapped) PURE;
	STDMETHOD_(ULONG, GetResults)(THIS_ ND2_RESULT results[], ULONG nResults) PURE;
};

#undef INTERFACE
#define INTERFACE IND2SharedReceiveQueue
DECLARE_INTERFACE_(IND2SharedReceiveQueue, IND2Overlapped)
{
	STDMETHOD(QueryInterface)(THIS_ REFIID riid, LPVOID *ppvObj) PURE;
	STDMETHOD_(ULONG, AddRef)(THIS) PURE;
	STDMETHOD_(ULONG, Release)(THIS) PURE;
	STDMETHOD(CancelOverlappedRequests)(THIS) PURE;
	STDMETHOD(GetOverlappedResult)(THIS_ OVERLAPPED *pOverlapped, BOOL wait) PURE;
	STDMETHOD(GetNotifyAffinity)(THIS_ USHORT *pGroup, KAFFINITY *pAffinity) PURE;
	STDMETHOD(Modify)(THIS_ ULONG queueDepth, ULONG notifyThreshold) PURE;
	STDMETHOD(Notify)(THIS_ OVERLAPPED *pOverlapped) PURE;
	STDMETHOD(Receive)(THIS_ VOID *requestContext, const ND2_SGE sge[], ULONG nSge) PURE;
};

#undef INTERFACE
#define INTERFACE IND2MemoryWindow
DECLARE_INTERFACE_(IND2MemoryWindow, IUnknown)
{
	STDMETHOD(QueryInterface)(THIS_ REFIID riid, LPVOID *ppvObj) PURE;
	STDMETHOD_(ULONG, AddRef)(THIS) PURE;
	STDMETHOD_(ULONG, Release)(THIS) PURE;
	STDMETHOD_(UINT32, GetRemoteToken)(THIS) PURE;
};

#undef INTERFACE
#define INTERFACE IND2MemoryRegion
DECLARE_INTERFACE_(IND2MemoryRegion, IND2Overlapped)
{
	STDMETHOD(QueryInterface)(THIS_ REFIID riid, LPVOID *ppvObj) PURE;
	STDMETHOD_(ULONG, AddRef)(THIS) PURE;
	STDMETHOD_(ULONG, Release)(THIS) PURE;
	STDMETHOD(CancelOverlappedRequests)(THIS) PURE;
	STDMETHOD(GetOverlappedResult)(THIS_ OVERLAPPED *pOverlapped, BOOL wait) PURE;
	STDMETHOD(Register)(THIS_ const VOID *pBuffer, SIZE_T cbBuffer, ULONG flags, OVERLAPPED *pOverlapped) PURE;
	STDMETHOD(Deregister)(THIS_ OVERLAPPED *pOverlapped) PURE;
	STDMETHOD_(UINT32, GetLocalToken)(THIS) PURE;
	STDMETHOD_(UINT32, GetRemoteToken)(THIS) PURE;
};

#undef INTERFACE
#define INTERFACE IND2QueuePair
DECLARE_INTERFACE_(IND2QueuePair, IUnknown)
{
	STDMETHOD(QueryInterface)(THIS_ REFIID riid, LPVOID *ppvObj) PURE;
	STDMETHOD_(ULONG, AddRef)(THIS) PURE;
	STDMETHOD_(ULONG, Release)(THIS) PURE;
	STDMETHOD(Flush)(THIS) PURE;
	STDMETHOD(Send)(THIS_ VOID *requestContext, const ND2_SGE sge[], ULONG nSge, ULONG flags) PURE;
	STDMETHOD(Receive)(THIS_ VOID *requestContext, const ND2_SGE sge[], ULONG nSge) PURE;
	STDMETHOD(Bind)(THIS_ VOID *requestContext, IUnknown *pMemoryRegion, IUnknown *pMemoryWindow,
			const VOID *pBuffer, SIZE_T cbBuffer, ULONG flags) PURE;
	STDMETHOD(Invalidate)(THIS_ VOID *requestContext, IUnknown *pMemoryWindow, ULONG flags) PURE;
	STDMETHOD(Read)(THIS_ VOID *requestContext, const ND2_SGE sge[], ULONG nSge, UINT64 remoteAddress,
			UINT32 remoteToken, ULONG flags) PURE;
	STDMETHOD(Write)(THIS_ VOID *requestContext, const ND2_SGE sge[], ULONG nSge, UINT64 remoteAddress,
			 UINT32 remoteToken, ULONG flags) PURE;
};

#undef INTERFACE
#define INTERFACE IND2Connector
DECLARE_INTERFACE_(IND2Connector, IND2Overlapped)
{
	STDMETHOD(QueryInterface)(THIS_ REFIID riid, LPVOID *ppvObj) PURE;
	STDMETHOD_(ULONG, AddRef)(THIS) PURE;
	STDMETHOD_(ULONG, Release)(THIS) PURE;
	STDMETHOD(CancelOverlappedRequests)(THIS) PURE;
	STDMETHOD(GetOverlappedResult)(THIS_ OVERLAPPED *pOverlapped, BOOL wait) PURE;
	STDMETHOD(Bind)(THIS_ const struct sockaddr *pAddress, ULONG cbAddress) PURE;
	STDMETHOD(Connect)(THIS_ IUnknown *pQueuePair, const struct sockaddr *pDestAddress, ULONG cbDestAddress,
			   ULONG inboundReadLimit, ULONG outboundReadLimit, const VOID *pPrivateData,
			   ULONG cbPrivateData, OVERLAPPED *pOverlapped) PURE;
	STDMETHOD(CompleteConnect)(THIS_ OVERLAPPED *pOverlapped) PURE;
	STDMETHOD(Accept)(THIS_ IUnknown *pQueuePair, ULONG inboundReadLimit, ULONG outboundReadLimit,
			  const VOID *pPrivateData, ULONG cbPrivateData, OVERLAPPED *pOverlapped) PURE;
	STDMETHOD(Reject)(THIS_ const VOID *pPrivateData, ULONG cbPrivateData) PURE;
	STDMETHOD(GetReadLimits)(THIS_ ULONG *pInboundReadLimit, ULONG *pOutboundReadLimit) PURE;
	STDMETHOD(GetPrivateData)(THIS_ VOID *pPrivateData, ULONG *pcbPrivateData) PURE;
	STDMETHOD(GetLocalAddress)(THIS_ struct sockaddr *pAddress, ULONG *pcbAddress) PURE;
	STDMETHOD(GetPeerAddress)(THIS_ struct sockaddr *pAddress, ULONG *pcbAddress) PURE;
	STDMETHOD(NotifyDisconnect)(THIS_ OVERLAPPED *pOverlapped) PURE;
	STDMETHOD(Disconnect)(THIS_ OVERLAPPED *pOverlapped) PURE;
};

#undef INTERFACE
#define INTERFACE IND2Listener
DECLARE_INTERFACE_(IND2Listener, IND2Overlapped)
{
	STDMETHOD(QueryInterface)(THIS_ REFIID riid, LPVOID *ppvObj) PURE;
	STDMETHOD_(ULONG, AddRef)(THIS) PURE;
	STDMETHOD_(ULONG, Release)(THIS) PURE;
	STDMETHOD(CancelOverlappedRequests)(THIS) PURE;
	STDMETHOD(GetOverlappedResult)(THIS_ OVERLAPPED *pOverlapped, BOOL wait) PURE;
	STDMETHOD(Bind)(THIS_ const struct sockaddr *pAddress, ULONG cbAddress) PURE;
	STDMETHOD(Listen)(THIS_ ULONG backlog) PURE;
	STDMETHOD(GetLocalAddress)(THIS_ struct sockaddr *pAddress, ULONG *pcbAddress) PURE;
	STDMETHOD(GetConnectionRequest)(THIS_ IUnknown *pConnector, OVERLAPPED *pOverlapped) PURE;
};

#undef INTERFACE
#define INTERFACE IND2Adapter
DECLARE_INTERFACE_(IND2Adapter, IUnknown)
{
	STDMETHOD(QueryInterface)(THIS_ REFIID riid, LPVOID *ppvObj) PURE;
	STDMETHOD_(ULONG, AddRef)(THIS) PURE;
	STDMETHOD_(ULONG, Release)(THIS) PURE;
	STDMETHOD(CreateOverlappedFile)(THIS_ HANDLE *phOverlappedFile) PURE;
	STDMETHOD(Query)(THIS_ ND2_ADAPTER_INFO *pInfo, ULONG *pcbInfo) PURE;
	STDMETHOD(QueryAddressList)(THIS_ SOCKET_ADDRESS_LIST *pAddressList, ULONG *pcbAddressList) PURE;
	STDMETHOD(CreateCompletionQueue)(THIS_ REFIID iid, HANDLE hOverlappedFile, ULONG queueDepth, USHORT group,
					 KAFFINITY affinity, VOID **ppCompletionQueue) PURE;
	STDMETHOD(CreateMemoryRegion)(THIS_ REFIID iid, HANDLE hOverlappedFile, VOID **ppMemoryRegion) PURE;
	STDMETHOD(CreateMemoryWindow)(THIS_ REFIID iid, VOID **ppMemoryWindow) PURE;
	STDMETHOD(CreateSharedReceiveQueue)(THIS_ REFIID iid, HANDLE hOverlappedFile, ULONG queueDepth,
					    ULONG maxRequestSge, ULONG notifyThreshold, USHORT group,
					    KAFFINITY affinity, VOID **ppSharedReceiveQueue) PURE;
	STDMETHOD(CreateQueuePair)(THIS_ REFIID iid, IUnknown *pReceiveCompletionQueue,
				   IUnknown *pInitiatorCompletionQueue, VOID *context, ULONG receiveQueueDepth,
				   ULONG initiatorQueueDepth, ULONG maxReceiveRequestSge,
				   ULONG maxInitiatorRequestSge, ULONG inlineDataSize, VOID **ppQueuePair) PURE;
	STDMETHOD(CreateQueuePairWithSrq)(THIS_ REFIID iid, IUnknown *pReceiveCompletionQueue,
					  IUnknown *pInitiatorCompletionQueue, IUnknown *pSharedReceiveQueue,
					  VOID *context, ULONG initiatorQueueDepth, ULONG maxInitiatorRequestSge,
					  ULONG inlineDataSize, VOID **ppQueuePair) PURE;
	STDMETHOD(CreateConnector)(THIS_ REFIID iid, HANDLE hOverlappedFile, VOID **ppConnector) PURE;
	STDMETHOD(CreateListener)(THIS_ REFIID iid, HANDLE hOverlappedFile, VOID **ppListener) PURE;
};

#undef INTERFACE
#define INTERFACE IND2Provider
DECLARE_INTERFACE_(IND2Provider, IUnknown)
{
	STDMETHOD(QueryInterface)(THIS_ REFIID riid, LPVOID *ppvObj) PURE;
	STDMETHOD_(ULONG, AddRef)(THIS) PURE;
	STDMETHOD_(ULONG, Release)(THIS) PURE;
	STDMETHOD(QueryAddressList)(THIS_ SOCKET_ADDRESS_LIST *pAddressList, ULONG *pcbAddressList) PURE;
	STDMETHOD(ResolveAddress)(THIS_ const struct sockaddr *pAddress, ULONG cbAddress, UINT64 *pAdapterId) PURE;
	STDMETHOD(OpenAdapter)(THIS_ REFIID iid, UINT64 adapterId, VOID **ppAdapter) PURE;
};

#undef INTERFACE
#define INTERFACE INDOverlapped
DECLARE_INTERFACE_(INDOverlapped, IUnknown)
{
	STDMETHOD(QueryInterface)(THIS_ REFIID riid, LPVOID *ppvObj) PURE;
	STDMETHOD_(ULONG, AddRef)(THIS) PURE;
	STDMETHOD_(ULONG, Release)(THIS) PURE;
	STDMETHOD(CancelOverlappedRequests)(THIS) PURE;
	STDMETHOD(GetOverlappedResult)(THIS_ OVERLAPPED *pOverlapped, SIZE_T *pNumberOfBytesTransferred,
				       BOOL bWait) PURE;
};

#undef INTERFACE
#define INTERFACE INDCompletionQueue
DECLARE_INTERFACE_(INDCompletionQueue, INDOverlapped)
{
	STDMETHOD(QueryInterface)(THIS_ REFIID riid, LPVOID *ppvObj) PURE;
	STDMETHOD_(ULONG, AddRef)(THIS) PURE;
	STDMETHOD_(ULONG, Release)(THIS) PURE;
	STDMETHOD(CancelOverlappedRequests)(THIS) PURE;
	STDMETHOD(GetOverlappedResult)(THIS_ OVERLAPPED *pOverlapped, SIZE_T *pNumberOfBytesTransferred,
				       BOOL bWait) PURE;
	STDMETHOD(Resize)(THIS_ SIZE_T nEntries) PURE;
	STDMETHOD(Notify)(THIS_ DWORD Type, OVERLAPPED *pOverlapped) PURE;
	STDMETHOD_(SIZE_T, GetResults)(THIS_ ND_RESULT *pResults[], SIZE_T nResults) PURE;
};

#undef INTERFACE
#define INTERFACE INDMemoryWindow
DECLARE_INTERFACE_(INDMemoryWindow, IUnknown)
{
	STDMETHOD(QueryInterface)(THIS_ REFIID riid, LPVOID *ppvObj) PURE;
	STDMETHOD_(ULONG, AddRef)(THIS) PURE;
	STDMETHOD_(ULONG, Release)(THIS) PURE;
};

#undef INTERFACE
#define INTERFACE INDEndpoint
DECLARE_INTERFACE_(INDEndpoint, IUnknown)
{
	STDMETHOD(QueryInterface)(THIS_ REFIID riid, LPVOID *ppvObj) PURE;
	STDMETHOD_(ULONG, AddRef)(THIS) PURE;
	STDMETHOD_(ULONG, Release)(THIS) PURE;
	STDMETHOD(Flush)(THIS) PURE;
	STDMETHOD_(void, StartRequestBatch)(THIS) PURE;
	STDMETHOD_(void, SubmitRequestBatch)(THIS) PURE;
	STDMETHOD(Send)(THIS_ ND_RESULT *pResult, const ND_SGE *pSgl, SIZE_T nSge, DWORD Flags) PURE;
	STDMETHOD(SendAndInvalidate)(THIS_ ND_RESULT *pResult, const ND_SGE *pSgl, SIZE_T nSge,
				     const ND_MW_DESCRIPTOR *pRemoteMwDescriptor, DWORD Flags) PURE;
	STDMETHOD(Receive)(THIS_ ND_RESULT *pResult, const ND_SGE *pSgl, SIZE_T nSge) PURE;
	STDMETHOD(Bind)(THIS_ ND_RESULT *pResult, ND_MR_HANDLE hMr, INDMemoryWindow *pMw, const void *pBuffer,
			SIZE_T BufferSize, DWORD Flags, ND_MW_DESCRIPTOR *pMwDescriptor) PURE;
	STDMETHOD(Invalidate)(THIS_ ND_RESULT *pResult, INDMemoryWindow *pMw, DWORD Flags) PURE;
	STDMETHOD(Read)(THIS_ ND_RESULT *pResult, const ND_SGE *pSgl, SIZE_T nSge,
			const ND_MW_DESCRIPTOR *pRemoteMwDescriptor, ULONGLONG Offset, DWORD Flags) PURE;
	STDMETHOD(Write)(THIS_ ND_RESULT *pResult, const ND_SGE *pSgl, SIZE_T nSge,
			 const ND_MW_DESCRIPTOR *pRemoteMwDescriptor, ULONGLONG Offset, DWORD Flags) PURE;
};

#undef INTERFACE
#define INTERFACE INDConnector
DECLARE_INTERFACE_(INDConnector, INDOverlapped)
{
	STDMETHOD(QueryInterface)(THIS_ REFIID riid, LPVOID *ppvObj) PURE;
	STDMETHOD_(ULONG, AddRef)(THIS) PURE;
	STDMETHOD_(ULONG, Release)(THIS) PURE;
	STDMETHOD(CancelOverlappedRequests)(THIS) PURE;
	STDMETHOD(GetOverlappedResult)(THIS_ OVERLAPPED *pOverlapped, SIZE_T *pNumberOfBytesTransferred,
				       BOOL bWait) PURE;
	STDMETHOD(CreateEndpoint)(THIS_ INDCompletionQueue *pInboundCq, INDCompletionQueue *pOutboundCq,
				  SIZE_T nInboundEntries, SIZE_T nOutboundEntries, SIZE_T nInboundSge,
				  SIZE_T nOutboundSge, SIZE_T InboundReadLimit, SIZE_T OutboundReadLimit,
				  SIZE_T *pMaxInlineData, INDEndpoint **ppEndpoint) PURE;
	STDMETHOD(Connect)(THIS_ INDEndpoint *pEndpoint, const struct sockaddr *pAddress, SIZE_T AddressLength,
			   INT Protocol, USHORT LocalPort, const void *pPrivateData, SIZE_T PrivateDataLength,
			   OVERLAPPED *pOverlapped) PURE;
	STDMETHOD(CompleteConnect)(THIS_ OVERLAPPED *pOverlapped) PURE;
	STDMETHOD(Accept)(THIS_ INDEndpoint *pEndpoint, const void *pPrivateData, SIZE_T PrivateDataLength,
			  OVERLAPPED *pOverlapped) PURE;
	STDMETHOD(Reject)(THIS_ const void *pPrivateData, SIZE_T PrivateDataLength) PURE;
	STDMETHOD(GetConnectionData)(THIS_ SIZE_T *pInboundReadLimit, SIZE_T *pOutboundReadLimit,
				     void *pPrivateData, SIZE_T *pPrivateDataLength) PURE;
	STDMETHOD(GetLocalAddress)(THIS_ struct sockaddr *pAddress, SIZE_T *pAddressLength) PURE;
	STDMETHOD(GetPeerAddress)(THIS_ struct sockaddr *pAddress, SIZE_T *pAddressLength) PURE;
	STDMETHOD(NotifyDisconnect)(THIS_ OVERLAPPED *pOverlapped) PURE;
	STDMETHOD(Disconnect)(THIS_ OVERLAPPED *pOverlapped) PURE;
};

#undef INTERFACE
#define INTERFACE INDListen
DECLARE_INTERFACE_(INDListen, INDOverlapped)
{
	STDMETHOD(QueryInterface)(THIS_ REFIID riid, LPVOID *ppvObj) PURE;
	STDMETHOD_(ULONG, AddRef)(THIS) PURE;
	STDMETHOD_(ULONG, Release)(THIS) PURE;
	STDMETHOD(CancelOverlappedRequests)(THIS) PURE;
	STDMETHOD(GetOverlappedResult)(THIS_ OVERLAPPED *pOverlapped, SIZE_T *pNumberOfBytesTransferred,
				       BOOL bWait) PURE;
	STDMETHOD(GetConnectionRequest)(THIS_ INDConnector *pConnector, OVERLAPPED *pOverlapped) PURE;
};

#undef INTERFACE
#define INTERFACE INDAdapter
DECLARE_INTERFACE_(INDAdapter, INDOverlapped)
{
	STDMETHOD(QueryInterface)(THIS_ REFIID riid, LPVOID *ppvObj) PURE;
	STDMETHOD_(ULONG, AddRef)(THIS) PURE;
	STDMETHOD_(ULONG, Release)(THIS) PURE;
	STDMETHOD(CancelOverlappedRequests)(THIS) PURE;
	STDMETHOD(GetOverlappedResult)(THIS_ OVERLAPPED *pOverlapped, SIZE_T *pNumberOfBytesTransferred,
				       BOOL bWait) PURE;
	STDMETHOD_(HANDLE, GetFileHandle)(THIS) PURE;
	STDMETHOD(Query)(THIS_ DWORD VersionRequested, ND_ADAPTER_INFO *pInfo, SIZE_T *pBufferSize) PURE;
	STDMETHOD(Control)(THIS_ DWORD IoControlCode, const void *pInBuffer, SIZE_T InBufferSize,
			   void *pOutBuffer, SIZE_T OutBufferSize, SIZE_T *pBytesReturned,
			   OVERLAPPED *pOverlapped) PURE;
	STDMETHOD(CreateCompletionQueue)(THIS_ SIZE_T nEntries, INDCompletionQueue **ppCq) PURE;
	STDMETHOD(RegisterMemory)(THIS_ const void *pBuffer, SIZE_T BufferSize, OVERLAPPED *pOverlapped,
				  ND_MR_HANDLE *phMr) PURE;
	STDMETHOD(DeregisterMemory)(THIS_ ND_MR_HANDLE hMr, OVERLAPPED *pOverlapped) PURE;
	STDMETHOD(CreateMemoryWindow)(THIS_ ND_RESULT *pInvalidateResult, INDMemoryWindow **ppMw) PURE;
	STDMETHOD(CreateConnector)(THIS_ INDConnector **ppConnector) PURE;
	STDMETHOD(Listen)(THIS_ SIZE_T Backlog, INT Protocol, USHORT Port, USHORT *pAssignedPort,
			  INDListen **ppListen) PURE;
};

#undef INTERFACE
#define INTERFACE INDProvider
DECLARE_INTERFACE_(INDProvider, IUnknown)
{
	STDMETHOD(QueryInterface)(THIS_ REFIID riid, LPVOID *ppvObj) PURE;
	STDMETHOD_(ULONG, AddRef)(THIS) PURE;
	STDMETHOD_(ULONG, Release)(THIS) PURE;
	STDMETHOD(QueryAddressList)(THIS_ SOCKET_ADDRESS_LIST *pAddressList, SIZE_T *pBufferSize) PURE;
	STDMETHOD(OpenAdapter)(THIS_ const struct sockaddr *pAddress, SIZE_T AddressLength,
			       INDAdapter **ppAdapter) PURE;
};

#undef INTERFACE

#endif

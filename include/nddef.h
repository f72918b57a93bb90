/* NetworkDirect definitions: versions, flags and the plain structures of
 * the ND v2 interface.  ndshim's own header, written from the published
 * ABI (docs/nd2/ABI-facts.md): sizes and offsets are checked on both
 * compilers by tests/unit/test_nd2_abi.c and tests/pe/nd2_abi.c. */
#ifndef NDSHIM_NDDEF_H
#define NDSHIM_NDDEF_H

#define ND_VERSION_1 0x1
#define ND_VERSION_2 0x20000
#ifndef NDVER
#define NDVER ND_VERSION_2
#endif

#define ND_ADAPTER_FLAG_IN_ORDER_DMA_SUPPORTED            0x00000001
#define ND_ADAPTER_FLAG_CQ_INTERRUPT_MODERATION_SUPPORTED 0x00000004
#define ND_ADAPTER_FLAG_MULTI_ENGINE_SUPPORTED            0x00000008
#define ND_ADAPTER_FLAG_CQ_RESIZE_SUPPORTED               0x00000100
#define ND_ADAPTER_FLAG_LOOPBACK_CONNECTIONS_SUPPORTED    0x00010000

#define ND_CQ_NOTIFY_ERRORS    0
#define ND_CQ_NOTIFY_ANY       1
#define ND_CQ_NOTIFY_SOLICITED 2

#define ND_MR_FLAG_ALLOW_LOCAL_WRITE  0x00000001
#define ND_MR_FLAG_ALLOW_REMOTE_READ  0x00000002
#define ND_MR_FLAG_ALLOW_REMOTE_WRITE 0x00000005 /* implies local write */
#define ND_MR_FLAG_RDMA_READ_SINK     0x00000008
#define ND_MR_FLAG_DO_NOT_SECURE_VM   0x80000000

#define ND_OP_FLAG_SILENT_SUCCESS         0x00000001
#define ND_OP_FLAG_READ_FENCE             0x00000002
#define ND_OP_FLAG_SEND_AND_SOLICIT_EVENT 0x00000004
#define ND_OP_FLAG_ALLOW_READ             0x00000008
#define ND_OP_FLAG_ALLOW_WRITE            0x00000010
#define ND_OP_FLAG_INLINE                 0x00000020

#ifndef PFL_NETWORKDIRECT_PROVIDER
#define PFL_NETWORKDIRECT_PROVIDER 0x00000010
#endif

typedef enum _ND2_REQUEST_TYPE {
	Nd2RequestTypeReceive = 0,
	Nd2RequestTypeSend = 1,
	Nd2RequestTypeBind = 2,
	Nd2RequestTypeInvalidate = 3,
	Nd2RequestTypeRead = 4,
	Nd2RequestTypeWrite = 5,
} ND2_REQUEST_TYPE;

typedef struct _ND2_ADAPTER_INFO {
	ULONG InfoVersion;
	UINT16 VendorId;
	UINT16 DeviceId;
	UINT64 AdapterId;
	SIZE_T MaxRegistrationSize;
	SIZE_T MaxWindowSize;
	ULONG MaxInitiatorSge;
	ULONG MaxReceiveSge;
	ULONG MaxReadSge;
	ULONG MaxTransferLength;
	ULONG MaxInlineDataSize;
	ULONG MaxInboundReadLimit;
	ULONG MaxOutboundReadLimit;
	ULONG MaxReceiveQueueDepth;
	ULONG MaxInitiatorQueueDepth;
	ULONG MaxSharedReceiveQueueDepth;
	ULONG MaxCompletionQueueDepth;
	ULONG InlineRequestThreshold;
	ULONG LargeRequestThreshold;
	ULONG MaxCallerData;
	ULONG MaxCalleeData;
	ULONG AdapterFlags;
} ND2_ADAPTER_INFO;

typedef struct _ND2_RESULT {
	HRESULT Status;
	ULONG BytesTransferred;
	VOID *QueuePairContext;
	VOID *RequestContext;
	ND2_REQUEST_TYPE RequestType;
} ND2_RESULT;

typedef struct _ND2_SGE {
	VOID *Buffer;
	ULONG BufferLength;
	UINT32 MemoryRegionToken;
} ND2_SGE;

/* ---- ND v1 (the INDxxx interfaces of ndspi.h) ---------------------------- */
/* A registration as v1 hands it out: opaque to the client. */
typedef struct _ND_MR_HANDLE *ND_MR_HANDLE;

typedef struct _ND_ADAPTER_INFO1 {
	UINT32 VendorId;
	UINT32 DeviceId;
	SIZE_T MaxInboundSge;
	SIZE_T MaxInboundRequests;
	SIZE_T MaxInboundLength;
	SIZE_T MaxOutboundSge;
	SIZE_T MaxOutboundRequests;
	SIZE_T MaxOutboundLength;
	SIZE_T MaxInlineData;
	SIZE_T MaxInboundReadLimit;
	SIZE_T MaxOutboundReadLimit;
	SIZE_T MaxCqEntries;
	SIZE_T MaxRegistrationSize;
	SIZE_T MaxWindowSize;
	SIZE_T LargeRequestThreshold;
	SIZE_T MaxCallerData;
	SIZE_T MaxCalleeData;
} ND_ADAPTER_INFO1;
typedef ND_ADAPTER_INFO1 ND_ADAPTER_INFO;

/* Filled by the provider before the CQ hands its address back. */
typedef struct _ND_RESULT {
	HRESULT Status;
	SIZE_T BytesTransferred;
} ND_RESULT;

typedef struct _ND_SGE {
	void *pAddr;
	SIZE_T Length;
	ND_MR_HANDLE hMr;
} ND_SGE;

/* A bound window as the peer needs it: every field in network order. */
typedef struct _ND_MW_DESCRIPTOR {
	UINT64 Base;
	UINT64 Length;
	UINT32 Token;
} ND_MW_DESCRIPTOR;

#endif

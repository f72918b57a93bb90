/* The nd2status rig's object codes: IND2Provider, IND2Adapter (every
 * Create method's ND_INVALID_PARAMETER_N), IND2CompletionQueue with the
 * IND2Overlapped rules, IND2SharedReceiveQueue and IND2MemoryRegion. */
#include <winsock2.h>
#include <ws2tcpip.h>
#include <windows.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nd2status.h"

/* ---- IND2Provider ------------------------------------------------------------------- */
void provider_codes(void)
{
	struct sockaddr_in a = addr_of(ip, 0), other = addr_of("192.0.2.1", 0);
	struct sockaddr bad = { .sa_family = 99 };
	IND2Adapter *x = (void *)1;
	UINT64 id = 0;
	ULONG cb = 0;
	HRESULT st;

	check(prov->lpVtbl->QueryAddressList(prov, NULL, NULL) == ND_INVALID_PARAMETER_2,
	      "Provider::QueryAddressList(NULL size): ND_INVALID_PARAMETER_2");
	st = prov->lpVtbl->QueryAddressList(prov, NULL, &cb);
	check(st == ND_BUFFER_OVERFLOW && cb > sizeof(SOCKET_ADDRESS_LIST),
	      "Provider::QueryAddressList(no buffer): ND_BUFFER_OVERFLOW with the size (%lu)", cb);
	check(prov->lpVtbl->ResolveAddress(prov, NULL, sizeof(a), &id) == ND_INVALID_PARAMETER_1,
	      "Provider::ResolveAddress(NULL address): ND_INVALID_PARAMETER_1");
	check(prov->lpVtbl->ResolveAddress(prov, SA(a), sizeof(a), NULL) == ND_INVALID_PARAMETER_3,
	      "Provider::ResolveAddress(NULL id): ND_INVALID_PARAMETER_3");
	check(prov->lpVtbl->ResolveAddress(prov, &bad, sizeof(bad), &id) == ND_INVALID_ADDRESS,
	      "Provider::ResolveAddress(family 99): ND_INVALID_ADDRESS");
	check(prov->lpVtbl->ResolveAddress(prov, SA(a), 4, &id) == ND_INVALID_ADDRESS,
	      "Provider::ResolveAddress(4 bytes of a sockaddr_in): ND_INVALID_ADDRESS");
	check(prov->lpVtbl->ResolveAddress(prov, SA(other), sizeof(other), &id) == ND_INVALID_ADDRESS,
	      "Provider::ResolveAddress(an address no adapter has): ND_INVALID_ADDRESS");
	check(prov->lpVtbl->OpenAdapter(prov, &IID_IND2Adapter, 0, (void **)&x) == ND_INVALID_PARAMETER && !x,
	      "Provider::OpenAdapter(id 0): ND_INVALID_PARAMETER, *ppAdapter NULL");
	check(prov->lpVtbl->OpenAdapter(prov, &IID_IND2Adapter, adapter_id ^ 0x5a5a5a5a00000000ull, (void **)&x) ==
		      ND_INVALID_PARAMETER,
	      "Provider::OpenAdapter(an id no adapter has): ND_INVALID_PARAMETER");
	check(prov->lpVtbl->OpenAdapter(prov, &IID_IND2Adapter, adapter_id, NULL) == ND_INVALID_PARAMETER_3,
	      "Provider::OpenAdapter(NULL out): ND_INVALID_PARAMETER_3");
	check(prov->lpVtbl->OpenAdapter(prov, &IID_IND2Listener, adapter_id, (void **)&x) == E_NOINTERFACE,
	      "Provider::OpenAdapter(IID_IND2Listener): E_NOINTERFACE");
}

/* ---- IND2Adapter ---------------------------------------------------------------------- */
void adapter_codes(void)
{
	ND2_ADAPTER_INFO qi;
	IND2CompletionQueue *cq2 = NULL;
	IND2SharedReceiveQueue *srq = NULL;
	IND2QueuePair *qp = NULL;
	void *out = NULL;
	ULONG cb = 0;
	HRESULT st;

	check(ad->lpVtbl->CreateOverlappedFile(ad, NULL) == ND_INVALID_PARAMETER_1,
	      "Adapter::CreateOverlappedFile(NULL): ND_INVALID_PARAMETER_1");
	check(ad->lpVtbl->Query(ad, &qi, NULL) == ND_INVALID_PARAMETER_2,
	      "Adapter::Query(NULL size): ND_INVALID_PARAMETER_2");
	st = ad->lpVtbl->Query(ad, NULL, &cb);
	check(st == ND_BUFFER_OVERFLOW && cb == sizeof(qi),
	      "Adapter::Query(NULL, 0): ND_BUFFER_OVERFLOW with the size (%lu)", cb);
	cb = sizeof(qi) - 1;
	memset(&qi, 0xEE, sizeof(qi));
	check(ad->lpVtbl->Query(ad, &qi, &cb) == ND_BUFFER_OVERFLOW && cb == sizeof(qi) && qi.MaxTransferLength == 0xEEEEEEEE,
	      "Adapter::Query(one byte short): ND_BUFFER_OVERFLOW, the buffer untouched");
	qi.InfoVersion = 7;
	cb = sizeof(qi);
	check(ad->lpVtbl->Query(ad, &qi, &cb) == ND_INVALID_PARAMETER_1,
	      "Adapter::Query(InfoVersion 7): ND_INVALID_PARAMETER_1");
	cb = 0;
	st = ad->lpVtbl->QueryAddressList(ad, NULL, &cb);
	check(st == ND_BUFFER_OVERFLOW && cb > sizeof(SOCKET_ADDRESS_LIST),
	      "Adapter::QueryAddressList(no buffer): ND_BUFFER_OVERFLOW with the size (%lu)", cb);
	check(ad->lpVtbl->QueryAddressList(ad, NULL, NULL) == ND_INVALID_PARAMETER_2,
	      "Adapter::QueryAddressList(NULL size): ND_INVALID_PARAMETER_2");

	/* CreateCompletionQueue(iid, file, depth, group, affinity, out) */
	check(ad->lpVtbl->CreateCompletionQueue(ad, &IID_IND2CompletionQueue, NULL, 16, 0, 0, (void **)&cq2) ==
		      ND_INVALID_PARAMETER_2,
	      "Adapter::CreateCompletionQueue(no overlapped file): ND_INVALID_PARAMETER_2");
	check(ad->lpVtbl->CreateCompletionQueue(ad, &IID_IND2CompletionQueue, file, 0, 0, 0, (void **)&cq2) ==
		      ND_INVALID_PARAMETER_3,
	      "Adapter::CreateCompletionQueue(depth 0): ND_INVALID_PARAMETER_3");
	check(ad->lpVtbl->CreateCompletionQueue(ad, &IID_IND2CompletionQueue, file, info.MaxCompletionQueueDepth + 1, 0,
						0, (void **)&cq2) == ND_INVALID_PARAMETER_3,
	      "Adapter::CreateCompletionQueue(MaxCompletionQueueDepth + 1): ND_INVALID_PARAMETER_3");
	check(ad->lpVtbl->CreateCompletionQueue(ad, &IID_IND2CompletionQueue, file, 16, 1, 0, (void **)&cq2) ==
		      ND_INVALID_PARAMETER_4,
	      "Adapter::CreateCompletionQueue(processor group 1 of 1): ND_INVALID_PARAMETER_4");
	check(ad->lpVtbl->CreateCompletionQueue(ad, &IID_IND2CompletionQueue, file, 16, 0, 0, NULL) ==
		      ND_INVALID_PARAMETER_6,
	      "Adapter::CreateCompletionQueue(NULL out): ND_INVALID_PARAMETER_6");
	check(ad->lpVtbl->CreateCompletionQueue(ad, &IID_IND2Listener, file, 16, 0, 0, (void **)&cq2) == E_NOINTERFACE,
	      "Adapter::CreateCompletionQueue(IID_IND2Listener): E_NOINTERFACE");

	check(ad->lpVtbl->CreateMemoryRegion(ad, &IID_IND2MemoryRegion, NULL, &out) == ND_INVALID_PARAMETER_2,
	      "Adapter::CreateMemoryRegion(no overlapped file): ND_INVALID_PARAMETER_2");
	check(ad->lpVtbl->CreateMemoryRegion(ad, &IID_IND2MemoryRegion, file, NULL) == ND_INVALID_PARAMETER_3,
	      "Adapter::CreateMemoryRegion(NULL out): ND_INVALID_PARAMETER_3");
	check(ad->lpVtbl->CreateMemoryWindow(ad, &IID_IND2MemoryWindow, NULL) == ND_INVALID_PARAMETER_2,
	      "Adapter::CreateMemoryWindow(NULL out): ND_INVALID_PARAMETER_2");
	check(ad->lpVtbl->CreateConnector(ad, &IID_IND2Connector, NULL, &out) == ND_INVALID_PARAMETER_2,
	      "Adapter::CreateConnector(no overlapped file): ND_INVALID_PARAMETER_2");
	check(ad->lpVtbl->CreateConnector(ad, &IID_IND2Connector, file, NULL) == ND_INVALID_PARAMETER_3,
	      "Adapter::CreateConnector(NULL out): ND_INVALID_PARAMETER_3");
	check(ad->lpVtbl->CreateListener(ad, &IID_IND2Listener, NULL, &out) == ND_INVALID_PARAMETER_2,
	      "Adapter::CreateListener(no overlapped file): ND_INVALID_PARAMETER_2");
	check(ad->lpVtbl->CreateListener(ad, &IID_IND2Listener, file, NULL) == ND_INVALID_PARAMETER_3,
	      "Adapter::CreateListener(NULL out): ND_INVALID_PARAMETER_3");

	/* CreateSharedReceiveQueue(iid, file, depth, sge, threshold, group, affinity, out) */
	if (!info.MaxSharedReceiveQueueDepth) {
		check(ad->lpVtbl->CreateSharedReceiveQueue(ad, &IID_IND2SharedReceiveQueue, file, 4, 1, 0, 0, 0,
							   (void **)&srq) == ND_NOT_SUPPORTED,
		      "Adapter::CreateSharedReceiveQueue without SRQ support: ND_NOT_SUPPORTED");
		return;
	}
	check(ad->lpVtbl->CreateSharedReceiveQueue(ad, &IID_IND2SharedReceiveQueue, NULL, 4, 1, 0, 0, 0, (void **)&srq) ==
		      ND_INVALID_PARAMETER_2,
	      "Adapter::CreateSharedReceiveQueue(no overlapped file): ND_INVALID_PARAMETER_2");
	check(ad->lpVtbl->CreateSharedReceiveQueue(ad, &IID_IND2SharedReceiveQueue, file, 0, 1, 0, 0, 0, (void **)&srq) ==
		      ND_INVALID_PARAMETER_3,
	      "Adapter::CreateSharedReceiveQueue(depth 0): ND_INVALID_PARAMETER_3");
	check(ad->lpVtbl->CreateSharedReceiveQueue(ad, &IID_IND2SharedReceiveQueue, file,
						   info.MaxSharedReceiveQueueDepth + 1, 1, 0, 0, 0, (void **)&srq) ==
		      ND_INVALID_PARAMETER_3,
	      "Adapter::CreateSharedReceiveQueue(MaxSharedReceiveQueueDepth + 1): ND_INVALID_PARAMETER_3");
	check(ad->lpVtbl->CreateSharedReceiveQueue(ad, &IID_IND2SharedReceiveQueue, file, 4, info.MaxReceiveSge + 1, 0, 0,
						   0, (void **)&srq) == ND_INVALID_PARAMETER_4,
	      "Adapter::CreateSharedReceiveQueue(MaxReceiveSge + 1 SGEs): ND_INVALID_PARAMETER_4");
	check(ad->lpVtbl->CreateSharedReceiveQueue(ad, &IID_IND2SharedReceiveQueue, file, 4, 1, 5, 0, 0, (void **)&srq) ==
		      ND_INVALID_PARAMETER_5,
	      "Adapter::CreateSharedReceiveQueue(threshold 5 > depth 4): ND_INVALID_PARAMETER_5");
	check(ad->lpVtbl->CreateSharedReceiveQueue(ad, &IID_IND2SharedReceiveQueue, file, 4, 1, 0, 1, 0, (void **)&srq) ==
		      ND_INVALID_PARAMETER_6,
	      "Adapter::CreateSharedReceiveQueue(processor group 1 of 1): ND_INVALID_PARAMETER_6");
	check(ad->lpVtbl->CreateSharedReceiveQueue(ad, &IID_IND2SharedReceiveQueue, file, 4, 1, 0, 0, 0, NULL) ==
		      ND_INVALID_PARAMETER_8,
	      "Adapter::CreateSharedReceiveQueue(NULL out): ND_INVALID_PARAMETER_8");

	/* CreateQueuePair(iid, rcq, icq, ctx, rdepth, idepth, rsge, isge, inline, out) */
#define QP(r, i, rd, id, rs, is, in, o) \
	ad->lpVtbl->CreateQueuePair(ad, &IID_IND2QueuePair, IU(r), IU(i), NULL, rd, id, rs, is, in, o)
	check(QP(NULL, cq, 4, 4, 1, 1, 0, (void **)&qp) == ND_INVALID_PARAMETER_2,
	      "Adapter::CreateQueuePair(no receive CQ): ND_INVALID_PARAMETER_2");
	check(QP(mr, cq, 4, 4, 1, 1, 0, (void **)&qp) == ND_INVALID_PARAMETER_2,
	      "Adapter::CreateQueuePair(a memory region as receive CQ): ND_INVALID_PARAMETER_2");
	check(QP(cq, NULL, 4, 4, 1, 1, 0, (void **)&qp) == ND_INVALID_PARAMETER_3,
	      "Adapter::CreateQueuePair(no initiator CQ): ND_INVALID_PARAMETER_3");
	check(QP(cq, cq, 0, 4, 1, 1, 0, (void **)&qp) == ND_INVALID_PARAMETER_5,
	      "Adapter::CreateQueuePair(receive depth 0): ND_INVALID_PARAMETER_5");
	check(QP(cq, cq, info.MaxReceiveQueueDepth + 1, 4, 1, 1, 0, (void **)&qp) == ND_INVALID_PARAMETER_5,
	      "Adapter::CreateQueuePair(MaxReceiveQueueDepth + 1): ND_INVALID_PARAMETER_5");
	check(QP(cq, cq, 4, 0, 1, 1, 0, (void **)&qp) == ND_INVALID_PARAMETER_6,
	      "Adapter::CreateQueuePair(initiator depth 0): ND_INVALID_PARAMETER_6");
	check(QP(cq, cq, 4, info.MaxInitiatorQueueDepth + 1, 1, 1, 0, (void **)&qp) == ND_INVALID_PARAMETER_6,
	      "Adapter::CreateQueuePair(MaxInitiatorQueueDepth + 1): ND_INVALID_PARAMETER_6");
	check(QP(cq, cq, 4, 4, info.MaxReceiveSge + 1, 1, 0, (void **)&qp) == ND_INVALID_PARAMETER_7,
	      "Adapter::CreateQueuePair(MaxReceiveSge + 1): ND_INVALID_PARAMETER_7");
	check(QP(cq, cq, 4, 4, 1, info.MaxInitiatorSge + 1, 0, (void **)&qp) == ND_INVALID_PARAMETER_8,
	      "Adapter::CreateQueuePair(MaxInitiatorSge + 1): ND_INVALID_PARAMETER_8");
	check(QP(cq, cq, 4, 4, 1, 1, info.MaxInlineDataSize + 1, (void **)&qp) == ND_INVALID_PARAMETER_9,
	      "Adapter::CreateQueuePair(MaxInlineDataSize + 1): ND_INVALID_PARAMETER_9");
	check(QP(cq, cq, 4, 4, 1, 1, 0, NULL) == ND_INVALID_PARAMETER_10,
	      "Adapter::CreateQueuePair(NULL out): ND_INVALID_PARAMETER_10");
	check(!qp, "Adapter::CreateQueuePair: no queue pair came out of the failed calls");
#undef QP

	st = ad->lpVtbl->CreateSharedReceiveQueue(ad, &IID_IND2SharedReceiveQueue, file, 4, 1, 0, 0, 0, (void **)&srq);
	if (st != ND_SUCCESS)
		die("CreateSharedReceiveQueue(4, 1)");
	/* CreateQueuePairWithSrq(iid, rcq, icq, srq, ctx, idepth, isge, inline, out) */
#define SQP(r, i, s, id, is, in, o) \
	ad->lpVtbl->CreateQueuePairWithSrq(ad, &IID_IND2QueuePair, IU(r), IU(i), IU(s), NULL, id, is, in, o)
	check(SQP(NULL, cq, srq, 4, 1, 0, (void **)&qp) == ND_INVALID_PARAMETER_2,
	      "Adapter::CreateQueuePairWithSrq(no receive CQ): ND_INVALID_PARAMETER_2");
	check(SQP(cq, srq, srq, 4, 1, 0, (void **)&qp) == ND_INVALID_PARAMETER_3,
	      "Adapter::CreateQueuePairWithSrq(an SRQ as initiator CQ): ND_INVALID_PARAMETER_3");
	check(SQP(cq, cq, NULL, 4, 1, 0, (void **)&qp) == ND_INVALID_PARAMETER_4,
	      "Adapter::CreateQueuePairWithSrq(no SRQ): ND_INVALID_PARAMETER_4");
	check(SQP(cq, cq, cq, 4, 1, 0, (void **)&qp) == ND_INVALID_PARAMETER_4,
	      "Adapter::CreateQueuePairWithSrq(a CQ as SRQ): ND_INVALID_PARAMETER_4");
	check(SQP(cq, cq, srq, info.MaxInitiatorQueueDepth + 1, 1, 0, (void **)&qp) == ND_INVALID_PARAMETER_6,
	      "Adapter::CreateQueuePairWithSrq(MaxInitiatorQueueDepth + 1): ND_INVALID_PARAMETER_6");
	check(SQP(cq, cq, srq, 4, info.MaxInitiatorSge + 1, 0, (void **)&qp) == ND_INVALID_PARAMETER_7,
	      "Adapter::CreateQueuePairWithSrq(MaxInitiatorSge + 1): ND_INVALID_PARAMETER_7");
	check(SQP(cq, cq, srq, 4, 1, info.MaxInlineDataSize + 1, (void **)&qp) == ND_INVALID_PARAMETER_8,
	      "Adapter::CreateQueuePairWithSrq(MaxInlineDataSize + 1): ND_INVALID_PARAMETER_8");
	check(SQP(cq, cq, srq, 4, 1, 0, NULL) == ND_INVALID_PARAMETER_9,
	      "Adapter::CreateQueuePairWithSrq(NULL out): ND_INVALID_PARAMETER_9");
	check(!qp, "Adapter::CreateQueuePairWithSrq: no queue pair came out of the failed calls");
	if (SQP(cq, cq, srq, 4, 1, 0, (void **)&qp) != ND_SUCCESS)
		die("CreateQueuePairWithSrq(4, 1)");
	{
		ND2_SGE one = { buf, 64, lkey };

		check(qp->lpVtbl->Receive(qp, NULL, &one, 1) == ND_INVALID_DEVICE_REQUEST,
		      "QueuePair::Receive on a QP whose Receives go to an SRQ: ND_INVALID_DEVICE_REQUEST");
	}
	check(qp->lpVtbl->Release(qp) == 0, "Adapter: release the QP of the SRQ: 0");
#undef SQP
	check(srq->lpVtbl->Release(srq) == 0, "Adapter: release the SRQ: 0");
}

/* ---- IND2Overlapped and IND2CompletionQueue ------------------------------------------ */
void cq_codes(void)
{
	IND2CompletionQueue *q = NULL;
	OVERLAPPED ov = { 0 }, ov2 = { 0 };
	ND2_RESULT r[2];
	KAFFINITY aff;
	USHORT group;
	HRESULT st, cst;

	if (ad->lpVtbl->CreateCompletionQueue(ad, &IID_IND2CompletionQueue, file, 16, 0, 0, (void **)&q) != ND_SUCCESS)
		die("CreateCompletionQueue(16)");
	check(q->lpVtbl->GetNotifyAffinity(q, NULL, &aff) == ND_INVALID_PARAMETER,
	      "CompletionQueue::GetNotifyAffinity(NULL group): ND_INVALID_PARAMETER");
	check(q->lpVtbl->GetNotifyAffinity(q, &group, NULL) == ND_INVALID_PARAMETER,
	      "CompletionQueue::GetNotifyAffinity(NULL affinity): ND_INVALID_PARAMETER");
	group = 7;
	aff = 0;
	st = q->lpVtbl->GetNotifyAffinity(q, &group, &aff);
	check(st == ND_SUCCESS && group == 0 && aff != 0,
	      "CompletionQueue::GetNotifyAffinity: ND_SUCCESS, group 0, the process's processors (%#llx)",
	      (unsigned long long)aff);
	if (info.AdapterFlags & ND_ADAPTER_FLAG_CQ_RESIZE_SUPPORTED) {
		check(q->lpVtbl->Resize(q, 0) == ND_INVALID_PARAMETER,
		      "CompletionQueue::Resize(0): ND_INVALID_PARAMETER");
		check(q->lpVtbl->Resize(q, info.MaxCompletionQueueDepth + 1) == ND_INVALID_PARAMETER,
		      "CompletionQueue::Resize(MaxCompletionQueueDepth + 1): ND_INVALID_PARAMETER");
		check(q->lpVtbl->Resize(q, 32) == ND_SUCCESS, "CompletionQueue::Resize(32): ND_SUCCESS");
	} else {
		check(q->lpVtbl->Resize(q, 32) == ND_NOT_SUPPORTED,
		      "CompletionQueue::Resize without ND_ADAPTER_FLAG_CQ_RESIZE_SUPPORTED: ND_NOT_SUPPORTED");
	}
	check(q->lpVtbl->Notify(q, 7, &ov) == ND_INVALID_PARAMETER_1,
	      "CompletionQueue::Notify(type 7): ND_INVALID_PARAMETER_1");
	check(q->lpVtbl->Notify(q, ND_CQ_NOTIFY_ANY, NULL) == ND_INVALID_PARAMETER_2,
	      "CompletionQueue::Notify(NULL OVERLAPPED): ND_INVALID_PARAMETER_2");
	check(q->lpVtbl->GetResults(q, r, 0) == 0, "CompletionQueue::GetResults(nResults 0) on an empty CQ: 0");
	check(q->lpVtbl->GetResults(q, NULL, 2) == 0, "CompletionQueue::GetResults(NULL array): 0");

	check(q->lpVtbl->GetOverlappedResult(q, NULL, FALSE) == ND_INVALID_PARAMETER_1,
	      "Overlapped::GetOverlappedResult(NULL): ND_INVALID_PARAMETER_1");
	st = q->lpVtbl->Notify(q, ND_CQ_NOTIFY_ANY, &ov);
	check(st == ND_PENDING && q->lpVtbl->GetOverlappedResult(q, &ov, FALSE) == ND_PENDING,
	      "Overlapped::GetOverlappedResult(a pending Notify, no wait): ND_PENDING");
	st = q->lpVtbl->Notify(q, ND_CQ_NOTIFY_SOLICITED, &ov2);
	cst = q->lpVtbl->CancelOverlappedRequests(q);
	/* Both already done when Cancel returns: status and packet. */
	check(st == ND_PENDING && cst == ND_SUCCESS && (HRESULT)ov.Internal == ND_CANCELED &&
		      (HRESULT)ov2.Internal == ND_CANCELED && wait_port(port, &ov, 0) == ND_CANCELED &&
		      wait_port(port, &ov2, 0) == ND_CANCELED,
	      "Overlapped::CancelOverlappedRequests on a CQ: ND_SUCCESS, both Notify requests ND_CANCELED and "
	      "their packets queued before it returns");
	check(q->lpVtbl->GetOverlappedResult(q, &ov, TRUE) == ND_CANCELED,
	      "Overlapped::GetOverlappedResult(the cancelled Notify, wait): ND_CANCELED");
	check(q->lpVtbl->CancelOverlappedRequests(q) == ND_SUCCESS,
	      "Overlapped::CancelOverlappedRequests with nothing pending: ND_SUCCESS");

	memset(&ov, 0, sizeof(ov));
	st = q->lpVtbl->Notify(q, ND_CQ_NOTIFY_ERRORS, &ov);
	check(st == ND_PENDING && q->lpVtbl->Release(q) == 0 && wait(st, &ov) == ND_CANCELED,
	      "CompletionQueue::Notify: the CQ released under it completes it ND_CANCELED");
}

/* ---- IND2SharedReceiveQueue ---------------------------------------------------------- */
void srq_codes(void)
{
	IND2SharedReceiveQueue *s = NULL;
	ND2_SGE two[2] = { { buf, 64, lkey }, { buf + 64, 64, lkey } };
	/* A Receive's limit is the largest message there is (2^31 bytes), not
	 * MaxTransferLength (see QueuePair::Receive). */
	ND2_SGE big = { buf, 0x80000001u, lkey };
	OVERLAPPED ov = { 0 };
	KAFFINITY aff;
	USHORT group;
	HRESULT st = ND_SUCCESS;
	int i, n = 0;

	if (!info.MaxSharedReceiveQueueDepth)
		return;
	if (ad->lpVtbl->CreateSharedReceiveQueue(ad, &IID_IND2SharedReceiveQueue, file, 4, 1, 0, 0, 0, (void **)&s))
		die("CreateSharedReceiveQueue(4, 1)");
	check(s->lpVtbl->GetNotifyAffinity(s, NULL, &aff) == ND_INVALID_PARAMETER &&
		      s->lpVtbl->GetNotifyAffinity(s, &group, NULL) == ND_INVALID_PARAMETER,
	      "SharedReceiveQueue::GetNotifyAffinity(NULL group / NULL affinity): ND_INVALID_PARAMETER");
	group = 7;
	aff = 0;
	st = s->lpVtbl->GetNotifyAffinity(s, &group, &aff);
	check(st == ND_SUCCESS && group == 0 && aff != 0,
	      "SharedReceiveQueue::GetNotifyAffinity: ND_SUCCESS, group 0 (%#llx)", (unsigned long long)aff);
	check(s->lpVtbl->Receive(s, NULL, NULL, 1) == ND_INVALID_PARAMETER_2,
	      "SharedReceiveQueue::Receive(NULL SGE array, 1 SGE): ND_INVALID_PARAMETER_2");
	check(s->lpVtbl->Receive(s, NULL, two, 2) == ND_DATA_OVERRUN,
	      "SharedReceiveQueue::Receive(2 SGEs, maxRequestSge 1): ND_DATA_OVERRUN");
	check(s->lpVtbl->Receive(s, NULL, &big, 1) == ND_BUFFER_OVERFLOW,
	      "SharedReceiveQueue::Receive(2^31 + 1 bytes, more than any message): ND_BUFFER_OVERFLOW");
	for (i = 0; i < 16 && (st = s->lpVtbl->Receive(s, (void *)(ULONG_PTR)i, two, 1)) == ND_SUCCESS; i++)
		n++;
	/* The device's queue, at least the depth asked, is the limit
	 * (docs/nd2-decisions.md, "Queue depths"). */
	check(n >= 4 && st == ND_NO_MORE_ENTRIES,
	      "SharedReceiveQueue::Receive past queueDepth 4: ND_NO_MORE_ENTRIES once the queue is full (after %d, %#lx)", n, st);
	check(s->lpVtbl->Modify(s, info.MaxSharedReceiveQueueDepth + 1, 0) == ND_INVALID_PARAMETER,
	      "SharedReceiveQueue::Modify(MaxSharedReceiveQueueDepth + 1): ND_INVALID_PARAMETER");
	check(s->lpVtbl->Modify(s, 2, 0) == ND_BUFFER_OVERFLOW,
	      "SharedReceiveQueue::Modify(depth 2 with 4 Receives outstanding): ND_BUFFER_OVERFLOW");
	check(s->lpVtbl->Modify(s, 4, 2) == ND_SUCCESS, "SharedReceiveQueue::Modify(4, threshold 2): ND_SUCCESS");
	check(s->lpVtbl->Notify(s, NULL) == ND_INVALID_PARAMETER_1,
	      "SharedReceiveQueue::Notify(NULL): ND_INVALID_PARAMETER_1");
	st = s->lpVtbl->Notify(s, &ov);
	check(st == ND_PENDING && s->lpVtbl->CancelOverlappedRequests(s) == ND_SUCCESS &&
		      (HRESULT)ov.Internal == ND_CANCELED && wait_port(port, &ov, 0) == ND_CANCELED,
	      "SharedReceiveQueue: CancelOverlappedRequests completes a pending Notify ND_CANCELED before it returns");
	memset(&ov, 0, sizeof(ov));
	st = s->lpVtbl->Notify(s, &ov);
	check(st == ND_PENDING && s->lpVtbl->Release(s) == 0 && wait(st, &ov) == ND_CANCELED,
	      "SharedReceiveQueue::Notify: the SRQ released under it completes it ND_CANCELED");
}

/* ---- IND2MemoryRegion ------------------------------------------------------------------ */
void mr_codes(void)
{
	IND2MemoryRegion *m = NULL;
	OVERLAPPED ov = { 0 };
	char *reserved;
	HRESULT st;

	if (ad->lpVtbl->CreateMemoryRegion(ad, &IID_IND2MemoryRegion, file, (void **)&m))
		die("CreateMemoryRegion");
	check(m->lpVtbl->Deregister(m, NULL) == ND_INVALID_PARAMETER_1,
	      "MemoryRegion::Deregister(NULL): ND_INVALID_PARAMETER_1");
	check(m->lpVtbl->Deregister(m, &ov) == ND_INVALID_DEVICE_STATE,
	      "MemoryRegion::Deregister of a region never registered: ND_INVALID_DEVICE_STATE");
	check(m->lpVtbl->Register(m, NULL, 4096, 0, &ov) == ND_INVALID_PARAMETER,
	      "MemoryRegion::Register(NULL buffer): ND_INVALID_PARAMETER");
	check(m->lpVtbl->Register(m, buf, 0, 0, &ov) == ND_INVALID_BUFFER_SIZE,
	      "MemoryRegion::Register(0 bytes): ND_INVALID_BUFFER_SIZE");
	if (info.MaxRegistrationSize < ~(UINT64)0 - (UINT64)(ULONG_PTR)buf)
		check(m->lpVtbl->Register(m, buf, info.MaxRegistrationSize + 1, 0, &ov) == ND_INVALID_PARAMETER,
		      "MemoryRegion::Register(MaxRegistrationSize + 1): ND_INVALID_PARAMETER");
	else
		note("MemoryRegion::Register beyond MaxRegistrationSize (%#llx) cannot be asked in a 64-bit address space",
		     (unsigned long long)info.MaxRegistrationSize);
	check(m->lpVtbl->Register(m, buf, 4096, BAD_FLAG, &ov) == ND_INVALID_PARAMETER_3,
	      "MemoryRegion::Register(unknown flag): ND_INVALID_PARAMETER_3");
	check(m->lpVtbl->Register(m, buf, 4096, 0, NULL) == ND_INVALID_PARAMETER_4,
	      "MemoryRegion::Register(NULL OVERLAPPED): ND_INVALID_PARAMETER_4");
	/* Address space reserved but never committed: nothing to pin. */
	reserved = VirtualAlloc(NULL, 65536, MEM_RESERVE, PAGE_NOACCESS);
	st = m->lpVtbl->Register(m, reserved, 65536, ND_MR_FLAG_ALLOW_LOCAL_WRITE, &ov);
	check(wait(st, &ov) == ND_ACCESS_VIOLATION,
	      "MemoryRegion::Register(reserved, uncommitted memory): ND_ACCESS_VIOLATION (%#lx)", st);
	VirtualFree(reserved, 0, MEM_RELEASE);
	st = m->lpVtbl->Register(m, buf, 4096, ND_MR_FLAG_ALLOW_LOCAL_WRITE, &ov);
	check(wait(st, &ov) == ND_SUCCESS, "MemoryRegion::Register(4 KiB): ND_SUCCESS");
	check(m->lpVtbl->Register(m, buf + 4096, 4096, 0, &ov) == ND_INVALID_DEVICE_STATE,
	      "MemoryRegion::Register on a registered region: ND_INVALID_DEVICE_STATE");
	check(m->lpVtbl->Register(m, buf, 4096, ND_MR_FLAG_ALLOW_LOCAL_WRITE, &ov) == ND_INVALID_DEVICE_STATE,
	      "MemoryRegion::Register of the same buffer twice on one region: ND_INVALID_DEVICE_STATE");
	check(m->lpVtbl->CancelOverlappedRequests(m) == ND_SUCCESS,
	      "MemoryRegion::CancelOverlappedRequests with nothing pending: ND_SUCCESS");
	st = m->lpVtbl->Deregister(m, &ov);
	check(wait(st, &ov) == ND_SUCCESS, "MemoryRegion::Deregister: ND_SUCCESS");
	check(m->lpVtbl->Deregister(m, &ov) == ND_INVALID_DEVICE_STATE,
	      "MemoryRegion::Deregister twice: ND_INVALID_DEVICE_STATE");
	check(m->lpVtbl->Release(m) == 0, "MemoryRegion: release: 0");
}

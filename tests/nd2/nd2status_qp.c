/* The nd2status rig's queue-pair codes: every IND2QueuePair method before a
 * connection (wrong state, arguments, limits), then on connections made in
 * this process: wrong-state connector calls, full queues, GetResults with
 * nResults 0, memory windows, and the ND2_RESULT statuses of failed
 * requests. */
#include <winsock2.h>
#include <ws2tcpip.h>
#include <windows.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nd2status.h"

/* ---- IND2QueuePair before a connection ---------------------------------------------- */
void qp_unconnected_codes(void)
{
	ND2_SGE one = { buf, 64, lkey }, big = { buf, info.MaxTransferLength + 1, lkey };
	ND2_SGE *many = calloc(info.MaxReceiveSge + info.MaxInitiatorSge + 2, sizeof(*many));
	IND2CompletionQueue *q;
	IND2QueuePair *qp;
	IND2MemoryWindow *mw = NULL;
	ND2_RESULT r;
	HRESULT st = ND_SUCCESS;
	int i, n = 0, canceled = 0;

	for (i = 0; i < (int)(info.MaxReceiveSge + info.MaxInitiatorSge + 2); i++)
		many[i] = one;
	if (ad->lpVtbl->CreateCompletionQueue(ad, &IID_IND2CompletionQueue, file, 64, 0, 0, (void **)&q))
		die("CreateCompletionQueue(64)");
	qp = make_qp(q, (void *)0xA1, 4, 4, 1, 0);
	if (ad->lpVtbl->CreateMemoryWindow(ad, &IID_IND2MemoryWindow, (void **)&mw))
		die("CreateMemoryWindow");

	check(qp->lpVtbl->Send(qp, NULL, &one, 1, 0) == ND_CONNECTION_INVALID,
	      "QueuePair::Send before the connection: ND_CONNECTION_INVALID");
	check(qp->lpVtbl->Write(qp, NULL, &one, 1, (UINT64)(ULONG_PTR)buf, mr->lpVtbl->GetRemoteToken(mr), 0) ==
		      ND_CONNECTION_INVALID,
	      "QueuePair::Write before the connection: ND_CONNECTION_INVALID");
	check(qp->lpVtbl->Read(qp, NULL, &one, 1, (UINT64)(ULONG_PTR)buf, mr->lpVtbl->GetRemoteToken(mr), 0) ==
		      ND_CONNECTION_INVALID,
	      "QueuePair::Read before the connection: ND_CONNECTION_INVALID");
	check(qp->lpVtbl->Bind(qp, NULL, IU(mr), IU(mw), buf, 4096, ND_OP_FLAG_ALLOW_READ) == ND_CONNECTION_INVALID,
	      "QueuePair::Bind before the connection: ND_CONNECTION_INVALID");
	check(qp->lpVtbl->Invalidate(qp, NULL, IU(mw), 0) == ND_CONNECTION_INVALID,
	      "QueuePair::Invalidate before the connection: ND_CONNECTION_INVALID");

	/* Argument checks come before the state: the same codes unconnected. */
	check(qp->lpVtbl->Send(qp, NULL, &one, 1, BAD_FLAG) == ND_INVALID_PARAMETER_4,
	      "QueuePair::Send(unknown flag): ND_INVALID_PARAMETER_4");
	check(qp->lpVtbl->Send(qp, NULL, NULL, 1, 0) == ND_INVALID_PARAMETER_2,
	      "QueuePair::Send(NULL SGE array, 1 SGE): ND_INVALID_PARAMETER_2");
	check(qp->lpVtbl->Write(qp, NULL, &one, 1, 0, 0, ND_OP_FLAG_SEND_AND_SOLICIT_EVENT) == ND_INVALID_PARAMETER_6,
	      "QueuePair::Write(SEND_AND_SOLICIT_EVENT): ND_INVALID_PARAMETER_6");
	check(qp->lpVtbl->Write(qp, NULL, &one, 1, 0, 0, BAD_FLAG) == ND_INVALID_PARAMETER_6,
	      "QueuePair::Write(unknown flag): ND_INVALID_PARAMETER_6");
	check(qp->lpVtbl->Read(qp, NULL, &one, 1, 0, 0, ND_OP_FLAG_INLINE) == ND_INVALID_PARAMETER_6,
	      "QueuePair::Read(INLINE): ND_INVALID_PARAMETER_6");
	check(qp->lpVtbl->Read(qp, NULL, &one, 1, 0, 0, ND_OP_FLAG_SEND_AND_SOLICIT_EVENT) == ND_INVALID_PARAMETER_6,
	      "QueuePair::Read(SEND_AND_SOLICIT_EVENT): ND_INVALID_PARAMETER_6");
	check(qp->lpVtbl->Read(qp, NULL, NULL, 1, 0, 0, 0) == ND_INVALID_PARAMETER_2 &&
		      qp->lpVtbl->Write(qp, NULL, NULL, 1, 0, 0, 0) == ND_INVALID_PARAMETER_2,
	      "QueuePair::Read/Write(NULL SGE array, 1 SGE): ND_INVALID_PARAMETER_2");
	check(qp->lpVtbl->Bind(qp, NULL, NULL, IU(mw), buf, 4096, 0) == ND_INVALID_PARAMETER_2,
	      "QueuePair::Bind(no memory region): ND_INVALID_PARAMETER_2");
	check(qp->lpVtbl->Bind(qp, NULL, IU(mr), IU(mr), buf, 4096, 0) == ND_INVALID_PARAMETER_3,
	      "QueuePair::Bind(a memory region as window): ND_INVALID_PARAMETER_3");
	check(qp->lpVtbl->Bind(qp, NULL, IU(mr), IU(mw), NULL, 4096, 0) == ND_INVALID_PARAMETER_4,
	      "QueuePair::Bind(NULL buffer): ND_INVALID_PARAMETER_4");
	check(qp->lpVtbl->Bind(qp, NULL, IU(mr), IU(mw), buf, 4096, BAD_FLAG) == ND_INVALID_PARAMETER_6,
	      "QueuePair::Bind(unknown flag): ND_INVALID_PARAMETER_6");
	check(qp->lpVtbl->Bind(qp, NULL, IU(mr), IU(mw), buf, 4096, ND_OP_FLAG_INLINE) == ND_INVALID_PARAMETER_6,
	      "QueuePair::Bind(INLINE): ND_INVALID_PARAMETER_6");
	check(qp->lpVtbl->Invalidate(qp, NULL, NULL, 0) == ND_INVALID_PARAMETER_2,
	      "QueuePair::Invalidate(no window): ND_INVALID_PARAMETER_2");
	check(qp->lpVtbl->Invalidate(qp, NULL, IU(mw), ND_OP_FLAG_ALLOW_WRITE) == ND_INVALID_PARAMETER_3,
	      "QueuePair::Invalidate(ALLOW_WRITE): ND_INVALID_PARAMETER_3");

	/* Limits of the request, also before the connection. */
	check(qp->lpVtbl->Send(qp, NULL, many, info.MaxInitiatorSge + 1, 0) == ND_DATA_OVERRUN,
	      "QueuePair::Send(MaxInitiatorSge + 1 SGEs): ND_DATA_OVERRUN");
	check(qp->lpVtbl->Write(qp, NULL, many, info.MaxInitiatorSge + 1, 0, 0, 0) == ND_DATA_OVERRUN,
	      "QueuePair::Write(MaxInitiatorSge + 1 SGEs): ND_DATA_OVERRUN");
	check(qp->lpVtbl->Read(qp, NULL, many, info.MaxInitiatorSge + 1, 0, 0, 0) == ND_DATA_OVERRUN,
	      "QueuePair::Read(MaxInitiatorSge + 1 SGEs): ND_DATA_OVERRUN");
	check(qp->lpVtbl->Receive(qp, NULL, many, info.MaxReceiveSge + 1) == ND_DATA_OVERRUN,
	      "QueuePair::Receive(MaxReceiveSge + 1 SGEs): ND_DATA_OVERRUN");
	check(qp->lpVtbl->Receive(qp, NULL, NULL, 1) == ND_INVALID_PARAMETER_2,
	      "QueuePair::Receive(NULL SGE array, 1 SGE): ND_INVALID_PARAMETER_2");
	check(qp->lpVtbl->Send(qp, NULL, &big, 1, 0) == ND_BUFFER_OVERFLOW,
	      "QueuePair::Send(MaxTransferLength + 1 bytes): ND_BUFFER_OVERFLOW");
	check(qp->lpVtbl->Write(qp, NULL, &big, 1, 0, 0, 0) == ND_BUFFER_OVERFLOW,
	      "QueuePair::Write(MaxTransferLength + 1 bytes): ND_BUFFER_OVERFLOW");
	check(qp->lpVtbl->Read(qp, NULL, &big, 1, 0, 0, 0) == ND_BUFFER_OVERFLOW,
	      "QueuePair::Read(MaxTransferLength + 1 bytes): ND_BUFFER_OVERFLOW");
	/* A Receive is not bounded by MaxTransferLength (a buffer larger
	 * than any message is harmless: the SDK's ndmw posts 64 MiB), only by
	 * the largest message there is, 2^31 bytes. */
	{
		ND2_SGE huge = { buf, 0x80000001u, lkey };

		check(qp->lpVtbl->Receive(qp, NULL, &huge, 1) == ND_BUFFER_OVERFLOW,
		      "QueuePair::Receive(2^31 + 1 bytes, more than any message): ND_BUFFER_OVERFLOW");
	}
	{
		ND2_SGE halves[2] = { { buf, info.MaxTransferLength / 2 + 1, lkey },
				      { buf, info.MaxTransferLength / 2 + 1, lkey } };

		check(qp->lpVtbl->Send(qp, NULL, halves, 2, 0) == ND_BUFFER_OVERFLOW,
		      "QueuePair::Send(2 SGEs together MaxTransferLength + 2 bytes): ND_BUFFER_OVERFLOW");
	}

	/* Receives are allowed before the connection, up to the depth asked. */
	for (i = 0; i < 64 && (st = qp->lpVtbl->Receive(qp, (void *)(ULONG_PTR)(0x100 + i), &one, 1)) == ND_SUCCESS; i++)
		n++;
	check(n >= 4 && st == ND_NO_MORE_ENTRIES,
	      "QueuePair::Receive past receiveQueueDepth 4: ND_NO_MORE_ENTRIES once the queue is full (after %d, %#lx)", n, st);
	check(qp->lpVtbl->Flush(qp) == ND_SUCCESS, "QueuePair::Flush before the connection: ND_SUCCESS");
	while (get_result(q, &r, 2000))
		canceled += r.Status == ND_CANCELED && r.RequestType == Nd2RequestTypeReceive && r.QueuePairContext == (void *)0xA1;
	check(canceled == n, "QueuePair::Flush: the %d posted Receives complete ND_CANCELED (%d)", n, canceled);
	st = qp->lpVtbl->Receive(qp, (void *)0x1FF, &one, 1);
	r.Status = 1;
	i = st == ND_SUCCESS && get_result(q, &r, 5000);
	check(i && r.Status == ND_CANCELED && r.RequestContext == (void *)0x1FF,
	      "QueuePair::Receive after Flush: ND_SUCCESS, completes ND_CANCELED within 5 s (%#lx, then %s %#lx)", st,
	      i ? "completed" : "never completed", r.Status);
	check(mw->lpVtbl->Release(mw) == 0 && qp->lpVtbl->Release(qp) == 0 && q->lpVtbl->Release(q) == 0,
	      "QueuePair: release the window, the QP and the CQ: 0");
	free(many);
}

/* ---- a connection: state errors, the queue pair's limits, windows, results ---------- */
void connected_codes(void)
{
	IND2CompletionQueue *qa_cq, *qp_cq;
	IND2QueuePair *qa, *qp;
	IND2MemoryRegion *ro = NULL;
	IND2MemoryWindow *mw = NULL, *mw2 = NULL;
	IND2Connector *c2;
	struct conn cn;
	struct sockaddr_in dst = addr_of(ip, PORT + 1);
	ND2_SGE one = { buf, 64, lkey }, small = { buf + 8192, 8, lkey }, send100 = { buf + 16384, 100, lkey };
	char inl[1024];
	ND2_SGE big_inline = { inl, 0, 0 };
	OVERLAPPED ov = { 0 }, nd = { 0 };
	ND2_RESULT r[4];
	HRESULT st;
	int i, n, overrun, canceled, results, sends = 0;
	UINT32 t1;

	if (ad->lpVtbl->CreateCompletionQueue(ad, &IID_IND2CompletionQueue, file, 64, 0, 0, (void **)&qa_cq) ||
	    ad->lpVtbl->CreateCompletionQueue(ad, &IID_IND2CompletionQueue, file, 64, 0, 0, (void **)&qp_cq))
		die("two CQs");
	qa = make_qp(qa_cq, (void *)0xC1, 8, 4, 1, 64);
	qp = make_qp(qp_cq, (void *)0xC2, 8, 4, 1, 64);
	connect_pair(&cn, PORT + 1, qa, qp);
	check(1, "a connection in this process, initiator depth 4 on both sides");

	/* The connectors' wrong-state calls. */
	check(cn.act->lpVtbl->Connect(cn.act, IU(qa), SA(dst), sizeof(dst), 1, 1, NULL, 0, &ov) == ND_CONNECTION_ACTIVE,
	      "Connector::Connect on a connected connector: ND_CONNECTION_ACTIVE");
	check(cn.act->lpVtbl->CompleteConnect(cn.act, &ov) == ND_CONNECTION_INVALID,
	      "Connector::CompleteConnect twice: ND_CONNECTION_INVALID");
	check(cn.pas->lpVtbl->Accept(cn.pas, IU(qp), 1, 1, NULL, 0, &ov) == ND_CONNECTION_ACTIVE,
	      "Connector::Accept twice: ND_CONNECTION_ACTIVE");
	check(cn.pas->lpVtbl->Reject(cn.pas, NULL, 0) == ND_CONNECTION_INVALID,
	      "Connector::Reject of an accepted connection: ND_CONNECTION_INVALID");
	c2 = make_connector();
	st = c2->lpVtbl->Connect(c2, IU(qa), SA(dst), sizeof(dst), 1, 1, NULL, 0, &ov);
	check(st == ND_CONNECTION_ACTIVE,
	      "Connector::Connect with a queue pair connected by another connector: ND_CONNECTION_ACTIVE (%#lx)", st);
	if (st == ND_PENDING)
		wait(st, &ov);
	c2->lpVtbl->Release(c2);

	/* The queue pair's limits once connected. */
	memset(inl, 'i', sizeof(inl));
	big_inline.BufferLength = info.MaxInlineDataSize + 1;
	if (info.MaxInlineDataSize + 1 <= sizeof(inl))
		check(qa->lpVtbl->Send(qa, NULL, &big_inline, 1, ND_OP_FLAG_INLINE) == ND_BUFFER_OVERFLOW &&
			      qa->lpVtbl->Write(qa, NULL, &big_inline, 1, (UINT64)(ULONG_PTR)buf,
						mr->lpVtbl->GetRemoteToken(mr), ND_OP_FLAG_INLINE) == ND_BUFFER_OVERFLOW,
		      "QueuePair::Send/Write(INLINE, MaxInlineDataSize + 1 bytes): ND_BUFFER_OVERFLOW");
	else
		check(0, "MaxInlineDataSize %lu fits the test's buffer", info.MaxInlineDataSize);
	/* Nothing reaped: the fifth initiator request finds the queue full. */
	for (i = 0, n = 0; i < 64 && (st = qp->lpVtbl->Receive(qp, NULL, &one, 1)) == ND_SUCCESS; i++)
		n++;
	check(n >= 8 && st == ND_NO_MORE_ENTRIES, "QueuePair::Receive past receiveQueueDepth 8 on a connected QP: "
	      "ND_NO_MORE_ENTRIES once the queue is full (after %d, %#lx)", n, st);
	for (i = 0, n = 0; i < 64 && (st = qa->lpVtbl->Send(qa, (void *)(ULONG_PTR)(0x200 + i), &one, 1, 0)) == ND_SUCCESS; i++)
		n++;
	check(n >= 4 && st == ND_NO_MORE_ENTRIES,
	      "QueuePair::Send past initiatorQueueDepth 4, nothing reaped: ND_NO_MORE_ENTRIES once the queue is full "
	      "(after %d, %#lx)", n, st);
	sends = n;
	st = qa->lpVtbl->Write(qa, NULL, &one, 1, (UINT64)(ULONG_PTR)buf, mr->lpVtbl->GetRemoteToken(mr), 0);
	check(st == ND_NO_MORE_ENTRIES, "QueuePair::Write on the full initiator queue: ND_NO_MORE_ENTRIES (%#lx)", st);
	st = qa->lpVtbl->Read(qa, NULL, &one, 1, (UINT64)(ULONG_PTR)buf, mr->lpVtbl->GetRemoteToken(mr), 0);
	check(st == ND_NO_MORE_ENTRIES, "QueuePair::Read on the full initiator queue: ND_NO_MORE_ENTRIES (%#lx)", st);
	if (ad->lpVtbl->CreateMemoryWindow(ad, &IID_IND2MemoryWindow, (void **)&mw))
		die("CreateMemoryWindow");
	st = qa->lpVtbl->Bind(qa, NULL, IU(mr), IU(mw), buf, 4096, ND_OP_FLAG_ALLOW_READ);
	check(st == ND_NO_MORE_ENTRIES, "QueuePair::Bind on the full initiator queue: ND_NO_MORE_ENTRIES (%#lx)", st);
	/* GetResults with nResults 0 takes nothing. */
	for (i = 0; i < 200 && !qa_cq->lpVtbl->GetResults(qa_cq, r, 0); i++)
		Sleep(5);
	Sleep(200);
	check(qa_cq->lpVtbl->GetResults(qa_cq, r, 0) == 0,
	      "CompletionQueue::GetResults(nResults 0) with results waiting: 0");
	for (results = 0; results < sends && get_result(qa_cq, r, 5000);)
		results += r[0].Status == ND_SUCCESS && r[0].RequestType == Nd2RequestTypeSend;
	check(results == sends,
	      "CompletionQueue::GetResults: the %d Sends are all still there after it (%d)", sends, results);
	check(drain(qp_cq, 2000, NULL) == sends, "the peer received the %d Sends", sends);

	/* Memory windows: binding, busy regions, invalidation. */
	if (ad->lpVtbl->CreateMemoryWindow(ad, &IID_IND2MemoryWindow, (void **)&mw2) ||
	    ad->lpVtbl->CreateMemoryRegion(ad, &IID_IND2MemoryRegion, file, (void **)&ro))
		die("two windows and a region");
	st = ro->lpVtbl->Register(ro, buf + 32768, 4096, ND_MR_FLAG_ALLOW_REMOTE_READ, &ov);
	if (wait(st, &ov) != ND_SUCCESS)
		die("Register a region without ALLOW_LOCAL_WRITE");
	check(qp->lpVtbl->Bind(qp, (void *)0xD0, IU(ro), IU(mw), buf + 32768, 4096, ND_OP_FLAG_ALLOW_WRITE) ==
		      ND_ACCESS_VIOLATION,
	      "QueuePair::Bind(ALLOW_WRITE) to a region without ND_MR_FLAG_ALLOW_LOCAL_WRITE: ND_ACCESS_VIOLATION");
	st = qp->lpVtbl->Bind(qp, (void *)0xD1, IU(ro), IU(mw), buf + 32768, 4096, ND_OP_FLAG_ALLOW_READ);
	check(st == ND_SUCCESS && get_result(qp_cq, r, 5000) && r[0].Status == ND_SUCCESS &&
		      r[0].RequestType == Nd2RequestTypeBind,
	      "QueuePair::Bind(ALLOW_READ): ND_SUCCESS, completed ND_SUCCESS (%#lx)", st);
	memset(&ov, 0, sizeof(ov));
	st = ro->lpVtbl->Deregister(ro, &ov);
	check(wait(st, &ov) == ND_DEVICE_BUSY,
	      "MemoryRegion::Deregister while a window is bound: ND_DEVICE_BUSY (%#lx)", st);
	st = qp->lpVtbl->Invalidate(qp, (void *)0xD3, IU(mw), 0);
	check(st == ND_SUCCESS && get_result(qp_cq, r, 5000) && r[0].Status == ND_SUCCESS &&
		      r[0].RequestType == Nd2RequestTypeInvalidate,
	      "QueuePair::Invalidate of the bound window: ND_SUCCESS, completed ND_SUCCESS (%#lx)", st);
	memset(&ov, 0, sizeof(ov));
	st = ro->lpVtbl->Deregister(ro, &ov);
	check(wait(st, &ov) == ND_SUCCESS, "MemoryRegion::Deregister once no window is bound: ND_SUCCESS (%#lx)", st);
	/* Windows are bound and invalidated repeatedly (IND2MemoryWindow.md). */
	st = qp->lpVtbl->Bind(qp, (void *)0xD8, IU(mr), IU(mw), buf, 4096, ND_OP_FLAG_ALLOW_READ);
	r[0].Status = 1;
	i = st == ND_SUCCESS && get_result(qp_cq, r, 5000);
	check(i && r[0].Status == ND_SUCCESS,
	      "QueuePair::Bind of the invalidated window to another region: ND_SUCCESS (%#lx, then %#lx)",
	      st, r[0].Status);
	st = qp->lpVtbl->Invalidate(qp, (void *)0xD9, IU(mw), 0);
	r[0].Status = 1;
	i = st == ND_SUCCESS && get_result(qp_cq, r, 5000);
	check(i && r[0].Status == ND_SUCCESS,
	      "QueuePair::Invalidate it again: ND_SUCCESS (%#lx, then %#lx)", st, r[0].Status);
	st = qp->lpVtbl->Invalidate(qp, (void *)0xD4, IU(mw2), 0);
	check(st == ND_INVALID_DEVICE_REQUEST,
	      "QueuePair::Invalidate of a window never bound: ND_INVALID_DEVICE_REQUEST (%#lx)", st);
	st = qp->lpVtbl->Invalidate(qp, (void *)0xD5, IU(mw), 0);
	check(st == ND_INVALID_DEVICE_REQUEST,
	      "QueuePair::Invalidate of a window already invalidated: ND_INVALID_DEVICE_REQUEST (%#lx)", st);
	st = qa->lpVtbl->Receive(qa, (void *)0xD6, &one, 1);
	st |= qp->lpVtbl->Send(qp, (void *)0xD7, &one, 1, 0);
	check(st == ND_SUCCESS && get_result(qp_cq, r, 5000) && r[0].Status == ND_SUCCESS && r[0].RequestContext == (void *)0xD7,
	      "the queue pair still works after the refused Invalidate: a Send completes ND_SUCCESS (%#lx, %#lx)", st, r[0].Status);
	check(ro->lpVtbl->Release(ro) == 0 && mw2->lpVtbl->Release(mw2) == 0, "release a window and the region: 0");
	close_pair(&cn);
	drain(qp_cq, 2000, NULL);
	drain(qa_cq, 500, NULL);
	qa->lpVtbl->Release(qa);
	qp->lpVtbl->Release(qp);

	/* A bound window is invalidated before it is bound again (IND2MemoryWindow.md):
	 * the device refuses the second Bind, a malformed request. */
	qa = make_qp(qa_cq, (void *)0xF1, 8, 4, 1, 0);
	qp = make_qp(qp_cq, (void *)0xF2, 8, 4, 1, 0);
	connect_pair(&cn, PORT + 3, qa, qp);
	check(mw->lpVtbl->Release(mw) == 0, "release the first window: 0");
	if (ad->lpVtbl->CreateMemoryWindow(ad, &IID_IND2MemoryWindow, (void **)&mw))
		die("CreateMemoryWindow");
	st = qp->lpVtbl->Bind(qp, (void *)0xF3, IU(mr), IU(mw), buf, 4096, ND_OP_FLAG_ALLOW_READ);
	r[0].Status = 1;
	i = st == ND_SUCCESS && get_result(qp_cq, r, 5000);
	check(i && r[0].Status == ND_SUCCESS && r[0].RequestContext == (void *)0xF3,
	      "a third connection: Bind a window (%#lx, then %#lx for %p)", st, r[0].Status, r[0].RequestContext);
	t1 = mw->lpVtbl->GetRemoteToken(mw);
	st = qp->lpVtbl->Bind(qp, (void *)0xF4, IU(mr), IU(mw), buf + 4096, 4096, ND_OP_FLAG_ALLOW_READ);
	r[0].Status = 1;
	i = st == ND_SUCCESS && get_result(qp_cq, r, 5000);
	check(i && r[0].Status == ND_INVALID_DEVICE_REQUEST && r[0].RequestContext == (void *)0xF4,
	      "QueuePair::Bind on a bound window: ND_SUCCESS, completes ND_INVALID_DEVICE_REQUEST (%#lx, then %#lx)",
	      st, r[0].Status);
	(void)t1;
	check(mw->lpVtbl->Release(mw) == 0, "release the window: 0");
	close_pair(&cn);
	drain(qp_cq, 2000, NULL);
	drain(qa_cq, 500, NULL);
	qa->lpVtbl->Release(qa);
	qp->lpVtbl->Release(qp);

	/* A Send the peer has no Receive for, on a plain QP: the device
	 * retries, then gives up (CLIENT-BEHAVIOR.md). */
	qa = make_qp(qa_cq, (void *)0xF5, 8, 4, 1, 0);
	qp = make_qp(qp_cq, (void *)0xF6, 8, 4, 1, 0);
	connect_pair(&cn, PORT + 4, qa, qp);
	st = qa->lpVtbl->Send(qa, (void *)0xF7, &one, 1, 0);
	r[0].Status = 1;
	i = st == ND_SUCCESS && get_result(qa_cq, r, 60000);
	check(i && r[0].Status == ND_IO_TIMEOUT && r[0].RequestContext == (void *)0xF7,
	      "a Send the peer posted no Receive for: completes ND_IO_TIMEOUT (%#lx, then %#lx)", st, r[0].Status);

	/* A failed request moves the QP to error and flushes the rest in
	 * order: a Receive too small for the Send it gets, and the two
	 * Receives behind it. */
	close_pair(&cn);
	drain(qp_cq, 2000, NULL);
	drain(qa_cq, 500, NULL);
	qa->lpVtbl->Release(qa);
	qp->lpVtbl->Release(qp);

	qa = make_qp(qa_cq, (void *)0xE1, 8, 4, 1, 0);
	qp = make_qp(qp_cq, (void *)0xE2, 8, 4, 1, 0);
	st = qp->lpVtbl->Receive(qp, (void *)0xE20, &small, 1);
	st |= qp->lpVtbl->Receive(qp, (void *)0xE21, &one, 1);
	st |= qp->lpVtbl->Receive(qp, (void *)0xE22, &one, 1);
	connect_pair(&cn, PORT + 2, qa, qp);
	check(st == ND_SUCCESS && cn.pas->lpVtbl->NotifyDisconnect(cn.pas, &nd) == ND_PENDING,
	      "a second connection: 3 Receives (8, 64, 64 bytes) posted, NotifyDisconnect pends");
	memset(buf + 16384, 's', 100);
	st = qa->lpVtbl->Send(qa, (void *)0xE10, &send100, 1, 0);
	for (overrun = canceled = n = 0; n < 3 && get_result(qp_cq, r, 10000); n++) {
		if (n == 0)
			overrun = r[0].Status == ND_DATA_OVERRUN && r[0].RequestContext == (void *)0xE20;
		else
			canceled += r[0].Status == ND_CANCELED && r[0].RequestContext == (void *)(ULONG_PTR)(0xE20 + n);
	}
	check(st == ND_SUCCESS && overrun,
	      "a 100-byte Send into an 8-byte Receive: the Receive completes ND_DATA_OVERRUN");
	check(canceled == 2,
	      "the QP went to error: the 2 Receives behind it complete ND_CANCELED, in order (%d)", canceled);
	check(get_result(qa_cq, r, 10000) && r[0].RequestContext == (void *)0xE10 && r[0].Status != ND_SUCCESS,
	      "the sender's Send completes with an error (%#lx)", r[0].Status);
	/* The device moved qp to error by itself: rxe would keep a Receive
	 * posted now for ever; the provider flushes it (issue 15). */
	st = qp->lpVtbl->Receive(qp, (void *)0xE23, &one, 1);
	r[0].Status = 1;
	i = st == ND_SUCCESS && get_result(qp_cq, r, 5000);
	check(i && r[0].Status == ND_CANCELED && r[0].RequestContext == (void *)0xE23,
	      "a Receive posted after the QP failed a Receive itself: ND_SUCCESS, completes ND_CANCELED within 5 s "
	      "(%#lx, then %s %#lx)", st, i ? "completed" : "never completed", r[0].Status);

	/* Cancellation of the connector's requests. */
	check(cn.pas->lpVtbl->CancelOverlappedRequests(cn.pas) == ND_SUCCESS && (HRESULT)nd.Internal == ND_CANCELED &&
		      wait_port(port, &nd, 0) == ND_CANCELED,
	      "Connector::CancelOverlappedRequests: the pending NotifyDisconnect ND_CANCELED, packet queued before it returns");
	memset(&ov, 0, sizeof(ov));
	st = cn.act->lpVtbl->Disconnect(cn.act, &ov);
	check(wait(st, &ov) == ND_SUCCESS, "Connector::Disconnect: ND_SUCCESS");
	memset(&ov, 0, sizeof(ov));
	st = cn.act->lpVtbl->Disconnect(cn.act, &ov);
	st = wait(st, &ov);
	check(st == ND_CONNECTION_INVALID, "Connector::Disconnect twice: ND_CONNECTION_INVALID (%#lx)", st);
	st = qa->lpVtbl->Send(qa, (void *)0xE11, &one, 1, 0);
	check(st == ND_SUCCESS && get_result(qa_cq, r, 5000) && r[0].Status == ND_CANCELED,
	      "QueuePair::Send after Disconnect: ND_SUCCESS, completed ND_CANCELED (%#lx)", st);
	cn.act->lpVtbl->Release(cn.act);
	cn.pas->lpVtbl->Release(cn.pas);
	cn.l->lpVtbl->Release(cn.l);
	check(qa->lpVtbl->Release(qa) == 0 && qp->lpVtbl->Release(qp) == 0, "release both QPs: 0");
	drain(qa_cq, 200, NULL);
	drain(qp_cq, 200, NULL);

	/* A Write with a token the peer never gave: the device fails it and
	 * moves the initiator's QP to error by itself, no Flush or Disconnect.
	 * A Receive posted after that completes ND_CANCELED (issue 15). */
	qa = make_qp(qa_cq, (void *)0xB1, 8, 4, 1, 0);
	qp = make_qp(qp_cq, (void *)0xB2, 8, 4, 1, 0);
	connect_pair(&cn, PORT + 5, qa, qp);
	st = qa->lpVtbl->Write(qa, (void *)0xB10, &one, 1, (UINT64)(ULONG_PTR)buf, mr->lpVtbl->GetRemoteToken(mr) ^ 0x5a5a5a00, 0);
	r[0].Status = 1;
	i = st == ND_SUCCESS && get_result(qa_cq, r, 10000);
	check(i && r[0].RequestContext == (void *)0xB10 && (r[0].Status == ND_ACCESS_VIOLATION || r[0].Status == ND_REMOTE_ERROR),
	      "a Write with a bad remote token: ND_SUCCESS, completes ND_ACCESS_VIOLATION or ND_REMOTE_ERROR (%#lx, then %s %#lx)",
	      st, i ? "completed" : "never completed", r[0].Status);
	st = qa->lpVtbl->Receive(qa, (void *)0xB11, &one, 1);
	r[0].Status = 1;
	i = st == ND_SUCCESS && get_result(qa_cq, r, 5000);
	check(i && r[0].Status == ND_CANCELED && r[0].RequestContext == (void *)0xB11,
	      "a Receive posted after the failed Write: ND_SUCCESS, completes ND_CANCELED within 5 s (%#lx, then %s %#lx)",
	      st, i ? "completed" : "never completed", r[0].Status);
	close_pair(&cn);
	drain(qp_cq, 500, NULL);
	drain(qa_cq, 500, NULL);
	check(qa->lpVtbl->Release(qa) == 0 && qp->lpVtbl->Release(qp) == 0, "release the bad-token pair's QPs: 0");
	drain(qa_cq, 200, NULL);
	drain(qp_cq, 200, NULL);
	check(qa_cq->lpVtbl->Release(qa_cq) == 0 && qp_cq->lpVtbl->Release(qp_cq) == 0, "release both CQs: 0");
}

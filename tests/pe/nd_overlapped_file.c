/* ndshim.dll's overlapped file, as the ND provider uses it (ndrun only:
 * ndshim.dll is one of ndrun's builtins).
 *
 * Rules checked (docs/CLIENT-BEHAVIOR.md "Overlapped requests", which
 * follow Windows' completion rules for a file with
 * FILE_SKIP_COMPLETION_PORT_ON_SUCCESS | FILE_SKIP_SET_EVENT_ON_HANDLE):
 *  - the file is a real handle: CreateIoCompletionPort associates it
 *    (once), CloseHandle closes it;
 *  - a request finished synchronously with success queues no packet and
 *    does not signal the file handle;
 *  - a pending request completes with Internal = status, InternalHigh =
 *    bytes, the event set, and a packet with the key and the exact
 *    OVERLAPPED pointer unless hEvent's low bit is set;
 *  - GetQueuedCompletionStatus returns FALSE with *lpOverlapped set for an
 *    error status; ND_TIMEOUT (0x102) is a success;
 *  - GetOverlappedResult works for any OVERLAPPED issued on the file;
 *  - cancelling an owner's requests completes each of them before the
 *    call returns, to the port, in the order they were issued; others
 *    stay pending; a request completes once only;
 *  - requests still pending when the file closes complete (cancelled);
 *  - NdshimWaitOverlapped (GetOverlappedResult(TRUE) for an OVERLAPPED
 *    without an event) sleeps until another thread completes it. */
#include "test.h"
#include "ndshim.h"

#define ND_TIMEOUT_VALUE 0x102
#define ND_CANCELED_VALUE ((HRESULT)0xC0000120)
#define STATUS_NOT_FOUND_VALUE ((HRESULT)0xC0000225)

static HRESULT(WINAPI *pCreate)(HANDLE *);
static HRESULT(WINAPI *pBegin)(HANDLE, OVERLAPPED *, ULONG_PTR);
static HRESULT(WINAPI *pComplete)(HANDLE, OVERLAPPED *, HRESULT, ULONG_PTR);
static HRESULT(WINAPI *pCompleteSync)(HANDLE, OVERLAPPED *, HRESULT, ULONG_PTR);
static ULONG(WINAPI *pCancel)(HANDLE, ULONG_PTR, HRESULT);
static HRESULT(WINAPI *pWait)(OVERLAPPED *);

static HANDLE port;

static OVERLAPPED *next_packet(BOOL *ret, DWORD *err, DWORD timeout)
{
	OVERLAPPED *ov = NULL;
	ULONG_PTR key = 0;
	DWORD bytes;

	SetLastError(0);
	*ret = GetQueuedCompletionStatus(port, &bytes, &key, &ov, timeout);
	*err = GetLastError();
	if (ov)
		ok(key == 0x77, "key %llu\n", key);
	return ov;
}

struct later {
	HANDLE file;
	OVERLAPPED *ov;
};

static DWORD WINAPI complete_later(void *arg)
{
	struct later *l = arg;

	Sleep(100);
	return pComplete(l->file, l->ov, 0, 42);
}

int main(void)
{
	HMODULE mod = LoadLibraryA("ndshim.dll");
	HANDLE file, file2, ev = CreateEventA(NULL, TRUE, FALSE, NULL), t;
	OVERLAPPED ov = { 0 }, ovs[4];
	struct later l;
	DWORD n = 0, err;
	BOOL ret;

	ok(mod != NULL, "ndshim.dll not found: %lu\n", GetLastError());
	if (!mod)
		return test_summary();
	pCreate = (void *)GetProcAddress(mod, "NdshimCreateOverlappedFile");
	pBegin = (void *)GetProcAddress(mod, "NdshimBeginOverlapped");
	pComplete = (void *)GetProcAddress(mod, "NdshimCompleteOverlapped");
	pCompleteSync = (void *)GetProcAddress(mod, "NdshimCompleteOverlappedSync");
	pCancel = (void *)GetProcAddress(mod, "NdshimCancelOverlapped");
	pWait = (void *)GetProcAddress(mod, "NdshimWaitOverlapped");
	ok(pCreate && pBegin && pComplete && pCompleteSync && pCancel && pWait, "missing exports\n");

	ok(pCreate(&file) == S_OK, "create failed\n");
	port = CreateIoCompletionPort(file, NULL, 0x77, 0);
	ok(port != NULL, "association failed: %lu\n", GetLastError());
	ok(CreateIoCompletionPort(file, port, 0x78, 0) == NULL &&
		   GetLastError() == ERROR_INVALID_PARAMETER,
	   "second association: error %lu\n", GetLastError());

	/* Synchronous success: no packet, the handle stays unsignaled. */
	ok(pCompleteSync(file, &ov, 0, 8) == 0, "sync completion failed\n");
	ok(ov.Internal == 0 && ov.InternalHigh == 8, "Internal %llx/%llu\n", ov.Internal,
	   ov.InternalHigh);
	ok(!next_packet(&ret, &err, 0), "a packet for a synchronous success\n");
	ok(WaitForSingleObject(file, 0) == WAIT_TIMEOUT, "the file handle was signaled\n");

	/* A synchronous warning (Deregister's ND_DEVICE_BUSY) is the
	 * provider's return value only: no event, no packet. */
	ov.hEvent = ev;
	ok(pBegin(file, &ov, 1) == 0, "begin failed\n");
	ok(pCompleteSync(file, &ov, (HRESULT)0x80000011L, 0) == 0, "sync completion failed\n");
	ok(ov.Internal == 0x80000011, "Internal %llx\n", ov.Internal);
	ok(WaitForSingleObject(ev, 0) == WAIT_TIMEOUT, "event set for a synchronous warning\n");
	ok(!next_packet(&ret, &err, 0), "a packet for a synchronous warning\n");

	/* Pending, then completed. */
	ov.hEvent = ev;
	ok(pBegin(file, &ov, 1) == 0, "begin failed\n");
	ok(ov.Internal == STATUS_PENDING && !HasOverlappedIoCompleted(&ov), "Internal %llx\n",
	   ov.Internal);
	ok(!GetOverlappedResult(file, &ov, &n, FALSE) && GetLastError() == ERROR_IO_INCOMPLETE,
	   "error %lu\n", GetLastError());
	ok(pComplete(file, &ov, 0, 16) == 0, "complete failed\n");
	ok(pComplete(file, &ov, 0, 16) == STATUS_NOT_FOUND_VALUE, "completed twice\n");
	ok(ov.Internal == 0 && ov.InternalHigh == 16, "Internal %llx/%llu\n", ov.Internal,
	   ov.InternalHigh);
	ok(WaitForSingleObject(ev, 0) == WAIT_OBJECT_0, "event not set\n");
	ok(next_packet(&ret, &err, 0) == &ov && ret, "no packet\n");
	ok(!next_packet(&ret, &err, 0), "two packets\n");
	ok(GetOverlappedResult(file, &ov, &n, FALSE) && n == 16, "n %lu\n", n);

	/* Low bit: the event only. */
	ResetEvent(ev);
	ov.hEvent = (HANDLE)((ULONG_PTR)ev | 1);
	pBegin(file, &ov, 1);
	pComplete(file, &ov, 0, 1);
	ok(WaitForSingleObject(ev, 0) == WAIT_OBJECT_0, "event not set\n");
	ok(!next_packet(&ret, &err, 0), "a packet despite the low bit\n");
	ov.hEvent = NULL;

	/* Error and timeout statuses. */
	pBegin(file, &ov, 1);
	pComplete(file, &ov, ND_CANCELED_VALUE, 0);
	ok(next_packet(&ret, &err, 0) == &ov && !ret && err == ERROR_OPERATION_ABORTED,
	   "error packet: ret %d err %lu\n", ret, err);
	pBegin(file, &ov, 1);
	pComplete(file, &ov, ND_TIMEOUT_VALUE, 0);
	ok(next_packet(&ret, &err, 0) == &ov && ret, "ND_TIMEOUT packet: ret %d err %lu\n", ret, err);
	ok(ov.Internal == ND_TIMEOUT_VALUE, "Internal %llx\n", ov.Internal);

	/* GetOverlappedResult waiting for another thread's completion. */
	ResetEvent(ev);
	ov.hEvent = ev;
	pBegin(file, &ov, 1);
	l.file = file;
	l.ov = &ov;
	t = CreateThread(NULL, 0, complete_later, &l, 0, NULL);
	ok(GetOverlappedResult(file, &ov, &n, TRUE) && n == 42, "n %lu, error %lu\n", n,
	   GetLastError());
	WaitForSingleObject(t, INFINITE);
	CloseHandle(t);
	ok(next_packet(&ret, &err, 1000) == &ov, "no packet\n");

	/* Cancel one owner's requests, in issue order. */
	memset(ovs, 0, sizeof(ovs));
	pBegin(file, &ovs[0], 0xA);
	pBegin(file, &ovs[1], 0xB);
	pBegin(file, &ovs[2], 0xA);
	pBegin(file, &ovs[3], 0xA);
	ok(pCancel(file, 0xA, ND_CANCELED_VALUE) == 3, "cancel count wrong\n");
	ok(next_packet(&ret, &err, 0) == &ovs[0], "first cancelled packet\n");
	ok(next_packet(&ret, &err, 0) == &ovs[2], "second cancelled packet\n");
	ok(next_packet(&ret, &err, 0) == &ovs[3] && !ret && err == ERROR_OPERATION_ABORTED,
	   "third cancelled packet: ret %d err %lu\n", ret, err);
	ok(!next_packet(&ret, &err, 0), "owner B's request was cancelled\n");
	ok(!HasOverlappedIoCompleted(&ovs[1]), "owner B's request completed\n");
	ok(pCancel(file, 0xA, ND_CANCELED_VALUE) == 0, "cancelled twice\n");

	/* Closing the file ends what is still pending. */
	ok(pCreate(&file2) == S_OK, "create failed\n");
	CloseHandle(file);
	ok(next_packet(&ret, &err, 0) == &ovs[1] && !ret && err == ERROR_OPERATION_ABORTED,
	   "pending at close: ret %d err %lu\n", ret, err);
	ok(pComplete(file, &ovs[1], 0, 0) != 0, "completion on a closed handle worked\n");
	CloseHandle(file2);
	CloseHandle(port);
	CloseHandle(ev);
	/* An OVERLAPPED with no event: waiting on it sleeps until another
	 * thread completes it (no polling: a futex on Internal). */
	{
		OVERLAPPED bare = { 0 };
		HANDLE f3;
		DWORD start;
		HRESULT st;

		ok(pCreate(&f3) == S_OK, "create failed\n");
		ok(pBegin(f3, &bare, 9) == 0, "begin failed\n");
		l.file = f3;
		l.ov = &bare;
		start = GetTickCount();
		t = CreateThread(NULL, 0, complete_later, &l, 0, NULL);
		st = pWait(&bare);
		ok(st == 0 && bare.InternalHigh == 42, "wait: status %#lx, bytes %llu\n", (unsigned long)st,
		   (unsigned long long)bare.InternalHigh);
		ok(GetTickCount() - start >= 90, "returned before the completion (%lu ms)\n",
		   GetTickCount() - start);
		ok(pWait(&bare) == 0, "a second wait on a completed OVERLAPPED\n");
		WaitForSingleObject(t, INFINITE);
		CloseHandle(t);
		CloseHandle(f3);
	}
	return test_summary();
}

/* Overlapped reads and writes on a disk file.
 *
 * Windows rules checked (Microsoft's ReadFile/WriteFile, "Synchronous and
 * Asynchronous I/O", SetFileCompletionNotificationModes docs):
 *  - on a handle opened with FILE_FLAG_OVERLAPPED the transfer happens at
 *    OVERLAPPED.Offset/OffsetHigh, and the call either succeeds at once or
 *    returns ERROR_IO_PENDING (either is allowed: the test accepts both and
 *    checks the rule that goes with each);
 *  - ReadFile/WriteFile refuse a NULL OVERLAPPED on such a handle
 *    (ERROR_INVALID_PARAMETER);
 *  - a request that succeeded at once still queues a packet to the
 *    associated port, unless FILE_SKIP_COMPLETION_PORT_ON_SUCCESS is set;
 *    a request that pended always does; the event is set either way;
 *  - reading at or past the end fails with ERROR_HANDLE_EOF (at once, or
 *    through GetOverlappedResult); a failure at once queues no packet. */
#include "test.h"

static HANDLE port;

/* The result of a request: bytes, or FALSE with the error in *err. */
static BOOL finish(HANDLE h, OVERLAPPED *ov, BOOL ret, DWORD *bytes, DWORD *err, BOOL *pended)
{
	*pended = !ret && GetLastError() == ERROR_IO_PENDING;
	if (!ret && !*pended) {
		*err = GetLastError();
		return FALSE;
	}
	ret = GetOverlappedResult(h, ov, bytes, TRUE);
	*err = ret ? 0 : GetLastError();
	return ret;
}

static BOOL has_packet(OVERLAPPED *want)
{
	OVERLAPPED *got = NULL;
	ULONG_PTR key;
	DWORD bytes;

	GetQueuedCompletionStatus(port, &bytes, &key, &got, 0);
	ok(!got || got == want, "packet for %p, expected %p\n", (void *)got, (void *)want);
	return got != NULL;
}

int main(void)
{
	char path[MAX_PATH], tmp[MAX_PATH], buf[16];
	HANDLE h, ev = CreateEventA(NULL, TRUE, FALSE, NULL);
	OVERLAPPED ov = { 0 };
	DWORD n = 0, err = 0;
	BOOL ret, pended;

	GetTempPathA(sizeof(tmp), tmp);
	snprintf(path, sizeof(path), "%sndshim_ovf_%lu.tmp", tmp, GetCurrentProcessId());
	h = CreateFileA(path, GENERIC_READ | GENERIC_WRITE, 0, NULL, CREATE_ALWAYS,
			FILE_FLAG_OVERLAPPED | FILE_FLAG_DELETE_ON_CLOSE, NULL);
	ok(h != INVALID_HANDLE_VALUE, "CreateFile failed: %lu\n", GetLastError());
	port = CreateIoCompletionPort(h, NULL, 5, 0);
	ok(port != NULL, "CreateIoCompletionPort failed: %lu\n", GetLastError());

	SetLastError(0xdeadbeef);
	ok(!WriteFile(h, "x", 1, &n, NULL) && GetLastError() == ERROR_INVALID_PARAMETER,
	   "error %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	ok(!ReadFile(h, buf, 1, &n, NULL) && GetLastError() == ERROR_INVALID_PARAMETER, "error %lu\n",
	   GetLastError());

	/* Write at offset 0x10, read back from 0x14. */
	ov.Offset = 0x10;
	ov.hEvent = ev;
	ret = WriteFile(h, "abcdefgh", 8, NULL, &ov);
	ok(finish(h, &ov, ret, &n, &err, &pended) && n == 8, "write: n %lu err %lu\n", n, err);
	ok(WaitForSingleObject(ev, 0) == WAIT_OBJECT_0, "event not set\n");
	ok(has_packet(&ov), "no packet for a write (pended %d)\n", pended);

	ov.Offset = 0x14;
	ResetEvent(ev);
	memset(buf, 0, sizeof(buf));
	ret = ReadFile(h, buf, sizeof(buf), NULL, &ov);
	ok(finish(h, &ov, ret, &n, &err, &pended) && n == 4 && !memcmp(buf, "efgh", 4),
	   "read: n %lu err %lu data %.4s\n", n, err, buf);
	ok(WaitForSingleObject(ev, 0) == WAIT_OBJECT_0, "event not set\n");
	ok(has_packet(&ov), "no packet for a read (pended %d)\n", pended);
	ov.Offset = 0;
	ret = ReadFile(h, buf, 4, NULL, &ov);
	ok(finish(h, &ov, ret, &n, &err, &pended) && n == 4 && !buf[0], "read: n %lu err %lu\n", n,
	   err);
	has_packet(&ov);

	/* Past the end. */
	ov.Offset = 0x100;
	SetLastError(0xdeadbeef);
	ret = ReadFile(h, buf, sizeof(buf), NULL, &ov);
	ok(!finish(h, &ov, ret, &n, &err, &pended) && err == ERROR_HANDLE_EOF, "EOF read: err %lu\n",
	   err);
	if (!pended)
		ok(!has_packet(&ov), "a packet for a request that failed at once\n");
	else
		has_packet(&ov);

	/* Skip the port on success. */
	ok(SetFileCompletionNotificationModes(h, FILE_SKIP_COMPLETION_PORT_ON_SUCCESS),
	   "SetFileCompletionNotificationModes failed: %lu\n", GetLastError());
	ov.Offset = 0x10;
	ResetEvent(ev);
	ret = ReadFile(h, buf, 8, NULL, &ov);
	ok(finish(h, &ov, ret, &n, &err, &pended) && n == 8 && !memcmp(buf, "abcdefgh", 8),
	   "read: n %lu err %lu\n", n, err);
	ok(WaitForSingleObject(ev, 0) == WAIT_OBJECT_0, "event not set\n");
	if (pended)
		ok(has_packet(&ov), "a pended request lost its packet\n");
	else
		ok(!has_packet(&ov), "a packet despite FILE_SKIP_COMPLETION_PORT_ON_SUCCESS\n");
	ok(!has_packet(NULL), "an extra packet\n");

	CloseHandle(h);
	CloseHandle(port);
	CloseHandle(ev);
	ok(GetFileAttributesA(path) == INVALID_FILE_ATTRIBUTES, "the file was not deleted\n");
	return test_summary();
}

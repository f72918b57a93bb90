/* ReadFileEx/WriteFileEx on an overlapped disk file: the completion
 * routine runs only when the issuing thread waits alertably (SleepEx
 * returns WAIT_IO_COMPLETION), with the error, the byte count and the
 * OVERLAPPED given; a read past the end of file reports ERROR_HANDLE_EOF
 * to the routine. */
#include <windows.h>

#include "test.h"

static DWORD got_error, got_bytes, calls;
static OVERLAPPED *got_ov;

static void WINAPI done(DWORD error, DWORD bytes, OVERLAPPED *ov)
{
	got_error = error;
	got_bytes = bytes;
	got_ov = ov;
	calls++;
}

int main(void)
{
	char tmp[MAX_PATH], path[MAX_PATH], buf[16];
	OVERLAPPED ov;
	HANDLE h;
	BOOL r;

	GetTempPathA(sizeof(tmp), tmp);
	snprintf(path, sizeof(path), "%sndshim-fileex-%lu", tmp, GetCurrentProcessId());
	h = CreateFileA(path, GENERIC_READ | GENERIC_WRITE, 0, NULL, CREATE_ALWAYS,
			FILE_FLAG_OVERLAPPED | FILE_FLAG_DELETE_ON_CLOSE, NULL);
	ok(h != INVALID_HANDLE_VALUE, "create: %lu\n", GetLastError());

	memset(&ov, 0, sizeof(ov));
	ov.Offset = 2;
	ok(WriteFileEx(h, "hello", 5, &ov, done), "WriteFileEx: %lu\n", GetLastError());
	ok(calls == 0, "routine ran before an alertable wait\n");
	ok(SleepEx(1000, TRUE) == WAIT_IO_COMPLETION, "SleepEx did not run the routine\n");
	ok(calls == 1 && got_error == 0 && got_bytes == 5 && got_ov == &ov, "write: calls %lu error %lu bytes %lu\n",
	   calls, got_error, got_bytes);
	ok(ov.Internal == 0 && ov.InternalHigh == 5, "write OVERLAPPED: %#lx %lu\n", (ULONG)ov.Internal,
	   (ULONG)ov.InternalHigh);

	memset(&ov, 0, sizeof(ov));
	memset(buf, 0, sizeof(buf));
	ov.Offset = 3;
	ok(ReadFileEx(h, buf, sizeof(buf), &ov, done), "ReadFileEx: %lu\n", GetLastError());
	ok(SleepEx(1000, TRUE) == WAIT_IO_COMPLETION, "SleepEx did not run the routine\n");
	ok(calls == 2 && got_error == 0 && got_bytes == 4 && !memcmp(buf, "ello", 4), "read: error %lu bytes %lu '%s'\n",
	   got_error, got_bytes, buf);

	memset(&ov, 0, sizeof(ov));
	ov.Offset = 100;
	r = ReadFileEx(h, buf, sizeof(buf), &ov, done);
	/* Past the end: the routine reports ERROR_HANDLE_EOF (or the call
	 * fails with it at once). */
	if (r) {
		ok(SleepEx(1000, TRUE) == WAIT_IO_COMPLETION, "SleepEx did not run the routine\n");
		ok(calls == 3 && got_error == ERROR_HANDLE_EOF && got_bytes == 0, "read past the end: error %lu bytes %lu\n",
		   got_error, got_bytes);
	} else {
		ok(GetLastError() == ERROR_HANDLE_EOF, "read past the end failed with %lu\n", GetLastError());
	}
	ok(SleepEx(0, TRUE) == 0, "a routine left over\n");
	CloseHandle(h);
	return test_summary();
}

/* The console input buffer: waits on the standard input handle,
 * GetNumberOfConsoleInputEvents, PeekConsoleInput, ReadConsoleInput,
 * FlushConsoleInputBuffer and WriteConsoleInput.  tests.list runs it
 * with a pseudo-terminal as standard input (flag pty), so standard input
 * is a console under ndrun and under Wine; the test types into it with
 * WriteConsoleInput.  Under ndrun the buffer holds characters: the key
 * records of a character come back as a US keyboard makes them (Shift
 * down, key down, key up, Shift up for 'B'; see
 * winapi-shim/kernel32/consoleinput.c), which is what the test types.
 * Finally a child with a pipe as standard input: no console, so no input
 * records, and (as on Windows) a wait on that handle does not block. */
#include <stdio.h>
#include <string.h>
#include <windows.h>

#include "test.h"

static HANDLE in;

static INPUT_RECORD key(WORD vk, WORD scan, WCHAR ch, BOOL down, DWORD state)
{
	INPUT_RECORD r;

	memset(&r, 0, sizeof(r));
	r.EventType = KEY_EVENT;
	r.Event.KeyEvent.bKeyDown = down;
	r.Event.KeyEvent.wRepeatCount = 1;
	r.Event.KeyEvent.wVirtualKeyCode = vk;
	r.Event.KeyEvent.wVirtualScanCode = scan;
	r.Event.KeyEvent.uChar.UnicodeChar = ch;
	r.Event.KeyEvent.dwControlKeyState = state;
	return r;
}

/* "aB" and Enter as typed on a US keyboard: 10 records. */
static DWORD type_ab_enter(INPUT_RECORD *r)
{
	DWORD n = 0;

	r[n++] = key('A', 0x1e, 'a', TRUE, 0);
	r[n++] = key('A', 0x1e, 'a', FALSE, 0);
	r[n++] = key(VK_SHIFT, 0x2a, 0, TRUE, SHIFT_PRESSED);
	r[n++] = key('B', 0x30, 'B', TRUE, SHIFT_PRESSED);
	r[n++] = key('B', 0x30, 'B', FALSE, SHIFT_PRESSED);
	r[n++] = key(VK_SHIFT, 0x2a, 0, FALSE, 0);
	r[n++] = key(VK_RETURN, 0x1c, '\r', TRUE, 0);
	r[n++] = key(VK_RETURN, 0x1c, '\r', FALSE, 0);
	return n;
}

static DWORD pending(void)
{
	DWORD n = 0xdeadbeef;

	ok(GetNumberOfConsoleInputEvents(in, &n), "GetNumberOfConsoleInputEvents: %lu\n", GetLastError());
	return n;
}

static int same_key(const INPUT_RECORD *a, const INPUT_RECORD *b)
{
	const KEY_EVENT_RECORD *x = &a->Event.KeyEvent, *y = &b->Event.KeyEvent;

	return a->EventType == b->EventType && !x->bKeyDown == !y->bKeyDown &&
	       x->wVirtualKeyCode == y->wVirtualKeyCode && x->wVirtualScanCode == y->wVirtualScanCode &&
	       x->uChar.UnicodeChar == y->uChar.UnicodeChar &&
	       (x->dwControlKeyState & (SHIFT_PRESSED | LEFT_CTRL_PRESSED)) ==
		       (y->dwControlKeyState & (SHIFT_PRESSED | LEFT_CTRL_PRESSED)) &&
	       x->wRepeatCount == y->wRepeatCount;
}

static void test_records(void)
{
	INPUT_RECORD typed[16], got[16];
	DWORD n, w, i;

	ok(FlushConsoleInputBuffer(in), "flush: %lu\n", GetLastError());
	ok(pending() == 0, "not empty\n");
	ok(WaitForSingleObject(in, 0) == WAIT_TIMEOUT, "signaled while empty\n");

	n = type_ab_enter(typed);
	ok(WriteConsoleInputW(in, typed, n, &w) && w == n, "WriteConsoleInputW: %lu, wrote %lu\n",
	   GetLastError(), w);
	ok(pending() == n, "%lu pending, want %lu\n", pending(), n);
	ok(WaitForSingleObject(in, 0) == WAIT_OBJECT_0, "not signaled with input\n");

	/* Peeking takes nothing. */
	memset(got, 0, sizeof(got));
	ok(PeekConsoleInputW(in, got, 3, &w) && w == 3, "peek 3: got %lu\n", w);
	for (i = 0; i < 3; i++)
		ok(same_key(&got[i], &typed[i]), "peek %lu: vk %#x ch %#x down %d\n", i,
		   got[i].Event.KeyEvent.wVirtualKeyCode, got[i].Event.KeyEvent.uChar.UnicodeChar,
		   got[i].Event.KeyEvent.bKeyDown);
	ok(pending() == n, "peek consumed: %lu pending\n", pending());

	/* Reading in pieces, one of them in the middle of the 'B' key. */
	ok(ReadConsoleInputW(in, got, 4, &w) && w == 4, "read 4: got %lu\n", w);
	for (i = 0; i < 4; i++)
		ok(same_key(&got[i], &typed[i]), "read %lu: vk %#x ch %#x\n", i,
		   got[i].Event.KeyEvent.wVirtualKeyCode, got[i].Event.KeyEvent.uChar.UnicodeChar);
	ok(pending() == n - 4, "%lu pending\n", pending());
	ok(ReadConsoleInputA(in, got, 16, &w) && w == n - 4, "read the rest: got %lu\n", w);
	for (i = 0; i < w; i++) {
		INPUT_RECORD a = typed[4 + i];

		a.Event.KeyEvent.uChar.UnicodeChar = 0;
		a.Event.KeyEvent.uChar.AsciiChar = (char)typed[4 + i].Event.KeyEvent.uChar.UnicodeChar;
		ok(same_key(&got[i], &a), "read A %lu: vk %#x ch %#x\n", i, got[i].Event.KeyEvent.wVirtualKeyCode,
		   (unsigned char)got[i].Event.KeyEvent.uChar.AsciiChar);
	}
	ok(pending() == 0, "%lu left\n", pending());
	ok(WaitForSingleObject(in, 0) == WAIT_TIMEOUT, "signaled after all was read\n");

	/* Flushing empties it. */
	ok(WriteConsoleInputW(in, typed, n, &w), "write: %lu\n", GetLastError());
	ok(FlushConsoleInputBuffer(in), "flush: %lu\n", GetLastError());
	ok(pending() == 0, "%lu left after the flush\n", pending());
	ok(WaitForSingleObject(in, 0) == WAIT_TIMEOUT, "signaled after the flush\n");

	/* A character beyond the BMP: its two surrogates, each a key. */
	typed[0] = key(0, 0, 0xd83d, TRUE, 0);
	typed[1] = key(0, 0, 0xd83d, FALSE, 0);
	typed[2] = key(0, 0, 0xde00, TRUE, 0);
	typed[3] = key(0, 0, 0xde00, FALSE, 0);
	ok(WriteConsoleInputW(in, typed, 4, &w) && w == 4, "write: %lu\n", GetLastError());
	ok(ReadConsoleInputW(in, got, 16, &w) && w == 4, "read %lu\n", w);
	for (i = 0; i < 4 && i < w; i++)
		ok(same_key(&got[i], &typed[i]), "surrogates %lu: ch %#x down %d\n", i,
		   got[i].Event.KeyEvent.uChar.UnicodeChar, got[i].Event.KeyEvent.bKeyDown);

	/* A zero-length peek and write are fine. */
	ok(PeekConsoleInputW(in, got, 0, &w) && w == 0, "peek 0: %lu\n", GetLastError());
	ok(WriteConsoleInputW(in, typed, 0, &w) && w == 0, "write 0: %lu\n", GetLastError());
}

/* The characters reach ReadConsole (and so the C runtime's stdin). */
static void test_read_console(void)
{
	INPUT_RECORD typed[16];
	char buf[16] = { 0 };
	DWORD n, w;

	n = type_ab_enter(typed);
	ok(WriteConsoleInputW(in, typed, n, &w), "write: %lu\n", GetLastError());
	ok(ReadConsoleA(in, buf, sizeof(buf) - 1, &w, NULL), "ReadConsoleA: %lu\n", GetLastError());
	ok(w == 4 && !memcmp(buf, "aB\r\n", 4), "got %lu '%s'\n", w, buf);
	/* The read ends at Enter's key-down: Windows leaves its key-up in
	 * the buffer, ndrun (whose buffer holds characters) does not; no
	 * key-down is left either way. */
	n = pending();
	ok(n <= 1, "%lu left\n", n);
	if (n == 1) {
		ok(PeekConsoleInputW(in, typed, 1, &w) && w == 1, "peek: %lu\n", GetLastError());
		ok(typed[0].EventType == KEY_EVENT && !typed[0].Event.KeyEvent.bKeyDown &&
			   typed[0].Event.KeyEvent.wVirtualKeyCode == VK_RETURN,
		   "left: type %u down %d vk %#x\n", typed[0].EventType, typed[0].Event.KeyEvent.bKeyDown,
		   typed[0].Event.KeyEvent.wVirtualKeyCode);
	}
	ok(FlushConsoleInputBuffer(in), "flush: %lu\n", GetLastError());
}

struct waiter {
	HANDLE handles[2];
	DWORD count, ret, took;
};

static DWORD WINAPI wait_thread(void *arg)
{
	struct waiter *wt = arg;
	DWORD start = GetTickCount();

	wt->ret = WaitForMultipleObjects(wt->count, wt->handles, FALSE, 10000);
	wt->took = GetTickCount() - start;
	return 0;
}

/* A wait that sleeps ends when input comes. */
static void test_wait_wakes(void)
{
	INPUT_RECORD r[2] = { key('X', 0x2d, 'x', TRUE, 0), key('X', 0x2d, 'x', FALSE, 0) };
	struct waiter wt = { { NULL, in }, 2, 0, 0 };
	HANDLE th;
	DWORD w;

	FlushConsoleInputBuffer(in);
	wt.handles[0] = CreateEventA(NULL, TRUE, FALSE, NULL);
	th = CreateThread(NULL, 0, wait_thread, &wt, 0, NULL);
	ok(WaitForSingleObject(th, 300) == WAIT_TIMEOUT, "the wait ended without input: %lu\n", wt.ret);
	ok(WriteConsoleInputW(in, r, 2, &w), "write: %lu\n", GetLastError());
	ok(WaitForSingleObject(th, 5000) == WAIT_OBJECT_0, "the wait did not end\n");
	ok(wt.ret == WAIT_OBJECT_0 + 1, "got %lu after %lu ms\n", wt.ret, wt.took);
	CloseHandle(th);
	CloseHandle(wt.handles[0]);
	ok(FlushConsoleInputBuffer(in), "flush: %lu\n", GetLastError());
}

/* CONIN$ opened for reading and writing is the same input buffer. */
static void test_conin(void)
{
	INPUT_RECORD r[2] = { key('Z', 0x2c, 'z', TRUE, 0), key('Z', 0x2c, 'z', FALSE, 0) }, got[2];
	HANDLE h = CreateFileA("CONIN$", GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE,
			       NULL, OPEN_EXISTING, 0, NULL);
	DWORD mode = 0, n = 0, w;

	ok(h != INVALID_HANDLE_VALUE, "CONIN$: %lu\n", GetLastError());
	ok(GetConsoleMode(h, &mode) && (mode & ENABLE_LINE_INPUT), "mode %#lx, error %lu\n", mode,
	   GetLastError());
	ok(FlushConsoleInputBuffer(h), "flush: %lu\n", GetLastError());
	ok(WaitForSingleObject(h, 0) == WAIT_TIMEOUT, "signaled while empty\n");
	ok(WriteConsoleInputW(h, r, 2, &w) && w == 2, "write: %lu\n", GetLastError());
	ok(WaitForSingleObject(h, 0) == WAIT_OBJECT_0, "not signaled\n");
	ok(GetNumberOfConsoleInputEvents(in, &n) && n == 2, "standard input sees %lu\n", n);
	ok(ReadConsoleInputW(in, got, 2, &n) && n == 2 && same_key(&got[0], &r[0]) && same_key(&got[1], &r[1]),
	   "read %lu\n", n);
	ok(WaitForSingleObject(h, 0) == WAIT_TIMEOUT, "signaled after the read\n");
	CloseHandle(h);
}

/* Not a console: a pipe as standard input. */
static int child(void)
{
	INPUT_RECORD r[2];
	DWORD n = 77, err;
	BOOL ret;

	in = GetStdHandle(STD_INPUT_HANDLE);
	ok(GetFileType(in) == FILE_TYPE_PIPE, "type %lu\n", GetFileType(in));
	/* Windows signals a synchronous pipe handle between requests. */
	ok(WaitForSingleObject(in, 0) == WAIT_OBJECT_0, "wait on the pipe blocked\n");
	SetLastError(0xdeadbeef);
	ret = GetNumberOfConsoleInputEvents(in, &n);
	err = GetLastError();
	ok(!ret && err == ERROR_INVALID_HANDLE, "GetNumberOfConsoleInputEvents: %d, error %lu\n", ret, err);
	SetLastError(0xdeadbeef);
	ret = PeekConsoleInputW(in, r, 2, &n);
	err = GetLastError();
	ok(!ret && err == ERROR_INVALID_HANDLE, "PeekConsoleInputW: %d, error %lu\n", ret, err);
	SetLastError(0xdeadbeef);
	ret = FlushConsoleInputBuffer(in);
	err = GetLastError();
	ok(!ret && err == ERROR_INVALID_HANDLE, "FlushConsoleInputBuffer: %d, error %lu\n", ret, err);
	SetLastError(0xdeadbeef);
	/* Only the failure: Wine says ERROR_ACCESS_DENIED, ndrun (like the
	 * other console functions) ERROR_INVALID_HANDLE. */
	ret = WriteConsoleInputW(in, r, 0, &n);
	ok(!ret, "WriteConsoleInputW on a pipe worked\n");
	return test_summary();
}

static void test_pipe_child(void)
{
	SECURITY_ATTRIBUTES sa = { sizeof(sa), NULL, TRUE };
	STARTUPINFOA si;
	PROCESS_INFORMATION pi;
	char exe[MAX_PATH], cmd[MAX_PATH + 16];
	HANDLE rd, wr;
	DWORD code = 99;

	memset(&si, 0, sizeof(si));
	si.cb = sizeof(si);
	ok(CreatePipe(&rd, &wr, &sa, 0), "CreatePipe: %lu\n", GetLastError());
	SetHandleInformation(wr, HANDLE_FLAG_INHERIT, 0);
	GetModuleFileNameA(NULL, exe, sizeof(exe));
	snprintf(cmd, sizeof(cmd), "\"%s\" child", exe);
	si.dwFlags = STARTF_USESTDHANDLES;
	si.hStdInput = rd;
	si.hStdOutput = GetStdHandle(STD_OUTPUT_HANDLE);
	si.hStdError = GetStdHandle(STD_ERROR_HANDLE);
	fflush(stdout);
	ok(CreateProcessA(NULL, cmd, NULL, NULL, TRUE, 0, NULL, NULL, &si, &pi), "CreateProcess: %lu\n",
	   GetLastError());
	CloseHandle(rd);
	ok(WaitForSingleObject(pi.hProcess, 20000) == WAIT_OBJECT_0, "the child did not end\n");
	GetExitCodeProcess(pi.hProcess, &code);
	ok(code == 0, "the child's checks failed (%lu)\n", code);
	CloseHandle(pi.hProcess);
	CloseHandle(pi.hThread);
	CloseHandle(wr);
}

int main(int argc, char **argv)
{
	DWORD mode;

	if (argc > 1 && !strcmp(argv[1], "child"))
		return child();
	in = GetStdHandle(STD_INPUT_HANDLE);
	if (!GetConsoleMode(in, &mode)) {
		/* tests.list gives it a terminal: without one there is
		 * nothing to test, and that is a failure, not a pass. */
		ok(0, "standard input is not a console (error %lu): run it with a terminal\n", GetLastError());
		return test_summary();
	}
	test_records();
	test_read_console();
	test_wait_wakes();
	test_conin();
	test_pipe_child();
	return test_summary();
}

/* Console input from a real terminal (a pseudo-terminal pair: the slave
 * is the console, the test types into the master): the key records
 * typed characters make, waits on the input handle woken by typing,
 * the buffer shared with ReadFile, FlushConsoleInputBuffer, line mode,
 * and CancelSynchronousIo of a blocked ReadConsoleInput.  The PE test
 * tests/pe/console_input checks the same functions against Wine with
 * WriteConsoleInput; typing needs the terminal's other side. */
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <termios.h>
#include <unistd.h>

#include "k32_test.h"
#include "core/file.h"
#include "core/handle.h"
#include "core/syncio.h"

struct pty {
	int master, slave;
	HANDLE in;
};

static int open_pty(void **state)
{
	struct pty *p = calloc(1, sizeof(*p));
	struct termios t;

	p->master = posix_openpt(O_RDWR | O_NOCTTY);
	if (p->master < 0 || grantpt(p->master) || unlockpt(p->master))
		return -1;
	p->slave = open(ptsname(p->master), O_RDWR | O_NOCTTY);
	if (p->slave < 0)
		return -1;
	tcgetattr(p->slave, &t);
	t.c_lflag &= ~ECHO;
	tcsetattr(p->slave, TCSANOW, &t);
	/* Read-only: a console input handle. */
	p->in = file_create_handle(p->slave, GENERIC_READ, 0, false);
	/* A pseudo-terminal's number comes back: so may bytes an earlier
	 * test left in its buffer. */
	FlushConsoleInputBuffer(p->in);
	*state = p;
	return 0;
}

static int close_pty(void **state)
{
	struct pty *p = *state;

	handle_close(p->in);
	close(p->slave);
	close(p->master);
	free(p);
	return 0;
}

static void type(struct pty *p, const char *s)
{
	assert_int_equal(write(p->master, s, strlen(s)), (ssize_t)strlen(s));
}

static DWORD pending(HANDLE h)
{
	DWORD n = SENTINEL_ERROR;

	assert_true(GetNumberOfConsoleInputEvents(h, &n));
	return n;
}

static void check_key(const INPUT_RECORD *r, BOOL down, WORD vk, WORD scan, WCHAR ch, DWORD state)
{
	const KEY_EVENT_RECORD *k = &r->Event.KeyEvent;

	assert_int_equal(r->EventType, KEY_EVENT);
	assert_int_equal(!!k->bKeyDown, !!down);
	assert_int_equal(k->wVirtualKeyCode, vk);
	assert_int_equal(k->wVirtualScanCode, scan);
	assert_int_equal(k->uChar.UnicodeChar, ch);
	assert_int_equal(k->dwControlKeyState, state);
	assert_int_equal(k->wRepeatCount, 1);
}

/* Raw mode (no line input): each typed key is there at once. */
static void test_typed_keys(void **state)
{
	struct pty *p = *state;
	INPUT_RECORD r[32];
	DWORD n = 0;

	assert_true(SetConsoleMode(p->in, ENABLE_PROCESSED_INPUT));
	assert_int_equal(pending(p->in), 0);
	assert_int_equal(WaitForSingleObject(p->in, 0), WAIT_TIMEOUT);

	type(p, "aB\r");
	assert_int_equal(WaitForSingleObject(p->in, 2000), WAIT_OBJECT_0);
	assert_int_equal(pending(p->in), 8);
	assert_true(PeekConsoleInputW(p->in, r, 32, &n));
	assert_int_equal(n, 8);
	check_key(&r[0], TRUE, 'A', 0x1e, 'a', 0);
	check_key(&r[1], FALSE, 'A', 0x1e, 'a', 0);
	check_key(&r[2], TRUE, 0x10, 0x2a, 0, SHIFT_PRESSED);
	check_key(&r[3], TRUE, 'B', 0x30, 'B', SHIFT_PRESSED);
	check_key(&r[4], FALSE, 'B', 0x30, 'B', SHIFT_PRESSED);
	check_key(&r[5], FALSE, 0x10, 0x2a, 0, 0);
	/* the terminal turns Enter's CR into LF (ICRNL): either is Enter */
	check_key(&r[6], TRUE, 0x0d, 0x1c, '\r', 0);
	check_key(&r[7], FALSE, 0x0d, 0x1c, '\r', 0);
	assert_true(ReadConsoleInputW(p->in, r, 32, &n));
	assert_int_equal(n, 8);
	assert_int_equal(pending(p->in), 0);

	/* Escape sequences are keys; Ctrl+A; a character with no key. */
	type(p, "\033[A\033[3~\001\xc3\xa9");
	assert_int_equal(WaitForSingleObject(p->in, 2000), WAIT_OBJECT_0);
	/* the bytes may come in more than one piece */
	for (int i = 0; i < 100 && pending(p->in) < 10; i++)
		usleep(10000);
	assert_true(ReadConsoleInputW(p->in, r, 32, &n));
	assert_int_equal(n, 10);
	check_key(&r[0], TRUE, 0x26, 0x48, 0, ENHANCED_KEY);
	check_key(&r[1], FALSE, 0x26, 0x48, 0, ENHANCED_KEY);
	check_key(&r[2], TRUE, 0x2e, 0x53, 0, ENHANCED_KEY);
	check_key(&r[3], FALSE, 0x2e, 0x53, 0, ENHANCED_KEY);
	check_key(&r[4], TRUE, 0x11, 0x1d, 0, LEFT_CTRL_PRESSED);
	check_key(&r[5], TRUE, 'A', 0x1e, 1, LEFT_CTRL_PRESSED);
	check_key(&r[6], FALSE, 'A', 0x1e, 1, LEFT_CTRL_PRESSED);
	check_key(&r[7], FALSE, 0x11, 0x1d, 0, 0);
	check_key(&r[8], TRUE, 0, 0, 0xe9, 0);
	check_key(&r[9], FALSE, 0, 0, 0xe9, 0);
	assert_int_equal(WaitForSingleObject(p->in, 0), WAIT_TIMEOUT);
}

struct waiter {
	HANDLE h;
	DWORD ret;
};

static void *wait_thread(void *arg)
{
	struct waiter *w = arg;

	w->ret = WaitForSingleObject(w->h, 10000);
	return NULL;
}

/* A wait asleep on the handle ends when a key is typed. */
static void test_wait_woken(void **state)
{
	struct pty *p = *state;
	struct waiter w = { p->in, SENTINEL_ERROR };
	pthread_t t;

	assert_true(SetConsoleMode(p->in, ENABLE_PROCESSED_INPUT));
	assert_int_equal(pthread_create(&t, NULL, wait_thread, &w), 0);
	usleep(200000);
	assert_int_equal(w.ret, SENTINEL_ERROR);
	type(p, "k");
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(w.ret, WAIT_OBJECT_0);
	assert_int_equal(pending(p->in), 2);
}

/* What PeekConsoleInput took from the terminal, ReadFile still reads;
 * FlushConsoleInputBuffer drops buffered and unread input alike. */
static void test_shared_buffer(void **state)
{
	struct pty *p = *state;
	INPUT_RECORD r[8];
	char buf[8] = { 0 };
	DWORD n = 0;

	assert_true(SetConsoleMode(p->in, ENABLE_PROCESSED_INPUT));
	type(p, "xyz");
	assert_int_equal(WaitForSingleObject(p->in, 2000), WAIT_OBJECT_0);
	for (int i = 0; i < 100 && pending(p->in) < 6; i++)
		usleep(10000);
	assert_true(PeekConsoleInputW(p->in, r, 8, &n));
	assert_int_equal(n, 6);
	assert_true(ReadFile(p->in, buf, sizeof(buf), &n, NULL));
	assert_int_equal(n, 3);
	assert_string_equal(buf, "xyz");
	assert_int_equal(pending(p->in), 0);

	type(p, "q");
	assert_int_equal(WaitForSingleObject(p->in, 2000), WAIT_OBJECT_0);
	assert_true(FlushConsoleInputBuffer(p->in));
	assert_int_equal(pending(p->in), 0);
	assert_int_equal(WaitForSingleObject(p->in, 0), WAIT_TIMEOUT);
}

/* Line mode: the terminal hands input over a line at a time, so the
 * handle signals once the line is complete. */
static void test_line_mode(void **state)
{
	struct pty *p = *state;
	WCHAR buf[8];
	DWORD n = 0;

	assert_true(SetConsoleMode(p->in, ENABLE_PROCESSED_INPUT | ENABLE_LINE_INPUT));
	type(p, "ab");
	usleep(50000);
	assert_int_equal(WaitForSingleObject(p->in, 0), WAIT_TIMEOUT);
	assert_int_equal(pending(p->in), 0);
	type(p, "\n");
	assert_int_equal(WaitForSingleObject(p->in, 2000), WAIT_OBJECT_0);
	assert_int_equal(pending(p->in), 6);
	assert_true(ReadConsoleW(p->in, buf, 8, &n, NULL));
	assert_int_equal(n, 4);
	assert_memory_equal(buf, u"ab\r\n", 4 * sizeof(WCHAR));
}

struct reader {
	HANDLE h;
	_Atomic DWORD tid;
	BOOL ok;
	DWORD err, n;
	INPUT_RECORD r[4];
};

static void *read_thread(void *arg)
{
	struct reader *rd = arg;

	rd->tid = (DWORD)gettid();
	SetLastError(SENTINEL_ERROR);
	rd->ok = ReadConsoleInputW(rd->h, rd->r, 4, &rd->n);
	rd->err = GetLastError();
	return NULL;
}

/* A ReadConsoleInput blocked on an empty terminal is cancelled. */
static void test_cancel_read(void **state)
{
	struct pty *p = *state;
	struct reader rd = { .h = p->in };
	pthread_t t;
	DWORD n = 0;
	BOOL cancelled = FALSE;

	assert_true(SetConsoleMode(p->in, ENABLE_PROCESSED_INPUT));
	assert_int_equal(pthread_create(&t, NULL, read_thread, &rd), 0);
	/* The reader runs no PE code and has no thread object to open a
	 * handle to: cancel it by id, as CancelSynchronousIo does. */
	for (int i = 0; i < 200 && !cancelled; i++) {
		usleep(10000);
		cancelled = rd.tid && syncio_cancel_thread(rd.tid);
	}
	assert_true(cancelled);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_false(rd.ok);
	assert_int_equal(rd.err, ERROR_OPERATION_ABORTED);
	type(p, "m");
	assert_int_equal(WaitForSingleObject(p->in, 2000), WAIT_OBJECT_0);
	assert_true(ReadConsoleInputW(p->in, rd.r, 4, &n));
	assert_int_equal(n, 2);
	check_key(&rd.r[0], TRUE, 'M', 0x32, 'm', 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_typed_keys, open_pty, close_pty),
		cmocka_unit_test_setup_teardown(test_wait_woken, open_pty, close_pty),
		cmocka_unit_test_setup_teardown(test_shared_buffer, open_pty, close_pty),
		cmocka_unit_test_setup_teardown(test_line_mode, open_pty, close_pty),
		cmocka_unit_test_setup_teardown(test_cancel_read, open_pty, close_pty),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The console functions on a real terminal: a pseudo-terminal pair,
 * whose slave side is the "console" and whose master side plays the
 * terminal emulator. */
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "k32_test.h"
#include "core/file.h"
#include "core/handle.h"

struct pty {
	int master, slave;
	HANDLE out, in;
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
	t.c_oflag &= ~OPOST; /* the bytes we write, unchanged */
	t.c_lflag &= ~ECHO;
	tcsetattr(p->slave, TCSANOW, &t);
	p->out = file_create_handle(p->slave, GENERIC_READ | GENERIC_WRITE, 0, false);
	p->in = file_create_handle(p->slave, GENERIC_READ, 0, false);
	*state = p;
	return 0;
}

static int close_pty(void **state)
{
	struct pty *p = *state;

	handle_close(p->out);
	handle_close(p->in);
	close(p->slave);
	close(p->master);
	free(p);
	return 0;
}

/* What the terminal received, NUL-terminated. */
static size_t drain(int fd, char *buf, size_t size)
{
	struct pollfd pfd = { fd, POLLIN, 0 };
	size_t n = 0;

	while (n < size - 1 && poll(&pfd, 1, 200) > 0) {
		ssize_t r = read(fd, buf + n, size - 1 - n);
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	buf[n] = 0;
	return n;
}

static void test_write_console(void **state)
{
	struct pty *p = *state;
	const WCHAR smile[] = { 0xd83d, 0xde00 };
	char got[64];
	DWORD n = 0;

	assert_true(WriteConsoleW(p->out, u"h\xe9llo ", 6, &n, NULL));
	assert_int_equal(n, 6);
	/* a surrogate pair split over two calls still makes one character */
	assert_true(WriteConsoleW(p->out, smile, 1, &n, NULL));
	assert_true(WriteConsoleW(p->out, smile + 1, 1, &n, NULL));
	drain(p->master, got, sizeof(got));
	assert_string_equal(got, "h\xc3\xa9llo \xf0\x9f\x98\x80");

	/* WriteConsoleA converts from the console output code page */
	assert_true(SetConsoleOutputCP(1252));
	assert_true(WriteConsoleA(p->out, "\x80!", 2, &n, NULL));
	assert_int_equal(n, 2);
	drain(p->master, got, sizeof(got));
	assert_string_equal(got, "\xe2\x82\xac!");
	assert_true(SetConsoleOutputCP(437));
	assert_int_equal(GetFileType(p->out), FILE_TYPE_CHAR);
}

static void test_read_console(void **state)
{
	struct pty *p = *state;
	WCHAR buf[16];
	char a[16];
	DWORD n = 0;

	assert_int_equal(write(p->master, "gr\xc3\xbc\xc3\x9f\n", 7), 7);
	assert_true(ReadConsoleW(p->in, buf, 3, &n, NULL));
	assert_int_equal(n, 3);
	assert_memory_equal(buf, u"gr\xfc", 3 * sizeof(WCHAR));
	assert_true(ReadConsoleW(p->in, buf, 16, &n, NULL)); /* the rest of the line */
	assert_int_equal(n, 3);
	assert_memory_equal(buf, u"\xdf\r\n", 3 * sizeof(WCHAR));

	assert_int_equal(write(p->master, "ok\n", 3), 3);
	assert_true(ReadConsoleA(p->in, a, 16, &n, NULL));
	assert_int_equal(n, 4);
	assert_memory_equal(a, "ok\r\n", 4);
}

static void test_console_mode(void **state)
{
	struct pty *p = *state;
	struct termios t;
	DWORD mode = 0;

	assert_true(GetConsoleMode(p->in, &mode));
	assert_true(mode & ENABLE_LINE_INPUT);
	assert_true(GetConsoleMode(p->out, &mode));
	assert_int_equal(mode, ENABLE_PROCESSED_OUTPUT | ENABLE_WRAP_AT_EOL_OUTPUT);
	/* echo needs line input */
	SetLastError(SENTINEL_ERROR);
	assert_false(SetConsoleMode(p->in, ENABLE_ECHO_INPUT));
	assert_last_error(ERROR_INVALID_PARAMETER);
	assert_true(SetConsoleMode(p->in, ENABLE_PROCESSED_INPUT));
	tcgetattr(p->slave, &t);
	assert_false(t.c_lflag & ICANON);
	assert_false(t.c_lflag & ECHO);
	assert_true(t.c_lflag & ISIG);
	assert_true(SetConsoleMode(p->in, ENABLE_PROCESSED_INPUT | ENABLE_LINE_INPUT | ENABLE_ECHO_INPUT));
	tcgetattr(p->slave, &t);
	assert_true(t.c_lflag & ICANON);
	assert_true(t.c_lflag & ECHO);
	assert_true(SetConsoleMode(p->out, ENABLE_PROCESSED_OUTPUT | ENABLE_VIRTUAL_TERMINAL_PROCESSING));
	assert_true(GetConsoleMode(p->out, &mode));
	assert_int_equal(mode, ENABLE_PROCESSED_OUTPUT | ENABLE_VIRTUAL_TERMINAL_PROCESSING);
}

static void test_screen_buffer(void **state)
{
	struct pty *p = *state;
	struct winsize ws = { .ws_row = 30, .ws_col = 100 };
	CONSOLE_SCREEN_BUFFER_INFO info;
	char got[64];

	assert_int_equal(ioctl(p->master, TIOCSWINSZ, &ws), 0);
	assert_true(GetConsoleScreenBufferInfo(p->out, &info));
	assert_int_equal(info.dwSize.X, 100);
	assert_int_equal(info.dwSize.Y, 30);
	assert_int_equal(info.srWindow.Right, 99);
	assert_int_equal(info.srWindow.Bottom, 29);
	assert_int_equal(info.dwMaximumWindowSize.X, 100);
	assert_int_equal(info.wAttributes, FOREGROUND_RED | FOREGROUND_GREEN | FOREGROUND_BLUE);

	/* Bright yellow on blue: 93 and 44. */
	assert_true(SetConsoleTextAttribute(p->out, FOREGROUND_RED | FOREGROUND_GREEN |
							    FOREGROUND_INTENSITY | BACKGROUND_BLUE));
	drain(p->master, got, sizeof(got));
	assert_string_equal(got, "\033[0;93;44m");
	assert_true(GetConsoleScreenBufferInfo(p->out, &info));
	assert_int_equal(info.wAttributes, FOREGROUND_RED | FOREGROUND_GREEN | FOREGROUND_INTENSITY |
						   BACKGROUND_BLUE);
	assert_true(SetConsoleTextAttribute(p->out, FOREGROUND_BLUE | BACKGROUND_RED | BACKGROUND_INTENSITY |
							    COMMON_LVB_UNDERSCORE | COMMON_LVB_REVERSE_VIDEO));
	drain(p->master, got, sizeof(got));
	assert_string_equal(got, "\033[0;34;101;7;4m");
	/* The default attribute is the terminal's default. */
	assert_true(SetConsoleTextAttribute(p->out, FOREGROUND_RED | FOREGROUND_GREEN | FOREGROUND_BLUE));
	drain(p->master, got, sizeof(got));
	assert_string_equal(got, "\033[0m");

	/* The input side is no screen buffer. */
	SetLastError(0);
	assert_false(GetConsoleScreenBufferInfo(p->in, &info));
	assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
	assert_false(SetConsoleTextAttribute(p->in, 7));
	assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
}

static void test_screen_buffer_not_console(void **state)
{
	CONSOLE_SCREEN_BUFFER_INFO info;
	int fds[2];
	HANDLE h;

	assert_int_equal(pipe(fds), 0);
	h = file_create_handle(fds[1], GENERIC_WRITE, 0, true);
	SetLastError(0);
	assert_false(GetConsoleScreenBufferInfo(h, &info));
	assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
	assert_false(SetConsoleTextAttribute(h, FOREGROUND_RED));
	assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
	handle_close(h);
	close(fds[0]);
}

static void test_ctrl_handlers(void **state)
{
	PHANDLER_ROUTINE h = (PHANDLER_ROUTINE)(void *)test_ctrl_handlers;

	assert_true(SetConsoleCtrlHandler(h, TRUE));
	assert_true(SetConsoleCtrlHandler(h, FALSE));
	SetLastError(SENTINEL_ERROR);
	assert_false(SetConsoleCtrlHandler(h, FALSE));
	assert_last_error(ERROR_INVALID_PARAMETER);
	assert_true(SetConsoleCtrlHandler(NULL, TRUE));
	assert_true(SetConsoleCtrlHandler(NULL, FALSE));
}

/* WriteConsoleOutput and SetConsoleTextAttribute on a terminal: each row positioned, colours as SGR
 * (Windows' blue/green/red bits in ANSI order), the cursor saved and
 * restored; the region clipped to the source and reported back.  A
 * handle that is no console has no screen buffer. */
static void test_write_console_output(void **state)
{
	struct pty *p = *state;
	CHAR_INFO cells[2 * 3];
	SMALL_RECT r = { 4, 1, 20, 1 };
	COORD size = { 3, 2 }, from = { 1, 1 };
	char buf[512];
	int fds[2];
	HANDLE pipe_h;

	for (int i = 0; i < 6; i++) {
		cells[i].Char.AsciiChar = (CHAR)('a' + i);
		cells[i].Attributes = i == 4 ? (FOREGROUND_RED | FOREGROUND_INTENSITY | BACKGROUND_BLUE) : 7;
	}
	/* Source row 1 from column 1: 'e' (red on blue) and 'f'. */
	assert_true(WriteConsoleOutputA(p->out, cells, size, from, &r));
	assert_int_equal(r.Left, 4);
	assert_int_equal(r.Right, 5);
	assert_int_equal(r.Top, 1);
	assert_int_equal(r.Bottom, 1);
	drain(p->master, buf, sizeof(buf));
	assert_string_equal(buf, "\0337\033[2;5H\033[0;91;44me\033[0mf\033[0m\0338");

	/* SetConsoleTextAttribute: the same colours for what follows. */
	assert_true(SetConsoleTextAttribute(p->out, FOREGROUND_GREEN | FOREGROUND_BLUE | BACKGROUND_RED | BACKGROUND_INTENSITY));
	drain(p->master, buf, sizeof(buf));
	assert_string_equal(buf, "\033[0;36;101m");
	/* The attribute is the process's: give the next test the default. */
	assert_true(SetConsoleTextAttribute(p->out, FOREGROUND_RED | FOREGROUND_GREEN | FOREGROUND_BLUE));
	drain(p->master, buf, sizeof(buf));

	assert_int_equal(pipe(fds), 0);
	pipe_h = file_create_handle(fds[1], GENERIC_WRITE, 0, true);
	SetLastError(0);
	assert_false(WriteConsoleOutputA(pipe_h, cells, size, from, &r));
	assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
	SetLastError(0);
	assert_false(SetConsoleTextAttribute(pipe_h, 7));
	assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
	handle_close(pipe_h);
	close(fds[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_write_console, open_pty, close_pty),
		cmocka_unit_test_setup_teardown(test_read_console, open_pty, close_pty),
		cmocka_unit_test_setup_teardown(test_console_mode, open_pty, close_pty),
		cmocka_unit_test_setup_teardown(test_write_console_output, open_pty, close_pty),
		cmocka_unit_test_setup_teardown(test_screen_buffer, open_pty, close_pty),
		cmocka_unit_test(test_screen_buffer_not_console),
		cmocka_unit_test(test_ctrl_handlers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

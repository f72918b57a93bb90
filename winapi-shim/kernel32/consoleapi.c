/* The console (consoleapi.h): a console handle is a file object whose
 * fd is a terminal.  Output is converted to UTF-8 for the terminal; input
 * is read in the terminal's line mode and decoded from UTF-8.
 *
 * WriteFile to a console handle writes bytes unchanged (programs that
 * print UTF-8 get UTF-8); WriteConsoleA converts from the console output
 * code page (437, the OEM code page, until SetConsoleOutputCP).
 *
 * Ctrl+C: handlers from SetConsoleCtrlHandler run on a new thread
 * (CreateThread) when SIGINT arrives, newest first; when none returns
 * TRUE the process exits with STATUS_CONTROL_C_EXIT, as on Windows. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "core/codepage.h"
#include "core/conin.h"
#include "core/debug.h"
#include "core/errors.h"
#include "core/file.h"
#include "core/wstr.h"
#include "kernel32/kernel32_private.h"
#include "loader.h"
#include "core/pecall.h"

#pragma weak CreateThread
#pragma weak loader_exit_process

#define DEFAULT_INPUT_MODE                                                                          \
	(ENABLE_PROCESSED_INPUT | ENABLE_LINE_INPUT | ENABLE_ECHO_INPUT | ENABLE_MOUSE_INPUT |      \
	 ENABLE_INSERT_MODE | ENABLE_QUICK_EDIT_MODE | ENABLE_EXTENDED_FLAGS | ENABLE_AUTO_POSITION)
#define DEFAULT_OUTPUT_MODE (ENABLE_PROCESSED_OUTPUT | ENABLE_WRAP_AT_EOL_OUTPUT)

static pthread_mutex_t console_lock = PTHREAD_MUTEX_INITIALIZER;
static DWORD input_mode = DEFAULT_INPUT_MODE, output_mode = DEFAULT_OUTPUT_MODE;
static UINT input_cp, output_cp; /* 0: the OEM code page */
static struct termios saved_termios;
static bool termios_saved;

/* The console file behind h, or NULL with ERROR_INVALID_HANDLE (also for
 * redirected handles, as Windows does). */
static struct file *get_console(HANDLE h)
{
	struct file *f = file_get(h);

	if (f && !isatty(f->fd)) {
		file_release(f);
		SetLastError(ERROR_INVALID_HANDLE);
		return NULL;
	}
	return f;
}

static bool is_input(const struct file *f)
{
	return f->console_input || f->fd == 0 || !(f->access & FILE_WRITE_DATA);
}

/* ---- code pages ----------------------------------------------------------- */

UINT WINAPI GetConsoleCP(void)
{
	return input_cp ? input_cp : cp_oem();
}

UINT WINAPI GetConsoleOutputCP(void)
{
	return output_cp ? output_cp : cp_oem();
}

BOOL WINAPI SetConsoleCP(UINT cp)
{
	if (!IsValidCodePage(cp)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	input_cp = cp;
	return TRUE;
}

BOOL WINAPI SetConsoleOutputCP(UINT cp)
{
	if (!IsValidCodePage(cp)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	output_cp = cp;
	return TRUE;
}

/* ---- modes ----------------------------------------------------------------- */

static void restore_termios(void)
{
	if (termios_saved)
		tcsetattr(0, TCSANOW, &saved_termios);
}

BOOL WINAPI GetConsoleMode(HANDLE h, DWORD *mode)
{
	struct file *f = get_console(h);

	if (!f)
		return FALSE;
	pthread_mutex_lock(&console_lock);
	*mode = is_input(f) ? input_mode : output_mode;
	pthread_mutex_unlock(&console_lock);
	file_release(f);
	return TRUE;
}

/* Input modes map onto the terminal: line input = ICANON, echo = ECHO,
 * processed input (Ctrl+C is a signal) = ISIG. */
BOOL WINAPI SetConsoleMode(HANDLE h, DWORD mode)
{
	struct file *f = get_console(h);
	struct termios t;
	BOOL ok = TRUE;

	if (!f)
		return FALSE;
	pthread_mutex_lock(&console_lock);
	if (!is_input(f)) {
		output_mode = mode;
		goto out;
	}
	if ((mode & ENABLE_ECHO_INPUT) && !(mode & ENABLE_LINE_INPUT)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		ok = FALSE;
		goto out;
	}
	if (tcgetattr(f->fd, &t)) {
		set_last_error_from_errno(errno);
		ok = FALSE;
		goto out;
	}
	if (!termios_saved && f->fd == 0) {
		saved_termios = t;
		termios_saved = true;
		atexit(restore_termios);
	}
	t.c_lflag = (mode & ENABLE_LINE_INPUT) ? t.c_lflag | ICANON : t.c_lflag & ~ICANON;
	t.c_lflag = (mode & ENABLE_ECHO_INPUT) ? t.c_lflag | ECHO : t.c_lflag & ~ECHO;
	t.c_lflag = (mode & ENABLE_PROCESSED_INPUT) ? t.c_lflag | ISIG : t.c_lflag & ~ISIG;
	if (!(mode & ENABLE_LINE_INPUT)) {
		t.c_cc[VMIN] = 1;
		t.c_cc[VTIME] = 0;
	}
	if (tcsetattr(f->fd, TCSANOW, &t)) {
		set_last_error_from_errno(errno);
		ok = FALSE;
		goto out;
	}
	input_mode = mode;
out:
	pthread_mutex_unlock(&console_lock);
	file_release(f);
	return ok;
}

/* ---- output ----------------------------------------------------------------- */

static BOOL write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			set_last_error_from_errno(w < 0 ? errno : EIO);
			return FALSE;
		}
		p += w;
		n -= (size_t)w;
	}
	return TRUE;
}

/* f->lock held.  Writes n UTF-16 units, keeping a trailing high
 * surrogate for the next call. */
static BOOL write_utf16(struct file *f, const WCHAR *s, size_t n)
{
	WCHAR *tmp = malloc((n + 1) * sizeof(WCHAR));
	size_t len = 0;
	ssize_t out;
	char *utf8;
	BOOL ok;

	if (!tmp) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	if (f->pending_high_surrogate)
		tmp[len++] = f->pending_high_surrogate;
	f->pending_high_surrogate = 0;
	memcpy(tmp + len, s, n * sizeof(WCHAR));
	len += n;
	if (len && tmp[len - 1] >= 0xd800 && tmp[len - 1] <= 0xdbff)
		f->pending_high_surrogate = tmp[--len];
	out = utf16_to_utf8(tmp, len, NULL, 0, false);
	if (!(utf8 = malloc((size_t)out + 1))) {
		free(tmp);
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	utf16_to_utf8(tmp, len, utf8, (size_t)out + 1, false);
	ok = write_all(f->fd, utf8, (size_t)out);
	free(utf8);
	free(tmp);
	return ok;
}

BOOL WINAPI WriteConsoleW(HANDLE h, const void *buf, DWORD n, DWORD *written, void *reserved)
{
	struct file *f = get_console(h);
	BOOL ok;

	if (written)
		*written = 0;
	if (!f)
		return FALSE;
	pthread_mutex_lock(&f->lock);
	ok = write_utf16(f, buf, n);
	pthread_mutex_unlock(&f->lock);
	file_release(f);
	if (ok && written)
		*written = n;
	return ok;
}

BOOL WINAPI WriteConsoleA(HANDLE h, const void *buf, DWORD n, DWORD *written, void *reserved)
{
	UINT cp = GetConsoleOutputCP();
	struct file *f = get_console(h);
	ssize_t wn;
	WCHAR *w;
	BOOL ok;

	if (written)
		*written = 0;
	if (!f)
		return FALSE;
	wn = cp_to_utf16(cp, 0, buf, n, NULL, 0);
	if (wn < 0 || !(w = malloc(((size_t)wn + 1) * sizeof(WCHAR)))) {
		file_release(f);
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	cp_to_utf16(cp, 0, buf, n, w, (size_t)wn + 1);
	pthread_mutex_lock(&f->lock);
	ok = write_utf16(f, w, (size_t)wn);
	pthread_mutex_unlock(&f->lock);
	free(w);
	file_release(f);
	if (ok && written)
		*written = n;
	return ok;
}

/* ---- input ------------------------------------------------------------------ */

/* f->lock held.  Reads and decodes one chunk of terminal input into
 * f->console_pending; in line mode "\n" becomes "\r\n" like Windows'
 * cooked reads.  FALSE on error; an empty result means end of input. */
static BOOL fill_pending(struct file *f)
{
	char bytes[4096];
	ssize_t n, wn;
	WCHAR *w;
	size_t len = 0;

	/* What PeekConsoleInput or WriteConsoleInput buffered comes first. */
	n = conin_read(f->fd, bytes, sizeof(bytes));
	if (n < 0) {
		set_last_error_from_errno(errno);
		return FALSE;
	}
	wn = utf8_to_utf16(bytes, (size_t)n, NULL, 0, false);
	if (!(w = malloc(((size_t)wn * 2 + 1) * sizeof(WCHAR)))) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	utf8_to_utf16(bytes, (size_t)n, w + wn, (size_t)wn + 1, false);
	for (ssize_t i = 0; i < wn; i++) {
		WCHAR c = w[wn + i];

		if (c == '\n' && (input_mode & ENABLE_LINE_INPUT))
			w[len++] = '\r';
		w[len++] = c;
	}
	free(f->console_pending);
	f->console_pending = w;
	f->console_pending_len = len;
	return TRUE;
}

BOOL WINAPI ReadConsoleW(HANDLE h, void *buf, DWORD n, DWORD *nread, void *control)
{
	struct file *f = get_console(h);
	size_t take;
	BOOL ok = TRUE;

	if (nread)
		*nread = 0;
	if (!f)
		return FALSE;
	pthread_mutex_lock(&f->lock);
	if (!f->console_pending_len)
		ok = fill_pending(f);
	if (ok) {
		take = f->console_pending_len < n ? f->console_pending_len : n;
		memcpy(buf, f->console_pending, take * sizeof(WCHAR));
		memmove(f->console_pending, f->console_pending + take,
			(f->console_pending_len - take) * sizeof(WCHAR));
		f->console_pending_len -= take;
		if (nread)
			*nread = (DWORD)take;
	}
	pthread_mutex_unlock(&f->lock);
	file_release(f);
	return ok;
}

BOOL WINAPI ReadConsoleA(HANDLE h, void *buf, DWORD n, DWORD *nread, void *control)
{
	UINT cp = GetConsoleCP();
	DWORD wn, units = cp == CP_UTF8 ? (n + 3) / 4 : n;
	WCHAR *w;
	ssize_t out;

	if (nread)
		*nread = 0;
	if (!(w = malloc((units ? units : 1) * sizeof(WCHAR)))) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	if (!ReadConsoleW(h, w, units, &wn, NULL)) {
		free(w);
		return FALSE;
	}
	out = utf16_to_cp(cp, 0, w, wn, buf, n, '?', NULL);
	free(w);
	if (out < 0) {
		SetLastError(ERROR_INSUFFICIENT_BUFFER);
		return FALSE;
	}
	if (nread)
		*nread = (DWORD)out;
	return TRUE;
}

/* ---- Ctrl+C ------------------------------------------------------------------ */

#define MAX_CTRL_HANDLERS 64

static PHANDLER_ROUTINE ctrl_handlers[MAX_CTRL_HANDLERS];
static unsigned int nr_ctrl_handlers;
static bool ctrl_c_ignored;
static int ctrl_pipe[2] = { -1, -1 };
static pthread_once_t ctrl_once = PTHREAD_ONCE_INIT;

static DWORD WINAPI ctrl_dispatch(LPVOID arg)
{
	DWORD event = (DWORD)(ULONG_PTR)arg;
	PHANDLER_ROUTINE list[MAX_CTRL_HANDLERS];
	unsigned int n;

	pthread_mutex_lock(&console_lock);
	n = nr_ctrl_handlers;
	memcpy(list, ctrl_handlers, n * sizeof(*list));
	pthread_mutex_unlock(&console_lock);
	while (n--)
		if ((BOOL)PE_CALL1(list[n], event))
			return 0;
	if (loader_exit_process)
		loader_exit_process(STATUS_CONTROL_C_EXIT);
	_exit(128 + SIGINT);
}

static void sigint_handler(int sig)
{
	char c = CTRL_C_EVENT;
	int saved = errno;

	(void)!write(ctrl_pipe[1], &c, 1);
	errno = saved;
}

/* A host thread turns SIGINT into a Windows-style handler thread. */
static void *ctrl_thread(void *arg)
{
	char c;

	for (;;) {
		ssize_t n = read(ctrl_pipe[0], &c, 1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return NULL;
		pthread_mutex_lock(&console_lock);
		/* SetConsoleCtrlHandler(NULL, TRUE) ignores Ctrl+C, never Ctrl+Break. */
		bool ignored = ctrl_c_ignored && c == CTRL_C_EVENT;
		pthread_mutex_unlock(&console_lock);
		if (ignored)
			continue;
		if (CreateThread && CreateThread(NULL, 0, ctrl_dispatch, (LPVOID)(ULONG_PTR)c, 0, NULL))
			continue;
		TRACE(misc, "cannot start a thread for the Ctrl+C handlers: exiting\n");
		if (loader_exit_process)
			loader_exit_process(STATUS_CONTROL_C_EXIT);
		_exit(128 + SIGINT);
	}
}

static void ctrl_init(void)
{
	struct sigaction sa;
	pthread_t thread;

	if (pipe2(ctrl_pipe, O_CLOEXEC))
		return;
	if (pthread_create(&thread, NULL, ctrl_thread, NULL)) {
		close(ctrl_pipe[0]);
		close(ctrl_pipe[1]);
		ctrl_pipe[0] = ctrl_pipe[1] = -1;
		return;
	}
	pthread_detach(thread);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sigint_handler;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
}

/* The calling process's own group (0, or its process id): the event goes
 * through the same path as a terminal's Ctrl+C, so the handlers run on a
 * new thread, newest first.  Other process groups belong to processes
 * started with CREATE_NEW_PROCESS_GROUP, which ndrun does not create
 * yet: ERROR_INVALID_PARAMETER. */
BOOL WINAPI GenerateConsoleCtrlEvent(DWORD event, DWORD group)
{
	char c = (char)event;

	TRACE(misc, "event %u group %u\n", (unsigned)event, (unsigned)group);
	if ((event != CTRL_C_EVENT && event != CTRL_BREAK_EVENT) || (group && group != (DWORD)getpid())) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	pthread_once(&ctrl_once, ctrl_init);
	if (ctrl_pipe[1] < 0 || write(ctrl_pipe[1], &c, 1) != 1) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	return TRUE;
}

BOOL WINAPI SetConsoleCtrlHandler(PHANDLER_ROUTINE handler, BOOL add)
{
	BOOL ok = TRUE;

	pthread_once(&ctrl_once, ctrl_init);
	if (ctrl_pipe[0] < 0) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	pthread_mutex_lock(&console_lock);
	if (!handler) {
		ctrl_c_ignored = add;
	} else if (add) {
		if (nr_ctrl_handlers == MAX_CTRL_HANDLERS) {
			SetLastError(ERROR_NOT_ENOUGH_MEMORY);
			ok = FALSE;
		} else {
			ctrl_handlers[nr_ctrl_handlers++] = handler;
		}
	} else {
		unsigned int i = nr_ctrl_handlers;

		while (i && ctrl_handlers[i - 1] != handler)
			i--;
		if (!i) {
			SetLastError(ERROR_INVALID_PARAMETER);
			ok = FALSE;
		} else {
			memmove(ctrl_handlers + i - 1, ctrl_handlers + i,
				(nr_ctrl_handlers - i) * sizeof(*ctrl_handlers));
			nr_ctrl_handlers--;
		}
	}
	pthread_mutex_unlock(&console_lock);
	return ok;
}

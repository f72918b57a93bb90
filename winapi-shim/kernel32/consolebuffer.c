/* The console screen buffer (wincon.h): GetConsoleScreenBufferInfo and
 * SetConsoleTextAttribute on a terminal.
 *
 * The buffer is the terminal's window: dwSize, srWindow and
 * dwMaximumWindowSize come from its size (TIOCGWINSZ), with no scroll-
 * back rows.  The cursor position is not known without asking the
 * terminal (a round trip through its input), so it is reported as the
 * first column of the last row, where a scrolling terminal's cursor
 * usually is.  Text attributes become ANSI SGR sequences written to the
 * terminal: FOREGROUND_* to 30-37 (90-97 with FOREGROUND_INTENSITY),
 * BACKGROUND_* to 40-47 (100-107), COMMON_LVB_REVERSE_VIDEO to 7 and
 * COMMON_LVB_UNDERSCORE to 4; the default attribute (light grey on
 * black, 0x07) is the terminal's own default ("ESC[0m").
 *
 * A handle that is not a console output (a redirected one, a file, the
 * input) fails with ERROR_INVALID_HANDLE, as on Windows. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "core/debug.h"
#include "core/errors.h"
#include "core/file.h"
#include "kernel32/kernel32_private.h"

#define DEFAULT_ATTRIBUTES (FOREGROUND_RED | FOREGROUND_GREEN | FOREGROUND_BLUE)

static pthread_mutex_t attr_lock = PTHREAD_MUTEX_INITIALIZER;
static WORD attributes = DEFAULT_ATTRIBUTES;

/* The console output behind h (referenced), or NULL with
 * ERROR_INVALID_HANDLE. */
static struct file *get_console_output(HANDLE h)
{
	struct file *f = file_get(h);

	if (!f)
		return NULL;
	if (f->fd < 0 || !isatty(f->fd) || f->fd == 0 || !(f->access & FILE_WRITE_DATA)) {
		file_release(f);
		SetLastError(ERROR_INVALID_HANDLE);
		return NULL;
	}
	return f;
}

/* Windows' RGB bit order (blue 1, green 2, red 4) as an ANSI color
 * number (red 1, green 2, blue 4). */
static int ansi_color(WORD rgb)
{
	return (rgb & 4 ? 1 : 0) | (rgb & 2 ? 2 : 0) | (rgb & 1 ? 4 : 0);
}

size_t console_sgr(WORD attr, char *buf, size_t size)
{
	int fg = attr & 0x0f, bg = (attr >> 4) & 0x0f;

	if ((attr & ~(COMMON_LVB_LEADING_BYTE | COMMON_LVB_TRAILING_BYTE | COMMON_LVB_GRID_HORIZONTAL |
		      COMMON_LVB_GRID_LVERTICAL | COMMON_LVB_GRID_RVERTICAL)) == DEFAULT_ATTRIBUTES)
		return (size_t)snprintf(buf, size, "\033[0m");
	return (size_t)snprintf(buf, size, "\033[0;%d;%d%s%sm",
				(fg & FOREGROUND_INTENSITY ? 90 : 30) + ansi_color(fg & 7),
				(bg & 8 ? 100 : 40) + ansi_color(bg & 7),
				attr & COMMON_LVB_REVERSE_VIDEO ? ";7" : "",
				attr & COMMON_LVB_UNDERSCORE ? ";4" : "");
}

WORD console_attributes(void)
{
	WORD attr;

	pthread_mutex_lock(&attr_lock);
	attr = attributes;
	pthread_mutex_unlock(&attr_lock);
	return attr;
}

BOOL WINAPI SetConsoleTextAttribute(HANDLE h, WORD attr)
{
	struct file *f = get_console_output(h);
	char seq[48];
	size_t n, done = 0;
	BOOL ret = TRUE;

	TRACE(file, "%p, %#x\n", h, attr);
	if (!f)
		return FALSE;
	n = console_sgr(attr, seq, sizeof(seq));
	pthread_mutex_lock(&attr_lock);
	while (done < n) {
		ssize_t w = write(f->fd, seq + done, n - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			SetLastError(win32_error_from_errno(w < 0 ? errno : EIO));
			ret = FALSE;
			break;
		}
		done += (size_t)w;
	}
	if (ret)
		attributes = attr;
	pthread_mutex_unlock(&attr_lock);
	file_release(f);
	return ret;
}

BOOL WINAPI GetConsoleScreenBufferInfo(HANDLE h, LPCONSOLE_SCREEN_BUFFER_INFO info)
{
	struct file *f = get_console_output(h);
	struct winsize ws;
	SHORT cols = 80, rows = 25;

	TRACE(file, "%p\n", h);
	if (!f)
		return FALSE;
	/* A terminal that does not know its size (a bare pty) gets
	 * Windows' classic 80x25. */
	if (!ioctl(f->fd, TIOCGWINSZ, &ws) && ws.ws_col && ws.ws_row) {
		cols = ws.ws_col > 0x7fff ? 0x7fff : (SHORT)ws.ws_col;
		rows = ws.ws_row > 0x7fff ? 0x7fff : (SHORT)ws.ws_row;
	}
	file_release(f);
	info->dwSize.X = cols;
	info->dwSize.Y = rows;
	info->dwCursorPosition.X = 0;
	info->dwCursorPosition.Y = rows - 1;
	pthread_mutex_lock(&attr_lock);
	info->wAttributes = attributes;
	pthread_mutex_unlock(&attr_lock);
	info->srWindow.Left = 0;
	info->srWindow.Top = 0;
	info->srWindow.Right = cols - 1;
	info->srWindow.Bottom = rows - 1;
	info->dwMaximumWindowSize = info->dwSize;
	return TRUE;
}

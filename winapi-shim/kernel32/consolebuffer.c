/* Console screen-buffer state (consoleapi2.h): GetConsoleScreenBufferInfo
 * and SetConsoleTextAttribute.  A handle that is not a console (a pipe, a
 * file) has no screen buffer: ERROR_INVALID_HANDLE, which programs such
 * as ninja take as "not a terminal".  On a terminal, attributes become
 * SGR colour sequences; the buffer's cursor position and current
 * attributes are not tracked yet, so GetConsoleScreenBufferInfo fails
 * there with ERROR_CALL_NOT_IMPLEMENTED instead of inventing them. */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "core/debug.h"
#include "core/errors.h"
#include "core/file.h"
#include "kernel32/kernel32_private.h"

/* SGR parameters for a console attribute: Windows' colour bits are
 * blue 1, green 2, red 4 (ANSI numbers them red 1, green 2, blue 4). */
static int sgr(char *out, size_t len, WORD attr)
{
	int fg = ((attr & FOREGROUND_RED) ? 1 : 0) | ((attr & FOREGROUND_GREEN) ? 2 : 0) |
		 ((attr & FOREGROUND_BLUE) ? 4 : 0);
	int bg = ((attr & BACKGROUND_RED) ? 1 : 0) | ((attr & BACKGROUND_GREEN) ? 2 : 0) |
		 ((attr & BACKGROUND_BLUE) ? 4 : 0);

	return snprintf(out, len, "\033[0;%d;%dm", (attr & FOREGROUND_INTENSITY ? 90 : 30) + fg,
			(attr & BACKGROUND_INTENSITY ? 100 : 40) + bg);
}

BOOL WINAPI GetConsoleScreenBufferInfo(HANDLE h, CONSOLE_SCREEN_BUFFER_INFO *info)
{
	struct file *f = file_get(h);
	bool tty;

	if (!f) {
		SetLastError(ERROR_INVALID_HANDLE);
		return FALSE;
	}
	tty = isatty(f->fd);
	file_release(f);
	if (!tty) {
		SetLastError(ERROR_INVALID_HANDLE);
		return FALSE;
	}
	TRACE(misc, "%p: screen buffers of terminals are not implemented\n", h);
	SetLastError(ERROR_CALL_NOT_IMPLEMENTED);
	return FALSE;
}

/* The attributes of text written from now on: on a terminal, the same
 * colours as SGR parameters. */
BOOL WINAPI SetConsoleTextAttribute(HANDLE h, WORD attr)
{
	char seq[32];
	struct file *f;
	int n;
	BOOL ret = TRUE;

	if (!(f = file_get(h)))
		return FALSE;
	if (!isatty(f->fd)) {
		file_release(f);
		SetLastError(ERROR_INVALID_HANDLE);
		return FALSE;
	}
	n = sgr(seq, sizeof(seq), attr);
	for (int off = 0; off < n;) {
		ssize_t w = write(f->fd, seq + off, (size_t)(n - off));

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			set_last_error_from_errno(w < 0 ? errno : EIO);
			ret = FALSE;
			break;
		}
		off += (int)w;
	}
	file_release(f);
	return ret;
}

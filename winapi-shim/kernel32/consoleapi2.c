/* WriteConsoleOutputA/W (consoleapi2.h).  On a terminal the screen
 * buffer is the terminal's visible window (no scroll-back): a rectangle
 * of cells is drawn with cursor-positioning and colour escape sequences,
 * leaving the cursor where it was.  A handle that is not a console has
 * no screen buffer: ERROR_INVALID_HANDLE. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "core/codepage.h"
#include "core/debug.h"
#include "core/errors.h"
#include "core/file.h"
#include "kernel32/kernel32_private.h"

/* ---- WriteConsoleOutput ----------------------------------------------------- */

struct outbuf {
	char *p;
	size_t len, cap;
};

static bool put(struct outbuf *o, const char *s, size_t n)
{
	if (o->len + n > o->cap) {
		size_t cap = (o->len + n) * 2 + 256;
		char *p = realloc(o->p, cap);

		if (!p)
			return false;
		o->p = p;
		o->cap = cap;
	}
	memcpy(o->p + o->len, s, n);
	o->len += n;
	return true;
}

/* Draws buf's cells [coord, coord + region's size) at region (inclusive
 * corners, clipped to the terminal and to buf); region gets what was
 * drawn.  wide: the cells hold UnicodeChar, else AsciiChar in the console
 * output code page. */
static BOOL write_output(HANDLE h, const CHAR_INFO *buf, COORD size, COORD coord, SMALL_RECT *region, bool wide)
{
	struct outbuf o = { 0 };
	struct winsize ws;
	struct file *f;
	int width, height;
	BOOL ret = TRUE;

	if (!buf || !region) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!(f = file_get(h)))
		return FALSE;
	if (!isatty(f->fd)) {
		file_release(f);
		SetLastError(ERROR_INVALID_HANDLE);
		return FALSE;
	}
	if (ioctl(f->fd, TIOCGWINSZ, &ws) || !ws.ws_col || !ws.ws_row) {
		ws.ws_col = 80;
		ws.ws_row = 25;
	}
	/* Clip: to the screen, then to what the source rectangle holds. */
	if (region->Left < 0)
		region->Left = 0;
	if (region->Top < 0)
		region->Top = 0;
	if (region->Right >= ws.ws_col)
		region->Right = (SHORT)(ws.ws_col - 1);
	if (region->Bottom >= ws.ws_row)
		region->Bottom = (SHORT)(ws.ws_row - 1);
	width = region->Right - region->Left + 1;
	height = region->Bottom - region->Top + 1;
	if (width > size.X - coord.X)
		width = size.X - coord.X;
	if (height > size.Y - coord.Y)
		height = size.Y - coord.Y;
	if (width <= 0 || height <= 0 || coord.X < 0 || coord.Y < 0) {
		file_release(f);
		region->Right = (SHORT)(region->Left - 1);
		region->Bottom = (SHORT)(region->Top - 1);
		return TRUE; /* nothing to draw */
	}
	region->Right = (SHORT)(region->Left + width - 1);
	region->Bottom = (SHORT)(region->Top + height - 1);

	/* Save the cursor, draw row by row, restore the attribute and the cursor. */
	ret = put(&o, "\0337", 2);
	for (int y = 0; ret && y < height; y++) {
		char seq[48];
		int n = snprintf(seq, sizeof(seq), "\033[%d;%dH", region->Top + y + 1, region->Left + 1);
		int last_attr = -1;

		ret = put(&o, seq, (size_t)n);
		for (int x = 0; ret && x < width; x++) {
			const CHAR_INFO *c = &buf[(coord.Y + y) * size.X + coord.X + x];
			WCHAR w = c->Char.UnicodeChar;
			char utf8[8];
			ssize_t len;

			if (c->Attributes != last_attr) {
				n = (int)console_sgr(c->Attributes, seq, sizeof(seq));
				ret = put(&o, seq, (size_t)n);
				last_attr = c->Attributes;
			}
			if (!wide) {
				char a = c->Char.AsciiChar;
				cp_to_utf16(cp_resolve(GetConsoleOutputCP()), 0, &a, 1, &w, 1);
			}
			if (w < ' ')
				w = ' '; /* a cell shows a control character as nothing */
			len = utf16_to_utf8(&w, 1, utf8, sizeof(utf8), false);
			ret = ret && len > 0 && put(&o, utf8, (size_t)len);
		}
	}
	/* Back to the attribute later text is written with, then the cursor. */
	if (ret) {
		char seq[48];
		int n = (int)console_sgr(console_attributes(), seq, sizeof(seq));

		ret = put(&o, seq, (size_t)n) && put(&o, "\0338", 2);
	}
	if (!ret) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
	} else {
		size_t off = 0;

		while (off < o.len) {
			ssize_t w = write(f->fd, o.p + off, o.len - off);

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				set_last_error_from_errno(w < 0 ? errno : EIO);
				ret = FALSE;
				break;
			}
			off += (size_t)w;
		}
	}
	free(o.p);
	file_release(f);
	return ret;
}

BOOL WINAPI WriteConsoleOutputW(HANDLE h, const CHAR_INFO *buf, COORD size, COORD coord, SMALL_RECT *region)
{
	return write_output(h, buf, size, coord, region, true);
}

BOOL WINAPI WriteConsoleOutputA(HANDLE h, const CHAR_INFO *buf, COORD size, COORD coord, SMALL_RECT *region)
{
	return write_output(h, buf, size, coord, region, false);
}


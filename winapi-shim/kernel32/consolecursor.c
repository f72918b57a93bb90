/* The console cursor and cell fills (wincon.h) on a terminal, whose
 * visible window is the screen buffer (consolebuffer.c):
 *
 *   SetConsoleCursorPosition  moves the terminal's cursor (CUP); a
 *     position outside the buffer is ERROR_INVALID_PARAMETER.
 *   Get/SetConsoleCursorInfo  the cursor's size (1-100, else
 *     ERROR_INVALID_PARAMETER) and visibility (DECTCEM); the terminal has
 *     no size, so the size set is the size reported.
 *   FillConsoleOutputCharacterA/W  writes the character into cells from a
 *     position on, row after row, up to the end of the buffer, without
 *     moving the cursor; *written counts the cells.
 *   FillConsoleOutputAttribute  a terminal cannot recolour cells without
 *     writing their characters, which it cannot read back: the fill is
 *     done where the characters are known, that is inside the cells the
 *     last FillConsoleOutputCharacter filled (the clear-screen sequence
 *     programs use: characters, attributes, cursor home), by writing them
 *     again in the attribute.  Elsewhere it fails with ERROR_NOT_SUPPORTED
 *     (traced on +file) rather than claim cells it did not change.
 *
 * A handle that is not a console output fails with ERROR_INVALID_HANDLE. */
#include <errno.h>
#include <pthread.h>
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

static pthread_mutex_t cursor_lock = PTHREAD_MUTEX_INITIALIZER;
static DWORD cursor_size = 25; /* Windows' default: a quarter of the cell */
static BOOL cursor_visible = TRUE;
/* The cells the last character fill wrote, as linear offsets, and its
 * character (UTF-8). */
static long filled_from = -1, filled_to = -1;
static char filled_char[8];

/* The console output behind h (referenced) with its size, or NULL with
 * ERROR_INVALID_HANDLE. */
static struct file *console_out(HANDLE h, int *cols, int *rows)
{
	struct file *f = file_get(h);
	struct winsize ws;

	if (!f)
		return NULL;
	if (f->fd <= 0 || !isatty(f->fd) || !(f->access & FILE_WRITE_DATA)) {
		file_release(f);
		SetLastError(ERROR_INVALID_HANDLE);
		return NULL;
	}
	*cols = 80;
	*rows = 25;
	if (!ioctl(f->fd, TIOCGWINSZ, &ws) && ws.ws_col && ws.ws_row) {
		*cols = ws.ws_col;
		*rows = ws.ws_row;
	}
	return f;
}

static BOOL write_all(struct file *f, const char *s, size_t len)
{
	while (len) {
		ssize_t w = write(f->fd, s, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			set_last_error_from_errno(w < 0 ? errno : EIO);
			return FALSE;
		}
		s += w;
		len -= (size_t)w;
	}
	return TRUE;
}

BOOL WINAPI SetConsoleCursorPosition(HANDLE h, COORD pos)
{
	char seq[32];
	int cols, rows, n;
	struct file *f = console_out(h, &cols, &rows);
	BOOL ret;

	TRACE(file, "%p, (%d, %d)\n", h, pos.X, pos.Y);
	if (!f)
		return FALSE;
	if (pos.X < 0 || pos.Y < 0 || pos.X >= cols || pos.Y >= rows) {
		file_release(f);
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	n = snprintf(seq, sizeof(seq), "\033[%d;%dH", pos.Y + 1, pos.X + 1);
	ret = write_all(f, seq, (size_t)n);
	file_release(f);
	return ret;
}

BOOL WINAPI GetConsoleCursorInfo(HANDLE h, LPCONSOLE_CURSOR_INFO info)
{
	int cols, rows;
	struct file *f = console_out(h, &cols, &rows);

	if (!f)
		return FALSE;
	file_release(f);
	if (!info) {
		SetLastError(ERROR_INVALID_ACCESS);
		return FALSE;
	}
	pthread_mutex_lock(&cursor_lock);
	info->dwSize = cursor_size;
	info->bVisible = cursor_visible;
	pthread_mutex_unlock(&cursor_lock);
	return TRUE;
}

BOOL WINAPI SetConsoleCursorInfo(HANDLE h, LPCONSOLE_CURSOR_INFO info)
{
	int cols, rows;
	struct file *f = console_out(h, &cols, &rows);
	BOOL ret;

	if (!f)
		return FALSE;
	if (!info || info->dwSize < 1 || info->dwSize > 100) {
		file_release(f);
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	ret = write_all(f, info->bVisible ? "\033[?25h" : "\033[?25l", 6);
	if (ret) {
		pthread_mutex_lock(&cursor_lock);
		cursor_size = info->dwSize;
		cursor_visible = info->bVisible != FALSE;
		pthread_mutex_unlock(&cursor_lock);
	}
	file_release(f);
	return ret;
}

/* Writes cell (UTF-8) len times from pos on, in the attribute attr (or
 * the current one when attr < 0), keeping the cursor; *done gets the
 * cells written (clipped to the buffer's end). */
static BOOL fill(HANDLE h, const char *cell, DWORD len, COORD pos, int attr, DWORD *done, long *from, long *to)
{
	int cols, rows;
	struct file *f = console_out(h, &cols, &rows);
	long start, end;
	char seq[48];
	char *buf, *p;
	size_t cell_len = strlen(cell);
	BOOL ret;

	if (done)
		*done = 0;
	if (!f)
		return FALSE;
	if (!done) {
		file_release(f);
		SetLastError(ERROR_INVALID_ACCESS);
		return FALSE;
	}
	if (pos.X < 0 || pos.Y < 0 || pos.X >= cols || pos.Y >= rows) {
		file_release(f);
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	start = (long)pos.Y * cols + pos.X;
	end = start + (long)len;
	if (end > (long)cols * rows)
		end = (long)cols * rows;
	/* Per row: the position, the cells.  Then the attribute and cursor back. */
	buf = malloc((size_t)(end - start) * cell_len + (size_t)rows * 16 + 128);
	if (!buf) {
		file_release(f);
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	p = buf;
	p += sprintf(p, "\0337");
	if (attr >= 0)
		p += console_sgr((WORD)attr, p, 48);
	for (long c = start; c < end; c++) {
		if (c == start || c % cols == 0)
			p += sprintf(p, "\033[%ld;%ldH", c / cols + 1, c % cols + 1);
		memcpy(p, cell, cell_len);
		p += cell_len;
	}
	if (attr >= 0) {
		size_t n = console_sgr(console_attributes(), seq, sizeof(seq));
		memcpy(p, seq, n);
		p += n;
	}
	p += sprintf(p, "\0338");
	ret = write_all(f, buf, (size_t)(p - buf));
	free(buf);
	file_release(f);
	if (ret) {
		*done = (DWORD)(end - start);
		*from = start;
		*to = end;
	}
	return ret;
}

static BOOL fill_char(HANDLE h, WCHAR w, DWORD len, COORD pos, DWORD *done)
{
	char utf8[8] = " ";
	long from, to;
	ssize_t n;
	BOOL ret;

	if (w >= ' ' && (n = utf16_to_utf8(&w, 1, utf8, sizeof(utf8) - 1, false)) > 0)
		utf8[n] = 0;
	ret = fill(h, utf8, len, pos, -1, done, &from, &to);
	if (ret) {
		pthread_mutex_lock(&cursor_lock);
		filled_from = from;
		filled_to = to;
		memcpy(filled_char, utf8, sizeof(filled_char));
		pthread_mutex_unlock(&cursor_lock);
	}
	return ret;
}

BOOL WINAPI FillConsoleOutputCharacterW(HANDLE h, WCHAR c, DWORD len, COORD pos, LPDWORD done)
{
	TRACE(file, "%p, U+%04x x %lu at (%d, %d)\n", h, c, (unsigned long)len, pos.X, pos.Y);
	return fill_char(h, c, len, pos, done);
}

BOOL WINAPI FillConsoleOutputCharacterA(HANDLE h, CHAR c, DWORD len, COORD pos, LPDWORD done)
{
	WCHAR w = ' ';

	cp_to_utf16(cp_resolve(GetConsoleOutputCP()), 0, &c, 1, &w, 1);
	return fill_char(h, w, len, pos, done);
}

BOOL WINAPI FillConsoleOutputAttribute(HANDLE h, WORD attr, DWORD len, COORD pos, LPDWORD done)
{
	int cols, rows;
	struct file *f = console_out(h, &cols, &rows);
	long start = (long)pos.Y * cols + pos.X, from, to;
	char cell[8];
	bool known;

	TRACE(file, "%p, 0x%04x x %lu at (%d, %d)\n", h, attr, (unsigned long)len, pos.X, pos.Y);
	if (!f)
		return FALSE;
	file_release(f);
	pthread_mutex_lock(&cursor_lock);
	known = filled_from >= 0 && start >= filled_from && start + (long)len <= filled_to;
	memcpy(cell, filled_char, sizeof(cell));
	pthread_mutex_unlock(&cursor_lock);
	if (!known && pos.X >= 0 && pos.Y >= 0 && pos.X < cols && pos.Y < rows && len) {
		/* Cells whose characters ndrun does not know. */
		TRACE(file, "cannot recolour cells whose characters are unknown\n");
		if (done)
			*done = 0;
		SetLastError(ERROR_NOT_SUPPORTED);
		return FALSE;
	}
	return fill(h, cell, len, pos, attr, done, &from, &to);
}

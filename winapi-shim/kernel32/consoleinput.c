/* The console input buffer as records (consoleapi.h):
 * GetNumberOfConsoleInputEvents, PeekConsoleInput, ReadConsoleInput,
 * FlushConsoleInputBuffer, WriteConsoleInput.
 *
 * A terminal sends characters, not keys (core/conin.h).  Each key a
 * terminal can express becomes the records a Windows console makes when
 * that key is typed on a US keyboard: a key-down and a key-up record
 * with the character, its virtual-key code and scan code, wrapped in
 * Shift (upper case, shifted symbols) or Ctrl (control characters
 * 0x01-0x1a) down and up records.  Enter ('\r' or '\n') is VK_RETURN
 * with '\r', DEL and BS are VK_BACK with '\b', ESC alone VK_ESCAPE; the
 * escape sequences of the arrow, Home, End, Insert, Delete and page keys
 * are those keys (ENHANCED_KEY, no character); other escape sequences
 * make no records.  Characters beyond ASCII have no key: virtual-key and
 * scan code 0, one down and up pair per UTF-16 unit.  No mouse, focus,
 * menu or buffer-size records ever appear, and modifier keys pressed
 * alone are never seen.
 *
 * WriteConsoleInput goes the other way: the characters of key-down
 * records (wRepeatCount times), the listed keys as their escape
 * sequences; the other records are accepted and dropped, since the
 * buffer holds characters. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/codepage.h"
#include "core/conin.h"
#include "core/debug.h"
#include "core/errors.h"
#include "core/file.h"
#include "kernel32/kernel32_private.h"

#define VK_SHIFT_KEY 0x10
#define VK_CONTROL_KEY 0x11
#define SCAN_LSHIFT 0x2a
#define SCAN_LCTRL 0x1d

struct key {
	WORD vk, scan;
	WCHAR ch;
	DWORD mods; /* SHIFT_PRESSED, LEFT_CTRL_PRESSED, ENHANCED_KEY */
};

/* Printable ASCII on a US keyboard: the key's virtual-key code, scan
 * code, and whether Shift is down. */
struct ascii_key {
	unsigned char vk, scan, shift;
};

static const struct ascii_key ascii_keys[128] = {
	[' '] = { 0x20, 0x39, 0 },
	['!'] = { '1', 0x02, 1 }, ['"'] = { 0xde, 0x28, 1 }, ['#'] = { '3', 0x04, 1 },
	['$'] = { '4', 0x05, 1 }, ['%'] = { '5', 0x06, 1 }, ['&'] = { '7', 0x08, 1 },
	['\''] = { 0xde, 0x28, 0 }, ['('] = { '9', 0x0a, 1 }, [')'] = { '0', 0x0b, 1 },
	['*'] = { '8', 0x09, 1 }, ['+'] = { 0xbb, 0x0d, 1 }, [','] = { 0xbc, 0x33, 0 },
	['-'] = { 0xbd, 0x0c, 0 }, ['.'] = { 0xbe, 0x34, 0 }, ['/'] = { 0xbf, 0x35, 0 },
	['0'] = { '0', 0x0b, 0 }, ['1'] = { '1', 0x02, 0 }, ['2'] = { '2', 0x03, 0 },
	['3'] = { '3', 0x04, 0 }, ['4'] = { '4', 0x05, 0 }, ['5'] = { '5', 0x06, 0 },
	['6'] = { '6', 0x07, 0 }, ['7'] = { '7', 0x08, 0 }, ['8'] = { '8', 0x09, 0 },
	['9'] = { '9', 0x0a, 0 }, [':'] = { 0xba, 0x27, 1 }, [';'] = { 0xba, 0x27, 0 },
	['<'] = { 0xbc, 0x33, 1 }, ['='] = { 0xbb, 0x0d, 0 }, ['>'] = { 0xbe, 0x34, 1 },
	['?'] = { 0xbf, 0x35, 1 }, ['@'] = { '2', 0x03, 1 }, ['['] = { 0xdb, 0x1a, 0 },
	['\\'] = { 0xdc, 0x2b, 0 }, [']'] = { 0xdd, 0x1b, 0 }, ['^'] = { '6', 0x07, 1 },
	['_'] = { 0xbd, 0x0c, 1 }, ['`'] = { 0xc0, 0x29, 0 }, ['{'] = { 0xdb, 0x1a, 1 },
	['|'] = { 0xdc, 0x2b, 1 }, ['}'] = { 0xdd, 0x1b, 1 }, ['~'] = { 0xc0, 0x29, 1 },
};

/* Letters' scan codes, a to z. */
static const unsigned char letter_scan[26] = {
	0x1e, 0x30, 0x2e, 0x20, 0x12, 0x21, 0x22, 0x23, 0x17, 0x24, 0x25, 0x26, 0x32,
	0x31, 0x18, 0x19, 0x10, 0x13, 0x1f, 0x14, 0x16, 0x2f, 0x11, 0x2d, 0x15, 0x2c,
};

/* The keys with escape sequences: "ESC [ <final>" or "ESC O <final>",
 * and "ESC [ <n> ~". */
struct seq_key {
	char final;  /* 0 for the "<n>~" form */
	char num;
	WORD vk, scan;
};

static const struct seq_key seq_keys[] = {
	{ 'A', 0, 0x26, 0x48 }, { 'B', 0, 0x28, 0x50 }, { 'C', 0, 0x27, 0x4d },
	{ 'D', 0, 0x25, 0x4b }, { 'H', 0, 0x24, 0x47 }, { 'F', 0, 0x23, 0x4f },
	{ 0, '1', 0x24, 0x47 }, { 0, '2', 0x2d, 0x52 }, { 0, '3', 0x2e, 0x53 },
	{ 0, '4', 0x23, 0x4f }, { 0, '5', 0x21, 0x49 }, { 0, '6', 0x22, 0x51 },
	{ 0, '7', 0x24, 0x47 }, { 0, '8', 0x23, 0x4f },
};

static bool ascii_key(unsigned char c, struct key *k)
{
	memset(k, 0, sizeof(*k));
	k->ch = c;
	if (c == '\r' || c == '\n') {
		k->vk = 0x0d;
		k->scan = 0x1c;
		k->ch = '\r';
	} else if (c == 0x7f || c == '\b') {
		k->vk = 0x08;
		k->scan = 0x0e;
		k->ch = '\b';
	} else if (c == '\t') {
		k->vk = 0x09;
		k->scan = 0x0f;
	} else if (c == 0x1b) {
		k->vk = 0x1b;
		k->scan = 0x01;
	} else if (c >= 1 && c <= 26) {
		k->vk = 'A' + c - 1;
		k->scan = letter_scan[c - 1];
		k->mods = LEFT_CTRL_PRESSED;
	} else if (c >= 'a' && c <= 'z') {
		k->vk = c - 'a' + 'A';
		k->scan = letter_scan[c - 'a'];
	} else if (c >= 'A' && c <= 'Z') {
		k->vk = c;
		k->scan = letter_scan[c - 'A'];
		k->mods = SHIFT_PRESSED;
	} else if (c < 128 && ascii_keys[c].vk) {
		k->vk = ascii_keys[c].vk;
		k->scan = ascii_keys[c].scan;
		k->mods = ascii_keys[c].shift ? SHIFT_PRESSED : 0;
	} else {
		return false; /* other control characters: no key */
	}
	return true;
}

/* The key at the start of b (n bytes): bytes it takes, 0 when b ends in
 * the middle of it.  *nk: 0 (no key: an unknown sequence), 1, or 2 (a
 * character outside the BMP, as two keys). */
static size_t decode_key(const unsigned char *b, size_t n, struct key k[2], int *nk)
{
	*nk = 0;
	if (b[0] == 0x1b && n >= 2 && (b[1] == '[' || b[1] == 'O')) {
		size_t i = 2;

		while (i < n && (b[i] < 0x40 || b[i] > 0x7e))
			i++;
		if (i == n)
			return 0;
		for (size_t j = 0; j < sizeof(seq_keys) / sizeof(seq_keys[0]); j++) {
			const struct seq_key *s = &seq_keys[j];

			if ((s->final && b[i] == s->final && i == 2) ||
			    (!s->final && b[i] == '~' && i == 3 && b[2] == s->num)) {
				memset(k, 0, sizeof(*k));
				k->vk = s->vk;
				k->scan = s->scan;
				k->mods = ENHANCED_KEY;
				*nk = 1;
				break;
			}
		}
		return i + 1;
	}
	if (b[0] < 0x80) {
		*nk = ascii_key(b[0], k) ? 1 : 0;
		return 1;
	} else {
		WCHAR w[2];
		size_t len = (b[0] & 0xe0) == 0xc0 ? 2 : (b[0] & 0xf0) == 0xe0 ? 3 : (b[0] & 0xf8) == 0xf0 ? 4 : 1;
		ssize_t wn;

		if (len > n)
			return 0;
		wn = utf8_to_utf16((const char *)b, len, w, 2, false);
		if (wn < 1) {
			w[0] = 0xfffd;
			wn = 1;
		}
		for (int i = 0; i < wn && i < 2; i++) {
			memset(&k[i], 0, sizeof(k[i]));
			k[i].ch = w[i];
		}
		*nk = (int)(wn < 2 ? wn : 2);
		return len;
	}
}

static void key_record(INPUT_RECORD *r, WORD vk, WORD scan, WCHAR ch, BOOL down, DWORD state)
{
	memset(r, 0, sizeof(*r));
	r->EventType = KEY_EVENT;
	r->Event.KeyEvent.bKeyDown = down;
	r->Event.KeyEvent.wRepeatCount = 1;
	r->Event.KeyEvent.wVirtualKeyCode = vk;
	r->Event.KeyEvent.wVirtualScanCode = scan;
	r->Event.KeyEvent.uChar.UnicodeChar = ch;
	r->Event.KeyEvent.dwControlKeyState = state;
}

/* A key's records: [modifier down] down up [modifier up]; the number. */
static unsigned int key_records(const struct key *k, INPUT_RECORD out[4])
{
	DWORD mod = k->mods & (SHIFT_PRESSED | LEFT_CTRL_PRESSED);
	WORD mvk = mod == SHIFT_PRESSED ? VK_SHIFT_KEY : VK_CONTROL_KEY;
	WORD mscan = mod == SHIFT_PRESSED ? SCAN_LSHIFT : SCAN_LCTRL;
	unsigned int n = 0;

	if (mod)
		key_record(&out[n++], mvk, mscan, 0, TRUE, mod);
	key_record(&out[n++], k->vk, k->scan, k->ch, TRUE, k->mods);
	key_record(&out[n++], k->vk, k->scan, k->ch, FALSE, k->mods);
	if (mod)
		key_record(&out[n++], mvk, mscan, 0, FALSE, 0);
	return n;
}

/* The console input file behind h, or NULL with ERROR_INVALID_HANDLE
 * (a redirected handle has no input buffer). */
static struct file *get_input(HANDLE h)
{
	struct file *f = file_get(h);

	if (f && !conin_is_input(f)) {
		file_release(f);
		SetLastError(ERROR_INVALID_HANDLE);
		return NULL;
	}
	return f;
}

/* Up to max records from fd's buffer (all when out is NULL: counting);
 * *used and *skip tell what reading them consumes. */
static DWORD make_records(int fd, INPUT_RECORD *out, DWORD max, size_t *used, unsigned int *skip)
{
	char bytes[4096];
	unsigned int first_skip, s;
	size_t n = conin_peek(fd, bytes, sizeof(bytes), &first_skip), off = 0;
	DWORD count = 0;

	s = first_skip;
	*used = 0;
	*skip = first_skip;
	while (off < n && count < max) {
		INPUT_RECORD recs[8];
		struct key k[2];
		unsigned int nr = 0;
		int nk;
		size_t len = decode_key((const unsigned char *)bytes + off, n - off, k, &nk);

		if (!len)
			break;
		for (int i = 0; i < nk; i++)
			nr += key_records(&k[i], recs + nr);
		for (; s < nr && count < max; s++, count++)
			if (out)
				out[count] = recs[s];
		if (s < nr) {
			/* Part of this key's records read: the rest later. */
			*skip = s;
			break;
		}
		off += len;
		*used = off;
		*skip = 0;
		s = 0;
	}
	return count;
}

BOOL WINAPI GetNumberOfConsoleInputEvents(HANDLE h, LPDWORD count)
{
	struct file *f = get_input(h);
	size_t used;
	unsigned int skip;

	if (!f)
		return FALSE;
	if (!count) {
		file_release(f);
		SetLastError(ERROR_INVALID_ACCESS);
		return FALSE;
	}
	if (conin_fill(f->fd, false) < 0) {
		set_last_error_from_errno(errno);
		file_release(f);
		return FALSE;
	}
	*count = make_records(f->fd, NULL, (DWORD)-1, &used, &skip);
	file_release(f);
	return TRUE;
}

/* Peek and Read, both forms: records in UTF-16, turned to the console
 * input code page for the A forms. */
static BOOL input_records(HANDLE h, INPUT_RECORD *buf, DWORD len, DWORD *count, bool remove, bool wide)
{
	struct file *f = get_input(h);
	size_t used;
	unsigned int skip;
	DWORD n = 0;

	if (!f)
		return FALSE;
	if (!count || (len && !buf)) {
		file_release(f);
		SetLastError(ERROR_INVALID_ACCESS);
		return FALSE;
	}
	*count = 0;
	for (;;) {
		if (conin_fill(f->fd, remove && len) < 0) {
			/* ECANCELED: CancelSynchronousIo. */
			set_last_error_from_errno(errno);
			file_release(f);
			return FALSE;
		}
		n = make_records(f->fd, buf, len, &used, &skip);
		/* ReadConsoleInput waits for at least one record; bytes that
		 * make none (an unknown sequence) are dropped meanwhile. */
		if (!remove || n || !len)
			break;
		conin_consume(f->fd, used, skip);
	}
	if (remove)
		conin_consume(f->fd, used, skip);
	file_release(f);
	if (!wide) {
		UINT cp = GetConsoleCP();

		for (DWORD i = 0; i < n; i++) {
			WCHAR w = buf[i].Event.KeyEvent.uChar.UnicodeChar;
			char a = 0;

			if (w && utf16_to_cp(cp, 0, &w, 1, &a, 1, '?', NULL) != 1)
				a = '?';
			buf[i].Event.KeyEvent.uChar.UnicodeChar = 0;
			buf[i].Event.KeyEvent.uChar.AsciiChar = a;
		}
	}
	*count = n;
	return TRUE;
}

BOOL WINAPI PeekConsoleInputW(HANDLE h, PINPUT_RECORD buf, DWORD len, LPDWORD count)
{
	return input_records(h, buf, len, count, false, true);
}

BOOL WINAPI PeekConsoleInputA(HANDLE h, PINPUT_RECORD buf, DWORD len, LPDWORD count)
{
	return input_records(h, buf, len, count, false, false);
}

BOOL WINAPI ReadConsoleInputW(HANDLE h, PINPUT_RECORD buf, DWORD len, LPDWORD count)
{
	return input_records(h, buf, len, count, true, true);
}

BOOL WINAPI ReadConsoleInputA(HANDLE h, PINPUT_RECORD buf, DWORD len, LPDWORD count)
{
	return input_records(h, buf, len, count, true, false);
}

BOOL WINAPI FlushConsoleInputBuffer(HANDLE h)
{
	struct file *f = get_input(h);

	if (!f)
		return FALSE;
	conin_flush(f->fd);
	file_release(f);
	return TRUE;
}

/* The bytes a key-down record stands for (see above); 0 for none. */
static size_t record_bytes(const KEY_EVENT_RECORD *k, WCHAR ch, WCHAR *high, char *out)
{
	static const struct {
		WORD vk;
		const char *seq;
	} seqs[] = {
		{ 0x26, "\x1b[A" }, { 0x28, "\x1b[B" }, { 0x27, "\x1b[C" }, { 0x25, "\x1b[D" },
		{ 0x24, "\x1b[H" }, { 0x23, "\x1b[F" }, { 0x2d, "\x1b[2~" }, { 0x2e, "\x1b[3~" },
		{ 0x21, "\x1b[5~" }, { 0x22, "\x1b[6~" },
	};
	ssize_t n;

	if (!k->bKeyDown)
		return 0;
	if (ch == '\r')
		ch = '\n'; /* what a terminal's Enter reads as */
	/* A character beyond the BMP comes as two records, its surrogates. */
	if (ch >= 0xd800 && ch < 0xdc00) {
		*high = ch;
		return 0;
	}
	if (ch >= 0xdc00 && ch < 0xe000 && *high) {
		WCHAR pair[2] = { *high, ch };

		*high = 0;
		n = utf16_to_utf8(pair, 2, out, 4, false);
		return n > 0 ? (size_t)n : 0;
	}
	*high = 0;
	if (ch) {
		n = utf16_to_utf8(&ch, 1, out, 4, false);
		return n > 0 ? (size_t)n : 0;
	}
	for (size_t i = 0; i < sizeof(seqs) / sizeof(seqs[0]); i++) {
		if (seqs[i].vk == k->wVirtualKeyCode) {
			strcpy(out, seqs[i].seq);
			return strlen(out);
		}
	}
	return 0;
}

/* A key-down record's character, in UTF-16. */
static WCHAR record_char(const KEY_EVENT_RECORD *k, bool wide)
{
	char a = k->uChar.AsciiChar;
	WCHAR ch = 0;

	if (wide)
		return k->uChar.UnicodeChar;
	if (a && cp_to_utf16(GetConsoleCP(), 0, &a, 1, &ch, 1) != 1)
		ch = '?';
	return ch;
}

static BOOL write_input(HANDLE h, const INPUT_RECORD *recs, DWORD len, DWORD *written, bool wide)
{
	struct file *f = get_input(h);
	char *bytes = NULL, one[8];
	size_t n = 0, total = 0;
	BOOL ok = TRUE;

	if (!f)
		return FALSE;
	if (!written || (len && !recs)) {
		file_release(f);
		SetLastError(ERROR_INVALID_ACCESS);
		return FALSE;
	}
	/* Twice over the records: the size, then the bytes. */
	for (int pass = 0; pass < 2; pass++) {
		WCHAR high = 0;

		for (DWORD i = 0; i < len; i++) {
			const KEY_EVENT_RECORD *k = &recs[i].Event.KeyEvent;
			size_t m, reps;

			if (recs[i].EventType != KEY_EVENT)
				continue;
			m = record_bytes(k, record_char(k, wide), &high, one);
			reps = k->wRepeatCount ? k->wRepeatCount : 1;
			for (size_t r = 0; pass && m && r < reps; r++, n += m)
				memcpy(bytes + n, one, m);
			total += pass ? 0 : m * reps;
		}
		if (!pass && total && !(bytes = malloc(total))) {
			file_release(f);
			SetLastError(ERROR_NOT_ENOUGH_MEMORY);
			return FALSE;
		}
	}
	if (n && !conin_append(f->fd, bytes, n)) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		ok = FALSE;
	}
	free(bytes);
	file_release(f);
	if (ok)
		*written = len;
	return ok;
}

BOOL WINAPI WriteConsoleInputW(HANDLE h, const INPUT_RECORD *recs, DWORD len, LPDWORD written)
{
	return write_input(h, recs, len, written, true);
}

BOOL WINAPI WriteConsoleInputA(HANDLE h, const INPUT_RECORD *recs, DWORD len, LPDWORD written)
{
	return write_input(h, recs, len, written, false);
}

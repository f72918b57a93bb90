/* conio.h: _kbhit, _getch/_getwch (and the echoing _getche/_getwche),
 * _ungetch/_ungetwch, _putch/_putwch.  As the Windows runtimes do, they
 * talk to the console itself (CONIN$ and CONOUT$, opened once), not to
 * the standard handles, and read key records (kernel32's console input
 * buffer: winapi-shim/kernel32/consoleinput.c).  _getch reads with line
 * input, echo and Ctrl+C processing off, so a key comes back as soon as
 * it is typed (Ctrl+C as 3); a key without a character (an arrow) comes
 * back as 0xE0 and then its scan code.  Without a console they return
 * EOF (WEOF). */
#include <pthread.h>
#include <stdbool.h>

#include "msvcrt/msvcrt_private.h"

#include <wincon.h>

#define CRT_EOF (-1)
#define CRT_WEOF 0xffff

static pthread_mutex_t conio_lock = PTHREAD_MUTEX_INITIALIZER;
static HANDLE conin = INVALID_HANDLE_VALUE, conout = INVALID_HANDLE_VALUE;
static int ungot = -1;      /* _ungetch's character */
static int pending_scan;    /* the second half of an extended key */

/* conio_lock held. */
static HANDLE console(HANDLE *h, const WCHAR *name)
{
	if (*h == INVALID_HANDLE_VALUE)
		*h = CreateFileW(name, GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
				 OPEN_EXISTING, 0, NULL);
	return *h;
}

/* A key-down record that _getch returns something for. */
static bool is_key(const INPUT_RECORD *r, bool wide)
{
	const KEY_EVENT_RECORD *k = &r->Event.KeyEvent;

	if (r->EventType != KEY_EVENT || !k->bKeyDown)
		return false;
	return (wide ? k->uChar.UnicodeChar != 0 : k->uChar.AsciiChar != 0) || (k->dwControlKeyState & ENHANCED_KEY);
}

int __cdecl crt__kbhit(void)
{
	INPUT_RECORD recs[64];
	DWORD n = 0;
	int hit = 0;
	HANDLE h;

	pthread_mutex_lock(&conio_lock);
	if (ungot != -1 || pending_scan) {
		pthread_mutex_unlock(&conio_lock);
		return 1;
	}
	h = console(&conin, u"CONIN$");
	if (h != INVALID_HANDLE_VALUE && PeekConsoleInputA(h, recs, 64, &n)) {
		for (DWORD i = 0; i < n && !hit; i++)
			hit = is_key(&recs[i], false);
	}
	pthread_mutex_unlock(&conio_lock);
	return hit;
}

/* _getch and _getwch: the next key's character (console input code
 * page, or UTF-16), 0xE0 then the scan code for a key without one. */
static int getch_common(bool wide)
{
	INPUT_RECORD r;
	DWORD n, mode;
	int c = CRT_EOF;
	HANDLE h;

	pthread_mutex_lock(&conio_lock);
	if (ungot != -1) {
		c = ungot;
		ungot = -1;
		goto out;
	}
	if (pending_scan) {
		c = pending_scan;
		pending_scan = 0;
		goto out;
	}
	h = console(&conin, u"CONIN$");
	if (h == INVALID_HANDLE_VALUE || !GetConsoleMode(h, &mode))
		goto out;
	SetConsoleMode(h, 0);
	while ((wide ? ReadConsoleInputW(h, &r, 1, &n) : ReadConsoleInputA(h, &r, 1, &n)) && n) {
		const KEY_EVENT_RECORD *k = &r.Event.KeyEvent;

		if (!is_key(&r, wide))
			continue;
		if (wide ? k->uChar.UnicodeChar : k->uChar.AsciiChar) {
			c = wide ? k->uChar.UnicodeChar : (unsigned char)k->uChar.AsciiChar;
		} else {
			c = 0xe0;
			pending_scan = k->wVirtualScanCode;
		}
		break;
	}
	SetConsoleMode(h, mode);
out:
	pthread_mutex_unlock(&conio_lock);
	return wide && c == CRT_EOF ? CRT_WEOF : c;
}

int __cdecl crt__getch(void)
{
	return getch_common(false);
}

WCHAR __cdecl crt__getwch(void)
{
	return (WCHAR)getch_common(true);
}

int __cdecl crt__putch(int c)
{
	char ch = (char)c;
	DWORD n = 0;
	HANDLE h;

	pthread_mutex_lock(&conio_lock);
	h = console(&conout, u"CONOUT$");
	pthread_mutex_unlock(&conio_lock);
	if (h == INVALID_HANDLE_VALUE || !WriteConsoleA(h, &ch, 1, &n, NULL) || n != 1)
		return CRT_EOF;
	return c & 0xff;
}

WCHAR __cdecl crt__putwch(WCHAR c)
{
	DWORD n = 0;
	HANDLE h;

	pthread_mutex_lock(&conio_lock);
	h = console(&conout, u"CONOUT$");
	pthread_mutex_unlock(&conio_lock);
	if (h == INVALID_HANDLE_VALUE || !WriteConsoleW(h, &c, 1, &n, NULL) || n != 1)
		return CRT_WEOF;
	return c;
}

int __cdecl crt__getche(void)
{
	int c = crt__getch();

	if (c != CRT_EOF && c != 0xe0)
		crt__putch(c);
	return c;
}

WCHAR __cdecl crt__getwche(void)
{
	WCHAR c = crt__getwch();

	if (c != CRT_WEOF && c != 0xe0)
		crt__putwch(c);
	return c;
}

/* One character pushed back; a second before it is read is EOF. */
int __cdecl crt__ungetch(int c)
{
	int ret = CRT_EOF;

	pthread_mutex_lock(&conio_lock);
	if (c != CRT_EOF && ungot == -1) {
		ungot = c & 0xff;
		ret = ungot;
	}
	pthread_mutex_unlock(&conio_lock);
	return ret;
}

WCHAR __cdecl crt__ungetwch(WCHAR c)
{
	WCHAR ret = CRT_WEOF;

	pthread_mutex_lock(&conio_lock);
	if (c != CRT_WEOF && ungot == -1) {
		ungot = c;
		ret = c;
	}
	pthread_mutex_unlock(&conio_lock);
	return ret;
}

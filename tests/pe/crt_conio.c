/* conio.h's console functions: _kbhit, _getch/_getwch/_getche,
 * _ungetch, _putch/_putwch.  Run with a pseudo-terminal as standard input
 * (tests.list flag pty); the keys are typed with WriteConsoleInput. */
#include <conio.h>
#include <stdio.h>
#include <string.h>
#include <windows.h>

#include "test.h"

static HANDLE in;

static void type_key(WORD vk, WORD scan, WCHAR ch, DWORD state)
{
	INPUT_RECORD r[2];
	DWORD n = 0;

	memset(r, 0, sizeof(r));
	for (int i = 0; i < 2; i++) {
		r[i].EventType = KEY_EVENT;
		r[i].Event.KeyEvent.bKeyDown = !i;
		r[i].Event.KeyEvent.wRepeatCount = 1;
		r[i].Event.KeyEvent.wVirtualKeyCode = vk;
		r[i].Event.KeyEvent.wVirtualScanCode = scan;
		r[i].Event.KeyEvent.uChar.UnicodeChar = ch;
		r[i].Event.KeyEvent.dwControlKeyState = state;
	}
	ok(WriteConsoleInputW(in, r, 2, &n) && n == 2, "WriteConsoleInputW: %lu\n", GetLastError());
}

int main(void)
{
	DWORD mode = 0, after = 0;
	int c;

	in = GetStdHandle(STD_INPUT_HANDLE);
	if (!GetConsoleMode(in, &mode)) {
		ok(0, "standard input is not a console (error %lu): run it with a terminal\n", GetLastError());
		return test_summary();
	}
	FlushConsoleInputBuffer(in);
	ok(!_kbhit(), "a key with nothing typed\n");

	type_key('A', 0x1e, 'a', 0);
	ok(_kbhit(), "no key after 'a'\n");
	c = _getch();
	ok(c == 'a', "got %#x\n", c);
	/* The key-up left behind is no key. */
	ok(!_kbhit(), "a key after the read\n");
	ok(GetConsoleMode(in, &after) && after == mode, "mode %#lx, was %#lx\n", after, mode);

	/* A key without a character: 0xE0, then its scan code. */
	type_key(VK_UP, 0x48, 0, ENHANCED_KEY);
	/* The idiom "if (_kbhit()) { c = _getch(); if (c == 0xE0) ... }"
	 * for arrow keys relies on this; Wine's _kbhit counts only keys
	 * with a character. */
	ok_todo_wine(_kbhit(), "no key after Up\n");
	c = _getch();
	ok(c == 0xe0, "got %#x\n", c);
	ok(_kbhit(), "the scan code is not waiting\n");
	c = _getch();
	ok(c == 0x48, "got %#x\n", c);

	/* One character goes back. */
	ok(_ungetch('x') == 'x', "_ungetch failed\n");
	ok(_ungetch('y') == EOF, "a second _ungetch worked\n");
	ok(_kbhit(), "the pushed-back character is not waiting\n");
	c = _getch();
	ok(c == 'x', "got %#x\n", c);

	type_key(0, 0, 0xe9, 0);
	c = _getwch();
	ok(c == 0xe9, "got %#x\n", c);

	type_key('B', 0x30, 'b', 0);
	c = _getche();
	ok(c == 'b', "got %#x\n", c);
	type_key('C', 0x2e, 'c', 0);
	c = _getwche();
	ok(c == 'c', "got %#x\n", c);

	ok(_putch('!') == '!', "_putch failed\n");
	ok(_putwch(0xe9) == 0xe9, "_putwch failed\n");
	FlushConsoleInputBuffer(in);
	return test_summary();
}

/* user32 without a window system: wsprintf's own format rules, the
 * CharUpper/CharLower family and IsChar*, GetSystemMetrics headless. */
#include <wchar.h>

#include "test.h"

static void test_wsprintf_a(void)
{
	char buf[2048], big[1500];
	int n;

	n = wsprintfA(buf, "%5.3d|%-5s|%#x|%c|%ls|%I64d|%lu|%.2s|%%", 7, "ab", 255, 'z', L"wide",
		      (long long)-5, 4000000000ul, "xyz");
	ok(n == 42 && !strcmp(buf, "  007|ab   |0xff|z|wide|-5|4000000000|xy|%"), "%d [%s]\n", n, buf);
	/* No floating point: an unknown conversion prints its character
	 * and takes no argument. */
	n = wsprintfA(buf, "%f|%d", 7);
	ok(n == 3 && !strcmp(buf, "f|7"), "%d [%s]\n", n, buf);
	n = wsprintfA(buf, "%-#8x|%08d|%.3x|%-05d|%#X", 255, -42, 5, 3, 255);
	ok(!strcmp(buf, "0xff      |-0000042|005|3    |0XFF"), "%d [%s]\n", n, buf);
	n = wsprintfA(buf, "[%s][%ls][%u][%x][%I64x][%05s][%5.1s]", (char *)NULL, (WCHAR *)NULL, -1, -1,
		      0x123456789abULL, "xy", "abc");
	ok(!strcmp(buf, "[(null)][(null)][4294967295][ffffffff][123456789ab][   xy][    a]"), "%d [%s]\n",
	   n, buf);
	n = wsprintfA(buf, "%p", (void *)0x1234);
	ok(!strcmp(buf, "0000000000001234"), "%%p: [%s]\n", buf);
	n = wsprintfA(buf, "trailing %");
	ok(n == 9 && !strcmp(buf, "trailing "), "%d [%s]\n", n, buf);

	/* 1024 characters including the terminator, at most.  The result
	 * is what was stored (docs); Wine counts the cut character too. */
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	memset(buf, 'x', sizeof(buf));
	n = wsprintfA(buf, "%s", big);
	ok(strlen(buf) == 1023, "stored %u characters\n", (unsigned)strlen(buf));
	ok_todo_wine(n == 1023, "returned %d\n", n);
}

static int call_wvsprintfW(WCHAR *buf, const WCHAR *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = wvsprintfW(buf, fmt, ap);
	va_end(ap);
	return n;
}

static int call_wvsprintfA(char *buf, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = wvsprintfA(buf, fmt, ap);
	va_end(ap);
	return n;
}

static void test_wsprintf_w(void)
{
	WCHAR buf[2048], big[1500];
	char abuf[64];
	int n;

	n = wsprintfW(buf, L"%s|%S|%hs|%c|%C|%hc|%lc|%05X|%i|%-4u", L"w", "n", "h", L'x', 'y', 'h',
		      L'l', 0xabc, -3, 7);
	ok(n == 27 && !wcscmp(buf, L"w|n|h|x|y|h|l|00ABC|-3|7   "), "%d [%ls]\n", n, buf);
	/* Narrow arguments go through the ANSI code page (1252: 0xe9 is é). */
	n = wsprintfW(buf, L"%S", "caf\xe9");
	ok(n == 4 && buf[3] == 0xe9, "%d, %#x\n", n, buf[3]);
	n = wsprintfA(abuf, "%S", L"caf\u00e9");
	ok(n == 4 && (unsigned char)abuf[3] == 0xe9, "%d, %#x\n", n, (unsigned char)abuf[3]);
	n = call_wvsprintfW(buf, L"%d-%s", 12, L"va");
	ok(n == 5 && !wcscmp(buf, L"12-va"), "wvsprintfW: %d [%ls]\n", n, buf);
	n = call_wvsprintfA(abuf, "%d-%s", 12, "va");
	ok(n == 5 && !strcmp(abuf, "12-va"), "wvsprintfA: %d [%s]\n", n, abuf);
	for (int i = 0; i < 1499; i++)
		big[i] = L'b';
	big[1499] = 0;
	n = wsprintfW(buf, L"%s", big);
	ok(wcslen(buf) == 1023, "stored %u characters\n", (unsigned)wcslen(buf));
}

static void test_char_case(void)
{
	char s[] = "hello \xe9\xff\x9aT";
	WCHAR w[] = L"\u00e9\u00ff\u0101z";
	LPSTR r;
	DWORD n;

	r = CharUpperA(s);
	ok(r == s && !strcmp(s, "HELLO \xc9\x9f\x8aT"), "CharUpperA: [%s]\n", s);
	r = CharLowerA(s);
	ok(!strcmp(s, "hello \xe9\xff\x9at"), "CharLowerA: [%s]\n", s);
	/* One character in the pointer's low word. */
	r = CharUpperA((LPSTR)(ULONG_PTR)'a');
	ok((ULONG_PTR)r == 'A', "CharUpperA(char): %p\n", r);
	ok((ULONG_PTR)CharLowerW((LPWSTR)(ULONG_PTR)0xc9) == 0xe9, "CharLowerW(char)\n");
	n = CharUpperBuffA(s, 3);
	ok(n == 3 && !strncmp(s, "HELlo", 5), "CharUpperBuffA: %lu [%s]\n", n, s);
	n = CharLowerBuffA(s, 2);
	ok(n == 2 && !strncmp(s, "heLlo", 5), "CharLowerBuffA: %lu [%s]\n", n, s);
	CharUpperW(w);
	ok(w[0] == 0xc9 && w[1] == 0x178 && w[2] == 0x100 && w[3] == 'Z', "CharUpperW: %04x %04x %04x %04x\n",
	   w[0], w[1], w[2], w[3]);
	CharLowerW(w);
	ok(w[0] == 0xe9 && w[1] == 0xff && w[2] == 0x101 && w[3] == 'z', "CharLowerW\n");
	n = CharUpperBuffW(w, 1);
	ok(n == 1 && w[0] == 0xc9 && w[1] == 0xff, "CharUpperBuffW: %lu\n", n);
	n = CharLowerBuffW(w, 2);
	ok(n == 2 && w[0] == 0xe9, "CharLowerBuffW: %lu\n", n);
}

static void test_is_char(void)
{
	ok(IsCharAlphaA('a') && !IsCharAlphaA('1') && IsCharAlphaA('\xe9'), "IsCharAlphaA\n");
	ok(IsCharAlphaNumericA('1') && !IsCharAlphaNumericA('-'), "IsCharAlphaNumericA\n");
	ok(IsCharAlphaW(0x3b1) && !IsCharAlphaW(' '), "IsCharAlphaW\n");
	ok(IsCharAlphaNumericW('7'), "IsCharAlphaNumericW\n");
	ok(IsCharUpperA('A') && !IsCharUpperA('a') && IsCharLowerA('a') && !IsCharLowerA('A'),
	   "IsCharUpperA/LowerA\n");
	ok(IsCharUpperW(0xc9) && IsCharLowerW(0xe9) && !IsCharUpperW('1'), "IsCharUpperW/LowerW\n");
}

/* No display: the screen, monitor and mouse metrics are 0.  Wine's null
 * display driver pretends a 1024x768 screen, one monitor and a mouse. */
static void test_metrics(void)
{
	ok_todo_wine(GetSystemMetrics(SM_CXSCREEN) == 0, "SM_CXSCREEN %d\n", GetSystemMetrics(SM_CXSCREEN));
	ok_todo_wine(GetSystemMetrics(SM_CYSCREEN) == 0, "SM_CYSCREEN %d\n", GetSystemMetrics(SM_CYSCREEN));
	ok_todo_wine(GetSystemMetrics(SM_CMONITORS) == 0, "SM_CMONITORS %d\n",
		     GetSystemMetrics(SM_CMONITORS));
	ok_todo_wine(GetSystemMetrics(SM_MOUSEPRESENT) == 0, "SM_MOUSEPRESENT %d\n",
		     GetSystemMetrics(SM_MOUSEPRESENT));
	ok(GetSystemMetrics(SM_REMOTESESSION) == 0, "SM_REMOTESESSION %d\n",
	   GetSystemMetrics(SM_REMOTESESSION));
	ok(GetSystemMetrics(SM_CLEANBOOT) == 0, "SM_CLEANBOOT %d\n", GetSystemMetrics(SM_CLEANBOOT));
	ok(GetSystemMetrics(SM_SWAPBUTTON) == 0, "SM_SWAPBUTTON\n");
	ok(GetSystemMetrics(SM_NETWORK) & 1, "SM_NETWORK %d\n", GetSystemMetrics(SM_NETWORK));
	ok(GetSystemMetrics(9999) == 0, "undefined index: %d\n", GetSystemMetrics(9999));
}

int main(void)
{
	test_wsprintf_a();
	test_wsprintf_w();
	test_char_case();
	test_is_char();
	test_metrics();
	return test_summary();
}

/* MessageBox with no window system: caption and text on stderr, the
 * default button as the answer (tests/pe/user32_msgbox.stderr holds the
 * lines).  ndrun only: wine64 without a display cannot show a box (its
 * MessageBox fails), and no person would press a button anyway. */
#include "test.h"

int main(void)
{
	int r;

	r = MessageBoxA(NULL, "Something happened", "Program", MB_OK | MB_ICONERROR);
	ok(r == IDOK, "MB_OK: %d\n", r);
	r = MessageBoxW(NULL, L"Continue? \u00e9", L"Question", MB_YESNO);
	ok(r == IDYES, "MB_YESNO: %d\n", r);
	r = MessageBoxA(NULL, "Second default", NULL, MB_YESNOCANCEL | MB_DEFBUTTON2);
	ok(r == IDNO, "MB_YESNOCANCEL | MB_DEFBUTTON2: %d\n", r);
	r = MessageBoxA(NULL, "Assertion failed", "CRT", MB_ABORTRETRYIGNORE | MB_DEFBUTTON3);
	ok(r == IDIGNORE, "MB_ABORTRETRYIGNORE | MB_DEFBUTTON3: %d\n", r);
	r = MessageBoxExW(NULL, L"Retry", L"Ex", MB_RETRYCANCEL, 0);
	ok(r == IDRETRY, "MB_RETRYCANCEL: %d\n", r);
	SetLastError(0xdeadbeef);
	r = MessageBoxA(NULL, "bad style", "x", 0xf);
	ok(r == 0 && GetLastError() == ERROR_INVALID_MSGBOX_STYLE, "bad style: %d, error %lu\n", r,
	   GetLastError());
	return test_summary();
}

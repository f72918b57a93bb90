/* GetConsoleScreenBufferInfo and SetConsoleTextAttribute: on handles
 * that are not console output they fail with ERROR_INVALID_HANDLE (the
 * harness redirects stdout and stderr, so they are such handles).  On a
 * console (CONOUT$, when the run has a terminal) the attribute set is
 * the attribute read back.  The terminal side (sizes, the ANSI
 * sequences) is checked on a pseudo-terminal by tests/unit/test_console. */
#include "test.h"

static void test_not_console(void)
{
	CONSOLE_SCREEN_BUFFER_INFO info;
	HANDLE file;
	BOOL ret;

	if (GetFileType(GetStdHandle(STD_OUTPUT_HANDLE)) == FILE_TYPE_CHAR) {
		printf("console_buffer: stdout is a terminal: the redirected-stdout checks did not run\n");
	} else {
		SetLastError(0xdeadbeef);
		ret = GetConsoleScreenBufferInfo(GetStdHandle(STD_OUTPUT_HANDLE), &info);
		ok(!ret && GetLastError() == ERROR_INVALID_HANDLE, "redirected stdout: %d, error %lu\n",
		   ret, GetLastError());
		SetLastError(0xdeadbeef);
		ret = SetConsoleTextAttribute(GetStdHandle(STD_OUTPUT_HANDLE), FOREGROUND_RED);
		ok(!ret && GetLastError() == ERROR_INVALID_HANDLE,
		   "SetConsoleTextAttribute on a pipe: %d, error %lu\n", ret, GetLastError());
	}
	file = CreateFileA("console_buffer.tmp", GENERIC_WRITE, 0, NULL, CREATE_ALWAYS,
			   FILE_FLAG_DELETE_ON_CLOSE, NULL);
	SetLastError(0xdeadbeef);
	ret = GetConsoleScreenBufferInfo(file, &info);
	ok(!ret && GetLastError() == ERROR_INVALID_HANDLE, "file: %d, error %lu\n", ret, GetLastError());
	CloseHandle(file);
	SetLastError(0xdeadbeef);
	ret = GetConsoleScreenBufferInfo(NULL, &info);
	ok(!ret && GetLastError() == ERROR_INVALID_HANDLE, "NULL handle: %d, error %lu\n", ret,
	   GetLastError());
}

static void test_console(void)
{
	CONSOLE_SCREEN_BUFFER_INFO info;
	HANDLE con = CreateFileA("CONOUT$", GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE,
				 NULL, OPEN_EXISTING, 0, NULL);
	WORD saved;

	if (con == INVALID_HANDLE_VALUE) {
		printf("console_buffer: no console (CONOUT$: error %lu): the console-side checks did not "
		       "run here; tests/unit/test_console covers them on a pseudo-terminal\n",
		       GetLastError());
		return;
	}
	ok(GetConsoleScreenBufferInfo(con, &info), "CONOUT$: error %lu\n", GetLastError());
	ok(info.dwSize.X > 0 && info.dwSize.Y > 0 && info.srWindow.Right < info.dwSize.X,
	   "size %dx%d, window right %d\n", info.dwSize.X, info.dwSize.Y, info.srWindow.Right);
	saved = info.wAttributes;
	ok(SetConsoleTextAttribute(con, FOREGROUND_GREEN | BACKGROUND_RED), "set: %lu\n", GetLastError());
	ok(GetConsoleScreenBufferInfo(con, &info) && info.wAttributes == (FOREGROUND_GREEN | BACKGROUND_RED),
	   "read back %#x\n", info.wAttributes);
	SetConsoleTextAttribute(con, saved);
	CloseHandle(con);
}

int main(void)
{
	test_not_console();
	test_console();
	return test_summary();
}

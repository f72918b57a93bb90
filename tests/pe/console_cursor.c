/* The console cursor and cell fills: SetConsoleCursorPosition,
 * Get/SetConsoleCursorInfo, FillConsoleOutputCharacterA/W and
 * FillConsoleOutputAttribute.  On handles that are not console output
 * they fail with ERROR_INVALID_HANDLE; on the console (CONOUT$, run on a
 * pseudo-terminal) positions outside the buffer and cursor sizes outside
 * 1-100 are ERROR_INVALID_PARAMETER, the cursor info set is the info read
 * back, and a fill counts the cells it wrote, stopping at the end of the
 * buffer.  The clear-screen sequence (characters, attributes, cursor
 * home) works as a whole. */
#include "test.h"

int main(void)
{
	CONSOLE_SCREEN_BUFFER_INFO info;
	CONSOLE_CURSOR_INFO ci, ci2;
	COORD home = { 0, 0 }, last, out;
	DWORD n, cells;
	HANDLE con, file;

	file = CreateFileA("console_cursor.tmp", GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, FILE_FLAG_DELETE_ON_CLOSE, NULL);
	SetLastError(0xdeadbeef);
	ok(!SetConsoleCursorPosition(file, home) && GetLastError() == ERROR_INVALID_HANDLE, "file: error %lu\n",
	   GetLastError());
	SetLastError(0xdeadbeef);
	ok(!FillConsoleOutputCharacterA(file, 'x', 3, home, &n) && GetLastError() == ERROR_INVALID_HANDLE,
	   "fill a file: error %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	ok(!GetConsoleCursorInfo(file, &ci) && GetLastError() == ERROR_INVALID_HANDLE, "cursor info of a file: %lu\n",
	   GetLastError());
	CloseHandle(file);

	con = CreateFileA("CONOUT$", GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
			  OPEN_EXISTING, 0, NULL);
	if (con == INVALID_HANDLE_VALUE || !GetConsoleScreenBufferInfo(con, &info)) {
		printf("console_cursor: no console (error %lu): the console-side checks did not run\n", GetLastError());
		return test_summary();
	}
	cells = (DWORD)info.dwSize.X * info.dwSize.Y;
	last.X = (SHORT)(info.dwSize.X - 1);
	last.Y = (SHORT)(info.dwSize.Y - 1);
	ok(SetConsoleCursorPosition(con, last), "the last cell: error %lu\n", GetLastError());
	out = last;
	out.X++;
	SetLastError(0xdeadbeef);
	ok(!SetConsoleCursorPosition(con, out) && GetLastError() == ERROR_INVALID_PARAMETER, "past the row: error %lu\n",
	   GetLastError());
	out = last;
	out.Y++;
	SetLastError(0xdeadbeef);
	ok(!SetConsoleCursorPosition(con, out) && GetLastError() == ERROR_INVALID_PARAMETER, "past the buffer: %lu\n",
	   GetLastError());

	ok(GetConsoleCursorInfo(con, &ci), "GetConsoleCursorInfo failed: %lu\n", GetLastError());
	ok(ci.dwSize >= 1 && ci.dwSize <= 100, "cursor size %lu\n", ci.dwSize);
	ci2.dwSize = 50;
	ci2.bVisible = FALSE;
	ok(SetConsoleCursorInfo(con, &ci2), "SetConsoleCursorInfo failed: %lu\n", GetLastError());
	ok(GetConsoleCursorInfo(con, &ci2) && ci2.dwSize == 50 && !ci2.bVisible, "read back: %lu, %d\n", ci2.dwSize,
	   ci2.bVisible);
	ci2.dwSize = 0;
	SetLastError(0xdeadbeef);
	ok(!SetConsoleCursorInfo(con, &ci2) && GetLastError() == ERROR_INVALID_PARAMETER, "size 0: error %lu\n",
	   GetLastError());
	ci2.dwSize = 101;
	ok(!SetConsoleCursorInfo(con, &ci2), "size 101 accepted\n");
	ok(SetConsoleCursorInfo(con, &ci), "restoring the cursor failed\n");

	/* A fill stops at the end of the buffer. */
	n = 0;
	ok(FillConsoleOutputCharacterW(con, L'#', 10, last, &n) && n == 1, "fill at the last cell: %lu\n", n);
	n = 0;
	ok(FillConsoleOutputCharacterA(con, '-', 5, home, &n) && n == 5, "fill 5: %lu\n", n);

	/* Clear the screen as programs do. */
	n = 0;
	ok(FillConsoleOutputCharacterW(con, L' ', cells, home, &n) && n == cells, "clear: %lu of %lu\n", n, cells);
	n = 0;
	ok(FillConsoleOutputAttribute(con, info.wAttributes, cells, home, &n) && n == cells, "attributes: %lu of %lu\n",
	   n, cells);
	ok(SetConsoleCursorPosition(con, home), "home: error %lu\n", GetLastError());
	CloseHandle(con);
	return test_summary();
}

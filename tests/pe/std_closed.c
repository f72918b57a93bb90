/* A program started with standard input and output closed (`<&- >&-`,
 * the nostdio flag of tests.list) has no such handles, as a Windows
 * process started without them: GetStdHandle gives NULL for both, while
 * standard error still works.  ndrun's own descriptors (its memfds, the
 * files the program opens) must not take their place: the handles stay
 * NULL after files are opened, and a file's data stays its own.  Results
 * go to standard error, with the exit status the number of failures.
 * ndrun only: Wine 8 hands the program handles for the closed streams. */
#include <stdio.h>
#include <windows.h>

static HANDLE err;
static int failures;

static void check(int cond, const char *what)
{
	char line[200];
	DWORD n;

	if (cond)
		return;
	failures++;
	snprintf(line, sizeof(line), "std_closed: failed: %s\n", what);
	WriteFile(err, line, (DWORD)strlen(line), &n, NULL);
}

int main(void)
{
	char path[MAX_PATH], buf[8] = "";
	HANDLE f;
	DWORD n = 0;

	err = GetStdHandle(STD_ERROR_HANDLE);
	check(err != NULL && err != INVALID_HANDLE_VALUE, "standard error is there");
	check(GetStdHandle(STD_INPUT_HANDLE) == NULL, "no standard input");
	check(GetStdHandle(STD_OUTPUT_HANDLE) == NULL, "no standard output");

	GetTempPathA(sizeof(path) - 20, path);
	strcat(path, "std_closed.tmp");
	f = CreateFileA(path, GENERIC_READ | GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, FILE_FLAG_DELETE_ON_CLOSE, NULL);
	check(f != INVALID_HANDLE_VALUE, "CreateFile");
	check(WriteFile(f, "data", 4, &n, NULL) && n == 4, "WriteFile");
	SetFilePointer(f, 0, NULL, FILE_BEGIN);
	check(ReadFile(f, buf, 4, &n, NULL) && n == 4 && !memcmp(buf, "data", 4), "the file reads back");
	check(GetStdHandle(STD_INPUT_HANDLE) == NULL && GetStdHandle(STD_OUTPUT_HANDLE) == NULL,
	      "still no standard input or output after opening a file");
	CloseHandle(f);
	if (!failures)
		WriteFile(err, "std_closed: all passed\n", 23, &n, NULL);
	return failures;
}

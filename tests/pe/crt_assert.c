/* assert.h: a false assert() (the runtime's _assert, or _wassert in the
 * UCRT) writes "Assertion failed: EXPR, file FILE, line N" to stderr and
 * aborts: exit status 3, and nothing after it runs.  The program runs
 * itself as the child that asserts, its stderr a pipe to read. */
#undef NDEBUG
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "test.h"

/* One line, so that assert_line is the line the assert is on. */
/* clang-format off */
static const int assert_line = __LINE__; static int child(void) { int two = 2; assert(1 == two); printf("not reached\n"); return 0; }
/* clang-format on */

int main(int argc, char **argv)
{
	SECURITY_ATTRIBUTES sa = { sizeof(sa), NULL, TRUE };
	STARTUPINFOA si = { .cb = sizeof(si) };
	PROCESS_INFORMATION pi;
	HANDLE rd, wr;
	char exe[MAX_PATH], line[MAX_PATH + 16], buf[1024], want[64];
	DWORD got = 0, n, code = 0;

	if (argc > 1 && !strcmp(argv[1], "child"))
		return child();
	GetModuleFileNameA(NULL, exe, sizeof(exe));
	snprintf(line, sizeof(line), "\"%s\" child", exe);
	CreatePipe(&rd, &wr, &sa, 0);
	SetHandleInformation(rd, HANDLE_FLAG_INHERIT, 0);
	si.dwFlags = STARTF_USESTDHANDLES;
	si.hStdInput = GetStdHandle(STD_INPUT_HANDLE);
	si.hStdOutput = wr;
	si.hStdError = wr;
	ok(CreateProcessA(NULL, line, NULL, NULL, TRUE, 0, NULL, NULL, &si, &pi), "CreateProcess: %lu\n",
	   GetLastError());
	CloseHandle(wr);
	while (got < sizeof(buf) - 1 && ReadFile(rd, buf + got, sizeof(buf) - 1 - got, &n, NULL) && n)
		got += n;
	buf[got] = 0;
	CloseHandle(rd);
	WaitForSingleObject(pi.hProcess, 20000);
	GetExitCodeProcess(pi.hProcess, &code);
	CloseHandle(pi.hProcess);
	CloseHandle(pi.hThread);
	ok(code == 3, "exit status %lu\n", code);
	ok(strstr(buf, "Assertion failed: 1 == two, file ") != NULL, "stderr: \"%s\"\n", buf);
	snprintf(want, sizeof(want), ", line %d", assert_line);
	ok(strstr(buf, want) != NULL && strstr(buf, "crt_assert.c") != NULL, "file and line: \"%s\"\n", buf);
	ok(!strstr(buf, "not reached"), "the program went on\n");
	return test_summary();
}

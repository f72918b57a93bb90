/* `cmd.exe /c line`, as system(), _popen and programs that start cmd run
 * it: output of the internal commands (with "\r\n"), & && ||, pipes,
 * redirections (> >> < 2> 2>&1), quoting and ^, %VAR% expansion, exit
 * codes and ERRORLEVEL, the file commands (type del copy move mkdir
 * rmdir cd dir), set, ver, and programs started with their arguments.
 * ndrun's cmd is its own builtin one (docs/cmd.md); under Wine this is
 * Wine's cmd.exe.  A few checks are of ndrun's refusals (what its cmd
 * does not take fails with a message and status 1): they run under
 * ndrun only, Wine's cmd takes those lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

static char self[MAX_PATH];

/* Runs "cmd.exe /c line" (program: "cmd.exe", "cmd" ...); its standard
 * output and error into out and err (NUL-ended); its exit code. */
static DWORD run_cmd(const char *program, const char *line, char *out, size_t outsz, char *err, size_t errsz)
{
	SECURITY_ATTRIBUTES sa = { sizeof(sa), NULL, TRUE };
	STARTUPINFOA si = { .cb = sizeof(si) };
	PROCESS_INFORMATION pi;
	HANDLE out_r, out_w, err_r, err_w;
	char cmdline[2048];
	DWORD code = ~0u, n, got;

	CreatePipe(&out_r, &out_w, &sa, 0);
	CreatePipe(&err_r, &err_w, &sa, 0);
	SetHandleInformation(out_r, HANDLE_FLAG_INHERIT, 0);
	SetHandleInformation(err_r, HANDLE_FLAG_INHERIT, 0);
	si.dwFlags = STARTF_USESTDHANDLES;
	si.hStdInput = GetStdHandle(STD_INPUT_HANDLE);
	si.hStdOutput = out_w;
	si.hStdError = err_w;
	/* A line that starts with a quote goes in quotes of its own: cmd takes
	 * the first and the last quote off (cmd /?). */
	snprintf(cmdline, sizeof(cmdline), line[0] == '"' ? "%s /c \"%s\"" : "%s /c %s", program, line);
	if (!CreateProcessA(NULL, cmdline, NULL, NULL, TRUE, 0, NULL, NULL, &si, &pi)) {
		ok(0, "CreateProcess(%s): %lu\n", cmdline, GetLastError());
		out[0] = err[0] = 0;
		return code;
	}
	CloseHandle(out_w);
	CloseHandle(err_w);
	for (got = 0; got + 1 < outsz && ReadFile(out_r, out + got, (DWORD)(outsz - 1 - got), &n, NULL) && n;)
		got += n;
	out[got] = 0;
	for (got = 0; got + 1 < errsz && ReadFile(err_r, err + got, (DWORD)(errsz - 1 - got), &n, NULL) && n;)
		got += n;
	err[got] = 0;
	ok(WaitForSingleObject(pi.hProcess, 20000) == WAIT_OBJECT_0, "cmd did not end: %s\n", line);
	GetExitCodeProcess(pi.hProcess, &code);
	CloseHandle(pi.hProcess);
	CloseHandle(pi.hThread);
	CloseHandle(out_r);
	CloseHandle(err_r);
	return code;
}

static char out[8192], err[8192];

#define RUN(line) run_cmd("cmd.exe", line, out, sizeof(out), err, sizeof(err))

static char *file_text(const char *name)
{
	static char buf[1024];
	FILE *f = fopen(name, "rb");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

	if (f)
		fclose(f);
	buf[n] = 0;
	return f ? buf : NULL;
}

/* The child: prints its arguments one a line, and what it reads from
 * stdin upper-cased when asked ("upper"); exits with "exit N". */
static int child(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[2], "upper")) {
		int c;

		while ((c = getchar()) != EOF)
			putchar(c >= 'a' && c <= 'z' ? c - 32 : c);
		return 0;
	}
	if (argc > 3 && !strcmp(argv[2], "exit"))
		return atoi(argv[3]);
	for (int i = 2; i < argc; i++)
		printf("[%s]\n", argv[i]);
	return 0;
}

static void echo_and_lists(void)
{
	DWORD r;

	r = RUN("echo hello");
	ok(r == 0 && !strcmp(out, "hello\r\n"), "echo: %lu \"%s\"\n", r, out);
	r = RUN("echo one& echo two");
	ok(r == 0 && !strcmp(out, "one\r\ntwo\r\n"), "&: \"%s\"\n", out);
	r = RUN("echo.");
	ok(!strcmp(out, "\r\n"), "echo.: \"%s\"\n", out);
	r = RUN("echo \"a & b\" ^& c");
	ok(!strcmp(out, "\"a & b\" & c\r\n"), "quotes and ^: \"%s\"\n", out);
	r = RUN("exit 3");
	ok(r == 3, "exit 3: %lu\n", r);
	r = RUN("exit /b 4");
	ok(r == 4, "exit /b 4: %lu\n", r);
	r = RUN("echo a&& echo b");
	ok(!strcmp(out, "a\r\nb\r\n"), "&&: \"%s\"\n", out);
	r = RUN("cmd_test_nosuch_program x || echo failed");
	ok(strstr(out, "failed") && strstr(err, "cmd_test_nosuch_program"), "||: \"%s\" \"%s\"\n", out, err);
	r = RUN("cmd_test_nosuch_program");
	ok(r == 9009, "a program that is not there: %lu\n", r);
	/* Wine's cmd runs what follows && after a program it cannot find */
	r = RUN("cmd_test_nosuch_program && echo ran");
	ok_todo_wine(!strstr(out, "ran"), "&& after a failure: \"%s\"\n", out);
	r = RUN("ver");
	ok(r == 0 && strstr(out, "Windows"), "ver: \"%s\"\n", out);
}

static void variables(void)
{
	char line[256];
	DWORD r;

	SetEnvironmentVariableA("CMD_TEST_VAR", "value 1");
	r = RUN("echo [%CMD_TEST_VAR%] [%CMD_TEST_UNSET%]");
	ok(!strcmp(out, "[value 1] [%CMD_TEST_UNSET%]\r\n"), "%%VAR%%: \"%s\"\n", out);
	r = RUN("set CMD_TEST_VAR");
	ok(r == 0 && !strcmp(out, "CMD_TEST_VAR=value 1\r\n"), "set NAME: \"%s\"\n", out);
	r = RUN("set CMD_TEST_NEW=abc& set CMD_TEST_NEW");
	ok(!strcmp(out, "CMD_TEST_NEW=abc\r\n"), "set NAME=value: \"%s\"\n", out);
	r = RUN("set CMD_TEST_NOPE_");
	ok(r == 1 && strstr(err, "CMD_TEST_NOPE_"), "set of nothing: %lu \"%s\"\n", r, err);
	/* ERRORLEVEL: set by the program run before cmd expands the line */
	snprintf(line, sizeof(line), "\"%s\" exit 5 & echo done", self);
	r = RUN(line);
	ok(r == 5 && !strcmp(out, "done\r\n"), "the last errorlevel: %lu \"%s\"\n", r, out);
	ok(!GetEnvironmentVariableA("CMD_TEST_NEW", line, sizeof(line)), "cmd's set reached its parent\n");
}

static void programs(void)
{
	char line[512];
	DWORD r;

	snprintf(line, sizeof(line), "\"%s\" \"two words\" plain", self);
	r = RUN(line);
	ok(r == 0 && !strcmp(out, "[two words]\r\n[plain]\r\n"), "a program's arguments: %lu \"%s\"\n", r, out);
	snprintf(line, sizeof(line), "\"%s\" exit 7", self);
	r = RUN(line);
	ok(r == 7, "a program's exit code: %lu\n", r);
	/* a pipe, an internal command into a program */
	snprintf(line, sizeof(line), "echo piped text| \"%s\" upper", self);
	r = RUN(line);
	ok(r == 0 && !strcmp(out, "PIPED TEXT\r\n"), "echo | program: %lu \"%s\"\n", r, out);
	/* program to program */
	snprintf(line, sizeof(line), "\"%s\" abc | \"%s\" upper", self, self);
	r = RUN(line);
	ok(r == 0 && !strcmp(out, "[ABC]\r\n"), "program | program: %lu \"%s\"\n", r, out);
	/* "cmd" without .exe finds it too */
	r = run_cmd("cmd", "echo short name", out, sizeof(out), err, sizeof(err));
	ok(r == 0 && !strcmp(out, "short name\r\n"), "cmd /c: %lu \"%s\"\n", r, out);
}

static void redirections(void)
{
	char line[512], *t;
	DWORD r;

	DeleteFileA("cmd_test_a.tmp");
	r = RUN("echo first> cmd_test_a.tmp");
	ok(r == 0 && !out[0], "> still printed \"%s\"\n", out);
	r = RUN("echo second>>cmd_test_a.tmp");
	t = file_text("cmd_test_a.tmp");
	ok(t && !strcmp(t, "first\r\nsecond\r\n"), "> and >>: \"%s\"\n", t ? t : "(none)");
	snprintf(line, sizeof(line), "\"%s\" upper < cmd_test_a.tmp", self);
	r = RUN(line);
	ok(!strcmp(out, "FIRST\r\nSECOND\r\n"), "<: \"%s\"\n", out);
	r = RUN("cmd_test_nosuch_program 2> cmd_test_b.tmp");
	t = file_text("cmd_test_b.tmp");
	ok(t && strstr(t, "cmd_test_nosuch_program") && !err[0], "2>: \"%s\" \"%s\"\n", t ? t : "(none)", err);
	r = RUN("cmd_test_nosuch_program > cmd_test_b.tmp 2>&1");
	t = file_text("cmd_test_b.tmp");
	ok(t && strstr(t, "cmd_test_nosuch_program") && !err[0], "2>&1: \"%s\" \"%s\"\n", t ? t : "(none)", err);
	r = RUN("type cmd_test_a.tmp");
	ok(r == 0 && !strcmp(out, "first\r\nsecond\r\n"), "type: \"%s\"\n", out);
	r = RUN("echo x > nul");
	ok(r == 0 && !out[0], "> nul: %lu \"%s\"\n", r, out);
	DeleteFileA("cmd_test_b.tmp");
}

static void files(void)
{
	DWORD r;

	RemoveDirectoryA("cmd_test_dir\\sub");
	RemoveDirectoryA("cmd_test_dir");
	r = RUN("mkdir cmd_test_dir\\sub");
	ok(r == 0 && GetFileAttributesA("cmd_test_dir\\sub") != INVALID_FILE_ATTRIBUTES, "mkdir with parents: %lu\n",
	   r);
	r = RUN("md cmd_test_dir");
	ok(r == 1 && strstr(err, "already exists"), "md of an existing folder: %lu \"%s\"\n", r, err);
	r = RUN("copy cmd_test_a.tmp cmd_test_dir\\c.tmp");
	ok(r == 0 && file_text("cmd_test_dir\\c.tmp"), "copy: %lu\n", r);
	/* Wine's copy says nothing */
	ok_todo_wine(strstr(out, "1 file(s) copied") != NULL, "copy said \"%s\"\n", out);
	r = RUN("move cmd_test_dir\\c.tmp cmd_test_dir\\sub");
	ok(r == 0 && file_text("cmd_test_dir\\sub\\c.tmp") && !file_text("cmd_test_dir\\c.tmp"),
	   "move into a folder: %lu \"%s\"\n", r, out);
	r = RUN("copy cmd_test_a.tmp cmd_test_dir\\b.tmp > nul & dir /b cmd_test_dir");
	ok(!strcmp(out, "b.tmp\r\nsub\r\n"), "dir /b: \"%s\"\n", out);
	r = RUN("cd cmd_test_dir\\sub & cd");
	ok(strstr(out, "cmd_test_dir\\sub\r\n") != NULL, "cd: \"%s\"\n", out);
	r = RUN("del cmd_test_dir\\b.tmp");
	ok(r == 0 && !file_text("cmd_test_dir\\b.tmp"), "del: %lu\n", r);
	/* Wine's del says "File Not Found" */
	r = RUN("del cmd_test_nosuch.tmp");
	ok_todo_wine(strstr(err, "Could Not Find") != NULL, "del of nothing: \"%s\"\n", err);
	r = RUN("rd cmd_test_dir");
	ok(GetFileAttributesA("cmd_test_dir") != INVALID_FILE_ATTRIBUTES, "rd removed a full folder\n");
	r = RUN("rd /s /q cmd_test_dir");
	ok(r == 0 && GetFileAttributesA("cmd_test_dir") == INVALID_FILE_ATTRIBUTES, "rd /s: %lu\n", r);
	r = RUN("del cmd_test_a.tmp");
	ok(!file_text("cmd_test_a.tmp"), "del cmd_test_a.tmp\n");
}

/* ndrun's cmd says what it does not take, with status 1 (Wine's runs
 * these lines). */
static void refusals(void)
{
	DWORD r;

	if (test_on_wine())
		return;
	r = RUN("if 1==1 echo yes");
	ok(r == 1 && !out[0] && strstr(err, "not supported by ndrun's cmd"), "if: %lu \"%s\" \"%s\"\n", r, out, err);
	r = RUN("(echo block)");
	ok(r == 1 && strstr(err, "not supported by ndrun's cmd"), "( ): %lu \"%s\"\n", r, err);
	r = RUN("for %i in (a) do echo %i");
	ok(r == 1 && strstr(err, "not supported by ndrun's cmd"), "for: %lu \"%s\"\n", r, err);
	r = run_cmd("cmd.exe /k", "echo x", out, sizeof(out), err, sizeof(err));
	ok(r == 1 && strstr(err, "not supported by ndrun's cmd"), "/k: %lu \"%s\"\n", r, err);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "child"))
		return child(argc, argv);
	GetModuleFileNameA(NULL, self, sizeof(self));
	strcat(self, "\" \"child");
	/* self is now: path" "child, used as "%s" below */
	echo_and_lists();
	variables();
	programs();
	redirections();
	files();
	refusals();
	return test_summary();
}

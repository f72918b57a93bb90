/* A process that is not the parent learns how another ended: the
 * launcher (this program) starts A and B, B opens A by its pid, A ends,
 * and B's wait on A returns and GetExitCodeProcess gives A's code, the
 * same one the launcher sees:
 *   exit       A returns 5 by itself
 *   terminate  the launcher calls TerminateProcess(A, 77)
 *   bterm      B calls TerminateProcess(A, 88)
 *   sigkill    the launcher SIGKILLs A (ndrun: 128 + 9)
 *   late       B stops the launcher (SIGSTOP), so A stays unreaped,
 *              SIGKILLs A, reads its code, then lets the launcher go
 *   reaped     the launcher stops B, SIGKILLs A and reaps it before it
 *              lets B go: B finds the code the launcher recorded
 * The three with Linux signals only under ndrun: a SIGKILLed Wine process
 * reports status 0, and Windows has no signals.  Every wait is bounded. */
#include <windows.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipe_lines.h"
#include "test.h"
#include "self_child.h"

#define TIMEOUT 20000

/* A Linux kill(2): ndrun runs PE code natively, so the system call is
 * Linux's. */
static long linux_kill(DWORD pid, int sig)
{
	long ret;

	__asm__ volatile("syscall" : "=a"(ret) : "a"(62L), "D"((long)pid), "S"((long)sig) : "rcx", "r11", "memory");
	return ret;
}

/* A: exits 5 when told to on stdin (or when its stdin closes). */
static int child_a(void)
{
	char line[16];

	read_line(GetStdHandle(STD_INPUT_HANDLE), line, sizeof(line));
	return 5;
}

/* Whether Linux process pid is stopped, from /proc (bounded); Z: is the
 * Linux root under ndrun and Wine. */
static int wait_stopped(DWORD pid)
{
	char path[64], buf[512], *q;
	DWORD n;

	snprintf(path, sizeof(path), "Z:\\proc\\%lu\\stat", pid);
	for (int i = 0; i < 2000; i++) {
		HANDLE f = CreateFileA(path, GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING, 0, NULL);

		if (f == INVALID_HANDLE_VALUE)
			return 0;
		n = 0;
		ReadFile(f, buf, sizeof(buf) - 1, &n, NULL);
		CloseHandle(f);
		buf[n] = 0;
		if ((q = strrchr(buf, ')')) && q[1] == ' ' && q[2] == 'T')
			return 1;
		Sleep(5);
	}
	return 0;
}

/* B: opens A, tells the launcher, waits for A's end, reports its code. */
static int child_b(DWORD pid_a, DWORD pid_launcher, const char *mode)
{
	HANDLE out = GetStdHandle(STD_OUTPUT_HANDLE), a;
	DWORD access = SYNCHRONIZE | PROCESS_QUERY_LIMITED_INFORMATION, code = 0, r, err = 0;
	int late = !strcmp(mode, "late"), got, stopped = 0;
	char line[128];

	if (!strcmp(mode, "bterm"))
		access |= PROCESS_TERMINATE;
	a = OpenProcess(access, FALSE, pid_a);
	if (!a)
		return 60;
	write_line(out, "opened\n");
	if (late) {
		/* The launcher, A's parent, cannot reap A while stopped. */
		stopped = !linux_kill(pid_launcher, 19 /* SIGSTOP */) && wait_stopped(pid_launcher);
		linux_kill(pid_a, 9);
	} else if (!strcmp(mode, "bterm") && !TerminateProcess(a, 88)) {
		return 61;
	}
	r = WaitForSingleObject(a, TIMEOUT);
	got = GetExitCodeProcess(a, &code);
	if (!got)
		err = GetLastError();
	if (late)
		linux_kill(pid_launcher, 18 /* SIGCONT */);
	snprintf(line, sizeof(line), "wait %#lx code %lu got %d error %lu stopped %d\n", r, code, got, err, stopped);
	write_line(out, line);
	CloseHandle(a);
	return 0;
}

static void run_case(const char *mode, DWORD expect)
{
	char args[128], line[128] = "";
	DWORD r = ~0u, code = ~0u, err = ~0u, a_code;
	int got = -1, stopped = -1;
	struct self_child a, b;

	self_child_start(&a, "a");
	snprintf(args, sizeof(args), "b %lu %lu %s", a.pi.dwProcessId, GetCurrentProcessId(), mode);
	self_child_start(&b, args);
	ok(read_line(b.out_r, line, sizeof(line)) && !strcmp(line, "opened\n"), "%s: B opened A: %s\n", mode, line);
	if (!strcmp(mode, "exit"))
		write_line(a.in_w, "x\n");
	else if (!strcmp(mode, "terminate"))
		ok(TerminateProcess(a.pi.hProcess, 77), "%s: TerminateProcess: %lu\n", mode, GetLastError());
	else if (!strcmp(mode, "sigkill"))
		ok(!linux_kill(a.pi.dwProcessId, 9), "%s: kill\n", mode);
	else if (!strcmp(mode, "reaped")) {
		/* B cannot look at A before the launcher has reaped it. */
		ok(!linux_kill(b.pi.dwProcessId, 19) && wait_stopped(b.pi.dwProcessId), "%s: B not stopped\n", mode);
		ok(!linux_kill(a.pi.dwProcessId, 9), "%s: kill\n", mode);
		/* The wait returns once A is reaped. */
		ok(WaitForSingleObject(a.pi.hProcess, TIMEOUT) == WAIT_OBJECT_0, "%s: A did not end\n", mode);
		linux_kill(b.pi.dwProcessId, 18);
	}
	line[0] = 0;
	ok(read_line(b.out_r, line, sizeof(line)) &&
		   sscanf(line, "wait %lx code %lu got %d error %lu stopped %d", &r, &code, &got, &err, &stopped) == 5,
	   "%s: B's report: %s\n", mode, line);
	ok(r == WAIT_OBJECT_0, "%s: B's wait on A: %#lx\n", mode, r);
	ok(got == 1 && code == expect, "%s: B got A's code %lu (expected %lu), error %lu\n", mode, code, expect,
	   err);
	if (!strcmp(mode, "late"))
		ok(stopped == 1, "%s: B did not see the launcher stopped\n", mode);
	a_code = self_child_finish(&a);
	ok(a_code == expect, "%s: the launcher got A's code %lu (expected %lu)\n", mode, a_code, expect);
	ok(self_child_finish(&b) == 0, "%s: B's exit code\n", mode);
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "a"))
		return child_a();
	if (argc >= 5 && !strcmp(argv[1], "b"))
		return child_b(strtoul(argv[2], NULL, 10), strtoul(argv[3], NULL, 10), argv[4]);
	run_case("exit", 5);
	run_case("terminate", 77);
	run_case("bterm", 88);
	if (test_on_wine()) {
		printf("process_killed: SIGKILL (sigkill, late) not checked under wine64: Wine reports 0 for it\n");
	} else {
		run_case("sigkill", 128 + 9);
		run_case("late", 128 + 9);
		run_case("reaped", 128 + 9);
	}
	return test_summary();
}

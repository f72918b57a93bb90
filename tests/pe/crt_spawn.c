/* process.h's _spawn family: _P_WAIT gives the child's exit status,
 * _P_NOWAIT its handle for _cwait; the l and v forms pass the arguments
 * (joined with spaces), the e forms an environment, the p forms search
 * for the program; _exec starts the program and ends the caller at once
 * (status 0: Windows has no exec). */
#include <errno.h>
#include <process.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

static int child(int argc, char **argv)
{
	if (argc > 3 && !strcmp(argv[2], "exit"))
		return atoi(argv[3]);
	if (argc > 2 && !strcmp(argv[2], "args"))
		return argc; /* how many arguments arrived */
	if (argc > 2 && !strcmp(argv[2], "env")) {
		const char *v = getenv("CRT_SPAWN_VAR");
		return v ? atoi(v) : 99;
	}
	if (argc > 2 && !strcmp(argv[2], "exec")) {
		_execl(argv[0], argv[0], "child", "exit", "42", NULL);
		return 98; /* not reached: _execl ends this program */
	}
	return 100;
}

int main(int argc, char **argv)
{
	char self[MAX_PATH];
	const char *args[] = { self, "child", "args", "a", "b", NULL };
	const char *env[] = { "CRT_SPAWN_VAR=23", NULL };
	intptr_t h, r;
	int status = -1;

	if (argc > 1 && !strcmp(argv[1], "child"))
		return child(argc, argv);
	GetModuleFileNameA(NULL, self, sizeof(self));

	r = _spawnl(_P_WAIT, self, self, "child", "exit", "7", NULL);
	ok(r == 7, "_spawnl _P_WAIT: %lld errno %d\n", (long long)r, errno);
	r = _spawnv(_P_WAIT, self, args);
	ok(r == 5, "_spawnv: the child got %lld arguments\n", (long long)r);
	r = _spawnle(_P_WAIT, self, self, "child", "env", NULL, env);
	ok(r == 23, "_spawnle: %lld\n", (long long)r);
	/* Wine 8's _spawnlp joins a PATH entry and the name without a
	 * backslash ("C:\\windows\\system32cmd.exe", seen with +file) and so
	 * misses cmd.exe; Microsoft's docs: the p forms search PATH. */
	r = _spawnlp(_P_WAIT, "cmd.exe", "cmd.exe", "/c", "exit", "5", NULL);
	ok_todo_wine(r == 5, "_spawnlp cmd.exe: %lld\n", (long long)r);

	h = _spawnl(_P_NOWAIT, self, self, "child", "exit", "3", NULL);
	ok(h != -1 && h != 0, "_spawnl _P_NOWAIT: %lld\n", (long long)h);
	if (h != -1)
		ok(_cwait(&status, h, _WAIT_CHILD) == h && status == 3, "_cwait: status %d\n", status);

	/* the program that calls _execl ends with 0 at once */
	r = _spawnl(_P_WAIT, self, self, "child", "exec", NULL);
	ok(r == 0, "a program that called _execl ended with %lld\n", (long long)r);

	errno = 0;
	r = _spawnl(_P_WAIT, "crt_spawn_nosuch.exe", "crt_spawn_nosuch.exe", NULL);
	ok(r == -1 && errno == ENOENT, "a program that is not there: %lld errno %d\n", (long long)r, errno);
	return test_summary();
}

/* system and _wsystem: an interpreter exists (system(NULL)), a command's
 * exit status is what system returns, and its redirections and output
 * reach files.  The interpreter is cmd.exe /c (ndrun's builtin one, Wine's
 * own): cmd's syntax works (& between commands, %VAR%, exit /b). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

int main(void)
{
	char buf[64] = "";
	FILE *f;
	int r;

	ok(system(NULL) != 0, "no command interpreter\n");
	r = system("exit 3");
	ok(r == 3, "exit 3: %d errno %d\n", r, errno);
	r = _wsystem(L"exit 5");
	ok(r == 5, "_wsystem exit 5: %d\n", r);
	r = system("echo hello_system> crt_system.tmp");
	ok(r == 0, "echo: %d\n", r);
	f = fopen("crt_system.tmp", "r");
	ok(f != NULL, "the redirection made no file\n");
	if (f) {
		fgets(buf, sizeof(buf), f);
		fclose(f);
	}
	ok(!strncmp(buf, "hello_system", 12), "got \"%s\"\n", buf);
	DeleteFileA("crt_system.tmp");
	/* cmd's syntax */
	/* (a blank before & would be echoed: "a \r\n") */
	r = system("echo a> crt_system.tmp& echo b>> crt_system.tmp& exit /b 4");
	ok(r == 4, "exit /b 4 after two commands: %d\n", r);
	f = fopen("crt_system.tmp", "rb");
	memset(buf, 0, sizeof(buf));
	if (f) {
		fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	ok(!strcmp(buf, "a\r\nb\r\n"), "got \"%s\"\n", buf);
	DeleteFileA("crt_system.tmp");
	_putenv("CRT_SYSTEM_VAR=expanded");
	r = system("echo %CRT_SYSTEM_VAR%> crt_system.tmp");
	f = fopen("crt_system.tmp", "r");
	memset(buf, 0, sizeof(buf));
	if (f) {
		fgets(buf, sizeof(buf), f);
		fclose(f);
	}
	ok(r == 0 && !strcmp(buf, "expanded\n"), "%%VAR%%: %d \"%s\"\n", r, buf);
	DeleteFileA("crt_system.tmp");
	/* the child writes to the caller's standard output */
	fflush(stdout);
	r = system("echo crt_system: a line from the child");
	ok(r == 0, "echo to stdout: %d\n", r);
	return test_summary();
}

/* _popen and _pclose: a stream from (mode "r") or to ("w") a command run
 * by the command interpreter (cmd.exe /c, as system runs it), in text
 * mode unless "b" says otherwise; _pclose returns the command's exit
 * status, and -1 for a stream _popen did not open. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

static char self[MAX_PATH + 16];

/* The child "count": reads its stdin, writes how many lines and bytes it
 * got to the file named, exits with the line count. */
static int child(int argc, char **argv)
{
	char line[256];
	int lines = 0, bytes = 0;
	FILE *f;

	if (argc < 4 || strcmp(argv[2], "count"))
		return 100;
	while (fgets(line, sizeof(line), stdin)) {
		lines++;
		bytes += (int)strlen(line);
	}
	f = fopen(argv[3], "w");
	fprintf(f, "%d %d", lines, bytes);
	fclose(f);
	return lines;
}

int main(int argc, char **argv)
{
	char line[256], cmd[MAX_PATH + 64];
	FILE *p, *f;
	int r, n;

	if (argc > 1 && !strcmp(argv[1], "child"))
		return child(argc, argv);
	GetModuleFileNameA(NULL, self, MAX_PATH);

	p = _popen("echo first& echo second", "r");
	ok(p != NULL, "_popen r: errno %d\n", errno);
	if (p) {
		ok(fgets(line, sizeof(line), p) && !strcmp(line, "first\n"), "line 1: \"%s\"\n", line);
		ok(fgets(line, sizeof(line), p) && !strcmp(line, "second\n"), "line 2: \"%s\"\n", line);
		ok(!fgets(line, sizeof(line), p) && feof(p), "more than two lines\n");
		r = _pclose(p);
		ok(r == 0, "_pclose: %d\n", r);
	}

	/* binary: the command's "\r\n" as it is */
	p = _popen("echo bin", "rb");
	if (p) {
		n = (int)fread(line, 1, sizeof(line), p);
		ok(n == 5 && !memcmp(line, "bin\r\n", 5), "rb: %d bytes\n", n);
		_pclose(p);
	}

	/* the exit status */
	p = _popen("exit 6", "r");
	ok(p && _pclose(p) == 6, "exit 6\n");

	/* writing: the command reads what we write (text: "\r\n" on the pipe,
	 * "\n" again in the child's text-mode stdin) */
	snprintf(cmd, sizeof(cmd), "\"%s\" child count crt_popen.tmp", self);
	p = _popen(cmd, "w");
	ok(p != NULL, "_popen w: errno %d\n", errno);
	if (p) {
		fputs("one\ntwo\nthree\n", p);
		r = _pclose(p);
		ok(r == 3, "the child counted %d lines\n", r);
		f = fopen("crt_popen.tmp", "r");
		line[0] = 0;
		if (f) {
			fgets(line, sizeof(line), f);
			fclose(f);
		}
		ok(!strcmp(line, "3 14"), "the child read \"%s\"\n", line);
		DeleteFileA("crt_popen.tmp");
	}

	/* a stream that is not _popen's */
	f = fopen("crt_popen2.tmp", "w");
	ok(_pclose(f) == -1, "_pclose of an fopen stream\n");
	fclose(f);
	DeleteFileA("crt_popen2.tmp");
	return test_summary();
}

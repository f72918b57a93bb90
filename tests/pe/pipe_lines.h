/* Line-at-a-time talk over a pipe between a test and the child it starts:
 * read_line reads up to and including '\n' (one byte at a time, so
 * nothing past the line is consumed) and returns 0 at end of file;
 * write_line writes the string as it is. */
#ifndef NDSHIM_PE_PIPE_LINES_H
#define NDSHIM_PE_PIPE_LINES_H

#include <string.h>
#include <windows.h>

static int read_line(HANDLE h, char *line, DWORD size)
{
	DWORD got = 0, r;

	while (got < size - 1 && ReadFile(h, line + got, 1, &r, NULL) && r) {
		if (line[got++] == '\n')
			break;
	}
	line[got] = 0;
	return got > 0;
}

static void write_line(HANDLE h, const char *line)
{
	DWORD n;

	WriteFile(h, line, (DWORD)strlen(line), &n, NULL);
}

#endif

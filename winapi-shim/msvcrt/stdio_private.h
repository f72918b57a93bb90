/* The real state of a stdio stream, kept apart from the 48-byte public
 * FILE that programs see (msvcrt/msvcrt_private.h: struct crt_file). */
#ifndef NDSHIM_MSVCRT_STDIO_PRIVATE_H
#define NDSHIM_MSVCRT_STDIO_PRIVATE_H

#include "msvcrt/msvcrt_private.h"

#define CRT_IOFBF 0x0000
#define CRT_IOLBF 0x0040
#define CRT_IONBF 0x0004
#define CRT_BUFSIZ 4096

enum { S_READ = 1, S_WRITE = 2 };

struct stream {
	struct crt_file *pub;
	/* Where programs' own code finds it too: _iob[i]'s is the lock table's
	 * entry CRT_STREAM_LOCKS + i, an fopen'ed stream's follows its FILE. */
	CRITICAL_SECTION *lock;
	int fd;
	int access; /* S_READ | S_WRITE */
	int bufmode; /* CRT_IOFBF, CRT_IONBF, or line mode for a tty stdout */
	int line;
	int eof, err;
	int writing; /* buf holds unwritten bytes [0, pos) */
	/* Reading, buf holds the file's bytes as they are: text mode's
	 * translation (CRLF, Ctrl-Z) happens as they are taken, so the file
	 * position of any byte in it stays known (ftell, fseek). */
	char *buf;
	size_t size, pos, end; /* reading: unread bytes are [pos, end) */
	int own_buf;
	unsigned char ungot[8];
	int nungot;
	WCHAR wpending; /* getwc: low surrogate still to deliver */
	char onechar; /* the read buffer of an unbuffered stream */
	signed char tty; /* isatty(fd), -1 until asked (wide output) */
	struct stream *next; /* every open stream, for fflush(NULL) */
};

#endif

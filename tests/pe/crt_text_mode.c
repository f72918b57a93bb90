/* msvcrt's text mode, both ways: a text stream or descriptor writes "\n"
 * as "\r\n", reads "\r\n" as "\n" (a lone CR or LF stays as it is) and
 * stops at Ctrl-Z; ftell and fseek count the file's own bytes; binary
 * mode ('b', _O_BINARY, _setmode, _fmode) leaves bytes alone.  stdin,
 * stdout and stderr are text: a child's printf reaches a pipe as "\r\n".
 * The wide text modes: _O_U16TEXT writes UTF-16 units with L"\r\n",
 * _O_U8TEXT turns what _write gets (UTF-16) into UTF-8, and fputwc on a
 * binary stream writes the unit's two bytes. */
#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "test.h"
#include "self_child.h"

#define TMP "crt_text_mode.tmp"

/* The file's bytes as they are. */
static int raw_file(const char *name, char *buf, int size)
{
	HANDLE h = CreateFileA(name, GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING, 0, NULL);
	DWORD got = 0;

	if (h == INVALID_HANDLE_VALUE)
		return -1;
	ReadFile(h, buf, size, &got, NULL);
	CloseHandle(h);
	return (int)got;
}

static void put_raw(const char *name, const char *data, int n)
{
	HANDLE h = CreateFileA(name, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
	DWORD done = 0;

	WriteFile(h, data, n, &done, NULL);
	CloseHandle(h);
}

static void stream_write(void)
{
	char buf[64];
	FILE *f;
	int n;

	f = fopen(TMP, "w");
	ok(f != NULL, "fopen w failed\n");
	fputs("a\nb", f);
	ok(ftell(f) == 4, "ftell after \"a\\nb\": %ld\n", ftell(f));
	fprintf(f, "%d\n", 7);
	fputc('\n', f);
	fwrite("c\n", 1, 2, f);
	fclose(f);
	n = raw_file(TMP, buf, sizeof(buf));
	ok(n == 12 && !memcmp(buf, "a\r\nb7\r\n\r\nc\r\n", 12), "text write: %d bytes \"%.*s\"\n", n, n > 0 ? n : 0,
	   buf);

	f = fopen(TMP, "wb");
	fputs("a\nb\n", f);
	fclose(f);
	n = raw_file(TMP, buf, sizeof(buf));
	ok(n == 4 && !memcmp(buf, "a\nb\n", 4), "binary write: %d bytes\n", n);

	/* 't' says text whatever _fmode says */
	f = fopen(TMP, "wt");
	fputs("\n", f);
	fclose(f);
	ok(raw_file(TMP, buf, sizeof(buf)) == 2, "\"wt\" did not write CRLF\n");
}

static void stream_read(void)
{
	static const char data[] = "x\r\ny\r\nz\rw\n\r\r\nq\x1a" "after";
	char line[64];
	FILE *f;
	int c, n;

	/* ftell counts the file's bytes (msvcrt's own count goes wrong on a
	 * file with bytes after a Ctrl-Z: that one has none) */
	put_raw(TMP, "x\r\ny\r\n", 6);
	f = fopen(TMP, "r");
	ok(fgets(line, sizeof(line), f) && !strcmp(line, "x\n"), "line 1 \"%s\"\n", line);
	ok(ftell(f) == 3, "ftell after line 1: %ld\n", ftell(f));
	fclose(f);

	put_raw(TMP, data, sizeof(data) - 1);
	f = fopen(TMP, "r");
	ok(f != NULL, "fopen r failed\n");
	ok(fgets(line, sizeof(line), f) && !strcmp(line, "x\n"), "line 1 \"%s\"\n", line);
	ok(fgets(line, sizeof(line), f) && !strcmp(line, "y\n"), "line 2 \"%s\"\n", line);
	ok(fgets(line, sizeof(line), f) && !strcmp(line, "z\rw\n"), "a lone CR: \"%s\"\n", line);
	ok(fgets(line, sizeof(line), f) && !strcmp(line, "\r\n"), "CR CR LF: \"%s\"\n", line);
	ok(fgetc(f) == 'q', "before Ctrl-Z\n");
	c = fgetc(f);
	ok(c == EOF && feof(f), "Ctrl-Z: got %d, feof %d\n", c, feof(f));
	ok(fgetc(f) == EOF, "read past Ctrl-Z\n");
	/* a seek goes on past it */
	ok(fseek(f, 3, SEEK_SET) == 0 && !feof(f), "fseek\n");
	ok(fgetc(f) == 'y', "after fseek to 3\n");
	ok(fseek(f, (long)sizeof(data) - 6, SEEK_SET) == 0, "fseek past Ctrl-Z\n");
	ok(fgets(line, sizeof(line), f) && !strcmp(line, "after"), "past Ctrl-Z: \"%s\"\n", line);
	fclose(f);

	/* fread gives the translated bytes */
	f = fopen(TMP, "r");
	memset(line, 0, sizeof(line));
	n = (int)fread(line, 1, sizeof(line), f);
	ok(n == 11 && !memcmp(line, "x\ny\nz\rw\n\r\nq", 11), "fread: %d \"%.*s\"\n", n, n, line);
	fclose(f);

	/* and "rb" the file's own */
	f = fopen(TMP, "rb");
	n = (int)fread(line, 1, sizeof(line), f);
	ok(n == (int)sizeof(data) - 1, "binary fread: %d\n", n);
	fclose(f);

	/* 17-byte lines: line 241 has its CR at the end of the first 4096
	 * bytes (msvcrt's buffer), its LF at the start of the next */
	f = fopen(TMP, "w");
	for (int i = 0; i < 3000; i++)
		fputs("0123456789abcde\n", f);
	fclose(f);
	f = fopen(TMP, "r");
	n = 0;
	while ((c = fgetc(f)) != EOF)
		n += c == '\n' ? 1 : c == '\r' ? 1000000 : 0;
	ok(n == 3000, "3000 lines read as %d\n", n);
	ok(ftell(f) == 51000, "ftell at the end: %ld\n", ftell(f));
	fclose(f);
}

static void descriptors(void)
{
	char buf[64];
	int fd, n;

	fd = _open(TMP, _O_CREAT | _O_TRUNC | _O_WRONLY, _S_IREAD | _S_IWRITE);
	ok(fd >= 0, "_open failed\n");
	n = _write(fd, "1\n2\n", 4);
	ok(n == 4, "_write on a text descriptor returned %d\n", n);
	_close(fd);
	n = raw_file(TMP, buf, sizeof(buf));
	ok(n == 6 && !memcmp(buf, "1\r\n2\r\n", 6), "_write text: %d bytes\n", n);

	fd = _open(TMP, _O_RDONLY);
	memset(buf, 0, sizeof(buf));
	n = _read(fd, buf, sizeof(buf));
	ok(n == 4 && !memcmp(buf, "1\n2\n", 4), "_read text: %d \"%.*s\"\n", n, n > 0 ? n : 0, buf);
	ok(_setmode(fd, _O_BINARY) == _O_TEXT, "_setmode did not report text mode\n");
	ok(_setmode(fd, _O_BINARY) == _O_BINARY, "_setmode did not report binary mode\n");
	ok(_lseek(fd, 0, SEEK_SET) == 0, "_lseek\n");
	n = _read(fd, buf, sizeof(buf));
	ok(n == 6, "_read binary: %d\n", n);
	_close(fd);

	/* Ctrl-Z ends a text-mode _read; _lseek goes on */
	put_raw(TMP, "ab\x1a" "cd", 5);
	fd = _open(TMP, _O_RDONLY | _O_TEXT);
	n = _read(fd, buf, sizeof(buf));
	ok(n == 2, "_read up to Ctrl-Z: %d\n", n);
	n = _read(fd, buf, sizeof(buf));
	ok(n == 0, "_read after Ctrl-Z: %d\n", n);
	ok(_lseek(fd, 3, SEEK_SET) == 3, "_lseek past Ctrl-Z\n");
	n = _read(fd, buf, sizeof(buf));
	ok(n == 2 && !memcmp(buf, "cd", 2), "_read after _lseek: %d\n", n);
	_close(fd);

	/* the standard descriptors are text */
	ok(_setmode(_fileno(stdout), _O_TEXT) == _O_TEXT, "stdout is not in text mode\n");
	ok(_setmode(_fileno(stdin), _O_TEXT) == _O_TEXT, "stdin is not in text mode\n");
	ok(_setmode(_fileno(stderr), _O_TEXT) == _O_TEXT, "stderr is not in text mode\n");
	errno = 0;
	ok(_setmode(_fileno(stdout), 0x1234) == -1 && errno == EINVAL, "_setmode with a bad mode: errno %d\n", errno);
}

static void fmode(void)
{
	char buf[16];
	FILE *f;

	_fmode = _O_BINARY;
	f = fopen(TMP, "w");
	fputs("\n", f);
	fclose(f);
	ok(raw_file(TMP, buf, sizeof(buf)) == 1, "_fmode _O_BINARY: fopen \"w\" translated\n");
	f = fopen(TMP, "wt");
	fputs("\n", f);
	fclose(f);
	ok(raw_file(TMP, buf, sizeof(buf)) == 2, "_fmode _O_BINARY: \"wt\" did not translate\n");
	_fmode = _O_TEXT;
}

static void wide_modes(void)
{
	unsigned char buf[32];
	FILE *f;
	int fd, n;

	/* fputwc on a binary stream: the unit as it is */
	f = fopen(TMP, "wb");
	fputwc(L'A', f);
	fputwc(L'\n', f);
	fclose(f);
	n = raw_file(TMP, (char *)buf, sizeof(buf));
	ok(n == 4 && !memcmp(buf, "A\0\n\0", 4), "fputwc binary: %d bytes\n", n);

	/* _O_U16TEXT: UTF-16LE with CR LF */
	f = fopen(TMP, "w");
	ok(_setmode(_fileno(f), _O_U16TEXT) == _O_TEXT, "_setmode _O_U16TEXT\n");
	fputwc(L'\x20ac', f);
	fputws(L"\n", f);
	fclose(f);
	n = raw_file(TMP, (char *)buf, sizeof(buf));
	ok(n == 6 && !memcmp(buf, "\xac\x20\r\0\n\0", 6), "_O_U16TEXT fputwc: %d bytes\n", n);

	/* read back in the same mode */
	f = fopen(TMP, "r");
	_setmode(_fileno(f), _O_U16TEXT);
	ok(fgetwc(f) == 0x20ac, "fgetwc _O_U16TEXT\n");
	ok(fgetwc(f) == L'\n', "fgetwc CR LF\n");
	ok(fgetwc(f) == WEOF, "fgetwc at the end\n");
	fclose(f);

	/* _O_U8TEXT: _write takes UTF-16 and writes UTF-8 */
	/* (_open with _O_U8TEXT would start the file with a BOM) */
	fd = _open(TMP, _O_CREAT | _O_TRUNC | _O_WRONLY, _S_IREAD | _S_IWRITE);
	_setmode(fd, _O_U8TEXT);
	n = _write(fd, L"\x00e9\n", 4);
	ok(n == 4, "_write _O_U8TEXT: %d\n", n);
	_close(fd);
	n = raw_file(TMP, (char *)buf, sizeof(buf));
	ok(n == 4 && !memcmp(buf, "\xc3\xa9\r\n", 4), "_O_U8TEXT bytes: %d\n", n);
}

/* The child: what it prints through stdout's text stream. */
static int child(void)
{
	printf("out\n");
	fflush(stdout);
	_write(1, "low\n", 4);
	return 0;
}

static void std_streams(void)
{
	struct self_child c;
	char buf[64];
	DWORD got = 0, n;

	if (!self_child_start(&c, "child"))
		return;
	CloseHandle(c.in_w);
	while (got < sizeof(buf) && ReadFile(c.out_r, buf + got, sizeof(buf) - got, &n, NULL) && n)
		got += n;
	CloseHandle(c.out_r);
	ok(process_finish(&c.pi) == 0, "child failed\n");
	ok(got == 10 && !memcmp(buf, "out\r\nlow\r\n", 10), "child's stdout: %lu bytes \"%.*s\"\n", got, (int)got,
	   buf);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "child"))
		return child();
	stream_write();
	stream_read();
	descriptors();
	fmode();
	wide_modes();
	std_streams();
	DeleteFileA(TMP);
	return test_summary();
}

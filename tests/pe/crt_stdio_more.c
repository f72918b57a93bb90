/* stdio.h functions beyond the common ones: tmpfile and tmpfile_s (a
 * binary "w+" file that is gone once closed), rename (a file or a
 * folder; not onto an existing file: EEXIST), fopen_s and _wfopen_s, the scanf
 * family's _s forms (a size after each %s %c %[ buffer; a field too big
 * for it fails), _snscanf, the wide string functions (fputws, fgetws,
 * _putws), _putw/_getw, and msvcrt's getc/putc macros (mingw's
 * _fgetc_nolock and _fputc_nolock: _filbuf and _flsbuf). */
#define MINGW_HAS_SECURE_API 1
#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <share.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "test.h"

/* the CRT's, which mingw's headers leave out */
errno_t __cdecl tmpfile_s(FILE **out);


static void temp_files(void)
{
	char buf[32];
	FILE *f = tmpfile(), *g = NULL;

	ok(f != NULL, "tmpfile: errno %d\n", errno);
	if (f) {
		ok(fputs("a\nb", f) >= 0, "fputs\n");
		rewind(f);
		/* binary: "\n" stays one byte */
		ok(fread(buf, 1, sizeof(buf), f) == 3 && !memcmp(buf, "a\nb", 3), "tmpfile is not binary\n");
		ok(fclose(f) == 0, "fclose\n");
	}
	ok(tmpfile_s(&g) == 0 && g != NULL, "tmpfile_s\n");
	if (g)
		fclose(g);
}

static void renaming(void)
{
	FILE *f;

	DeleteFileA("crt_stdio_more_a.tmp");
	DeleteFileA("crt_stdio_more_b.tmp");
	f = fopen("crt_stdio_more_a.tmp", "w");
	fclose(f);
	ok(rename("crt_stdio_more_a.tmp", "crt_stdio_more_b.tmp") == 0, "rename: errno %d\n", errno);
	ok(GetFileAttributesA("crt_stdio_more_a.tmp") == INVALID_FILE_ATTRIBUTES &&
	   GetFileAttributesA("crt_stdio_more_b.tmp") != INVALID_FILE_ATTRIBUTES, "rename did not move the file\n");
	errno = 0;
	ok(rename("crt_stdio_more_nosuch.tmp", "crt_stdio_more_c.tmp") == -1 && errno == ENOENT,
	   "rename of nothing: errno %d\n", errno);
	f = fopen("crt_stdio_more_a.tmp", "w");
	fclose(f);
	/* not onto a file: EEXIST (the documentation says EACCES; msvcrt
	 * maps ERROR_ALREADY_EXISTS, as Wine does) */
	errno = 0;
	int r = rename("crt_stdio_more_a.tmp", "crt_stdio_more_b.tmp");
	ok(r == -1 && errno == EEXIST, "rename onto a file: %d errno %d\n", r, errno);
	ok(_wrename(L"crt_stdio_more_b.tmp", L"crt_stdio_more_c.tmp") == 0, "_wrename\n");
	DeleteFileA("crt_stdio_more_a.tmp");
	DeleteFileA("crt_stdio_more_c.tmp");
}

static void secure_open(void)
{
	FILE *f = NULL;
	errno_t e;

	e = fopen_s(&f, "crt_stdio_more_s.tmp", "w");
	ok(e == 0 && f, "fopen_s: %d\n", e);
	if (f)
		fclose(f);
	f = NULL;
	e = _wfopen_s(&f, L"crt_stdio_more_s.tmp", L"r");
	ok(e == 0 && f, "_wfopen_s: %d\n", e);
	if (f)
		fclose(f);
	f = (FILE *)1;
	e = _wfopen_s(&f, L"crt_stdio_more_nosuch\\x.tmp", L"r");
	ok(e == ENOENT && f == NULL, "_wfopen_s of nothing: %d %p\n", e, f);
	DeleteFileA("crt_stdio_more_s.tmp");
}

static void scanning(void)
{
	char word[8], c[2];
	wchar_t wword[8];
	int a = 0, b = 0, r;

	r = sscanf_s("12 abc x", "%d %7s %c", &a, word, (unsigned)sizeof(word), c, 1u);
	ok(r == 3 && a == 12 && !strcmp(word, "abc") && c[0] == 'x', "sscanf_s: %d %d \"%s\"\n", r, a, word);
	/* a field bigger than its buffer: nothing stored, the scan stops */
	word[0] = 'z';
	r = sscanf_s("toolongword 5", "%s %d", word, 4u, &b);
	ok(r == 0 && word[0] == 0, "sscanf_s of a field too big: %d \"%s\"\n", r, word);
	r = swscanf_s(L"wide 7", L"%7s %d", wword, (unsigned)(sizeof(wword) / sizeof(wword[0])), &b);
	ok(r == 2 && !wcscmp(wword, L"wide") && b == 7, "swscanf_s: %d\n", r);
	r = _snscanf("123456", 3, "%d", &a);
	ok(r == 1 && a == 123, "_snscanf reads 3 characters: %d %d\n", r, a);
	r = sscanf("x", "%d", &a);
	ok(r == 0, "sscanf with no number: %d\n", r);
	r = sscanf("", "%d", &a);
	ok(r == EOF, "sscanf of nothing: %d\n", r);
}

static void wide_lines(void)
{
	wchar_t line[16];
	FILE *f = fopen("crt_stdio_more_w.tmp", "w+");
	char raw[32];
	int n;

	ok(fputws(L"one\ntwo", f) >= 0, "fputws\n");
	rewind(f);
	ok(fgetws(line, 16, f) && !wcscmp(line, L"one\n"), "fgetws line 1\n");
	ok(fgetws(line, 16, f) && !wcscmp(line, L"two"), "fgetws line 2\n");
	ok(!fgetws(line, 16, f), "fgetws at the end\n");
	fclose(f);
	f = fopen("crt_stdio_more_w.tmp", "rb");
	n = (int)fread(raw, 1, sizeof(raw), f);
	fclose(f);
	ok(n == 8 && !memcmp(raw, "one\r\ntwo", 8), "fputws in text mode wrote %d bytes\n", n);

	f = fopen("crt_stdio_more_w.tmp", "w+b");
	ok(_putw(0x12345678, f) == 0x12345678, "_putw\n");
	rewind(f);
	ok(_getw(f) == 0x12345678, "_getw\n");
	ok(_getw(f) == EOF && feof(f), "_getw at the end\n");
	fclose(f);
	DeleteFileA("crt_stdio_more_w.tmp");
}

#ifndef _UCRT
/* msvcrt.dll's printf _s family (the UCRT's are inline in its headers) */
static void printf_secure(void)
{
	char buf[8];
	wchar_t w[8];
	int n;

	n = _snprintf_s(buf, sizeof(buf), _TRUNCATE, "%s", "toolongtext");
	ok(n == -1 && !strcmp(buf, "toolong"), "_snprintf_s _TRUNCATE: %d \"%s\"\n", n, buf);
	n = _snprintf_s(buf, sizeof(buf), 3, "%d", 12345);
	ok(n == -1 && !strcmp(buf, "123"), "_snprintf_s count 3: %d \"%s\"\n", n, buf);
	n = _snprintf_s(buf, sizeof(buf), _TRUNCATE, "%d%c", 42, '!');
	ok(n == 3 && !strcmp(buf, "42!"), "_snprintf_s: %d\n", n);
	n = swprintf_s(w, 8, L"%ls-%d", L"ab", 7);
	ok(n == 4 && !wcscmp(w, L"ab-7"), "swprintf_s: %d\n", n);
	n = _snwprintf_s(w, 8, _TRUNCATE, L"%s", L"0123456789");
	ok(n == -1 && !wcscmp(w, L"0123456"), "_snwprintf_s _TRUNCATE\n");
	fflush(stdout);
	n = printf_s("%s\n", "crt_stdio_more: printf_s");
	ok(n == 25, "printf_s: %d\n", n);
	fflush(stdout);
}

/* msvcrt's getc/putc macros go through _cnt, _filbuf and _flsbuf */
static void macros(void)
{
	FILE *f = fopen("crt_stdio_more_m.tmp", "w+");
	char buf[8];
	int c1, c2, c3;

	_fputc_nolock('h', f);
	_fputc_nolock('\n', f);
	rewind(f);
	c1 = _fgetc_nolock(f);
	c2 = _fgetc_nolock(f);
	c3 = _fgetc_nolock(f);
	ok(c1 == 'h' && c2 == '\n' && c3 == EOF, "_fgetc_nolock: %d %d %d\n", c1, c2, c3);
	fclose(f);
	f = fopen("crt_stdio_more_m.tmp", "rb");
	ok(fread(buf, 1, sizeof(buf), f) == 3, "_fputc_nolock did not write \"h\\r\\n\"\n");
	fclose(f);
	DeleteFileA("crt_stdio_more_m.tmp");
}
#endif

/* _fsopen, freopen_s, _wfdopen, _flushall, clearerr_s, fread_s */
static void stream_forms(void)
{
	FILE *f = _fsopen("crt_stdio_more_f.tmp", "w+", _SH_DENYNO), *g = NULL;
	char buf[8];

	ok(f != NULL, "_fsopen\n");
	if (!f)
		return;
	fputs("hello", f);
	ok(_flushall() >= 4, "_flushall counts the open streams\n");
	ok(freopen_s(&g, "crt_stdio_more_f.tmp", "r", f) == 0 && g == f, "freopen_s\n");
#ifdef _UCRT
	ok(fread_s(buf, sizeof(buf), 1, 5, f) == 5 && !memcmp(buf, "hello", 5), "fread_s\n");
#else
	ok(fread(buf, 1, 5, f) == 5 && !memcmp(buf, "hello", 5), "fread\n");
#endif
	ok(fgetc(f) == EOF && feof(f) && clearerr_s(f) == 0 && !feof(f), "clearerr_s\n");
	fclose(f);
	int fd = _open("crt_stdio_more_f.tmp", _O_RDONLY);
	f = _wfdopen(fd, L"r");
	ok(f && fgetc(f) == 'h', "_wfdopen\n");
	if (f)
		fclose(f);
	DeleteFileA("crt_stdio_more_f.tmp");
}

int main(void)
{
	temp_files();
	renaming();
	secure_open();
	scanning();
	wide_lines();
	stream_forms();
#ifndef _UCRT
	macros();
	printf_secure();
#endif
	return test_summary();
}

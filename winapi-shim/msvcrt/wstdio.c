/* The stdio functions made of the one-character ones: wide strings
 * (fputws, fgetws, _putws, _getws), the standard streams' shorthands
 * (putwchar, _fputchar ...), whole ints (_getw, _putw) and gets.  Each
 * holds the stream's lock for the whole string, as msvcrt does, so a
 * line is not split by another thread's output. */
#include <errno.h>
#include <string.h>

#include "msvcrt/msvcrt_private.h"

#define WEOF_ 0xffff

int __cdecl crt_fputws(const WCHAR *s, struct crt_file *f)
{
	size_t n;

	if (!s || !f) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return -1;
	}
	n = crt_wcslen(s);
	return crt_stream_put_wide(f, s, n) == n ? 0 : -1;
}

WCHAR *__cdecl crt_fgetws(WCHAR *buf, int n, struct crt_file *f)
{
	int i = 0;
	WCHAR c = 0;

	if (!buf || n <= 0 || !f) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return NULL;
	}
	crt__lock_file(f);
	while (i < n - 1 && (c = crt_fgetwc(f)) != WEOF_) {
		buf[i++] = c;
		if (c == '\n')
			break;
	}
	crt__unlock_file(f);
	if (!i)
		return NULL;
	buf[i] = 0;
	return buf;
}

WCHAR __cdecl crt_putwchar(WCHAR c)
{
	return crt_fputwc(c, crt_stdout());
}

WCHAR __cdecl crt_getwchar(void)
{
	return crt_fgetwc(&crt___iob_func()[0]);
}

WCHAR __cdecl crt__fputwchar(WCHAR c)
{
	return crt_fputwc(c, crt_stdout());
}

WCHAR __cdecl crt__fgetwchar(void)
{
	return crt_fgetwc(&crt___iob_func()[0]);
}

int __cdecl crt__fputchar(int c)
{
	return crt_fputc(c, crt_stdout());
}

int __cdecl crt__fgetchar(void)
{
	return crt_fgetc(&crt___iob_func()[0]);
}

/* The string and a newline on stdout: 0, or WEOF when it fails. */
int __cdecl crt__putws(const WCHAR *s)
{
	struct crt_file *out = crt_stdout();
	int r;

	if (!s) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return WEOF_;
	}
	crt__lock_file(out);
	r = crt_fputws(s, out) == 0 && crt_fputwc('\n', out) == '\n' ? 0 : WEOF_;
	crt__unlock_file(out);
	return r;
}

/* A line of stdin without its newline (no length: the caller's buffer
 * must hold it, as the functions have always required). */
char *__cdecl crt_gets(char *buf)
{
	struct crt_file *in = &crt___iob_func()[0];
	char *p = buf;
	int c = 0;

	if (!buf) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return NULL;
	}
	crt__lock_file(in);
	while ((c = crt_fgetc(in)) != -1 && c != '\n')
		*p++ = (char)c;
	crt__unlock_file(in);
	if (c == -1 && p == buf)
		return NULL;
	*p = 0;
	return buf;
}

WCHAR *__cdecl crt__getws(WCHAR *buf)
{
	struct crt_file *in = &crt___iob_func()[0];
	WCHAR *p = buf, c = 0;

	if (!buf) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return NULL;
	}
	crt__lock_file(in);
	while ((c = crt_fgetwc(in)) != WEOF_ && c != '\n')
		*p++ = c;
	crt__unlock_file(in);
	if (c == WEOF_ && p == buf)
		return NULL;
	*p = 0;
	return buf;
}

/* An int's four bytes as they are in memory (binary data). */
int __cdecl crt__putw(int v, struct crt_file *f)
{
	return crt_fwrite(&v, sizeof(v), 1, f) == 1 ? v : -1;
}

int __cdecl crt__getw(struct crt_file *f)
{
	int v;

	return crt_fread(&v, sizeof(v), 1, f) == 1 ? v : -1;
}

/* Stopgaps for what msmpi.dll imports from msvcrt.dll and the "crt"
 * engineer's branch implements fully (_strerror, wcstok_s, sscanf_s,
 * _assert; _wfopen_s is the UCRT one the spec exports here too), so that
 * `ndrun --check` finds nothing missing in MS-MPI before it merges.  The
 * lead reconciles: whichever is kept, the other goes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msvcrt/msvcrt_private.h"

/* "msg: <the text of errno>\n", or only the text when msg is NULL or
 * empty; one buffer per thread, as msvcrt keeps it. */
char *__cdecl crt__strerror(const char *msg)
{
	static __thread char buf[256];
	const char *text = crt_strerror(*crt__errno());

	if (msg && *msg)
		snprintf(buf, sizeof(buf), "%.94s: %s\n", msg, text);
	else
		snprintf(buf, sizeof(buf), "%s\n", text);
	return buf;
}

/* The next token of str (or of the string context holds), delimited by
 * any character of delim; NULL arguments are invalid parameters. */
WCHAR *__cdecl crt_wcstok_s(WCHAR *str, const WCHAR *delim, WCHAR **context)
{
	WCHAR *p, *start;

	if (!delim || !context || (!str && !*context)) {
		crt_invalid_arg();
		return NULL;
	}
	p = str ? str : *context;
	for (; *p; p++) {
		const WCHAR *d = delim;

		while (*d && *d != *p)
			d++;
		if (!*d)
			break;
	}
	if (!*p) {
		*context = p;
		return NULL;
	}
	start = p;
	for (; *p; p++) {
		const WCHAR *d = delim;

		while (*d && *d != *p)
			d++;
		if (*d)
			break;
	}
	if (*p)
		*p++ = 0;
	*context = p;
	return start;
}

/* sscanf with the secure rules: %s, %c and %[ take a buffer size after
 * the buffer (the shared reader, scanf.c). */
int __cdecl crt_sscanf_s(const char *input, const char *fmt, ...)
{
	__ms_va_list ap;
	int r;

	if (!input || !fmt)
		return crt_invalid_arg();
	__ms_va_start(ap, fmt);
	r = crt_scan(CRT_SF_SECURECRT, 0, input, (size_t)-1, NULL, fmt, ap);
	__ms_va_end(ap);
	return r;
}

/* assert()'s failure: the message on the program's standard error (its
 * handle, as msvcrt writes it, not ndrun's stderr), then abort's exit (3). */
void __cdecl crt__assert(const char *expr, const char *file, unsigned int line)
{
	char msg[1024];
	DWORD done;
	int n = snprintf(msg, sizeof(msg), "Assertion failed: %s, file %s, line %u\n", expr ? expr : "",
			 file ? file : "", line);

	WriteFile(GetStdHandle(STD_ERROR_HANDLE), msg, n < 0 ? 0 : (DWORD)(n < (int)sizeof(msg) ? n : (int)sizeof(msg) - 1),
		  &done, NULL);
	crt_abort();
}

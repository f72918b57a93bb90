/* _assert and _wassert, what assert() calls when its expression is false
 * (assert.h): "Assertion failed: EXPR, file FILE, line N" on stderr, as a
 * console program's runtime writes it, then abort (exit status 3). */
#include <stdio.h>
#include <stdlib.h>

#include "msvcrt/msvcrt_private.h"

static void __attribute__((noreturn)) report(const char *expr, const char *file, unsigned int line)
{
	char msg[4096];

	snprintf(msg, sizeof(msg), "Assertion failed: %s, file %s, line %u\n", expr ? expr : "(null)",
		 file ? file : "(null)", line);
	crt_fputs(msg, &crt___iob_func()[2]);
	crt_fflush(&crt___iob_func()[2]);
	crt_abort();
}

void __cdecl crt__assert(const char *expr, const char *file, unsigned int line)
{
	report(expr, file, line);
}

void __cdecl crt__wassert(const WCHAR *expr, const WCHAR *file, unsigned int line)
{
	char *e = expr ? crt_wide_to_utf8_alloc(expr) : NULL, *f = file ? crt_wide_to_utf8_alloc(file) : NULL;

	report(e, f, line);
}

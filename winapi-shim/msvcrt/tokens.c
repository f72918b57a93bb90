/* Tokenizers with a caller's context: strtok_s and wcstok_s (the _s
 * family: bad arguments go to the invalid-parameter handler, errno
 * EINVAL), msvcrt's two-argument wcstok (its position per thread, like
 * strtok's) and the UCRT's three-argument one (ISO C's; a NULL context
 * falls back to the thread's). */
#include <errno.h>
#include <string.h>

#include "msvcrt/msvcrt_private.h"

static size_t wspn(const WCHAR *s, const WCHAR *set, int in)
{
	size_t n = 0;

	for (; s[n]; n++) {
		const WCHAR *c = set;

		while (*c && *c != s[n])
			c++;
		if (!!*c != in)
			break;
	}
	return n;
}

static WCHAR *wtok(WCHAR *s, const WCHAR *delim, WCHAR **context)
{
	WCHAR *end;

	if (!s)
		s = *context;
	s += wspn(s, delim, 1);
	if (!*s) {
		*context = s;
		return NULL;
	}
	end = s + wspn(s, delim, 0);
	if (*end)
		*end++ = 0;
	*context = end;
	return s;
}

static char *tok(char *s, const char *delim, char **context)
{
	char *end;

	if (!s)
		s = *context;
	s += strspn(s, delim);
	if (!*s) {
		*context = s;
		return NULL;
	}
	end = s + strcspn(s, delim);
	if (*end)
		*end++ = 0;
	*context = end;
	return s;
}

static void *bad_arg(void)
{
	crt_set_errno(EINVAL);
	crt_invalid_parameter_noinfo();
	return NULL;
}

char *__cdecl crt_strtok_s(char *s, const char *delim, char **context)
{
	if (!delim || !context || (!s && !*context))
		return bad_arg();
	return tok(s, delim, context);
}

WCHAR *__cdecl crt_wcstok_s(WCHAR *s, const WCHAR *delim, WCHAR **context)
{
	if (!delim || !context || (!s && !*context))
		return bad_arg();
	return wtok(s, delim, context);
}

static __thread WCHAR *wcstok_next;

WCHAR *__cdecl crt_wcstok(WCHAR *s, const WCHAR *delim)
{
	if (!s && !wcstok_next)
		return NULL;
	return wtok(s, delim, &wcstok_next);
}

WCHAR *__cdecl ucrt_wcstok(WCHAR *s, const WCHAR *delim, WCHAR **context)
{
	WCHAR **ctx = context ? context : &wcstok_next;

	if (!s && !*ctx)
		return NULL;
	return wtok(s, delim, ctx);
}

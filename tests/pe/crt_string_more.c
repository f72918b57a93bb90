/* string.h and wchar.h functions beyond the common ones: strtok_s and
 * wcstok_s (the caller's context; bad arguments go to the invalid-
 * parameter handler with errno EINVAL), wcstok (msvcrt's takes two
 * arguments, the UCRT's three), _strerror ("text: message\n"), and
 * _wcstoi64/_wcstoui64 (limits, ERANGE, the end pointer), reversing and
 * filling (_strrev, _strset, _strnset, _wcsrev), _memicmp, _memccpy,
 * _swab, strncat_s (ERANGE, _TRUNCATE), _strlwr_s, strerror_s, and
 * ctype's ASCII helpers (_tolower/_toupper without a check, __isascii,
 * __toascii, __iscsym).  stdlib.h's
 * qsort with a NULL comparator is an invalid parameter too (ndrun's
 * msvcrt stops a program that has no handler for it). */
#define MINGW_HAS_SECURE_API 1
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "test.h"

static int invalid_calls;

static void __cdecl on_invalid(const wchar_t *expr, const wchar_t *func, const wchar_t *file, unsigned int line,
			       uintptr_t reserved)
{
	(void)expr, (void)func, (void)file, (void)line, (void)reserved;
	invalid_calls++;
}

static void tokens(void)
{
	char s[] = "  a,b;;c ", *ctx = NULL, *t;
	wchar_t w[] = L"x y  z", *wctx = NULL, *wt;

	t = strtok_s(s, " ,;", &ctx);
	ok(t && !strcmp(t, "a"), "strtok_s 1: %s\n", t);
	t = strtok_s(NULL, " ,;", &ctx);
	ok(t && !strcmp(t, "b"), "strtok_s 2: %s\n", t);
	t = strtok_s(NULL, " ,;", &ctx);
	ok(t && !strcmp(t, "c"), "strtok_s 3: %s\n", t);
	ok(!strtok_s(NULL, " ,;", &ctx), "strtok_s past the end\n");

	wt = wcstok_s(w, L" ", &wctx);
	ok(wt && !wcscmp(wt, L"x"), "wcstok_s 1\n");
	wt = wcstok_s(NULL, L" ", &wctx);
	ok(wt && !wcscmp(wt, L"y"), "wcstok_s 2\n");
	wt = wcstok_s(NULL, L" ", &wctx);
	ok(wt && !wcscmp(wt, L"z"), "wcstok_s 3\n");
	ok(!wcstok_s(NULL, L" ", &wctx), "wcstok_s past the end\n");

#ifdef _UCRT
	/* (Wine's strtok_s and wcstok_s do not check: they fault) */
	if (!test_on_wine()) {
		invalid_calls = 0;
		errno = 0;
		ctx = NULL;
		t = strtok_s(NULL, " ", &ctx);
		ok(!t && errno == EINVAL && invalid_calls == 1, "strtok_s(NULL) with no context: errno %d, handler %d\n",
		   errno, invalid_calls);
		errno = 0;
		wt = wcstok_s(w, NULL, &wctx);
		ok(!wt && errno == EINVAL, "wcstok_s without delimiters: errno %d\n", errno);
	}
#endif

	wchar_t w2[] = L"p-q";
#ifdef _UCRT
	/* ISO C's, which mingw's headers do not declare for the UCRT */
	wchar_t *(__cdecl * wcstok3)(wchar_t *, const wchar_t *, wchar_t **) =
		(void *)GetProcAddress(GetModuleHandleA("ucrtbase.dll"), "wcstok");
	wchar_t *state = NULL;
	ok(wcstok3 != NULL, "no wcstok in ucrtbase.dll\n");
	if (!wcstok3)
		return;
	wt = wcstok3(w2, L"-", &state);
	ok(wt && !wcscmp(wt, L"p"), "wcstok 1\n");
	wt = wcstok3(NULL, L"-", &state);
#else
	wt = wcstok(w2, L"-");
	ok(wt && !wcscmp(wt, L"p"), "wcstok 1\n");
	wt = wcstok(NULL, L"-");
#endif
	ok(wt && !wcscmp(wt, L"q"), "wcstok 2\n");
}

static void errors(void)
{
	char *m;

	errno = ENOENT;
	m = _strerror("opening");
	ok(m && !strcmp(m, "opening: No such file or directory\n"), "_strerror: \"%s\"\n", m);
	errno = EACCES;
	m = _strerror(NULL);
	ok(m && !strcmp(m, "Permission denied\n"), "_strerror(NULL): \"%s\"\n", m);
}

static void numbers(void)
{
	wchar_t *end;
	__int64 v;
	unsigned __int64 u;

	v = _wcstoi64(L"  -9223372036854775808x", &end, 10);
	ok(v == INT64_MIN && *end == 'x', "_wcstoi64 min: %lld\n", v);
	errno = 0;
	v = _wcstoi64(L"9223372036854775808", &end, 10);
	ok(v == INT64_MAX && errno == ERANGE, "_wcstoi64 overflow: %lld errno %d\n", v, errno);
	v = _wcstoi64(L"0x7f", &end, 0);
	ok(v == 127 && !*end, "_wcstoi64 base 0: %lld\n", v);
	u = _wcstoui64(L"ffffffffffffffff", &end, 16);
	ok(u == UINT64_MAX && !*end, "_wcstoui64: %llx\n", u);
	v = _wcstoi64(L"zz", &end, 10);
	ok(v == 0 && !wcscmp(end, L"zz"), "_wcstoi64 of nothing\n");
}

static int __cdecl cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static void sorting(void)
{
	int a[] = { 3, 1, 2 };

	qsort(a, 3, sizeof(int), cmp_int);
	ok(a[0] == 1 && a[1] == 2 && a[2] == 3, "qsort\n");
#ifdef _UCRT
	/* (Wine's qsort calls the NULL comparator: a fault) */
	if (test_on_wine())
		return;
	invalid_calls = 0;
	errno = 0;
	qsort(a, 3, sizeof(int), NULL);
	ok(invalid_calls == 1 && errno == EINVAL, "qsort without a comparator: handler %d errno %d\n", invalid_calls,
	   errno);
#endif
}

static void forms(void)
{
	char s[16], d[16], buf[8];
	wchar_t w[8];

	strcpy(s, "abcde");
	ok(!strcmp(_strrev(s), "edcba"), "_strrev: %s\n", s);
	/* (Wine's _strnset returns where it stopped, not the string) */
	ok_todo_wine(_strnset(s, 'x', 2) == s, "_strnset's result\n");
	ok(!strcmp(s, "xxcba"), "_strnset: %s\n", s);
	ok(!strcmp(_strset(s, 'y'), "yyyyy"), "_strset: %s\n", s);
	wcscpy(w, L"xyz");
	ok(!wcscmp(_wcsrev(w), L"zyx"), "_wcsrev\n");
	ok(_memicmp("HeLLo", "hello", 5) == 0 && _memicmp("a", "B", 1) < 0, "_memicmp\n");
	ok(_memccpy(d, "key=value", '=', 9) == d + 4 && !memcmp(d, "key=", 4), "_memccpy\n");
	ok(_memccpy(d, "abc", 'z', 3) == NULL, "_memccpy without the byte\n");
	_swab("badc", d, 4);
	ok(!memcmp(d, "abcd", 4), "_swab\n");

	strcpy(buf, "ab");
	ok(strncat_s(buf, sizeof(buf), "cdefgh", 3) == 0 && !strcmp(buf, "abcde"), "strncat_s: %s\n", buf);
	ok(strncat_s(buf, sizeof(buf), "xyz", _TRUNCATE) == STRUNCATE && !strcmp(buf, "abcdexy"),
	   "strncat_s _TRUNCATE: %s\n", buf);
	strcpy(buf, "MiXeD");
	ok(_strlwr_s(buf, sizeof(buf)) == 0 && !strcmp(buf, "mixed"), "_strlwr_s\n");
	ok(strerror_s(s, sizeof(s), ENOENT) == 0 && !strcmp(s, "No such file or"), "strerror_s cut: %s\n", s);

	ok(_tolower('A') == 'a' && _toupper('b') == 'B' && _tolower('a') == 'a' + 32, "_tolower/_toupper\n");
	ok(__isascii(0x7f) && !__isascii(0x80) && __toascii(0x1c1) == 0x41, "__isascii, __toascii\n");
	ok(__iscsym('_') && __iscsym('9') && !__iscsymf('9') && __iscsymf('a') && !__iscsym('-'), "__iscsym(f)\n");
}

/* mbstowcs_s and wcstombs_s: sizes with the terminator, _TRUNCATE */
static void conversions(void)
{
	wchar_t w[8];
	char b[8];
	size_t n = 0;

	ok(mbstowcs_s(&n, w, 8, "abc", _TRUNCATE) == 0 && n == 4 && !wcscmp(w, L"abc"), "mbstowcs_s: %u\n",
	   (unsigned)n);
	ok(mbstowcs_s(&n, NULL, 0, "hello", 0) == 0 && n == 6, "mbstowcs_s size: %u\n", (unsigned)n);
	ok(mbstowcs_s(&n, w, 4, "abcdef", _TRUNCATE) == STRUNCATE && n == 4 && !wcscmp(w, L"abc"),
	   "mbstowcs_s _TRUNCATE: %u\n", (unsigned)n);
	ok(mbstowcs_s(&n, w, 8, "abcdef", 2) == 0 && n == 3 && !wcscmp(w, L"ab"), "mbstowcs_s count 2\n");
	ok(wcstombs_s(&n, b, 8, L"xyz", _TRUNCATE) == 0 && n == 4 && !strcmp(b, "xyz"), "wcstombs_s\n");
	ok(wcstombs_s(&n, NULL, 0, L"12345", 0) == 0 && n == 6, "wcstombs_s size\n");
}

#ifdef _UCRT
static void forms_invalid(void)
{
	char buf[4] = "abc";

	if (test_on_wine())
		return; /* (Wine's strncat_s checks, its handler calls differ) */
	invalid_calls = 0;
	ok(strncat_s(buf, sizeof(buf), "de", 2) == ERANGE && !buf[0] && invalid_calls == 1,
	   "strncat_s past the end: calls %d\n", invalid_calls);
}
#endif

int main(void)
{
	/* msvcrt.dll has no handler a program can install (mingw-w64's
	 * _set_invalid_parameter_handler is its own): the invalid arguments
	 * are checked against the UCRT only (ucrt_string_more). */
	_set_invalid_parameter_handler(on_invalid);
	tokens();
	errors();
	numbers();
	forms();
	conversions();
#ifdef _UCRT
	forms_invalid();
#endif
	sorting();
	return test_summary();
}

/* UCRT bounds-checked functions and helpers MSVC programs import: the _s
 * string and memory functions (EINVAL/ERANGE through the invalid-parameter
 * handler, destination emptied), getenv_s/_dupenv_s, fopen_s,
 * _aligned_malloc and the _s time conversions.  tests.list sets PE_SECURE_VAR. */
#define __USE_MINGW_ANSI_STDIO 0

#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>
#include <windows.h>

#include "test.h"

static int invalid_calls;

static void __cdecl on_invalid(const wchar_t *expr, const wchar_t *func, const wchar_t *file, unsigned int line,
			       uintptr_t reserved)
{
	(void)expr, (void)func, (void)file, (void)line, (void)reserved;
	invalid_calls++;
}

static void test_strings(void)
{
	char buf[8];
	wchar_t w[6];
	volatile size_t small = 4;
	int r;

	ok(strcpy_s(buf, sizeof(buf), "abc") == 0 && !strcmp(buf, "abc"), "strcpy_s\n");
	ok(strcat_s(buf, sizeof(buf), "defg") == 0 && !strcmp(buf, "abcdefg"), "strcat_s [%s]\n", buf);
	/* Rule: no room for the terminator: ERANGE, empty destination, handler */
	invalid_calls = 0;
	r = strcat_s(buf, sizeof(buf), "h");
	ok(r == ERANGE && buf[0] == 0 && invalid_calls == 1, "strcat_s overflow %d [%s] %d\n", r, buf, invalid_calls);
	r = strcpy_s(buf, small, "abcd");
	ok(r == ERANGE && buf[0] == 0, "strcpy_s overflow %d\n", r);
	invalid_calls = 0;
	r = strcpy_s(NULL, 4, "a");
	ok(r == EINVAL && invalid_calls == 1, "strcpy_s(NULL) %d\n", r);
	/* Rule: strncpy_s with _TRUNCATE cuts, terminates and says STRUNCATE */
	invalid_calls = 0;
	r = strncpy_s(buf, sizeof(buf), "0123456789", _TRUNCATE);
	ok(r == STRUNCATE && !strcmp(buf, "0123456") && invalid_calls == 0, "strncpy_s truncate %d [%s]\n", r, buf);
	r = strncpy_s(buf, sizeof(buf), "0123456789", 3);
	ok(r == 0 && !strcmp(buf, "012"), "strncpy_s count %d [%s]\n", r, buf);
	ok(memcpy_s(buf, sizeof(buf), "xyz", 4) == 0 && !strcmp(buf, "xyz"), "memcpy_s\n");
	r = memcpy_s(buf, small, "0123456", 8);
	ok(r == ERANGE && buf[0] == 0 && buf[3] == 0, "memcpy_s overflow %d\n", r);
	ok(memmove_s(buf, sizeof(buf), "12", 3) == 0 && !strcmp(buf, "12"), "memmove_s\n");
	ok(wcsncpy_s(w, 6, L"wide", _TRUNCATE) == 0 && wcscat_s(w, 6, L"!") == 0 && !wcscmp(w, L"wide!"),
	   "wcsncpy_s/wcscat_s\n");
	ok(wcscat_s(w, 6, L"?") == ERANGE && w[0] == 0, "wcscat_s overflow\n");
	/* wcscpy_s: the same rules, reported through the handler */
	ok(wcscpy_s(w, 6, L"12345") == 0 && !wcscmp(w, L"12345"), "wcscpy_s\n");
	invalid_calls = 0;
	r = wcscpy_s(w, 6, L"123456");
	ok(r == ERANGE && w[0] == 0 && invalid_calls == 1, "wcscpy_s overflow %d, %d reports\n", r, invalid_calls);
	invalid_calls = 0;
	r = wcscpy_s(NULL, 6, L"1");
	ok(r == EINVAL && invalid_calls == 1, "wcscpy_s(NULL) %d, %d reports\n", r, invalid_calls);
}

static void test_environment(void)
{
	char buf[32], *dup = NULL;
	size_t need = 99, len = 99;
	int r;

	ok(getenv_s(&need, buf, sizeof(buf), "PE_SECURE_VAR") == 0 && need == 7 && !strcmp(buf, "secure"),
	   "getenv_s %zu [%s]\n", need, buf);
	/* Rule: a buffer too small (none at all included) is ERANGE with the
	 * size needed, and no invalid-parameter report. */
	invalid_calls = 0;
	ok(getenv_s(&need, NULL, 0, "PE_SECURE_VAR") == ERANGE && need == 7, "getenv_s size query %zu\n", need);
	ok(getenv_s(&need, buf, 3, "PE_SECURE_VAR") == ERANGE && need == 7, "getenv_s small buffer\n");
	ok(invalid_calls == 0, "handler called %d times\n", invalid_calls);
	/* Rule: a variable that is not set is not an error: size 0, empty
	 * buffer (getenv_s), NULL (_dupenv_s).  Wine returns EINVAL for both
	 * and leaves the outputs alone. */
	buf[0] = 'z';
	r = getenv_s(&need, buf, sizeof(buf), "PE_SECURE_NOT_SET");
	ok_todo_wine(r == 0 && need == 0 && buf[0] == 0, "getenv_s unset: %d %zu %d\n", r, need, buf[0]);
	ok(_dupenv_s(&dup, &len, "PE_SECURE_VAR") == 0 && dup && !strcmp(dup, "secure") && len == 7, "_dupenv_s\n");
	free(dup);
	{
		wchar_t wbuf[16], *wdup = NULL;
		ok(_wgetenv_s(&need, wbuf, 16, L"PE_SECURE_VAR") == 0 && need == 7 && !wcscmp(wbuf, L"secure"),
		   "_wgetenv_s %zu\n", need);
		ok(_wdupenv_s(&wdup, &len, L"PE_SECURE_VAR") == 0 && wdup && !wcscmp(wdup, L"secure") && len == 7,
		   "_wdupenv_s\n");
		free(wdup);
	}
	dup = (char *)1;
	r = _dupenv_s(&dup, &len, "PE_SECURE_NOT_SET");
	ok_todo_wine(r == 0 && dup == NULL && len == 0, "_dupenv_s unset: %d %p %zu\n", r, (void *)dup, len);
}

static void test_fopen_s(void)
{
	FILE *f = (FILE *)1;
	char path[MAX_PATH];

	ok(fopen_s(&f, "Z:\\no\\such\\folder\\file.txt", "r") == ENOENT && f == NULL, "fopen_s missing file\n");
	GetTempPathA(sizeof(path), path);
	strcat(path, "ndshim_ucrt_secure.txt");
	ok(fopen_s(&f, path, "w") == 0 && f, "fopen_s for writing, errno %d\n", errno);
	if (f) {
		/* the _nolock forms, under the stream's lock */
		_lock_file(f);
		ok(_fputc_nolock('x', f) == 'x' && _fwrite_nolock("yz", 1, 2, f) == 2, "_nolock writes\n");
		_unlock_file(f);
		fclose(f);
	}
	{
		wchar_t wpath[MAX_PATH];
		char line[8] = "";
		MultiByteToWideChar(CP_ACP, 0, path, -1, wpath, MAX_PATH);
		ok(_wfopen_s(&f, wpath, L"r") == 0 && f, "_wfopen_s, errno %d\n", errno);
		if (f) {
			ok(fgets(line, sizeof(line), f) && !strcmp(line, "xyz"), "read back [%s]\n", line);
			fclose(f);
		}
		ok(_wremove(wpath) == 0 && _wremove(wpath) == -1 && errno == ENOENT, "_wremove\n");
	}
}

static void test_aligned(void)
{
	void *p = _aligned_malloc(100, 64), *q;

	ok(p && ((uintptr_t)p & 63) == 0, "_aligned_malloc %p\n", p);
	if (p) {
		memset(p, 0x5a, 100);
		q = _aligned_realloc(p, 200, 64);
		ok(q && ((uintptr_t)q & 63) == 0 && ((unsigned char *)q)[99] == 0x5a, "_aligned_realloc\n");
		_aligned_free(q ? q : p);
	}
	/* Rule: an alignment that is not a power of two is EINVAL through the
	 * invalid-parameter handler. */
	invalid_calls = 0;
	errno = 0;
	p = _aligned_malloc(16, 3);
	ok(p == NULL, "alignment 3 accepted\n");
	ok(errno == EINVAL, "errno %d\n", errno);
	/* Wine's ucrtbase does not call the handler here */
	ok_todo_wine(invalid_calls == 1, "handler called %d times\n", invalid_calls);
}

static void test_time_s(void)
{
	__time64_t t = 86400 * 365;
	struct tm tm = { 0 };
	int r;

	ok(_gmtime64_s(&tm, &t) == 0 && tm.tm_year == 71 && tm.tm_yday == 0, "_gmtime64_s %d %d\n", tm.tm_year,
	   tm.tm_yday);
	/* Rule: a NULL time is EINVAL through the handler, and every field of
	 * the result is set to -1. */
	invalid_calls = 0;
	r = _gmtime64_s(&tm, NULL);
	ok(r == EINVAL && tm.tm_year == -1 && tm.tm_mday == -1, "_gmtime64_s(NULL): %d, fields %d %d\n", r,
	   tm.tm_year, tm.tm_mday);
	/* Wine's ucrtbase does not call the handler here */
	ok_todo_wine(invalid_calls == 1, "handler called %d times\n", invalid_calls);
	t = _time64(NULL);
	ok(_localtime64_s(&tm, &t) == 0 && tm.tm_year >= 120, "_localtime64_s year %d\n", tm.tm_year);
}

int main(void)
{
	_set_invalid_parameter_handler(on_invalid);
	test_strings();
	test_environment();
	test_fopen_s();
	test_aligned();
	test_time_s();
	return test_summary();
}

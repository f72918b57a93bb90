/* stdlib.h and process.h beyond the common ones: _splitpath and
 * _makepath (and their wide and _s forms: ERANGE and the parts emptied
 * when one does not fit), the integer-to-text forms (_itoa_s family:
 * ERANGE when the digits do not fit; _ltow, _ui64tow ...), C99's
 * isblank, btowc, strtoimax, imaxdiv and C11's timespec_get (the UCRT's),
 * and
 * _beginthread (the routine runs with its
 * argument; the thread's handle closes itself). */
#define MINGW_HAS_SECURE_API 1
#include <errno.h>
#include <search.h>
#include <process.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

#include "test.h"

static void paths(void)
{
	char drive[_MAX_DRIVE], dir[_MAX_DIR], fname[_MAX_FNAME], ext[_MAX_EXT], path[_MAX_PATH];
	wchar_t wdir[_MAX_DIR], wname[_MAX_FNAME], wpath[_MAX_PATH];

	_splitpath("C:\\dir.x\\sub/file.tar.gz", drive, dir, fname, ext);
	ok(!strcmp(drive, "C:") && !strcmp(dir, "\\dir.x\\sub/") && !strcmp(fname, "file.tar") && !strcmp(ext, ".gz"),
	   "_splitpath: %s|%s|%s|%s\n", drive, dir, fname, ext);
	_splitpath("name", drive, dir, fname, ext);
	ok(!drive[0] && !dir[0] && !strcmp(fname, "name") && !ext[0], "_splitpath of a name\n");
	_splitpath("dir\\.hidden", NULL, dir, fname, ext);
	ok(!strcmp(dir, "dir\\") && !fname[0] && !strcmp(ext, ".hidden"), "_splitpath .hidden: %s|%s\n", fname, ext);
	_wsplitpath(L"D:\\a\\b.c", NULL, wdir, wname, NULL);
	ok(!wcscmp(wdir, L"\\a\\") && !wcscmp(wname, L"b"), "_wsplitpath\n");
	ok(_splitpath_s("C:\\d\\f.txt", drive, sizeof(drive), dir, sizeof(dir), fname, sizeof(fname), ext,
			sizeof(ext)) == 0 && !strcmp(fname, "f"), "_splitpath_s\n");

	_makepath(path, "c", "\\dir", "file", "txt");
	ok(!strcmp(path, "c:\\dir\\file.txt"), "_makepath: %s\n", path);
	_makepath(path, NULL, "dir/", "file", ".txt");
	ok(!strcmp(path, "dir/file.txt"), "_makepath with a separator and a dot: %s\n", path);
	_makepath(path, NULL, NULL, "f", NULL);
	ok(!strcmp(path, "f"), "_makepath of a name: %s\n", path);
	_wmakepath(wpath, L"X", L"y", L"z", L"w");
	ok(!wcscmp(wpath, L"X:y\\z.w"), "_wmakepath\n");
	ok(_makepath_s(path, sizeof(path), "c", "d", "e", "f") == 0 && !strcmp(path, "c:d\\e.f"), "_makepath_s\n");
}

#ifdef _UCRT
static int invalid_calls;

static void __cdecl on_invalid(const wchar_t *expr, const wchar_t *func, const wchar_t *file, unsigned int line,
			       uintptr_t reserved)
{
	(void)expr, (void)func, (void)file, (void)line, (void)reserved;
	invalid_calls++;
}

/* the _s forms' failures call the handler, which only the UCRT lets a
 * program install */
static void secure_failures(void)
{
	char small[4], fname[16], path[8];

	_set_invalid_parameter_handler(on_invalid);
	invalid_calls = 0;
	fname[0] = 'x';
	ok(_splitpath_s("C:\\dir\\f.txt", NULL, 0, small, sizeof(small), fname, sizeof(fname), NULL, 0) == ERANGE &&
	   !small[0] && !fname[0], "_splitpath_s into a small buffer\n");
	/* a buffer too small goes to the handler too (Wine's only returns) */
	ok_todo_wine(invalid_calls == 1, "_splitpath_s into a small buffer: the handler was called %d times\n",
		     invalid_calls);
	ok(_makepath_s(path, sizeof(path), "c", "dir", "name", "ext") == ERANGE && !path[0], "_makepath_s too long\n");
	_set_invalid_parameter_handler(NULL);
}
#endif

static void numbers(void)
{
	char buf[40];
	wchar_t w[40];

	ok(_itoa_s(-123, buf, sizeof(buf), 10) == 0 && !strcmp(buf, "-123"), "_itoa_s\n");
	ok(_i64toa_s(-1, buf, sizeof(buf), 16) == 0 && !strcmp(buf, "ffffffffffffffff"), "_i64toa_s hex: %s\n", buf);
	ok(_ui64toa_s(255, buf, sizeof(buf), 2) == 0 && !strcmp(buf, "11111111"), "_ui64toa_s binary\n");
	ok(_ultoa_s(4294967295u, buf, sizeof(buf), 10) == 0 && !strcmp(buf, "4294967295"), "_ultoa_s\n");
	ok(!wcscmp(_ltow(-77, w, 10), L"-77") && !wcscmp(_ultow(35, w, 36), L"z"), "_ltow, _ultow\n");
	ok(!wcscmp(_i64tow(-5000000000LL, w, 10), L"-5000000000") && !wcscmp(_ui64tow(10, w, 8), L"12"),
	   "_i64tow, _ui64tow\n");
	ok(_itow_s(42, w, 40, 10) == 0 && !wcscmp(w, L"42"), "_itow_s\n");
}

#ifdef _UCRT
#include <inttypes.h>
#include <wctype.h>
/* C99 and C11 pieces only the UCRT exports */
static void c99(void)
{
	char *end;
	imaxdiv_t d;
	struct timespec ts;
	time_t before = time(NULL);

	ok(isblank(' ') && isblank('\t') && !isblank('\n') && !isblank('x'), "isblank\n");
	ok(iswblank(L' ') && !iswblank(L'a') && iswgraph(L'a') && !iswgraph(L' '), "iswblank, iswgraph\n");
	ok(btowc('A') == L'A' && btowc(EOF) == WEOF && wctob(L'z') == 'z', "btowc, wctob\n");
	ok(strtoimax("-9223372036854775807x", &end, 10) == -INTMAX_MAX && *end == 'x', "strtoimax\n");
	ok(strtoumax("0xffffffffffffffff", &end, 16) == UINTMAX_MAX, "strtoumax\n");
	d = imaxdiv(-7, 2);
	ok(d.quot == -3 && d.rem == -1, "imaxdiv\n");
	ok(timespec_get(&ts, TIME_UTC) == TIME_UTC && ts.tv_sec >= before && ts.tv_nsec < 1000000000,
	   "timespec_get\n");
}

static void numbers_invalid(void)
{
	char small[3];

	_set_invalid_parameter_handler(on_invalid);
	invalid_calls = 0;
	small[0] = 'x';
	ok(_itoa_s(12345, small, sizeof(small), 10) == ERANGE && !small[0], "_itoa_s too small\n");
	ok(_itoa_s(1, small, sizeof(small), 1) == EINVAL, "_itoa_s radix 1\n");
	ok(invalid_calls == 2, "the handler was called %d times\n", invalid_calls);
	_set_invalid_parameter_handler(NULL);
}
#endif

static int __cdecl cmp_ctx(void *ctx, const void *a, const void *b)
{
	(*(int *)ctx)++;
	return *(const int *)a - *(const int *)b;
}

static int __cdecl cmp_plain(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* qsort_s and bsearch_s (the comparator gets the context), _lfind and
 * _lsearch, the wide number forms */
static void searching(void)
{
	int a[] = { 5, 3, 9, 1 }, calls = 0, key = 9, more[5] = { 1, 2 };
	unsigned int n = 2;
	int *found;

	qsort_s(a, 4, sizeof(int), cmp_ctx, &calls);
	ok(a[0] == 1 && a[3] == 9 && calls > 0, "qsort_s: calls %d\n", calls);
	found = bsearch_s(&key, a, 4, sizeof(int), cmp_ctx, &calls);
	ok(found == &a[3], "bsearch_s\n");
	n = 4;
	key = 3;
	ok(_lfind(&key, a, &n, sizeof(int), cmp_plain) == &a[1], "_lfind\n");
	key = 7;
	n = 2;
	found = _lsearch(&key, more, &n, sizeof(int), cmp_plain);
	ok(found == &more[2] && n == 3 && more[2] == 7, "_lsearch appends: n %u\n", n);
	ok(_wtof(L"2.5e1") == 25.0 && _wtoi64(L"-9000000000") == -9000000000LL, "_wtof, _wtoi64\n");
}

static volatile LONG ran;

static void __cdecl thread_proc(void *arg)
{
	InterlockedExchange(&ran, (LONG)(INT_PTR)arg);
	_endthread();
	InterlockedExchange(&ran, -1); /* not reached */
}

static void threads(void)
{
	uintptr_t h = _beginthread(thread_proc, 0, (void *)42);

	ok(h != (uintptr_t)-1, "_beginthread: errno %d\n", errno);
	for (int i = 0; i < 2000 && ran != 42; i++)
		Sleep(10);
	ok(ran == 42, "the thread did not run: %ld\n", ran);
}

int main(void)
{
	paths();
#ifdef _UCRT
	secure_failures();
#endif
	numbers();
	searching();
#ifdef _UCRT
	numbers_invalid();
	c99();
#endif
	threads();
	return test_summary();
}

/* msvcrt functions that real programs import: _fcloseall, freopen and
 * _wfreopen, _wtol, wcscpy_s. */
#include <errno.h>
#include <stdlib.h>
#include <wchar.h>

#include "test.h"

/* Declared by mingw only for some configurations; msvcrt.dll has them. */
_CRTIMP int __cdecl _fcloseall(void);
_CRTIMP errno_t __cdecl wcscpy_s(wchar_t *d, size_t size, const wchar_t *s);

static void test_fcloseall(void)
{
	FILE *a = fopen("crt_longtail_a.tmp", "w"), *b = fopen("crt_longtail_b.tmp", "w");
	char buf[16] = "";
	int n;

	ok(a && b, "fopen failed\n");
	fputs("alpha", a);
	fputs("beta", b);
	n = _fcloseall();
	ok(n == 2, "_fcloseall closed %d streams, expected 2\n", n);
	/* The buffered data was written; stdout still works. */
	a = fopen("crt_longtail_a.tmp", "r");
	ok(a != NULL, "reopen failed\n");
	if (a) {
		fgets(buf, sizeof(buf), a);
		fclose(a);
	}
	ok(!strcmp(buf, "alpha"), "got \"%s\"\n", buf);
	ok(_fcloseall() == 0, "nothing left to close\n");
	ok(printf("%s", "") == 0 && fflush(stdout) == 0, "stdout closed\n");
	DeleteFileA("crt_longtail_a.tmp");
	DeleteFileA("crt_longtail_b.tmp");
}

static void test_wfreopen(void)
{
	FILE *f = fopen("crt_longtail_c.tmp", "w"), *r;
	char buf[32] = "";

	ok(f != NULL, "fopen failed\n");
	fputs("first", f);
	r = _wfreopen(L"crt_longtail_d.tmp", L"w", f);
	ok(r == f, "_wfreopen returned %p, not the stream %p\n", r, f);
	fputs("second", f);
	r = freopen("crt_longtail_c.tmp", "r", f);
	ok(r == f, "freopen returned %p\n", r);
	fgets(buf, sizeof(buf), f);
	ok(!strcmp(buf, "first"), "the first file holds \"%s\"\n", buf);
	fclose(f);
	f = _wfopen(L"crt_longtail_d.tmp", L"r");
	buf[0] = 0;
	fgets(buf, sizeof(buf), f);
	fclose(f);
	ok(!strcmp(buf, "second"), "the second file holds \"%s\"\n", buf);

	/* A file that cannot be opened: NULL, errno set. */
	f = fopen("crt_longtail_c.tmp", "r");
	errno = 0;
	r = _wfreopen(L"no_such_dir\\x.tmp", L"r", f);
	ok(r == NULL && errno == ENOENT, "got %p, errno %d\n", r, errno);

	/* stderr redirected to a file (for good: the checks report on
	 * stdout): what the program prints lands there, through the C runtime
	 * and through the Win32 standard handle alike. */
	{
		DWORD written;

		r = _wfreopen(L"crt_longtail_e.tmp", L"w", stderr);
		ok(r == stderr, "_wfreopen(stderr) returned %p\n", r);
		fprintf(stderr, "crt ");
		fflush(stderr);
		WriteFile(GetStdHandle(STD_ERROR_HANDLE), "win32", 5, &written, NULL);
		f = fopen("crt_longtail_e.tmp", "r");
		buf[0] = 0;
		if (f) {
			fgets(buf, sizeof(buf), f);
			fclose(f);
		}
		ok(!strcmp(buf, "crt win32"), "redirected stderr holds \"%s\"\n", buf);
	}
	DeleteFileA("crt_longtail_c.tmp");
	DeleteFileA("crt_longtail_d.tmp");
}

static void test_wtol(void)
{
	ok(_wtol(L"  -1234xyz") == -1234, "got %ld\n", _wtol(L"  -1234xyz"));
	ok(_wtol(L"+77") == 77, "got %ld\n", _wtol(L"+77"));
	ok(_wtol(L"abc") == 0, "got %ld\n", _wtol(L"abc"));
	ok(_wtol(L"2147483647") == 2147483647L, "got %ld\n", _wtol(L"2147483647"));
}

static void test_wcscpy_s(void)
{
	wchar_t buf[8];
	errno_t e;

	e = wcscpy_s(buf, 8, L"1234567");
	ok(e == 0 && !wcscmp(buf, L"1234567"), "got %d %ls\n", e, buf);
	buf[0] = L'x';
	errno = 0;
	e = wcscpy_s(buf, 8, L"12345678");
	ok(e == ERANGE && buf[0] == 0 && errno == ERANGE, "too long: %d, buf[0] %#x, errno %d\n", e,
	   buf[0], errno);
	buf[0] = L'x';
	e = wcscpy_s(buf, 8, NULL);
	ok(e == EINVAL && buf[0] == 0, "NULL source: %d, buf[0] %#x\n", e, buf[0]);
	e = wcscpy_s(NULL, 8, L"a");
	ok(e == EINVAL, "NULL destination: %d\n", e);
	buf[0] = L'x';
	e = wcscpy_s(buf, 0, L"a");
	ok(e == EINVAL && buf[0] == L'x', "size 0: %d, buf[0] %#x\n", e, buf[0]);
}

int main(void)
{
	test_fcloseall();
	test_wtol();
	test_wcscpy_s();
	test_wfreopen();
	return test_summary();
}

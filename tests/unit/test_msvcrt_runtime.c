/* msvcrt start-up, errno, stdio, strings and friends, called directly. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "msvcrt/test_support.h"

/* ---- command-line splitting: the table of Microsoft's "Parsing C
 * command-line arguments", plus argv[0] and blanks ---- */
static void expect_split(const WCHAR *cmd, int n, const char *const *want)
{
	int argc = -1;
	WCHAR **argv = crt_split_command_line(cmd, &argc);
	assert_non_null(argv);
	assert_int_equal(argc, n);
	for (int i = 0; i < n; i++) {
		char *got = crt_wide_to_utf8_alloc(argv[i]);
		assert_string_equal(got, want[i]);
		free(got);
	}
	assert_null(argv[n]);
	free(argv);
}

static void test_command_line_split(void **state)
{
	expect_split(u"p \"abc\" d e", 4, (const char *[]){ "p", "abc", "d", "e" });
	expect_split(u"p a\\\\b d\"e f\"g h", 4, (const char *[]){ "p", "a\\\\b", "de fg", "h" });
	expect_split(u"p a\\\\\\\"b c d", 4, (const char *[]){ "p", "a\\\"b", "c", "d" });
	expect_split(u"p a\\\\\\\\\"b c\" d e", 4, (const char *[]){ "p", "a\\\\b c", "d", "e" });
	expect_split(u"p a\"b\"\" c d", 2, (const char *[]){ "p", "ab\" c d" });
	/* argv[0]: quotes group, backslashes are literal */
	expect_split(u"\"C:\\Program Files\\x.exe\" 1", 2,
		     (const char *[]){ "C:\\Program Files\\x.exe", "1" });
	expect_split(u"C:\\a\\b.exe", 1, (const char *[]){ "C:\\a\\b.exe" });
	expect_split(u"p  \t x\t\ty  ", 3, (const char *[]){ "p", "x", "y" });
	expect_split(u"p \"\" x", 3, (const char *[]){ "p", "", "x" });
	expect_split(u"p a\\b\\", 2, (const char *[]){ "p", "a\\b\\" });
	expect_split(u"", 1, (const char *[]){ "" });
}

static void test_getmainargs_and_environment(void **state)
{
	int argc;
	char **argv, **envp;
	WCHAR **wargv, **wenvp;
	assert_int_equal(crt___getmainargs(&argc, &argv, &envp, 0, NULL), 0);
	/* The loader quotes the program name (prog.exe does not exist, so
	 * it cannot give its full path); the CRT takes the quotes away. */
	assert_int_equal(argc, 1);
	assert_string_equal(argv[0], "prog.exe");
	assert_int_equal(crt___wgetmainargs(&argc, &wargv, &wenvp, 0, NULL), 0);
	assert_memory_equal(wargv[0], u"prog.exe", 9 * sizeof(WCHAR));
	assert_string_equal(crt__acmdln, "\"prog.exe\"");
	assert_int_equal(*crt___p___argc(), 1);
	/* "=C:" entries are hidden; names match case-insensitively */
	assert_ptr_equal(crt___initenv, envp);
	for (char **e = envp; *e; e++)
		assert_true(**e != '=');
	assert_string_equal(crt_getenv("foo"), "bar");
	assert_string_equal(crt_getenv("FOO"), "bar");
	assert_null(crt_getenv("=C:"));
	assert_null(crt_getenv("NDSHIM_NO_SUCH_VARIABLE"));
	assert_memory_equal(crt__wgetenv(u"Foo"), u"bar", 4 * sizeof(WCHAR));
}

/* ---- errno ---- */
static void test_errno_mapping(void **state)
{
	assert_int_equal(crt_errno_from_host(ENOENT), 2);
	assert_int_equal(crt_errno_from_host(ERANGE), 34);
	assert_int_equal(crt_errno_from_host(EDEADLK), 36);
	assert_int_equal(crt_errno_from_host(ENAMETOOLONG), 38);
	assert_int_equal(crt_errno_from_host(ENOLCK), 39);
	assert_int_equal(crt_errno_from_host(ENOSYS), 40);
	assert_int_equal(crt_errno_from_host(ENOTEMPTY), 41);
	assert_int_equal(crt_errno_from_host(EILSEQ), 42);
	assert_int_equal(crt_errno_from_host(ENOTBLK), ENODEV);
	crt_set_errno_host(ENOTEMPTY);
	assert_int_equal(*crt__errno(), 41);
	assert_string_equal(crt_strerror(2), "No such file or directory");
	assert_string_equal(crt_strerror(12), "Not enough space");
	assert_string_equal(crt_strerror(41), "Directory not empty");
	assert_string_equal(crt_strerror(200), "Unknown error");
}

/* ---- stdlib ---- */
static void test_strtol_is_32_bit(void **state)
{
	char *end;
	*crt__errno() = 0;
	assert_int_equal(crt_strtol("99999999999", &end, 10), INT32_MAX);
	assert_int_equal(*crt__errno(), 34);
	assert_int_equal(*end, 0);
	*crt__errno() = 0;
	assert_int_equal(crt_strtol("-2147483648", NULL, 10), INT32_MIN);
	assert_int_equal(*crt__errno(), 0);
	assert_int_equal(crt_strtol("-2147483649", NULL, 10), INT32_MIN);
	assert_int_equal(*crt__errno(), 34);
	*crt__errno() = 0;
	assert_int_equal(crt_strtoul("-1", NULL, 10), 4294967295u);
	assert_int_equal(*crt__errno(), 0);
	assert_int_equal(crt_strtoul("4294967296", NULL, 10), 4294967295u);
	assert_int_equal(*crt__errno(), 34);
	assert_int_equal(crt_strtol("  0x1fz", &end, 16), 31);
	assert_int_equal(*end, 'z');
	const char *junk = "  +-5";
	assert_int_equal(crt_strtol(junk, &end, 10), 0);
	assert_ptr_equal(end, junk);
	assert_true(crt__strtoui64("18446744073709551615", NULL, 10) == UINT64_MAX);
	assert_true(crt__strtoi64("-9223372036854775808", NULL, 10) == INT64_MIN);
	assert_int_equal(crt_atoi(" -42abc"), -42);
	char buf[80];
	assert_string_equal(crt__ultoa(4294967295u, buf, 16), "ffffffff");
	assert_string_equal(crt__itoa(-5, buf, 10), "-5");
	assert_string_equal(crt__itoa(-1, buf, 16), "ffffffff");
	assert_string_equal(crt__i64toa(INT64_MIN, buf, 10), "-9223372036854775808");
}

static int __cdecl cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static void test_qsort_bsearch_ms_abi(void **state)
{
	int v[] = { 5, 3, 9, 1, 7, 2 };
	crt_qsort(v, 6, sizeof(int), cmp_int);
	for (int i = 1; i < 6; i++)
		assert_true(v[i - 1] <= v[i]);
	int key = 7;
	assert_ptr_equal(crt_bsearch(&key, v, 6, sizeof(int), cmp_int), &v[4]);
	key = 4;
	assert_null(crt_bsearch(&key, v, 6, sizeof(int), cmp_int));
}

static void test_heap_msize(void **state)
{
	char *p = crt_malloc(10);
	assert_int_equal(crt__msize(p), 10);
	p = crt_realloc(p, 1000);
	assert_int_equal(crt__msize(p), 1000);
	assert_int_equal((uintptr_t)p % 16, 0);
	crt_free(p);
	crt_free(NULL);
	assert_null(crt_realloc(crt_malloc(4), 0));
}

static void test_rand_sequence(void **state)
{
	/* msvcrt's documented LCG: seed 1 starts 41, 18467, 6334 */
	crt_srand(1);
	assert_int_equal(crt_rand(), 41);
	assert_int_equal(crt_rand(), 18467);
	assert_int_equal(crt_rand(), 6334);
}

/* ---- strings ---- */
static void test_wide_strings(void **state)
{
	WCHAR buf[32];
	assert_int_equal(crt_wcslen(u"hello"), 5);
	crt_wcscpy(buf, u"abc");
	crt_wcscat(buf, u"DEF");
	assert_int_equal(crt_wcscmp(buf, u"abcDEF"), 0);
	assert_true(crt_wcscmp(u"a", u"\u00e9") < 0);
	assert_int_equal(crt__wcsicmp(u"ABC\u00c9", u"abc\u00e9"), 0);
	assert_ptr_equal(crt_wcschr(buf, 'D'), buf + 3);
	assert_ptr_equal(crt_wcsrchr(u"abca", 'a') - 3, crt_wcsrchr(u"abca", 'a') - 3);
	assert_int_equal(crt_wcsncmp(u"abcx", u"abcy", 3), 0);
	assert_int_equal(crt_towupper(0xe9), 0xc9);
	assert_int_equal(crt_towlower('Q'), 'q');
	assert_true(crt_iswalpha(0xe9));
	assert_false(crt_iswalpha('1'));
	assert_true(crt_iswctype(' ', 0x08));
	assert_int_equal(crt__stricmp("HeLLo", "hello"), 0);
	assert_true(crt__strnicmp("abcX", "ABCy", 4) < 0);
	assert_false(crt_isalpha(0xe9));
	assert_true(crt_isxdigit('F'));
	assert_int_equal(crt_toupper('a'), 'A');
}

static void test_time(void **state)
{
	crt_time64 t = 86400 * 365;
	struct crt_tm *tm = crt__gmtime64(&t);
	assert_non_null(tm);
	assert_int_equal(tm->tm_year, 71);
	assert_int_equal(tm->tm_yday, 0);
	char buf[64];
	assert_int_equal(crt_strftime(buf, sizeof(buf), "%Y-%m-%d %c", tm), 28);
	assert_string_equal(buf, "1971-01-01 01/01/71 00:00:00");
	t = -1;
	assert_null(crt__gmtime64(&t));
	assert_true(crt__time64(NULL) > 1600000000);
}

/* ---- stdio ---- */
static void test_iob_layout(void **state)
{
	struct crt_file *iob = crt___iob_func();
	assert_int_equal(sizeof(struct crt_file), 48);
	assert_int_equal((char *)&iob[1] - (char *)iob, 48);
	assert_int_equal(iob[0]._file, 0);
	assert_int_equal(iob[1]._file, 1);
	assert_int_equal(iob[2]._file, 2);
	assert_int_equal(crt__fileno(&iob[2]), 2);
	assert_int_equal(offsetof(struct crt_stat64, st_size), 24);
}

static void test_file_round_trip(void **state)
{
	char path[] = "/tmp/msvcrt-test-XXXXXX";
	int tfd = mkstemp(path);
	assert_true(tfd >= 0);
	close(tfd);

	struct crt_file *f = crt_fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(crt_fprintf(f, "line %d\n", 1), 7);
	assert_int_equal(crt_fputs("second\n", f), 0);
	assert_int_equal(crt_fputc('x', f), 'x');
	crt_fputwc(0x20ac, f);
	assert_int_equal(crt__ftelli64(f), 7 + 7 + 1 + 3);
	assert_int_equal(crt_fclose(f), 0);

	f = crt_fopen(path, "r");
	assert_non_null(f);
	char line[32];
	assert_non_null(crt_fgets(line, sizeof(line), f));
	assert_string_equal(line, "line 1\n"); /* no \r\n translation */
	assert_int_equal(crt_ftell(f), 7);
	assert_int_equal(crt_fgetc(f), 's');
	assert_int_equal(crt_ungetc('S', f), 'S');
	assert_int_equal(crt_fgetc(f), 'S');
	crt_fpos_t pos;
	assert_int_equal(crt_fgetpos(f, &pos), 0);
	assert_int_equal(pos.pos, 8);
	assert_int_equal(crt_fread(line, 1, 6, f), 6);
	assert_memory_equal(line, "econd\n", 6);
	assert_int_equal(crt_fgetc(f), 'x');
	assert_int_equal(crt_fgetwc(f), 0x20ac);
	assert_int_equal(crt_fgetc(f), -1);
	assert_true(crt_feof(f));
	assert_int_equal(crt_fsetpos(f, &pos), 0);
	assert_false(crt_feof(f));
	assert_int_equal(crt_fgetc(f), 'e');
	crt_rewind(f);
	assert_int_equal(crt_fgetc(f), 'l');
	int fd = crt__fileno(f);
	struct crt_stat64 st;
	assert_int_equal(crt__fstat64(fd, &st), 0);
	assert_int_equal(st.st_size, 18);
	assert_int_equal(st.st_mode & 0xf000, 0x8000);
	assert_int_equal(crt__filelengthi64(fd), 18);
	assert_int_equal(crt_fclose(f), 0);

	/* low-level I/O and a Windows-style path */
	char wpath[64];
	snprintf(wpath, sizeof(wpath), "Z:%s", path); /* Z: is the Linux root */
	for (char *c = wpath; *c; c++)
		if (*c == '/')
			*c = '\\';
	fd = crt__open(wpath, 0x0002 | 0x8000); /* _O_RDWR | _O_BINARY */
	assert_true(fd >= 0);
	assert_int_equal(crt__setmode(fd, 0x4000), 0x8000);
	assert_int_equal(crt__setmode(fd, 0x8000), 0x4000);
	assert_int_equal(crt__lseeki64(fd, 5, 0), 5);
	assert_int_equal(crt__read(fd, line, 2), 2);
	assert_memory_equal(line, "1\n", 2);
	assert_int_equal(crt__close(fd), 0);
	assert_int_equal(crt__close(fd), -1);
	assert_int_equal(*crt__errno(), 9); /* EBADF */

	assert_null(crt_fopen("/nonexistent/dir/file", "r"));
	assert_int_equal(*crt__errno(), 2);
	unlink(path);
}

/* ---- setjmp/longjmp on msvcrt's jump buffer ---- */
static int __attribute__((noinline)) __cdecl jump_back(void *buf, int v)
{
	crt_longjmp(buf, v);
}

static void test_setjmp_longjmp(void **state)
{
	_Alignas(16) unsigned char buf[256];
	volatile int count = 0;
	int r = crt__setjmp(buf, NULL);
	count++;
	if (r == 0)
		jump_back(buf, 0); /* 0 comes back as 1 */
	assert_int_equal(r, 1);
	assert_int_equal(count, 2);
}

/* ---- onexit and signals ---- */
static int order[4], norder;

static int __cdecl onexit_a(void)
{
	order[norder++] = 1;
	return 0;
}

static int __cdecl onexit_b(void)
{
	order[norder++] = 2;
	return 0;
}

static void test_onexit_reverse_order(void **state)
{
	assert_ptr_equal(crt__onexit(onexit_a), onexit_a);
	assert_ptr_equal(crt__onexit(onexit_b), onexit_b);
	crt_run_exit_handlers();
	assert_int_equal(norder, 2);
	assert_int_equal(order[0], 2);
	assert_int_equal(order[1], 1);
	crt_run_exit_handlers();
	assert_int_equal(norder, 2);
}

static int raised;

static void __cdecl on_signal(int sig)
{
	raised = sig;
}

static void test_signal_raise(void **state)
{
	assert_ptr_equal(crt_signal(CRT_SIGTERM, on_signal), CRT_SIG_DFL);
	assert_int_equal(crt_raise(CRT_SIGTERM), 0);
	assert_int_equal(raised, 15);
	/* the handler was reset to SIG_DFL before it ran */
	assert_ptr_equal(crt_signal(CRT_SIGTERM, CRT_SIG_IGN), CRT_SIG_DFL);
	assert_int_equal(crt_raise(CRT_SIGTERM), 0);
	assert_ptr_equal(crt_signal(99, on_signal), CRT_SIG_ERR);
	assert_int_equal(crt_raise(99), -1);
}

static void test_locale(void **state)
{
	assert_string_equal(crt_setlocale(0, NULL), "C");
	assert_string_equal(crt_setlocale(0, ""), "C");
	assert_null(crt_setlocale(0, "German_Germany.1252"));
	assert_string_equal(crt_localeconv()->decimal_point, ".");
	assert_int_equal(crt____lc_codepage_func(), 0);
	assert_int_equal(crt____mb_cur_max_func(), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_command_line_split),
		cmocka_unit_test(test_getmainargs_and_environment),
		cmocka_unit_test(test_errno_mapping),
		cmocka_unit_test(test_strtol_is_32_bit),
		cmocka_unit_test(test_qsort_bsearch_ms_abi),
		cmocka_unit_test(test_heap_msize),
		cmocka_unit_test(test_rand_sequence),
		cmocka_unit_test(test_wide_strings),
		cmocka_unit_test(test_time),
		cmocka_unit_test(test_iob_layout),
		cmocka_unit_test(test_file_round_trip),
		cmocka_unit_test(test_setjmp_longjmp),
		cmocka_unit_test(test_onexit_reverse_order),
		cmocka_unit_test(test_signal_raise),
		cmocka_unit_test(test_locale),
	};
	return cmocka_run_group_tests(tests, msvcrt_test_setup, win32_test_teardown);
}

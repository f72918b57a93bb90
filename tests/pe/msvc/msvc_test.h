/* The test.h harness for MSVC-ABI C++ programs (clang in MSVC mode, no
 * MSVC SDK, no CRT startup): the same ok() output and summary line,
 * printed through ucrtbase's puts, with the few runtime declarations the
 * programs need written out here. */
#ifndef MSVC_TEST_H
#define MSVC_TEST_H

typedef __SIZE_TYPE__ size_t;

extern "C" {
int __cdecl puts(const char *s);
void __cdecl exit(int code);
void *__cdecl malloc(size_t n);
void __cdecl free(void *p);
int __cdecl strcmp(const char *a, const char *b);
void *__stdcall GetStdHandle(unsigned long which);
void *__stdcall GetModuleHandleA(const char *name);
void *__stdcall GetProcAddress(void *module, const char *name);
int __stdcall WriteFile(void *file, const void *buf, unsigned long len, unsigned long *done, void *ov);
}

/* A line to stdout at once, past the CRT's buffers: abort() does not
 * flush them. */
static inline void put_raw(const char *s)
{
	unsigned long done, n = 0;

	while (s[n])
		n++;
	WriteFile(GetStdHandle((unsigned long)-11), s, n, &done, 0);
	WriteFile(GetStdHandle((unsigned long)-11), "\n", 1, &done, 0);
}

/* operator new/delete live in MSVC's static vcruntime library (each
 * program is one translation unit). */
void *operator new(size_t n) { return malloc(n); }
void operator delete(void *p) noexcept { free(p); }
void operator delete(void *p, size_t) noexcept { free(p); }

/* type_info's vtable is vcruntime's; RTTI descriptors only point at it. */
asm(".section .rdata,\"dr\"\n.globl \"??_7type_info@@6B@\"\n\"??_7type_info@@6B@\":\n.quad 0\n.text\n");

static long test_run, test_failures;
static const char *test_prog;

static inline void test_cat(char *buf, size_t *len, const char *s)
{
	while (*s && *len < 255)
		buf[(*len)++] = *s++;
	buf[*len] = 0;
}

static inline void test_cat_num(char *buf, size_t *len, long v)
{
	char tmp[24];
	int n = 0;
	unsigned long u = v < 0 ? -(unsigned long)v : (unsigned long)v;

	if (v < 0)
		test_cat(buf, len, "-");
	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	while (n)
		buf[(*len)++] = tmp[--n];
	buf[*len] = 0;
}

static inline void test_ok(int cond, int line, const char *what, long got)
{
	char buf[256];
	size_t len = 0;

	test_run++;
	if (cond)
		return;
	test_failures++;
	test_cat(buf, &len, test_prog);
	test_cat(buf, &len, ".cpp:");
	test_cat_num(buf, &len, line);
	test_cat(buf, &len, ": Test failed: ");
	test_cat(buf, &len, what);
	test_cat(buf, &len, " (got ");
	test_cat_num(buf, &len, got);
	test_cat(buf, &len, ")");
	puts(buf);
}

/* ok(expected == actual): reports the actual value when it fails. */
#define ok_eq(expected, actual) test_ok((long)(expected) == (long)(actual), __LINE__, #expected " == " #actual, (long)(actual))
#define ok(cond, what) test_ok(!!(cond), __LINE__, what, 0)

/* Under Wine (ntdll exports wine_get_version), not under ndrun or Windows. */
static inline int test_on_wine(void)
{
	void *ntdll = GetModuleHandleA("ntdll.dll");

	return ntdll && GetProcAddress(ntdll, "wine_get_version");
}

/* A check of what Windows does that Wine is known not to do: counted
 * normally except under Wine, where a failure prints "Test marked
 * todo_wine" and does not count (the test says why in a comment). */
static inline void test_ok_todo_wine(int cond, int line, const char *what, long got)
{
	char buf[256];
	size_t len = 0;

	if (cond || !test_on_wine()) {
		test_ok(cond, line, what, got);
		return;
	}
	test_cat(buf, &len, test_prog);
	test_cat(buf, &len, ".cpp:");
	test_cat_num(buf, &len, line);
	test_cat(buf, &len, ": Test marked todo_wine: ");
	test_cat(buf, &len, what);
	test_cat(buf, &len, " (got ");
	test_cat_num(buf, &len, got);
	test_cat(buf, &len, ")");
	puts(buf);
}

#define ok_eq_todo_wine(expected, actual) \
	test_ok_todo_wine((long)(expected) == (long)(actual), __LINE__, #expected " == " #actual, (long)(actual))
#define ok_todo_wine(cond, what) test_ok_todo_wine(!!(cond), __LINE__, what, 0)

static inline int test_summary(void)
{
	char buf[256];
	size_t len = 0;

	test_cat(buf, &len, test_prog);
	test_cat(buf, &len, ": ");
	test_cat_num(buf, &len, test_run);
	test_cat(buf, &len, " tests executed, ");
	test_cat_num(buf, &len, test_failures);
	test_cat(buf, &len, " failures");
	puts(buf);
	return test_failures ? 1 : 0;
}

#endif

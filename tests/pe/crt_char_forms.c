/* msvcrt.dll's printf entry points that come in a narrow and a wide form
 * (the _p family with its _l forms) and its printf _l forms, each one
 * called: to a buffer, to a file, as a count, and to stdout (in a child
 * process whose stdout is a file).  Looked up by name, since mingw-w64
 * declares few of them; one missing is a failure.  Wine's msvcrt.dll
 * lacks most of the _p family and _printf_l/_vprintf_l, which Windows'
 * has (mingw-w64's msvcrt import library, made from Windows' msvcrt.dll,
 * lists all of them but _sprintf_p, _swprintf_p, _scprintf_p and
 * _scwprintf_p): todo_wine. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "test.h"

typedef int(__cdecl *sp_fn)(char *, size_t, const char *, ...);
typedef int(__cdecl *swp_fn)(wchar_t *, size_t, const wchar_t *, ...);
typedef int(__cdecl *vsp_fn)(char *, size_t, const char *, va_list);
typedef int(__cdecl *vswp_fn)(wchar_t *, size_t, const wchar_t *, va_list);
typedef int(__cdecl *vsp_l_fn)(char *, size_t, const char *, _locale_t, va_list);
typedef int(__cdecl *vswp_l_fn)(wchar_t *, size_t, const wchar_t *, _locale_t, va_list);
typedef int(__cdecl *fp_fn)(FILE *, const char *, ...);
typedef int(__cdecl *fwp_fn)(FILE *, const wchar_t *, ...);
typedef int(__cdecl *vfp_fn)(FILE *, const char *, va_list);
typedef int(__cdecl *vfwp_fn)(FILE *, const wchar_t *, va_list);
typedef int(__cdecl *vfp_l_fn)(FILE *, const char *, _locale_t, va_list);
typedef int(__cdecl *vfwp_l_fn)(FILE *, const wchar_t *, _locale_t, va_list);
typedef int(__cdecl *vs_l_fn)(char *, const char *, _locale_t, va_list);
typedef int(__cdecl *p_fn)(const char *, ...);
typedef int(__cdecl *wp_fn)(const wchar_t *, ...);
typedef int(__cdecl *vp_fn)(const char *, va_list);
typedef int(__cdecl *vwp_fn)(const wchar_t *, va_list);
typedef int(__cdecl *vp_l_fn)(const char *, _locale_t, va_list);
typedef int(__cdecl *vwp_l_fn)(const wchar_t *, _locale_t, va_list);

static HMODULE crt;

static int child;

static FARPROC get(const char *name)
{
	FARPROC f = GetProcAddress(crt, name);

	if (!child)
		ok_todo_wine(f != NULL, "msvcrt.dll has no %s\n", name);
	return f;
}

/* A file of this process's own in the temp folder (GetTempFileName is
 * not what this test is about). */
static void temp_path(char *path, const char *tag)
{
	char dir[MAX_PATH];

	GetTempPathA(sizeof(dir), dir);
	snprintf(path, MAX_PATH, "%scrt_char_forms_%lu_%s.tmp", dir, GetCurrentProcessId(), tag);
}

#define GET(type, name) ((type)(void *)get(name))

/* ---- va_list forms: each called through a variadic helper ------------------------ */
/* static int name(fn_t f, params..., fmt, ...): call, with ap the
 * va_list of what follows fmt (the last of params). */
#define VA_HELPER(name, fn_t, call, ...)          \
	static int name(fn_t f, __VA_ARGS__, ...) \
	{                                         \
		va_list ap;                       \
		int r;                            \
                                                  \
		va_start(ap, fmt);                \
		r = call;                         \
		va_end(ap);                       \
		return r;                         \
	}

VA_HELPER(vsp, vsp_fn, f(buf, size, fmt, ap), char *buf, size_t size, const char *fmt)
VA_HELPER(vswp, vswp_fn, f(buf, size, fmt, ap), wchar_t *buf, size_t size, const wchar_t *fmt)
VA_HELPER(vsp_l, vsp_l_fn, f(buf, size, fmt, NULL, ap), char *buf, size_t size, const char *fmt)
VA_HELPER(vswp_l, vswp_l_fn, f(buf, size, fmt, NULL, ap), wchar_t *buf, size_t size, const wchar_t *fmt)
VA_HELPER(vs_l_call, vs_l_fn, f(buf, fmt, NULL, ap), char *buf, const char *fmt)
VA_HELPER(vfp, vfp_fn, f(out, fmt, ap), FILE *out, const char *fmt)
VA_HELPER(vfwp, vfwp_fn, f(out, fmt, ap), FILE *out, const wchar_t *fmt)
VA_HELPER(vfp_l, vfp_l_fn, f(out, fmt, NULL, ap), FILE *out, const char *fmt)
VA_HELPER(vfwp_l, vfwp_l_fn, f(out, fmt, NULL, ap), FILE *out, const wchar_t *fmt)
VA_HELPER(vp, vp_fn, f(fmt, ap), const char *fmt)
VA_HELPER(vwp, vwp_fn, f(fmt, ap), const wchar_t *fmt)
VA_HELPER(vp_l, vp_l_fn, f(fmt, NULL, ap), const char *fmt)
VA_HELPER(vwp_l, vwp_l_fn, f(fmt, NULL, ap), const wchar_t *fmt)

/* ---- the checks ------------------------------------------------------------------ */
static void buffers(void)
{
	sp_fn sp = GET(sp_fn, "_sprintf_p");
	swp_fn swp = GET(swp_fn, "_swprintf_p");
	vsp_fn vs = GET(vsp_fn, "_vsprintf_p");
	vswp_fn vsw = GET(vswp_fn, "_vswprintf_p");
	vsp_l_fn vs_l = GET(vsp_l_fn, "_vsprintf_p_l");
	vswp_l_fn vsw_l = GET(vswp_l_fn, "_vswprintf_p_l");
	char buf[32];
	wchar_t wbuf[32];
	int n;

	if (!sp || !swp || !vs || !vsw || !vs_l || !vsw_l)
		return;
	n = sp(buf, sizeof(buf), "%2$s %1$d", 7, "seven");
	ok(n == 7 && !strcmp(buf, "seven 7"), "_sprintf_p: %d \"%s\"\n", n, buf);
	/* msvcrt's wide family: %s takes a wide string */
	n = swp(wbuf, 32, L"%2$s %1$d", 7, L"seven");
	ok(n == 7 && !wcscmp(wbuf, L"seven 7"), "_swprintf_p: %d\n", n);
	n = vsp(vs, buf, sizeof(buf), "%2$s-%1$s", "a", "b");
	ok(n == 3 && !strcmp(buf, "b-a"), "_vsprintf_p: %d \"%s\"\n", n, buf);
	n = vswp(vsw, wbuf, 32, L"%2$s-%1$s", L"a", L"b");
	ok(n == 3 && !wcscmp(wbuf, L"b-a"), "_vswprintf_p: %d\n", n);
	n = vsp_l(vs_l, buf, sizeof(buf), "%2$d%1$d", 1, 2);
	ok(n == 2 && !strcmp(buf, "21"), "_vsprintf_p_l: %d \"%s\"\n", n, buf);
	n = vswp_l(vsw_l, wbuf, 32, L"%2$d%1$d", 1, 2);
	ok(n == 2 && !wcscmp(wbuf, L"21"), "_vswprintf_p_l: %d\n", n);
}

static void counts(void)
{
	p_fn sc = GET(p_fn, "_scprintf_p");
	wp_fn scw = GET(wp_fn, "_scwprintf_p");
	vp_fn vsc = GET(vp_fn, "_vscprintf_p");
	vwp_fn vscw = GET(vwp_fn, "_vscwprintf_p");
	vp_l_fn vsc_l = GET(vp_l_fn, "_vscprintf_p_l");
	vwp_l_fn vscw_l = GET(vwp_l_fn, "_vscwprintf_p_l");
	int n;

	if (!sc || !scw || !vsc || !vscw || !vsc_l || !vscw_l)
		return;
	n = sc("%2$s %1$s", "ab", "cde");
	ok(n == 6, "_scprintf_p: %d\n", n);
	n = scw(L"%2$s %1$s", L"ab", L"cde");
	ok(n == 6, "_scwprintf_p: %d\n", n);
	n = vp(vsc, "%1$d%1$d", 12);
	ok(n == 4, "_vscprintf_p: %d\n", n);
	n = vwp(vscw, L"%1$d%1$d", 12);
	ok(n == 4, "_vscwprintf_p: %d\n", n);
	n = vp_l(vsc_l, "%2$s%1$s", "x", "yz");
	ok(n == 3, "_vscprintf_p_l: %d\n", n);
	n = vwp_l(vscw_l, L"%2$s%1$s", L"x", L"yz");
	ok(n == 3, "_vscwprintf_p_l: %d\n", n);
}

/* What was written to f since it was opened, rewound for the next. */
static void read_back(FILE *f, char *buf, size_t size)
{
	size_t n;

	fflush(f);
	rewind(f);
	n = fread(buf, 1, size - 1, f);
	buf[n] = 0;
	fclose(f);
}

static void files(void)
{
	fp_fn fp = GET(fp_fn, "_fprintf_p");
	fwp_fn fwp = GET(fwp_fn, "_fwprintf_p");
	vfp_fn vf = GET(vfp_fn, "_vfprintf_p");
	vfwp_fn vfw = GET(vfwp_fn, "_vfwprintf_p");
	vfp_l_fn vf_l = GET(vfp_l_fn, "_vfprintf_p_l");
	vfwp_l_fn vfw_l = GET(vfwp_l_fn, "_vfwprintf_p_l");
	char path[MAX_PATH], got[64];
	FILE *f;
	int n[6];

	if (!fp || !fwp || !vf || !vfw || !vf_l || !vfw_l)
		return;
	temp_path(path, "p");
	/* text mode: the wide forms write the ANSI text of what they format */
	f = fopen(path, "w+");
	ok(f != NULL, "fopen %s\n", path);
	if (!f)
		return;
	n[0] = fp(f, "%2$s%1$s|", "1", "2");
	n[1] = fwp(f, L"%2$s%1$s|", L"3", L"4");
	n[2] = vfp(vf, f, "%2$s%1$s|", "5", "6");
	n[3] = vfwp(vfw, f, L"%2$s%1$s|", L"7", L"8");
	n[4] = vfp_l(vf_l, f, "%2$s%1$s|", "9", "a");
	n[5] = vfwp_l(vfw_l, f, L"%2$s%1$s|", L"b", L"c");
	read_back(f, got, sizeof(got));
	ok(n[0] == 3 && n[1] == 3 && n[2] == 3 && n[3] == 3 && n[4] == 3 && n[5] == 3,
	   "the file forms return %d %d %d %d %d %d\n", n[0], n[1], n[2], n[3], n[4], n[5]);
	ok(!strcmp(got, "21|43|65|87|a9|cb|"), "the file holds \"%s\"\n", got);
	DeleteFileA(path);
}

/* The child: each stdout form prints its line, then "= N", what it
 * returned; one msvcrt.dll lacks prints "missing" and "= -1" instead. */
#define FORM(fn, call)                       \
	do {                                 \
		int r_ = -1;                 \
                                             \
		if (fn)                      \
			r_ = call;           \
		else                         \
			printf("missing\n"); \
		printf("= %d\n", r_);        \
	} while (0)

static void print_stdout_forms(void)
{
	p_fn p = GET(p_fn, "_printf_p");
	wp_fn wp = GET(wp_fn, "_wprintf_p");
	vp_fn v = GET(vp_fn, "_vprintf_p");
	vwp_fn vw = GET(vwp_fn, "_vwprintf_p");
	vp_l_fn v_l = GET(vp_l_fn, "_vprintf_p_l");
	vwp_l_fn vw_l = GET(vwp_l_fn, "_vwprintf_p_l");
	int(__cdecl *p_l)(const char *, _locale_t, ...) = (void *)get("_printf_l");
	vp_l_fn vl = GET(vp_l_fn, "_vprintf_l");

	FORM(p, p("%2$s %1$s\n", "_printf_p", "1"));
	FORM(wp, wp(L"%2$s %1$s\n", L"_wprintf_p", L"2"));
	FORM(v, vp(v, "%2$s %1$s\n", "_vprintf_p", "3"));
	FORM(vw, vwp(vw, L"%2$s %1$s\n", L"_vwprintf_p", L"4"));
	FORM(v_l, vp_l(v_l, "%2$s %1$s\n", "_vprintf_p_l", "5"));
	FORM(vw_l, vwp_l(vw_l, L"%2$s %1$s\n", L"_vwprintf_p_l", L"6"));
	FORM(p_l, p_l("%s %d\n", NULL, "_printf_l", 7));
	FORM(vl, vp_l(vl, "%s %d\n", "_vprintf_l", 8));
	fflush(stdout);
}

static void stdout_forms(void)
{
	static const char *const want[] = {
		"1 _printf_p\n= 12\n", "2 _wprintf_p\n= 13\n", "3 _vprintf_p\n= 13\n", "4 _vwprintf_p\n= 14\n",
		"5 _vprintf_p_l\n= 15\n", "6 _vwprintf_p_l\n= 16\n", "_printf_l 7\n= 12\n", "_vprintf_l 8\n= 13\n",
	};
	static const char missing[] = "missing\n= -1\n";
	SECURITY_ATTRIBUTES sa = { sizeof(sa), NULL, TRUE };
	STARTUPINFOA si;
	PROCESS_INFORMATION pi;
	char exe[MAX_PATH], cmd[MAX_PATH + 16], path[MAX_PATH], got[512], *at;
	DWORD n = 0, code = 1;
	HANDLE out;
	size_t i;

	memset(&si, 0, sizeof(si));
	si.cb = sizeof(si);
	temp_path(path, "out");
	out = CreateFileA(path, GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, &sa, CREATE_ALWAYS,
			  FILE_ATTRIBUTE_NORMAL, NULL);
	ok(out != INVALID_HANDLE_VALUE, "CreateFile %s: %lu\n", path, GetLastError());
	if (out == INVALID_HANDLE_VALUE)
		return;
	GetModuleFileNameA(NULL, exe, sizeof(exe));
	snprintf(cmd, sizeof(cmd), "\"%s\" stdout", exe);
	si.dwFlags = STARTF_USESTDHANDLES;
	si.hStdInput = GetStdHandle(STD_INPUT_HANDLE);
	si.hStdOutput = out;
	si.hStdError = GetStdHandle(STD_ERROR_HANDLE);
	if (!CreateProcessA(NULL, cmd, NULL, NULL, TRUE, 0, NULL, NULL, &si, &pi)) {
		ok(0, "CreateProcess: %lu\n", GetLastError());
		CloseHandle(out);
		DeleteFileA(path);
		return;
	}
	WaitForSingleObject(pi.hProcess, 30000);
	GetExitCodeProcess(pi.hProcess, &code);
	CloseHandle(pi.hThread);
	CloseHandle(pi.hProcess);
	SetFilePointer(out, 0, NULL, FILE_BEGIN);
	ReadFile(out, got, sizeof(got) - 1, &n, NULL);
	got[n] = 0;
	CloseHandle(out);
	DeleteFileA(path);
	ok(code == 0, "the child exited %lu\n", code);
	/* the child's text mode ends its lines with \r\n */
	for (at = got, i = 0; got[i]; i++)
		if (got[i] != '\r')
			*at++ = got[i];
	*at = 0;
	at = got;
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		size_t len = strlen(want[i]);

		if (!strncmp(at, missing, strlen(missing))) {
			/* one Wine lacks: its lookup in the child was no check */
			ok_todo_wine(0, "stdout form %u: msvcrt.dll has no such function\n", (unsigned)i);
			at += strlen(missing);
			continue;
		}
		ok(!strncmp(at, want[i], len), "stdout form %u: got \"%.40s\", want \"%s\"\n", (unsigned)i, at, want[i]);
		if (strncmp(at, want[i], len))
			break;
		at += len;
	}
	ok(i < sizeof(want) / sizeof(want[0]) || !*at, "the child printed more: \"%s\"\n", at);
}

/* The printf _l forms (no positions): NULL is the current locale. */
static void locale_forms(void)
{
	int(__cdecl *s_l)(char *, const char *, _locale_t, ...) = (void *)get("_sprintf_l");
	vs_l_fn vs_l = GET(vs_l_fn, "_vsprintf_l");
	int(__cdecl *sn_l)(char *, size_t, const char *, _locale_t, ...) = (void *)get("_snprintf_l");
	vsp_l_fn vsn_l = GET(vsp_l_fn, "_vsnprintf_l");
	int(__cdecl *sc_l)(const char *, _locale_t, ...) = (void *)get("_scprintf_l");
	vp_l_fn vsc_l = GET(vp_l_fn, "_vscprintf_l");
	int(__cdecl *f_l)(FILE *, const char *, _locale_t, ...) = (void *)get("_fprintf_l");
	vfp_l_fn vf_l = GET(vfp_l_fn, "_vfprintf_l");
	char buf[32], path[MAX_PATH];
	FILE *f;
	int n, m;

	if (!s_l || !vs_l || !sn_l || !vsn_l || !sc_l || !vsc_l || !f_l || !vf_l)
		return;
	n = s_l(buf, "%d.%s", NULL, 5, "x");
	ok(n == 3 && !strcmp(buf, "5.x"), "_sprintf_l: %d \"%s\"\n", n, buf);
	n = vs_l_call(vs_l, buf, "%x", 255);
	ok(n == 2 && !strcmp(buf, "ff"), "_vsprintf_l: %d \"%s\"\n", n, buf);
	n = sn_l(buf, sizeof(buf), "%03d", NULL, 7);
	ok(n == 3 && !strcmp(buf, "007"), "_snprintf_l: %d \"%s\"\n", n, buf);
	n = vsp_l(vsn_l, buf, 4, "%s", "abcdef");
	ok(n == -1 && !memcmp(buf, "abcd", 4), "_vsnprintf_l, cut: %d\n", n);
	n = sc_l("%5d", NULL, 1);
	ok(n == 5, "_scprintf_l: %d\n", n);
	n = vp_l(vsc_l, "%s%s", "ab", "c");
	ok(n == 3, "_vscprintf_l: %d\n", n);
	temp_path(path, "l");
	f = fopen(path, "w+");
	ok(f != NULL, "fopen %s\n", path);
	if (!f)
		return;
	n = f_l(f, "%d,", NULL, 10);
	m = vfp_l(vf_l, f, "%d;", 20);
	read_back(f, buf, sizeof(buf));
	ok(n == 3 && m == 3 && !strcmp(buf, "10,20;"), "_fprintf_l %d, _vfprintf_l %d: \"%s\"\n", n, m, buf);
	DeleteFileA(path);
}

int main(int argc, char **argv)
{
	crt = GetModuleHandleA("msvcrt.dll");
	if (argc == 2 && !strcmp(argv[1], "stdout")) {
		child = 1;
		if (crt)
			print_stdout_forms();
		return 0;
	}
	ok(crt != NULL, "msvcrt.dll is not loaded\n");
	if (crt) {
		buffers();
		counts();
		files();
		locale_forms();
		stdout_forms();
	}
	return test_summary();
}

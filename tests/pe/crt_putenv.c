/* _putenv, _wputenv, _putenv_s, _wputenv_s: the C runtime's environment
 * and the Win32 one change together; main's envp stays as it was. */
#include <errno.h>
#include <stdlib.h>
#include <wchar.h>

#include "test.h"

_CRTIMP errno_t __cdecl _putenv_s(const char *name, const char *value);
_CRTIMP errno_t __cdecl _wputenv_s(const wchar_t *name, const wchar_t *value);

static const char *win32_value(const char *name)
{
	static char buf[256];
	DWORD n;

	SetLastError(0xdeadbeef);
	n = GetEnvironmentVariableA(name, buf, sizeof(buf));
	if (!n)
		return GetLastError() == ERROR_ENVVAR_NOT_FOUND ? NULL : "(error)";
	return buf;
}

static int in_environ(const char *entry)
{
	for (char **e = _environ; *e; e++)
		if (!strcmp(*e, entry))
			return 1;
	return 0;
}

int main(int argc, char **argv, char **envp)
{
	const char *v;
	wchar_t *w;
	int r;

	(void)argc;
	(void)argv;
	(void)envp;
	ok(getenv("PE_PUTENV_A") == NULL, "PE_PUTENV_A set already\n");
	r = _putenv("PE_PUTENV_A=one");
	ok(r == 0, "_putenv returned %d\n", r);
	v = getenv("PE_PUTENV_A");
	ok(v && !strcmp(v, "one"), "getenv: %s\n", v ? v : "(null)");
	v = win32_value("PE_PUTENV_A");
	ok(v && !strcmp(v, "one"), "GetEnvironmentVariable: %s\n", v ? v : "(null)");
	ok(in_environ("PE_PUTENV_A=one"), "not in _environ\n");
	w = _wgetenv(L"pe_putenv_a");
	ok(w && !wcscmp(w, L"one"), "_wgetenv (names fold case): %ls\n", w ? w : L"(null)");
	/* main's envp is not read after _putenv: the UCRT may move the table
	 * it points into (Wine's does, and then envp dangles), so no program
	 * can rely on what it holds afterwards. */

	/* Replace, through the other case of the name. */
	r = _putenv("pe_putenv_a=two");
	ok(r == 0, "_putenv returned %d\n", r);
	v = getenv("PE_PUTENV_A");
	ok(v && !strcmp(v, "two"), "getenv after replace: %s\n", v ? v : "(null)");
	v = win32_value("PE_PUTENV_A");
	ok(v && !strcmp(v, "two"), "GetEnvironmentVariable after replace: %s\n", v ? v : "(null)");

	/* "NAME=" removes. */
	r = _putenv("PE_PUTENV_A=");
	ok(r == 0, "_putenv(remove) returned %d\n", r);
	ok(getenv("PE_PUTENV_A") == NULL, "still in the C environment\n");
	ok(win32_value("PE_PUTENV_A") == NULL, "still in the Win32 environment: %s\n",
	   win32_value("PE_PUTENV_A"));

	/* Malformed: no '=', no name.  Only -1: the docs name no errno
	 * for these (msvcrt leaves it alone; only NULL is EINVAL). */
	r = _putenv("PE_PUTENV_NOEQUALS");
	ok(r == -1, "no '=': %d\n", r);
	r = _putenv("=value");
	ok(r == -1, "no name: %d\n", r);

	/* Wide, and non-ASCII values. */
	r = _wputenv(L"PE_PUTENV_W=caf\u00e9");
	ok(r == 0, "_wputenv returned %d\n", r);
	w = _wgetenv(L"PE_PUTENV_W");
	ok(w && !wcscmp(w, L"caf\u00e9"), "_wgetenv: %ls\n", w ? w : L"(null)");
	{
		WCHAR buf[32];
		DWORD n = GetEnvironmentVariableW(L"PE_PUTENV_W", buf, 32);

		ok(n == 4 && !wcscmp(buf, L"caf\u00e9"), "GetEnvironmentVariableW: %lu\n", n);
	}

	/* The _s forms: an empty value removes. */
	r = _putenv_s("PE_PUTENV_S", "three");
	ok(r == 0, "_putenv_s returned %d\n", r);
	v = win32_value("PE_PUTENV_S");
	ok(v && !strcmp(v, "three"), "GetEnvironmentVariable: %s\n", v ? v : "(null)");
	v = getenv("PE_PUTENV_S");
	ok(v && !strcmp(v, "three"), "getenv: %s\n", v ? v : "(null)");
	r = _wputenv_s(L"PE_PUTENV_S", L"");
	ok(r == 0, "_wputenv_s(remove) returned %d\n", r);
	ok(getenv("PE_PUTENV_S") == NULL && win32_value("PE_PUTENV_S") == NULL, "not removed\n");
	r = _putenv_s("PE=BAD", "x");
	ok(r == EINVAL, "name with '=': %d\n", r);
	r = _putenv_s("PE_PUTENV_S", NULL);
	ok(r == EINVAL, "NULL value: %d\n", r);

	/* The reverse is not true: SetEnvironmentVariable leaves the CRT's copy. */
	SetEnvironmentVariableA("PE_PUTENV_WIN32", "x");
	ok(getenv("PE_PUTENV_WIN32") == NULL, "SetEnvironmentVariable reached the CRT's copy\n");
	return test_summary();
}

/* _putenv and friends.  The CRT keeps its own copy of the environment
 * (_environ, _wenviron: the same entries, narrow and wide, at the same
 * indexes); a change goes into both and into the Win32 environment
 * block too, as msvcrt does, so GetEnvironmentVariable and child
 * processes see it.  The first change copies the arrays, so the envp
 * that main() received (__initenv) stays as it was. */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/debug.h"
#include "msvcrt/msvcrt_private.h"

static pthread_mutex_t env_lock = PTHREAD_MUTEX_INITIALIZER;
static bool env_copied;

static size_t count_entries(WCHAR **env)
{
	size_t n = 0;

	while (env && env[n])
		n++;
	return n;
}

/* env_lock held.  Deep copies, so that later changes may free entries. */
static bool copy_arrays(void)
{
	size_t n = count_entries(crt__wenviron);
	WCHAR **w = calloc(n + 1, sizeof(*w));
	char **a = calloc(n + 1, sizeof(*a));

	if (!w || !a)
		goto fail;
	for (size_t i = 0; i < n; i++) {
		size_t len = crt_wcslen(crt__wenviron[i]) + 1;

		w[i] = malloc(len * sizeof(WCHAR));
		a[i] = strdup(crt__environ[i]);
		if (!w[i] || !a[i])
			goto fail;
		memcpy(w[i], crt__wenviron[i], len * sizeof(WCHAR));
	}
	crt__wenviron = w;
	crt__environ = a;
	env_copied = true;
	return true;
fail:
	for (size_t i = 0; w && a && i < n; i++) {
		free(w[i]);
		free(a[i]);
	}
	free(w);
	free(a);
	return false;
}

static WCHAR upper_ascii(WCHAR c)
{
	return c >= 'a' && c <= 'z' ? c - 32 : c;
}

static bool name_is(const WCHAR *entry, const WCHAR *name, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (upper_ascii(entry[i]) != upper_ascii(name[i]))
			return false;
	return entry[len] == '=';
}

/* Sets name (len characters) to value, or removes it when value is NULL
 * or empty (Windows has no empty variables).  0, or an errno value. */
static int env_set(const WCHAR *name, size_t len, const WCHAR *value)
{
	size_t n, i, vlen = value ? crt_wcslen(value) : 0;
	WCHAR *wentry = NULL, *wname;
	char *aentry = NULL;
	int ret = 0;

	if (!len)
		return EINVAL;
	wname = malloc((len + 1) * sizeof(WCHAR));
	if (!wname)
		return ENOMEM;
	memcpy(wname, name, len * sizeof(WCHAR));
	wname[len] = 0;
	if (vlen) {
		wentry = malloc((len + vlen + 2) * sizeof(WCHAR));
		if (!wentry) {
			free(wname);
			return ENOMEM;
		}
		memcpy(wentry, name, len * sizeof(WCHAR));
		wentry[len] = '=';
		memcpy(wentry + len + 1, value, (vlen + 1) * sizeof(WCHAR));
		aentry = crt_wide_to_utf8_alloc(wentry);
		if (!aentry) {
			free(wentry);
			free(wname);
			return ENOMEM;
		}
	}
	crt___p__environ(); /* builds the CRT's environment if not yet done */
	pthread_mutex_lock(&env_lock);
	if (!env_copied && !copy_arrays()) {
		ret = ENOMEM;
		goto out;
	}
	n = count_entries(crt__wenviron);
	for (i = 0; i < n; i++)
		if (name_is(crt__wenviron[i], name, len))
			break;
	if (i < n) {
		free(crt__wenviron[i]);
		free(crt__environ[i]);
		if (wentry) {
			crt__wenviron[i] = wentry;
			crt__environ[i] = aentry;
		} else {
			memmove(crt__wenviron + i, crt__wenviron + i + 1, (n - i) * sizeof(WCHAR *));
			memmove(crt__environ + i, crt__environ + i + 1, (n - i) * sizeof(char *));
		}
		wentry = NULL;
		aentry = NULL;
	} else if (wentry) {
		WCHAR **w = realloc(crt__wenviron, (n + 2) * sizeof(WCHAR *));
		char **a;

		if (w)
			crt__wenviron = w;
		a = w ? realloc(crt__environ, (n + 2) * sizeof(char *)) : NULL;
		if (!a) {
			ret = ENOMEM;
			goto out;
		}
		crt__environ = a;
		crt__wenviron[n] = wentry;
		crt__environ[n] = aentry;
		crt__wenviron[n + 1] = NULL;
		crt__environ[n + 1] = NULL;
		wentry = NULL;
		aentry = NULL;
	}
	if (!SetEnvironmentVariableW(wname, vlen ? value : NULL) &&
	    GetLastError() != ERROR_ENVVAR_NOT_FOUND)
		ret = ENOMEM;
out:
	pthread_mutex_unlock(&env_lock);
	TRACE(msvcrt, "%s=%s -> %d\n", debugstr_w(wname), debugstr_w(value), ret);
	free(wentry);
	free(aentry);
	free(wname);
	return ret;
}

/* "NAME=value" sets, "NAME=" removes; no '=' or no name fails without
 * touching errno, as msvcrt does (NULL alone is EINVAL). */
static int putenv_w(const WCHAR *s)
{
	const WCHAR *eq;
	int e;

	if (!s) {
		crt_set_errno(EINVAL);
		return -1;
	}
	for (eq = s; *eq && *eq != '='; eq++)
		;
	if (!*eq || eq == s)
		return -1;
	e = env_set(s, eq - s, eq + 1);
	if (e) {
		crt_set_errno(e);
		return -1;
	}
	return 0;
}

int __cdecl crt__wputenv(const WCHAR *s)
{
	return putenv_w(s);
}

int __cdecl crt__putenv(const char *s)
{
	WCHAR *w;
	int r;

	if (!s) {
		crt_set_errno(EINVAL);
		return -1;
	}
	w = crt_utf8_to_wide_alloc(s);
	if (!w) {
		crt_set_errno(ENOMEM);
		return -1;
	}
	r = putenv_w(w);
	free(w);
	return r;
}

int __cdecl crt__wputenv_s(const WCHAR *name, const WCHAR *value)
{
	int e;

	if (!name || !value) {
		crt_set_errno(EINVAL);
		return EINVAL;
	}
	for (const WCHAR *p = name; *p; p++)
		if (*p == '=') {
			crt_set_errno(EINVAL);
			return EINVAL;
		}
	e = env_set(name, crt_wcslen(name), value);
	if (e)
		crt_set_errno(e);
	return e;
}

int __cdecl crt__putenv_s(const char *name, const char *value)
{
	WCHAR *wn, *wv;
	int e;

	if (!name || !value) {
		crt_set_errno(EINVAL);
		return EINVAL;
	}
	wn = crt_utf8_to_wide_alloc(name);
	wv = crt_utf8_to_wide_alloc(value);
	e = wn && wv ? crt__wputenv_s(wn, wv) : ENOMEM;
	if (e == ENOMEM)
		crt_set_errno(e);
	free(wn);
	free(wv);
	return e;
}

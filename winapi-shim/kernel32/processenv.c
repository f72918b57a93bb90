/* The process environment, command line, standard handles and current
 * directory (processenv.h).
 *
 * The environment is kernel32's own block of 16-bit "NAME=VALUE" strings,
 * kept sorted by name (case-insensitively, as Windows keeps it) and
 * filled from the Linux environ on first use, with the Windows variables
 * winenv.c adds; names compare case-insensitively.  Changes do not reach
 * the Linux environ. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/codepage.h"
#include "core/debug.h"
#include "core/errors.h"
#include "core/file.h"
#include "core/heap.h"
#include "core/path.h"
#include "core/startup.h"
#include "core/wstr.h"
#include "kernel32/kernel32_private.h"
#include "loader.h"

extern char **environ;

static WCHAR **env;   /* "NAME=VALUE", sorted by name */
static size_t env_count, env_cap;
static pthread_mutex_t env_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t env_once = PTHREAD_ONCE_INIT;

/* Length of the name part; a leading '=' belongs to the name ("=C:"). */
static size_t name_len(const WCHAR *entry)
{
	size_t n = entry[0] == '=' ? 1 : 0;

	while (entry[n] && entry[n] != '=')
		n++;
	return n;
}

/* Orders entries (or a bare name) by name, case-insensitively. */
static int name_cmp(const WCHAR *a, size_t alen, const WCHAR *b, size_t blen)
{
	int r = wstr_nicmp(a, b, alen < blen ? alen : blen);

	if (r)
		return r;
	return alen < blen ? -1 : alen > blen ? 1 : 0;
}

static int entry_cmp(const void *a, const void *b)
{
	const WCHAR *ea = *(WCHAR *const *)a, *eb = *(WCHAR *const *)b;

	return name_cmp(ea, name_len(ea), eb, name_len(eb));
}

static size_t env_find(const WCHAR *name, size_t len, bool *found);
static WCHAR *env_value(const WCHAR *name);
static bool env_put(const WCHAR *name, const WCHAR *value);

static void env_init(void)
{
	size_t n = 0;

	while (environ && environ[n])
		n++;
	env_cap = n + 16;
	if (!(env = calloc(env_cap, sizeof(*env)))) {
		env_cap = 0;
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (strchr(environ[i], '=') && (env[env_count] = utf8_to_utf16_dup(environ[i])))
			env_count++;
	qsort(env, env_count, sizeof(*env), entry_cmp);
	winenv_build(&(const struct winenv_ops){ .get = env_value, .put = env_put });
}

/* env_lock held.  The index of name, or where it would go (*found false). */
static size_t env_find(const WCHAR *name, size_t len, bool *found)
{
	size_t lo = 0, hi = env_count;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int r = name_cmp(env[mid], name_len(env[mid]), name, len);

		if (!r) {
			*found = true;
			return mid;
		}
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = false;
	return lo;
}

/* env_lock held (or the block not yet published): a malloc'd copy of
 * the value of name, or NULL (not set / no memory). */
static WCHAR *env_value(const WCHAR *name)
{
	bool found;
	size_t i = env_find(name, wstr_len(name), &found);

	return found ? wstr_dup(env[i] + name_len(env[i]) + 1) : NULL;
}

/* A malloc'd copy of the value of name, or NULL (not set / no memory). */
static WCHAR *env_get(const WCHAR *name)
{
	WCHAR *value;

	pthread_once(&env_once, env_init);
	pthread_mutex_lock(&env_lock);
	value = env_value(name);
	pthread_mutex_unlock(&env_lock);
	return value;
}

WCHAR *path_env_get(const WCHAR *name)
{
	return env_get(name);
}

DWORD WINAPI GetEnvironmentVariableW(LPCWSTR name, LPWSTR buf, DWORD size)
{
	WCHAR *value;
	DWORD len;

	if (!name || !*name || !(value = env_get(name))) {
		SetLastError(ERROR_ENVVAR_NOT_FOUND);
		return 0;
	}
	len = string_result_w(value, buf, size);
	free(value);
	if (!len)
		SetLastError(ERROR_SUCCESS); /* set, but empty */
	return len;
}

DWORD WINAPI GetEnvironmentVariableA(LPCSTR name, LPSTR buf, DWORD size)
{
	WCHAR *wname, *value;
	DWORD len;

	if (!name || !*name || !(wname = cp_to_utf16_dup(CP_ACP, name))) {
		SetLastError(ERROR_ENVVAR_NOT_FOUND);
		return 0;
	}
	value = env_get(wname);
	free(wname);
	if (!value) {
		SetLastError(ERROR_ENVVAR_NOT_FOUND);
		return 0;
	}
	len = string_result_a(value, buf, size);
	if (!len && !*value)
		SetLastError(ERROR_SUCCESS); /* set, but empty */
	free(value);
	return len;
}

/* env_lock held (or the block not yet published).  Sets or (value
 * NULL) deletes name; false when out of memory. */
static bool env_put(const WCHAR *name, const WCHAR *value)
{
	size_t nlen = wstr_len(name), vlen, i;
	WCHAR *entry = NULL;
	bool found;

	if (value) {
		vlen = wstr_len(value);
		if (!(entry = malloc((nlen + vlen + 2) * sizeof(WCHAR))))
			return false;
		memcpy(entry, name, nlen * sizeof(WCHAR));
		entry[nlen] = '=';
		memcpy(entry + nlen + 1, value, (vlen + 1) * sizeof(WCHAR));
	}
	i = env_find(name, nlen, &found);
	if (found) {
		free(env[i]);
		if (entry) {
			env[i] = entry;
		} else {
			memmove(env + i, env + i + 1, (env_count - i - 1) * sizeof(*env));
			env_count--;
		}
	} else if (entry) {
		if (env_count == env_cap) {
			WCHAR **n = realloc(env, (env_cap * 2 + 16) * sizeof(*env));

			if (!n) {
				free(entry);
				return false;
			}
			env = n;
			env_cap = env_cap * 2 + 16;
		}
		memmove(env + i + 1, env + i, (env_count - i) * sizeof(*env));
		env[i] = entry;
		env_count++;
	}
	return true;
}

BOOL WINAPI SetEnvironmentVariableW(LPCWSTR name, LPCWSTR value)
{
	bool ok;

	if (!name || !*name || name_len(name) != wstr_len(name)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	pthread_once(&env_once, env_init);
	pthread_mutex_lock(&env_lock);
	ok = env_put(name, value);
	pthread_mutex_unlock(&env_lock);
	if (!ok) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	TRACE(misc, "%s = %s\n", debugstr_w(name), value ? debugstr_w(value) : "(deleted)");
	return TRUE;
}

BOOL WINAPI SetEnvironmentVariableA(LPCSTR name, LPCSTR value)
{
	WCHAR *wname, *wvalue = NULL;
	BOOL ret;

	if (!name) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!(wname = cp_to_utf16_dup(CP_ACP, name)) || (value && !(wvalue = cp_to_utf16_dup(CP_ACP, value)))) {
		free(wname);
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	ret = SetEnvironmentVariableW(wname, wvalue);
	free(wname);
	free(wvalue);
	return ret;
}

/* The block: every entry with its terminator, then one more NUL. */
LPWSTR WINAPI GetEnvironmentStringsW(void)
{
	size_t total = 1;
	WCHAR *block, *p;

	pthread_once(&env_once, env_init);
	pthread_mutex_lock(&env_lock);
	for (size_t i = 0; i < env_count; i++)
		total += wstr_len(env[i]) + 1;
	if (!env_count)
		total++;
	block = heap_alloc(heap_process_heap(), HEAP_ZERO_MEMORY, total * sizeof(WCHAR));
	if (block) {
		p = block;
		for (size_t i = 0; i < env_count; i++) {
			size_t n = wstr_len(env[i]) + 1;

			memcpy(p, env[i], n * sizeof(WCHAR));
			p += n;
		}
	}
	pthread_mutex_unlock(&env_lock);
	if (!block)
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
	return block;
}

LPSTR WINAPI GetEnvironmentStringsA(void)
{
	WCHAR *w = GetEnvironmentStringsW(), *p;
	char *a;
	ssize_t n;

	if (!w)
		return NULL;
	for (p = w; *p; p += wstr_len(p) + 1)
		;
	n = utf16_to_cp(cp_ansi(), 0, w, (size_t)(p - w) + 1, NULL, 0, '?', NULL);
	a = n > 0 ? heap_alloc(heap_process_heap(), 0, (size_t)n + 1) : NULL;
	if (a) {
		utf16_to_cp(cp_ansi(), 0, w, (size_t)(p - w) + 1, a, (size_t)n, '?', NULL);
		a[n] = 0; /* an empty block still ends with two NULs */
	} else {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
	}
	heap_free(heap_process_heap(), 0, w);
	return a;
}

BOOL WINAPI FreeEnvironmentStringsW(LPWSTR block)
{
	return heap_free(heap_process_heap(), 0, block);
}

BOOL WINAPI FreeEnvironmentStringsA(LPSTR block)
{
	return heap_free(heap_process_heap(), 0, block);
}

/* ---- %VAR% expansion ------------------------------------------------------ */

/* The expansion of src, malloc'd.  %NAME% with NAME set becomes its
 * value; anything else, unknown names included, is copied as it is. */
static WCHAR *expand(const WCHAR *src)
{
	size_t cap = wstr_len(src) + 1, len = 0;
	WCHAR *out = malloc(cap * sizeof(WCHAR)), *tmp;

	while (out && *src) {
		const WCHAR *piece = src, *close = src;
		WCHAR *value = NULL;
		size_t n = 1;

		if (*src == '%')
			for (close = src + 1; *close && *close != '%'; close++)
				;
		if (*src == '%' && *close == '%') {
			size_t nlen = (size_t)(close - src - 1);
			WCHAR *name = malloc((nlen + 1) * sizeof(WCHAR));

			if (name) {
				memcpy(name, src + 1, nlen * sizeof(WCHAR));
				name[nlen] = 0;
				value = nlen ? env_get(name) : NULL;
				free(name);
			}
			if (value) {
				piece = value;
				n = wstr_len(value);
			} else {
				n = nlen + 2; /* keep "%NAME%" */
			}
			src = close + 1;
		} else {
			src++;
		}
		if (len + n + 1 > cap) {
			cap = (len + n + 1) * 2;
			if (!(tmp = realloc(out, cap * sizeof(WCHAR)))) {
				free(value);
				free(out);
				return NULL;
			}
			out = tmp;
		}
		memcpy(out + len, piece, n * sizeof(WCHAR));
		len += n;
		free(value);
	}
	if (out)
		out[len] = 0;
	return out;
}

DWORD WINAPI ExpandEnvironmentStringsW(LPCWSTR src, LPWSTR dst, DWORD size)
{
	WCHAR *out;
	DWORD n;

	if (!src) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return 0;
	}
	if (!(out = expand(src))) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return 0;
	}
	n = (DWORD)wstr_len(out) + 1;
	if (dst && size >= n)
		memcpy(dst, out, n * sizeof(WCHAR));
	free(out);
	return n;
}

DWORD WINAPI ExpandEnvironmentStringsA(LPCSTR src, LPSTR dst, DWORD size)
{
	WCHAR *wsrc, *out;
	char *a;
	DWORD n;

	if (!src) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return 0;
	}
	if (!(wsrc = cp_to_utf16_dup(CP_ACP, src))) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return 0;
	}
	out = expand(wsrc);
	free(wsrc);
	a = out ? utf16_to_cp_dup(CP_ACP, out) : NULL;
	free(out);
	if (!a) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return 0;
	}
	n = (DWORD)strlen(a) + 1;
	if (dst && size >= n)
		memcpy(dst, a, n);
	free(a);
	return n;
}

/* ---- command line ---------------------------------------------------------- */

/* Weak until the loader provides them: only unit tests link without it. */
#pragma weak loader_command_line_w
#pragma weak loader_command_line_a

LPWSTR WINAPI GetCommandLineW(void)
{
	return (LPWSTR)(loader_command_line_w ? loader_command_line_w() : u"");
}

LPSTR WINAPI GetCommandLineA(void)
{
	return (LPSTR)(loader_command_line_a ? loader_command_line_a() : "");
}

/* ---- standard handles -------------------------------------------------------- */

static HANDLE std_handles[3]; /* input, output, error */
static pthread_once_t std_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t std_lock = PTHREAD_MUTEX_INITIALIZER;

/* File objects for fds 0-2 that are open; a closed one has no handle
 * (NULL), as for a Windows process started without it. */
static void std_init(void)
{
	for (int fd = 0; fd < 3; fd++)
		/* STARTF_USESTDHANDLES: the parent's values, inherited at
		 * the same value; the fd is the same stream for Linux code. */
		if (startup_std_handle(fd, &std_handles[fd]))
			continue;
		else if (fcntl(fd, F_GETFD) >= 0 && !startup_std_closed(fd))
			std_handles[fd] = file_create_handle(fd, fd ? GENERIC_WRITE | GENERIC_READ : GENERIC_READ,
							     0, true);
}

static int std_index(DWORD which)
{
	switch (which) {
	case STD_INPUT_HANDLE:
		return 0;
	case STD_OUTPUT_HANDLE:
		return 1;
	case STD_ERROR_HANDLE:
		return 2;
	}
	return -1;
}

HANDLE WINAPI GetStdHandle(DWORD which)
{
	int i = std_index(which);
	HANDLE h;

	if (i < 0) {
		SetLastError(ERROR_INVALID_HANDLE);
		return INVALID_HANDLE_VALUE;
	}
	pthread_once(&std_once, std_init);
	pthread_mutex_lock(&std_lock);
	h = std_handles[i];
	pthread_mutex_unlock(&std_lock);
	return h;
}

BOOL WINAPI SetStdHandle(DWORD which, HANDLE h)
{
	int i = std_index(which);

	if (i < 0) {
		SetLastError(ERROR_INVALID_HANDLE);
		return FALSE;
	}
	pthread_once(&std_once, std_init);
	pthread_mutex_lock(&std_lock);
	std_handles[i] = h;
	pthread_mutex_unlock(&std_lock);
	return TRUE;
}

/* ---- current directory ---------------------------------------------------------- */

DWORD WINAPI GetCurrentDirectoryW(DWORD size, LPWSTR buf)
{
	DWORD err, len;
	WCHAR *cwd = path_cwd(&err);

	if (!cwd) {
		SetLastError(err);
		return 0;
	}
	len = string_result_w(cwd, buf, size);
	free(cwd);
	return len;
}

DWORD WINAPI GetCurrentDirectoryA(DWORD size, LPSTR buf)
{
	DWORD err, len;
	WCHAR *cwd = path_cwd(&err);

	if (!cwd) {
		SetLastError(err);
		return 0;
	}
	len = string_result_cp(cp_file(), cwd, buf, size);
	free(cwd);
	return len;
}

BOOL WINAPI SetCurrentDirectoryW(LPCWSTR path)
{
	DWORD err;
	char *u = path_to_unix(path, &err);

	if (!u) {
		SetLastError(err);
		return FALSE;
	}
	if (chdir(u)) {
		int e = errno;

		free(u);
		SetLastError(e == ENOENT ? ERROR_FILE_NOT_FOUND : e == ENOTDIR ? ERROR_DIRECTORY
									  : win32_error_from_errno(e));
		return FALSE;
	}
	free(u);
	return TRUE;
}

BOOL WINAPI SetCurrentDirectoryA(LPCSTR path)
{
	WCHAR *w;
	BOOL ret;

	if (!path) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!(w = cp_to_utf16_dup(cp_file(), path))) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	ret = SetCurrentDirectoryW(w);
	free(w);
	return ret;
}

/* process.h's _spawn and _exec families and _cwait, over CreateProcess.
 * The command line is the arguments joined by single spaces, as msvcrt
 * builds it (an argument with blanks needs the caller's own quotes);
 * l forms take the arguments as a list, v forms as an array, e forms an
 * environment, p forms search PATH (CreateProcess does, given no
 * application name).  _P_WAIT returns the exit status, _P_NOWAIT and
 * _P_NOWAITO the process handle (for _cwait), _P_OVERLAY (the _exec
 * family) starts it and ends this program at once (status 0: Windows has
 * no exec, and msvcrt's _exec does just that), _P_DETACH starts it and
 * returns 0. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "msvcrt/msvcrt_private.h"

#define P_WAIT 0
#define P_NOWAIT 1
#define P_OVERLAY 2
#define P_NOWAITO 3
#define P_DETACH 4

/* The arguments joined with spaces, or the environment as a block of
 * NUL-ended strings (UTF-16, malloc'ed). */
static WCHAR *join(const WCHAR *const *v, bool block)
{
	size_t n = 0, o = 0;
	WCHAR *r;

	for (size_t i = 0; v && v[i]; i++)
		n += crt_wcslen(v[i]) + 1;
	if (!(r = malloc((n + 2) * sizeof(WCHAR))))
		return NULL;
	for (size_t i = 0; v && v[i]; i++) {
		size_t k = crt_wcslen(v[i]);

		if (!block && i)
			r[o++] = ' ';
		memcpy(r + o, v[i], k * sizeof(WCHAR));
		o += k;
		if (block)
			r[o++] = 0;
	}
	r[o++] = 0;
	if (block && o == 1)
		r[o++] = 0;
	return r;
}

static intptr_t spawn(int mode, const WCHAR *path, const WCHAR *const *argv, const WCHAR *const *envp, bool search)
{
	STARTUPINFOW si = { .cb = sizeof(si) };
	PROCESS_INFORMATION pi;
	WCHAR *line, *env = NULL;
	DWORD code = 0, err;
	BOOL ok;

	if (!path || !argv || !argv[0] || mode < P_WAIT || mode > P_DETACH) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return -1;
	}
	if (!(line = join(argv, false)) || (envp && !(env = join(envp, true)))) {
		free(line);
		crt_set_errno(ENOMEM);
		return -1;
	}
	crt_flush_all_streams();
	ok = CreateProcessW(search ? NULL : path, line, NULL, NULL, TRUE,
			    (env ? CREATE_UNICODE_ENVIRONMENT : 0) | (mode == P_DETACH ? DETACHED_PROCESS : 0), env,
			    NULL, &si, &pi);
	err = GetLastError();
	free(line);
	free(env);
	if (!ok) {
		crt_set_errno(crt_errno_from_spawn(err));
		return -1;
	}
	CloseHandle(pi.hThread);
	switch (mode) {
	case P_WAIT:
		WaitForSingleObject(pi.hProcess, INFINITE);
		GetExitCodeProcess(pi.hProcess, &code);
		CloseHandle(pi.hProcess);
		return (intptr_t)code;
	case P_OVERLAY:
		/* Windows has no exec: the new program runs on, this one ends
		 * at once with status 0 (as msvcrt's _exec does) */
		CloseHandle(pi.hProcess);
		crt__exit(0);
	case P_DETACH:
		CloseHandle(pi.hProcess);
		return 0;
	default:
		return (intptr_t)pi.hProcess;
	}
}

/* A narrow vector as a wide one (the CRT's UTF-8). */
static WCHAR **widen_v(const char *const *v)
{
	size_t n = 0;
	WCHAR **w;

	if (!v)
		return NULL;
	while (v[n])
		n++;
	if (!(w = calloc(n + 1, sizeof(*w))))
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (!(w[i] = crt_utf8_to_wide_alloc(v[i]))) {
			while (i)
				free(w[--i]);
			free(w);
			return NULL;
		}
	}
	return w;
}

static void free_v(WCHAR **w)
{
	for (size_t i = 0; w && w[i]; i++)
		free(w[i]);
	free(w);
}

static intptr_t spawn_narrow(int mode, const char *path, const char *const *argv, const char *const *envp,
			     bool search)
{
	WCHAR *wpath = path ? crt_utf8_to_wide_alloc(path) : NULL, **wargv = widen_v(argv), **wenv = widen_v(envp);
	intptr_t r;

	if ((path && !wpath) || (argv && !wargv) || (envp && !wenv)) {
		crt_set_errno(ENOMEM);
		r = -1;
	} else {
		r = spawn(mode, wpath, (const WCHAR *const *)wargv, (const WCHAR *const *)wenv, search);
	}
	free(wpath);
	free_v(wargv);
	free_v(wenv);
	return r;
}

/* ---- the v forms --------------------------------------------------------------- */

intptr_t __cdecl crt__spawnv(int mode, const char *path, const char *const *argv)
{
	return spawn_narrow(mode, path, argv, NULL, false);
}

intptr_t __cdecl crt__spawnve(int mode, const char *path, const char *const *argv, const char *const *envp)
{
	return spawn_narrow(mode, path, argv, envp, false);
}

intptr_t __cdecl crt__spawnvp(int mode, const char *path, const char *const *argv)
{
	return spawn_narrow(mode, path, argv, NULL, true);
}

intptr_t __cdecl crt__spawnvpe(int mode, const char *path, const char *const *argv, const char *const *envp)
{
	return spawn_narrow(mode, path, argv, envp, true);
}

intptr_t __cdecl crt__wspawnv(int mode, const WCHAR *path, const WCHAR *const *argv)
{
	return spawn(mode, path, argv, NULL, false);
}

intptr_t __cdecl crt__wspawnve(int mode, const WCHAR *path, const WCHAR *const *argv, const WCHAR *const *envp)
{
	return spawn(mode, path, argv, envp, false);
}

intptr_t __cdecl crt__wspawnvp(int mode, const WCHAR *path, const WCHAR *const *argv)
{
	return spawn(mode, path, argv, NULL, true);
}

intptr_t __cdecl crt__wspawnvpe(int mode, const WCHAR *path, const WCHAR *const *argv, const WCHAR *const *envp)
{
	return spawn(mode, path, argv, envp, true);
}

/* ---- the l forms: the arguments from the call's own list ---------------------- */

#define MAX_ARGS 256

/* Collects the NULL-ended list that starts at first (and, for e forms,
 * the environment after it). */
#define COLLECT(type, first, ap, args, env, want_env)                                                     \
	do {                                                                                               \
		size_t n_ = 0;                                                                             \
		args[n_++] = first;                                                                        \
		while (n_ < MAX_ARGS && (args[n_] = __builtin_va_arg(ap, type)))                           \
			n_++;                                                                              \
		args[n_ < MAX_ARGS ? n_ : MAX_ARGS - 1] = NULL;                                            \
		env = want_env ? __builtin_va_arg(ap, const type *) : NULL;                                \
	} while (0)

#define L_FORM(name, CH, fn, want_env, search)                                                             \
	intptr_t __cdecl name(int mode, const CH *path, const CH *arg0, ...)                               \
	{                                                                                                  \
		const CH *args[MAX_ARGS + 1];                                                              \
		const CH *const *env;                                                                      \
		__ms_va_list ap;                                                                           \
		__ms_va_start(ap, arg0);                                                                   \
		COLLECT(const CH *, arg0, ap, args, env, want_env);                                        \
		__ms_va_end(ap);                                                                           \
		return fn(mode, path, args, env, search);                                                  \
	}

L_FORM(crt__spawnl, char, spawn_narrow, 0, false)
L_FORM(crt__spawnle, char, spawn_narrow, 1, false)
L_FORM(crt__spawnlp, char, spawn_narrow, 0, true)
L_FORM(crt__spawnlpe, char, spawn_narrow, 1, true)
L_FORM(crt__wspawnl, WCHAR, spawn, 0, false)
L_FORM(crt__wspawnle, WCHAR, spawn, 1, false)
L_FORM(crt__wspawnlp, WCHAR, spawn, 0, true)
L_FORM(crt__wspawnlpe, WCHAR, spawn, 1, true)

/* ---- _exec: _P_OVERLAY ------------------------------------------------------------ */

#define E_FORM(name, CH, fn, want_env, search)                                                             \
	intptr_t __cdecl name(const CH *path, const CH *arg0, ...)                                         \
	{                                                                                                  \
		const CH *args[MAX_ARGS + 1];                                                              \
		const CH *const *env;                                                                      \
		__ms_va_list ap;                                                                           \
		__ms_va_start(ap, arg0);                                                                   \
		COLLECT(const CH *, arg0, ap, args, env, want_env);                                        \
		__ms_va_end(ap);                                                                           \
		return fn(P_OVERLAY, path, args, env, search);                                             \
	}

E_FORM(crt__execl, char, spawn_narrow, 0, false)
E_FORM(crt__execle, char, spawn_narrow, 1, false)
E_FORM(crt__execlp, char, spawn_narrow, 0, true)
E_FORM(crt__execlpe, char, spawn_narrow, 1, true)
E_FORM(crt__wexecl, WCHAR, spawn, 0, false)
E_FORM(crt__wexecle, WCHAR, spawn, 1, false)
E_FORM(crt__wexeclp, WCHAR, spawn, 0, true)
E_FORM(crt__wexeclpe, WCHAR, spawn, 1, true)

intptr_t __cdecl crt__execv(const char *path, const char *const *argv)
{
	return spawn_narrow(P_OVERLAY, path, argv, NULL, false);
}

intptr_t __cdecl crt__execve(const char *path, const char *const *argv, const char *const *envp)
{
	return spawn_narrow(P_OVERLAY, path, argv, envp, false);
}

intptr_t __cdecl crt__execvp(const char *path, const char *const *argv)
{
	return spawn_narrow(P_OVERLAY, path, argv, NULL, true);
}

intptr_t __cdecl crt__execvpe(const char *path, const char *const *argv, const char *const *envp)
{
	return spawn_narrow(P_OVERLAY, path, argv, envp, true);
}

intptr_t __cdecl crt__wexecv(const WCHAR *path, const WCHAR *const *argv)
{
	return spawn(P_OVERLAY, path, argv, NULL, false);
}

intptr_t __cdecl crt__wexecve(const WCHAR *path, const WCHAR *const *argv, const WCHAR *const *envp)
{
	return spawn(P_OVERLAY, path, argv, envp, false);
}

intptr_t __cdecl crt__wexecvp(const WCHAR *path, const WCHAR *const *argv)
{
	return spawn(P_OVERLAY, path, argv, NULL, true);
}

intptr_t __cdecl crt__wexecvpe(const WCHAR *path, const WCHAR *const *argv, const WCHAR *const *envp)
{
	return spawn(P_OVERLAY, path, argv, envp, true);
}

/* Waits for a process _spawn started (_P_NOWAIT): its handle back, its
 * exit status in *status; the handle is closed. */
intptr_t __cdecl crt__cwait(int *status, intptr_t handle, int action)
{
	DWORD code;

	(void)action;
	if (WaitForSingleObject((HANDLE)handle, INFINITE) != WAIT_OBJECT_0 ||
	    !GetExitCodeProcess((HANDLE)handle, &code)) {
		crt_set_errno(GetLastError() == ERROR_INVALID_HANDLE ? ECHILD : EINVAL);
		return -1;
	}
	if (status)
		*status = (int)code;
	CloseHandle((HANDLE)handle);
	return handle;
}

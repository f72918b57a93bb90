/* Process start-up data: argv split from the Windows command line, the
 * CRT's copy of the environment, and the data exports mingw's start-up
 * code reads (_acmdln, _fmode, __initenv ...). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "msvcrt/msvcrt_private.h"
#include "core/debug.h"
#include "loader.h"

char *crt__acmdln;
WCHAR *crt__wcmdln;
int crt___argc;
char **crt___argv;
WCHAR **crt___wargv;
char **crt__environ;
WCHAR **crt__wenviron;
char **crt___initenv;
WCHAR **crt___winitenv;
int crt__commode;
int crt__fmode;
unsigned int crt__osver, crt__winver, crt__winmajor, crt__winminor;

static inline int is_blank(WCHAR c)
{
	return c == ' ' || c == '\t';
}

/* The rules of "Parsing C command-line arguments" (Microsoft docs):
 * blanks separate arguments; "..." groups; inside quotes "" is a literal
 * quote; 2n backslashes before a quote give n backslashes and the quote
 * toggles grouping, 2n+1 give n backslashes and a literal quote; other
 * backslashes are literal.  The program name (argv[0]) only knows quotes. */
static size_t split(const WCHAR *p, WCHAR **argv, WCHAR *out)
{
	size_t argc = 0, o = 0;
	int quoted = 0;

	/* argv[0] */
	if (argv)
		argv[argc] = out + o;
	argc++;
	while (*p && (quoted || !is_blank(*p))) {
		if (*p == '"')
			quoted = !quoted;
		else if (out)
			out[o++] = *p;
		else
			o++;
		p++;
	}
	if (out)
		out[o] = 0;
	o++;
	quoted = 0;

	for (;;) {
		while (is_blank(*p))
			p++;
		if (!*p)
			break;
		if (argv)
			argv[argc] = out + o;
		argc++;
		while (*p && (quoted || !is_blank(*p))) {
			if (*p == '\\') {
				size_t n = 0;
				while (p[n] == '\\')
					n++;
				if (p[n] == '"') {
					for (size_t i = 0; i < n / 2; i++, o++)
						if (out)
							out[o] = '\\';
					p += n;
					if (n % 2) {
						if (out)
							out[o] = '"';
						o++;
						p++;
					}
				} else {
					for (size_t i = 0; i < n; i++, o++)
						if (out)
							out[o] = '\\';
					p += n;
				}
			} else if (*p == '"') {
				if (quoted && p[1] == '"') {
					if (out)
						out[o] = '"';
					o++;
					p += 2;
				} else {
					quoted = !quoted;
					p++;
				}
			} else {
				if (out)
					out[o] = *p;
				o++;
				p++;
			}
		}
		if (out)
			out[o] = 0;
		o++;
	}
	if (argv)
		argv[argc] = NULL;
	return argv ? argc : o;
}

WCHAR **crt_split_command_line(const WCHAR *cmdline, int *argc)
{
	static const WCHAR empty[] = { 0 };
	if (!cmdline)
		cmdline = empty;
	size_t chars = split(cmdline, NULL, NULL);
	size_t n = chars; /* every argument has a terminator: argc <= chars */
	WCHAR **argv = malloc((n + 1) * sizeof(WCHAR *) + chars * sizeof(WCHAR));
	if (!argv)
		return NULL;
	WCHAR *strings = (WCHAR *)(argv + n + 1);
	*argc = split(cmdline, argv, strings);
	return argv;
}

static char **narrow_array(WCHAR **w, int count)
{
	char **a = calloc(count + 1, sizeof(char *));
	if (!a)
		return NULL;
	for (int i = 0; i < count; i++)
		a[i] = crt_wide_to_utf8_alloc(w[i]);
	return a;
}

/* Entries starting with '=' (per-drive current directories) are not
 * part of the C environment. */
void crt_init_environment(const WCHAR *block)
{
	int count = 0;
	for (const WCHAR *p = block; p && *p; p += crt_wcslen(p) + 1)
		if (*p != '=')
			count++;
	WCHAR **wenv = calloc(count + 1, sizeof(WCHAR *));
	if (!wenv)
		return;
	int i = 0;
	for (const WCHAR *p = block; p && *p; p += crt_wcslen(p) + 1) {
		if (*p == '=')
			continue;
		size_t len = crt_wcslen(p);
		wenv[i] = malloc((len + 1) * sizeof(WCHAR));
		if (wenv[i])
			memcpy(wenv[i], p, (len + 1) * sizeof(WCHAR));
		i++;
	}
	crt__wenviron = crt___winitenv = wenv;
	crt__environ = crt___initenv = narrow_array(wenv, count);
}

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void init_process_data(void)
{
	const WCHAR *cmd = loader_command_line_w();
	WCHAR *block = GetEnvironmentStringsW();
	int argc;

	crt__acmdln = (char *)loader_command_line_a();
	crt__wcmdln = (WCHAR *)cmd;
	crt___wargv = crt_split_command_line(cmd, &argc);
	crt___argc = crt___wargv ? argc : 0;
	crt___argv = crt___wargv ? narrow_array(crt___wargv, argc) : NULL;
	crt_init_environment(block);
	if (block)
		FreeEnvironmentStringsW(block);
	TRACE(msvcrt, "argc %d, cmdline %s\n", crt___argc, debugstr_w(cmd));
}

void crt_startup_init(void)
{
	pthread_once(&init_once, init_process_data);
}

int __cdecl crt___getmainargs(int *argc, char ***argv, char ***envp, int expand_wildcards,
			      int *startinfo)
{
	crt_startup_init();
	*argc = crt___argc;
	*argv = crt___argv;
	*envp = crt__environ;
	return crt___argv && crt__environ ? 0 : -1;
}

int __cdecl crt___wgetmainargs(int *argc, WCHAR ***argv, WCHAR ***envp, int expand_wildcards,
			       int *startinfo)
{
	crt_startup_init();
	*argc = crt___argc;
	*argv = crt___wargv;
	*envp = crt__wenviron;
	return crt___wargv && crt__wenviron ? 0 : -1;
}

int *__cdecl crt___p___argc(void)
{
	crt_startup_init();
	return &crt___argc;
}

char ***__cdecl crt___p___argv(void)
{
	crt_startup_init();
	return &crt___argv;
}

WCHAR ***__cdecl crt___p___wargv(void)
{
	crt_startup_init();
	return &crt___wargv;
}

char **__cdecl crt___p__acmdln(void)
{
	crt_startup_init();
	return &crt__acmdln;
}

WCHAR **__cdecl crt___p__wcmdln(void)
{
	crt_startup_init();
	return &crt__wcmdln;
}

char ***__cdecl crt___p__environ(void)
{
	crt_startup_init();
	return &crt__environ;
}

WCHAR ***__cdecl crt___p__wenviron(void)
{
	crt_startup_init();
	return &crt__wenviron;
}

int *__cdecl crt___p__commode(void)
{
	return &crt__commode;
}

int *__cdecl crt___p__fmode(void)
{
	return &crt__fmode;
}

/* Console or GUI: only changes where msvcrt would show error boxes. */
void __cdecl crt___set_app_type(int type)
{
	TRACE(msvcrt, "app type %d\n", type);
}

/* The handler is only consulted by msvcrt's own math error reporting,
 * which the glibc-backed math functions never do. */
void __cdecl crt___setusermatherr(void *handler)
{
	TRACE(msvcrt, "matherr %p\n", handler);
}

/* Windows variable names are case-insensitive (ASCII folding). */
static int name_matches(const char *entry, const char *name, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		char a = entry[i], b = name[i];
		if (a >= 'a' && a <= 'z')
			a -= 32;
		if (b >= 'a' && b <= 'z')
			b -= 32;
		if (a != b)
			return 0;
	}
	return entry[len] == '=';
}

char *__cdecl crt_getenv(const char *name)
{
	crt_startup_init();
	size_t len = strlen(name);
	if (!len || !crt__environ)
		return NULL;
	for (char **e = crt__environ; *e; e++)
		if (name_matches(*e, name, len))
			return *e + len + 1;
	return NULL;
}

WCHAR *__cdecl crt__wgetenv(const WCHAR *name)
{
	crt_startup_init();
	size_t len = crt_wcslen(name);
	if (!len || !crt__wenviron)
		return NULL;
	for (WCHAR **e = crt__wenviron; *e; e++) {
		size_t i;
		for (i = 0; i < len; i++) {
			WCHAR a = (*e)[i], b = name[i];
			if (a >= 'a' && a <= 'z')
				a -= 32;
			if (b >= 'a' && b <= 'z')
				b -= 32;
			if (a != b)
				break;
		}
		if (i == len && (*e)[len] == '=')
			return *e + len + 1;
	}
	return NULL;
}

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/debug.h"
#include "core/codepage.h"
#include "core/path.h"
#include "core/startup.h"
#include "core/wstr.h"
#include "loader.h"
#include "module.h"
#include "process.h"

static PEB peb;
static RTL_USER_PROCESS_PARAMETERS params;
static PEB_LDR_DATA ldr;
static WCHAR *cmdline_w;
static char *cmdline_a;

PEB *loader_peb(void)
{
	return &peb;
}

const WCHAR *loader_command_line_w(void)
{
	return cmdline_w;
}

const char *loader_command_line_a(void)
{
	return cmdline_a;
}

size_t process_quote_arg(const char *arg, char *out, size_t outlen)
{
	size_t n = 0;
	int quote = !*arg || strpbrk(arg, " \t\n\v\"") != NULL;

#define PUT(c) do { if (n + 1 < outlen) out[n] = (c); n++; } while (0)
	if (!quote) {
		for (const char *p = arg; *p; p++)
			PUT(*p);
	} else {
		PUT('"');
		for (const char *p = arg;; p++) {
			size_t bs = 0;
			while (*p == '\\') {
				bs++;
				p++;
			}
			/* Backslashes double only in front of a quote (or the
			 * closing quote); elsewhere they are literal. */
			if (!*p) {
				for (size_t i = 0; i < bs * 2; i++)
					PUT('\\');
				break;
			}
			if (*p == '"') {
				for (size_t i = 0; i < bs * 2 + 1; i++)
					PUT('\\');
			} else {
				for (size_t i = 0; i < bs; i++)
					PUT('\\');
			}
			PUT(*p);
		}
		PUT('"');
	}
#undef PUT
	if (outlen)
		out[n < outlen ? n : outlen - 1] = 0;
	return n;
}

static void set_ustr(UNICODE_STRING *u, WCHAR *s)
{
	u->Buffer = s;
	u->Length = (USHORT)(wstr_len(s) * 2);
	u->MaximumLength = u->Length + 2;
}

/* The program as Windows names it: its full path, quoted, as Wine and
 * CreateProcess-started programs see it ("C:\dir\prog.exe"). */
static char *program_name(const char *exe_path)
{
	char *real = realpath(exe_path, NULL), *name = NULL, *q;
	WCHAR *w;

	if (!real) {
		if (asprintf(&q, "\"%s\"", exe_path) < 0)
			return NULL;
		return q;
	}
	w = path_from_unix(real);
	free(real);
	if (w) {
		name = utf16_to_utf8_dup(w);
		free(w);
	}
	if (name && asprintf(&q, "\"%s\"", name) >= 0) {
		free(name);
		return q;
	}
	return name;
}

int process_init(const char *exe_path, int argc, char **argv)
{
	size_t len = 1;
	char *line, *p, *prog;
	WCHAR *image;

	prog = program_name(exe_path);
	if (!prog)
		return -1;
	if (startup_command_line()) {
		/* Started by CreateProcess: the line exactly as it was given. */
		cmdline_w = wstr_dup(startup_command_line());
		goto have_line;
	}
	len += strlen(prog) + 1;
	for (int i = 1; i < argc; i++)
		len += process_quote_arg(argv[i], NULL, 0) + 1;
	line = malloc(len);
	if (!line)
		return -1;
	p = line + sprintf(line, "%s", prog);
	for (int i = 1; i < argc; i++) {
		*p++ = ' ';
		p += process_quote_arg(argv[i], p, len - (p - line));
	}
	*p = 0;
	cmdline_w = utf8_to_utf16_dup(line);
	free(line);
have_line:
	/* ImagePathName: the path without the quotes. */
	prog[strlen(prog) - 1] = 0;
	image = utf8_to_utf16_dup(prog[0] == '"' ? prog + 1 : prog);
	free(prog);
	if (!cmdline_w || !image)
		return -1;
	cmdline_a = utf16_to_cp_dup(cp_ansi(), cmdline_w);
	if (!cmdline_a)
		return -1;

	set_ustr(&params.CommandLine, cmdline_w);
	set_ustr(&params.ImagePathName, image);
	params.AllocationSize = params.Size = sizeof(params);
	params.Flags = 1; /* PROCESS_PARAMS_FLAG_NORMALIZED: pointers, not offsets */

	ldr.Length = sizeof(ldr);
	ldr.Initialized = TRUE;
	/* Empty lists: modules are not (yet) listed here. */
	ldr.InLoadOrderModuleList.Flink = ldr.InLoadOrderModuleList.Blink = &ldr.InLoadOrderModuleList;
	ldr.InMemoryOrderModuleList.Flink = ldr.InMemoryOrderModuleList.Blink = &ldr.InMemoryOrderModuleList;
	ldr.InInitializationOrderModuleList.Flink = ldr.InInitializationOrderModuleList.Blink =
		&ldr.InInitializationOrderModuleList;

	peb.ProcessParameters = &params;
	peb.LdrData = &ldr;
	peb.NumberOfProcessors = (ULONG)sysconf(_SC_NPROCESSORS_ONLN);
	/* Windows 10 22H2, as GetVersionEx reports. */
	peb.OSMajorVersion = 10;
	peb.OSMinorVersion = 0;
	peb.OSBuildNumber = 19045;
	peb.OSPlatformId = VER_PLATFORM_WIN32_NT;
	return 0;
}

void loader_terminate_process(UINT code)
{
	TRACE(loader, "terminated with %u\n", code);
	startup_record_exit(code);
	fflush(NULL);
	_exit((int)code);
}

void loader_exit_process(UINT code)
{
	static int exiting;

	/* A DllMain that calls ExitProcess while detaching ends it at once. */
	if (!__atomic_exchange_n(&exiting, 1, __ATOMIC_SEQ_CST)) {
		loader_lock();
		module_process_detach();
		loader_unlock();
	}
	TRACE(loader, "exit code %u\n", code);
	/* The full 32 bits, for a parent that waits on us. */
	startup_record_exit(code);
	fflush(NULL);
	_exit((int)code);
}

/* The builtin cmd's entry point and how it runs a parsed line: the
 * command line's switches, the pipelines in turn (& && ||), each
 * pipeline's commands at once with pipes between them, redirections,
 * and programs through CreateProcess. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd_private.h"
#include "core/codepage.h"
#include "core/debug.h"
#include "core/wstr.h"

DWORD cmd_errorlevel;
BOOL cmd_exiting;

void cmd_print(const struct cmd_io *io, int fd, const char *fmt, ...)
{
	char buf[4096];
	WCHAR *w;
	char *out;
	va_list ap;
	DWORD done;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	w = utf8_to_utf16_dup(buf);
	out = w ? utf16_to_cp_dup(CP_OEMCP, w) : NULL;
	if (out)
		WriteFile(io->h[fd], out, (DWORD)strlen(out), &done, NULL);
	free(out);
	free(w);
}

char *cmd_u8(const WCHAR *s)
{
	char *u = s ? utf16_to_utf8_dup(s) : NULL;

	return u ? u : strdup("");
}

WCHAR *cmd_first_word(const WCHAR *text)
{
	WCHAR **argv;
	int n = cmd_words(text, &argv);
	WCHAR *w;

	if (n <= 0) {
		cmd_words_free(argv, n < 0 ? 0 : n);
		return wstr_dup(u"");
	}
	w = argv[0];
	argv[0] = NULL;
	cmd_words_free(argv, n);
	return w;
}

/* ---- redirections --------------------------------------------------------------- */

/* Applies c's redirections to io; opened[] gets the handles to close
 * after the command.  FALSE (with the message printed) when a file
 * cannot be opened. */
static BOOL redirect(const struct cmd_simple *c, struct cmd_io *io, HANDLE *opened, int *nopened)
{
	SECURITY_ATTRIBUTES sa = { sizeof(sa), NULL, FALSE };

	for (int i = 0; i < c->nredirs; i++) {
		const struct cmd_redir *r = &c->redirs[i];
		HANDLE h;

		if (r->kind == CMD_R_DUP) {
			io->h[r->fd] = io->h[r->dup_fd];
			continue;
		}
		if (r->kind == CMD_R_IN)
			h = CreateFileW(r->target, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, &sa, OPEN_EXISTING,
					0, NULL);
		else
			h = CreateFileW(r->target, GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, &sa,
					r->kind == CMD_R_APPEND ? OPEN_ALWAYS : CREATE_ALWAYS, 0, NULL);
		if (h == INVALID_HANDLE_VALUE) {
			DWORD err = GetLastError();

			cmd_print(io, 2, "%s",
				  err == ERROR_FILE_NOT_FOUND ? "The system cannot find the file specified.\r\n" :
				  err == ERROR_PATH_NOT_FOUND ? "The system cannot find the path specified.\r\n" :
				  err == ERROR_ACCESS_DENIED ? "Access is denied.\r\n" :
							       "The process cannot access the file.\r\n");
			return FALSE;
		}
		if (r->kind == CMD_R_APPEND)
			SetFilePointer(h, 0, NULL, FILE_END);
		opened[(*nopened)++] = h;
		io->h[r->fd] = h;
	}
	return TRUE;
}

/* ---- one command ------------------------------------------------------------------ */

static BOOL has_suffix(const WCHAR *w, const WCHAR *suffix)
{
	size_t n = wstr_len(w), k = wstr_len(suffix);

	return n >= k && !wstr_icmp(w + n - k, suffix);
}

/* Starts (or, internal, runs) one command with io.  An external program
 * leaves its process in *proc (the caller waits); *r is set otherwise. */
static void start_command(const struct cmd_simple *c, const struct cmd_io *base, HANDLE *proc,
			  struct cmd_result *r)
{
	HANDLE opened[CMD_MAX_REDIRS];
	int nopened = 0;
	struct cmd_io io = *base;
	STARTUPINFOW si;
	PROCESS_INFORMATION pi;
	WCHAR *line, *name;

	*proc = NULL;
	*r = (struct cmd_result){ TRUE, 0, FALSE };
	if (!redirect(c, &io, opened, &nopened)) {
		*r = (struct cmd_result){ FALSE, 1, TRUE };
		goto out;
	}
	if (!*c->text || cmd_builtin(c->text, &io, r))
		goto out;

	name = cmd_first_word(c->text);
	if (name && (has_suffix(name, u".bat") || has_suffix(name, u".cmd"))) {
		char *u = cmd_u8(name);

		cmd_print(&io, 2, "ndrun's cmd: batch files (%s) are not supported by ndrun's cmd\r\n", u);
		free(u);
		*r = (struct cmd_result){ FALSE, 1, TRUE };
		free(name);
		goto out;
	}
	/* cmd's own handles (pipes, redirected files) are not inheritable,
	 * or a program would hold the write end of its own input pipe: the
	 * child gets inheritable copies of its three, made for it alone. */
	HANDLE std[3] = { NULL, NULL, NULL };
	for (int i = 0; i < 3; i++)
		if (io.h[i] && io.h[i] != INVALID_HANDLE_VALUE)
			DuplicateHandle(GetCurrentProcess(), io.h[i], GetCurrentProcess(), &std[i], 0, TRUE,
					DUPLICATE_SAME_ACCESS);
	memset(&si, 0, sizeof(si));
	si.cb = sizeof(si);
	si.dwFlags = STARTF_USESTDHANDLES;
	si.hStdInput = std[0];
	si.hStdOutput = std[1];
	si.hStdError = std[2];
	line = wstr_dup(c->text);
	BOOL started = line && CreateProcessW(NULL, line, NULL, NULL, TRUE, 0, NULL, NULL, &si, &pi);
	for (int i = 0; i < 3; i++)
		if (std[i])
			CloseHandle(std[i]);
	if (started) {
		CloseHandle(pi.hThread);
		*proc = pi.hProcess;
	} else {
		DWORD err = line ? GetLastError() : ERROR_NOT_ENOUGH_MEMORY;
		char *u = cmd_u8(name);

		if (err == ERROR_FILE_NOT_FOUND || err == ERROR_PATH_NOT_FOUND) {
			cmd_print(&io, 2,
				  "'%s' is not recognized as an internal or external command,\r\n"
				  "operable program or batch file.\r\n",
				  u);
			*r = (struct cmd_result){ FALSE, 9009, TRUE };
		} else {
			cmd_print(&io, 2, "ndrun's cmd: cannot run %s: error %u\r\n", u, (unsigned)err);
			*r = (struct cmd_result){ FALSE, 1, TRUE };
		}
		free(u);
	}
	free(line);
	free(name);
out:
	for (int i = 0; i < nopened; i++)
		CloseHandle(opened[i]);
}

/* ---- a pipeline ------------------------------------------------------------------- */

static struct cmd_result run_pipeline(const struct cmd_pipeline *p, const struct cmd_io *io)
{
	SECURITY_ATTRIBUTES sa = { sizeof(sa), NULL, FALSE };
	HANDLE *procs = calloc((size_t)p->ncmds, sizeof(HANDLE));
	HANDLE *rd = calloc((size_t)p->ncmds, sizeof(HANDLE)), *wr = calloc((size_t)p->ncmds, sizeof(HANDLE));
	struct cmd_result *res = calloc((size_t)p->ncmds, sizeof(*res)), last = { FALSE, 1, TRUE };

	if (!procs || !rd || !wr || !res)
		goto out;
	for (int i = 0; i + 1 < p->ncmds; i++) {
		if (!CreatePipe(&rd[i], &wr[i], &sa, 0)) {
			cmd_print(io, 2, "ndrun's cmd: cannot make a pipe: error %u\r\n", (unsigned)GetLastError());
			goto out;
		}
	}
	/* From the last command back, so a reader is there before its writer
	 * fills the pipe. */
	for (int i = p->ncmds - 1; i >= 0; i--) {
		struct cmd_io cio = *io;

		if (i > 0)
			cio.h[0] = rd[i - 1];
		if (i + 1 < p->ncmds)
			cio.h[1] = wr[i];
		start_command(&p->cmds[i], &cio, &procs[i], &res[i]);
		/* This command has its ends now: ours go, so that the reader
		 * sees the end of the data when the writer stops. */
		if (i + 1 < p->ncmds) {
			CloseHandle(wr[i]);
			wr[i] = NULL;
		}
		if (i > 0 && !procs[i]) {
			CloseHandle(rd[i - 1]);
			rd[i - 1] = NULL;
		}
		if (cmd_exiting)
			break;
	}
	for (int i = 0; i + 1 < p->ncmds; i++) {
		if (rd[i])
			CloseHandle(rd[i]);
		rd[i] = NULL;
	}
	for (int i = 0; i < p->ncmds; i++) {
		DWORD code = 1;

		if (!procs[i])
			continue;
		WaitForSingleObject(procs[i], INFINITE);
		GetExitCodeProcess(procs[i], &code);
		CloseHandle(procs[i]);
		res[i] = (struct cmd_result){ code == 0, code, TRUE };
	}
	last = res[p->ncmds - 1];
out:
	for (int i = 0; rd && wr && i < p->ncmds; i++) {
		if (rd[i])
			CloseHandle(rd[i]);
		if (wr[i])
			CloseHandle(wr[i]);
	}
	free(procs);
	free(rd);
	free(wr);
	free(res);
	return last;
}

/* ---- the line ------------------------------------------------------------------- */

static WCHAR *get_var(const WCHAR *name, void *ctx)
{
	DWORD n = GetEnvironmentVariableW(name, NULL, 0);
	WCHAR *v;

	(void)ctx;
	if (n) {
		v = malloc(n * sizeof(WCHAR));
		if (v && GetEnvironmentVariableW(name, v, n) < n)
			return v;
		free(v);
		return NULL;
	}
	/* dynamic variables, when the environment has none of the name */
	if (!wstr_icmp(name, u"ERRORLEVEL")) {
		char num[16];
		WCHAR *w = malloc(16 * sizeof(WCHAR));

		snprintf(num, sizeof(num), "%u", (unsigned)cmd_errorlevel);
		for (int i = 0; w && (i == 0 || num[i - 1]); i++)
			w[i] = (WCHAR)num[i];
		return w;
	}
	if (!wstr_icmp(name, u"CD")) {
		n = GetCurrentDirectoryW(0, NULL);
		v = n ? malloc(n * sizeof(WCHAR)) : NULL;
		if (v && GetCurrentDirectoryW(n, v))
			return v;
		free(v);
	}
	return NULL;
}

/* Does name (the quoted start of a /c line) name a program file, as it
 * is or with ".exe"? */
static bool program_exists(const WCHAR *name, void *ctx)
{
	size_t n = wstr_len(name);
	WCHAR *exe = malloc((n + 5) * sizeof(WCHAR));
	DWORD a = GetFileAttributesW(name);
	bool found = a != INVALID_FILE_ATTRIBUTES && !(a & FILE_ATTRIBUTE_DIRECTORY);

	(void)ctx;
	if (!found && exe) {
		memcpy(exe, name, n * sizeof(WCHAR));
		memcpy(exe + n, u".exe", 5 * sizeof(WCHAR));
		a = GetFileAttributesW(exe);
		found = a != INVALID_FILE_ATTRIBUTES && !(a & FILE_ATTRIBUTE_DIRECTORY);
	}
	free(exe);
	return found;
}

static BOOL is_switch_char(WCHAR c)
{
	return c == '/' || c == '-';
}

int cmd_main(void)
{
	const WCHAR *p = GetCommandLineW();
	struct cmd_io io = { { GetStdHandle(STD_INPUT_HANDLE), GetStdHandle(STD_OUTPUT_HANDLE),
			       GetStdHandle(STD_ERROR_HANDLE) } };
	BOOL run = FALSE, s_flag = FALSE;
	WCHAR *stripped, *expanded;
	struct cmd_line line;
	const char *error;

	/* the program name: quoted, or up to the first blank */
	if (*p == '"') {
		for (p++; *p && *p != '"'; p++)
			;
		if (*p)
			p++;
	} else {
		while (*p && *p != ' ' && *p != '\t')
			p++;
	}
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!is_switch_char(*p))
			break;
		WCHAR s = (WCHAR)(p[1] | 0x20);
		if (s == 'c' || s == 'k' || s == 'r') {
			if (s == 'k') {
				cmd_print(&io, 2, "ndrun's cmd: /K (staying open) is not supported by ndrun's cmd\r\n");
				return 1;
			}
			run = TRUE;
			p += 2;
			break;
		}
		if (s == 's')
			s_flag = TRUE;
		/* /Q /D /A /U /E: /V: /F: /T: take no part in a /c line here */
		for (p++; *p && *p != ' ' && *p != '\t' && !is_switch_char(*p); p++)
			;
	}
	if (!run) {
		cmd_print(&io, 2, "ndrun's cmd: an interactive cmd is not supported by ndrun's cmd: run cmd /c COMMAND\r\n");
		return 1;
	}
	stripped = cmd_strip_quotes(p, s_flag, program_exists, NULL);
	expanded = stripped ? cmd_expand(stripped, get_var, NULL) : NULL;
	free(stripped);
	if (!expanded)
		return 1;
	TRACE(process, "cmd /c %s\n", debugstr_w(expanded));
	if (cmd_parse(expanded, &line, &error)) {
		cmd_print(&io, 2, "%s\r\n", error);
		free(expanded);
		return 1;
	}
	free(expanded);

	BOOL ok = TRUE;
	for (int i = 0; i < line.npipes && !cmd_exiting; i++) {
		const struct cmd_pipeline *pl = &line.pipes[i];
		struct cmd_result r;

		if ((pl->join == CMD_AND && !ok) || (pl->join == CMD_OR && ok))
			continue;
		r = run_pipeline(pl, &io);
		ok = r.ok;
		if (r.set_level)
			cmd_errorlevel = r.errorlevel;
	}
	cmd_line_free(&line);
	return (int)cmd_errorlevel;
}

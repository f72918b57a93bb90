/* ndrun's builtin cmd.exe: what programs hand to `cmd.exe /c` (system,
 * _popen, CreateProcess of "cmd"), run without a Windows cmd.exe.  It is
 * Linux-native code inside ndrun, started as a child process the way a
 * PE program is (core/spawn.c), so it has the caller's handles,
 * environment and current directory and starts programs with
 * CreateProcess like the real one.  docs/cmd.md says what it takes.
 *
 * The line is read as cmd reads it: %VAR% expanded first, then split
 * into commands joined by & && || (pipelines joined by |), each with its
 * redirections (< > >> n> n>&m).  What it does not take (blocks, if,
 * for, call, batch files ...) fails with a message naming it and status
 * 1, never silently. */
#ifndef NDSHIM_CMD_H
#define NDSHIM_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <windef.h>

/* Runs the builtin cmd on this process's command line; its exit code. */
int cmd_main(void);

/* Is name (a program name as CreateProcess got it: a path or not, with
 * or without ".exe") cmd's? */
bool cmd_is_name(const WCHAR *name, size_t len);

/* ---- the parser (cmd/parse.c), Win32-free for the unit tests ---------------- */

enum cmd_redir_kind { CMD_R_IN, CMD_R_OUT, CMD_R_APPEND, CMD_R_DUP };

struct cmd_redir {
	int fd;                 /* 0 stdin, 1 stdout, 2 stderr */
	enum cmd_redir_kind kind;
	WCHAR *target;          /* a file name (not CMD_R_DUP) */
	int dup_fd;             /* CMD_R_DUP: the descriptor copied */
};

#define CMD_MAX_REDIRS 8

struct cmd_simple {
	WCHAR *text;            /* the command without its redirections: "prog "a b" x" */
	struct cmd_redir redirs[CMD_MAX_REDIRS];
	int nredirs;
};

enum cmd_join { CMD_SEQ, CMD_AND, CMD_OR }; /* & && || before a pipeline */

struct cmd_pipeline {
	enum cmd_join join;     /* how it follows the one before (the first: CMD_SEQ) */
	struct cmd_simple *cmds; /* a | b | c */
	int ncmds;
};

struct cmd_line {
	struct cmd_pipeline *pipes;
	int npipes;
};

/* The value of a variable (malloc'ed), or NULL when it is not set. */
typedef WCHAR *(*cmd_getenv_fn)(const WCHAR *name, void *ctx);

/* %NAME% replaced by NAME's value; an unset one (and a lone %) stays as
 * it is, as on cmd's command line.  malloc'ed. */
WCHAR *cmd_expand(const WCHAR *line, cmd_getenv_fn get, void *ctx);

/* What follows /c when cmd takes its outer quotes off (cmd /?): kept when
 * the line is one quoted program name with blanks in it and nothing
 * special (exists says whether it names a program file), else a leading
 * quote and the last one go.  malloc'ed. */
WCHAR *cmd_strip_quotes(const WCHAR *line, bool s_flag, bool (*exists)(const WCHAR *name, void *ctx), void *ctx);

/* Parses an expanded line.  Returns 0, or -1 with *error set to a
 * message (static) on what cmd would refuse or ndrun's cmd does not take. */
int cmd_parse(const WCHAR *line, struct cmd_line *out, const char **error);
void cmd_line_free(struct cmd_line *l);

/* The words of a command's text (quotes taken off, ^ already gone); the
 * count, *argv malloc'ed (free with cmd_words_free). */
int cmd_words(const WCHAR *text, WCHAR ***argv);
void cmd_words_free(WCHAR **argv, int n);

#endif

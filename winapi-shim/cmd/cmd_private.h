/* The running builtin cmd: its state and what its files share. */
#ifndef NDSHIM_CMD_PRIVATE_H
#define NDSHIM_CMD_PRIVATE_H

#include <windef.h>
#include <winbase.h>

#include "cmd/cmd.h"

/* A command's standard handles, after its redirections. */
struct cmd_io {
	HANDLE h[3];
};

/* What a command did: status is what && and || test, errorlevel the
 * new %ERRORLEVEL% (internal commands that succeed leave it alone). */
struct cmd_result {
	BOOL ok;
	DWORD errorlevel;
	BOOL set_level;
};

extern DWORD cmd_errorlevel;
extern BOOL cmd_exiting; /* `exit` ran: nothing more runs */

/* Text (UTF-8) to one of the command's handles (1 or 2), in the OEM
 * code page as cmd writes it. */
void cmd_print(const struct cmd_io *io, int fd, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* s as UTF-8 (malloc'ed; "" for NULL or out of memory), for cmd_print's %s */
char *cmd_u8(const WCHAR *s);

/* Runs an internal command if text names one: TRUE with *r set, or
 * FALSE for an external program. */
BOOL cmd_builtin(const WCHAR *text, const struct cmd_io *io, struct cmd_result *r);

/* The command's first word, as cmd finds the command's name. */
WCHAR *cmd_first_word(const WCHAR *text);

#endif

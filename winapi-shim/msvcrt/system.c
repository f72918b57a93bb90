/* system and _wsystem: the command runs in the command interpreter, a
 * child process the caller waits for (CreateProcess), as on Windows.
 * Windows' interpreter is %COMSPEC% /c (cmd.exe); ndrun has no cmd.exe,
 * so it is the Linux shell: "/bin/sh -c command".  The command line is
 * the shell's to read (redirections, `exit n`, quoting); the child has
 * the caller's standard handles and environment, and its exit status is
 * what system returns. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msvcrt/msvcrt_private.h"
#include "core/debug.h"
#include "core/path.h"

#define SHELL "/bin/sh"

/* `sh -c "command"` with the command quoted by the rules CreateProcess's
 * argument splitting undoes (backslashes before a quote doubled). */
static WCHAR *shell_line(const WCHAR *cmd)
{
	static const WCHAR prefix[] = u"sh -c \"";
	size_t n = 0, len = sizeof(prefix) / sizeof(WCHAR) - 1;
	WCHAR *line, *q;

	while (cmd[n])
		n++;
	line = malloc((len + 2 * n + 3) * sizeof(WCHAR));
	if (!line)
		return NULL;
	memcpy(line, prefix, len * sizeof(WCHAR));
	q = line + len;
	for (size_t i = 0; i <= n; i++) {
		size_t slashes = 0;

		while (i < n && cmd[i] == '\\') {
			slashes++;
			i++;
		}
		if (i == n) {
			/* before the closing quote: each one doubled */
			for (size_t k = 0; k < 2 * slashes; k++)
				*q++ = '\\';
			break;
		}
		if (cmd[i] == '"') {
			for (size_t k = 0; k < 2 * slashes + 1; k++)
				*q++ = '\\';
		} else {
			for (size_t k = 0; k < slashes; k++)
				*q++ = '\\';
		}
		*q++ = cmd[i];
	}
	*q++ = '"';
	*q = 0;
	return line;
}

int __cdecl crt__wsystem(const WCHAR *cmd)
{
	STARTUPINFOW si;
	PROCESS_INFORMATION pi;
	DWORD code = (DWORD)-1;
	WCHAR *line, *shell;
	BOOL ok;

	if (!cmd) {
		/* is there an interpreter? */
		if (!access(SHELL, X_OK))
			return 1;
		crt_set_errno(ENOENT);
		return 0;
	}
	if (!(line = shell_line(cmd))) {
		crt_set_errno(ENOMEM);
		return -1;
	}
	memset(&si, 0, sizeof(si));
	si.cb = sizeof(si);
	/* the shell's Windows name: "/bin/sh" would be on the current drive */
	if (!(shell = path_from_unix(SHELL))) {
		free(line);
		crt_set_errno(ENOMEM);
		return -1;
	}
	ok = CreateProcessW(shell, line, NULL, NULL, TRUE, 0, NULL, NULL, &si, &pi);
	free(shell);
	if (!ok) {
		DWORD err = GetLastError();

		TRACE(msvcrt, "%s: CreateProcess failed, error %lu\n", SHELL, (unsigned long)err);
		free(line);
		crt_set_errno(err == ERROR_NOT_ENOUGH_MEMORY ? ENOMEM : err == ERROR_BAD_EXE_FORMAT ? ENOEXEC : ENOENT);
		return -1;
	}
	free(line);
	CloseHandle(pi.hThread);
	WaitForSingleObject(pi.hProcess, INFINITE);
	GetExitCodeProcess(pi.hProcess, &code);
	CloseHandle(pi.hProcess);
	return (int)code;
}

int __cdecl crt_system(const char *cmd)
{
	WCHAR *w;
	int r;

	if (!cmd)
		return crt__wsystem(NULL);
	/* the CRT's narrow strings, as its other file and process names */
	if (!(w = crt_utf8_to_wide_alloc(cmd))) {
		crt_set_errno(ENOMEM);
		return -1;
	}
	r = crt__wsystem(w);
	free(w);
	return r;
}

/* system and _wsystem: the command runs in the command interpreter, a
 * child process the caller waits for, as on Windows: %ComSpec% (else
 * cmd.exe) /c command.  cmd.exe is ndrun's builtin one (winapi-shim/cmd,
 * docs/cmd.md) unless a real one is where ComSpec points; the child has
 * the caller's standard handles and environment, and cmd's exit status
 * is what system returns. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "msvcrt/msvcrt_private.h"
#include "core/debug.h"
#include "core/wstr.h"

WCHAR *crt_cmd_line(const WCHAR *cmd)
{
	DWORD n = GetEnvironmentVariableW(u"ComSpec", NULL, 0);
	WCHAR *comspec = n ? malloc(n * sizeof(WCHAR)) : NULL, *line;
	const WCHAR *prog = u"cmd.exe";
	bool quote;
	size_t plen, clen = wstr_len(cmd);

	if (comspec && GetEnvironmentVariableW(u"ComSpec", comspec, n) < n && *comspec)
		prog = comspec;
	plen = wstr_len(prog);
	quote = false;
	for (size_t i = 0; i < plen; i++)
		quote |= prog[i] == ' ';
	line = malloc((plen + clen + 8) * sizeof(WCHAR));
	if (line) {
		WCHAR *q = line;

		if (quote)
			*q++ = '"';
		memcpy(q, prog, plen * sizeof(WCHAR));
		q += plen;
		if (quote)
			*q++ = '"';
		memcpy(q, u" /c ", 4 * sizeof(WCHAR));
		q += 4;
		memcpy(q, cmd, (clen + 1) * sizeof(WCHAR));
	}
	free(comspec);
	return line;
}

/* errno for a CreateProcess failure, as the CRT's spawn sets it. */
int crt_errno_from_spawn(DWORD err)
{
	return err == ERROR_NOT_ENOUGH_MEMORY ? ENOMEM : err == ERROR_BAD_EXE_FORMAT ? ENOEXEC : ENOENT;
}

int __cdecl crt__wsystem(const WCHAR *cmd)
{
	STARTUPINFOW si;
	PROCESS_INFORMATION pi;
	DWORD code = (DWORD)-1;
	WCHAR *line;

	if (!cmd)
		return 1; /* there is an interpreter: ndrun's own at least */
	if (!(line = crt_cmd_line(cmd))) {
		crt_set_errno(ENOMEM);
		return -1;
	}
	memset(&si, 0, sizeof(si));
	si.cb = sizeof(si);
	if (!CreateProcessW(NULL, line, NULL, NULL, TRUE, 0, NULL, NULL, &si, &pi)) {
		DWORD err = GetLastError();

		TRACE(msvcrt, "%s: CreateProcess failed, error %lu\n", debugstr_w(line), (unsigned long)err);
		free(line);
		crt_set_errno(crt_errno_from_spawn(err));
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

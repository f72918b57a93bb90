/* _popen, _wpopen and _pclose: a stream on a pipe to or from
 * "%ComSpec% /c command" (system.c), started with the caller's other
 * standard handles; _pclose closes the stream, waits for the command and
 * returns its exit status.  The stream is the pipe end's descriptor in
 * the mode asked for: 't' (or _fmode's default) text, 'b' binary. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "msvcrt/msvcrt_private.h"
#include "core/debug.h"

#define CRT_O_RDONLY 0x0000
#define CRT_O_WRONLY 0x0001
#define CRT_O_NOINHERIT 0x0080

struct popen_entry {
	struct crt_file *file;
	HANDLE process;
	struct popen_entry *next;
};

static CRITICAL_SECTION popen_lock = { .LockCount = -1 };
static struct popen_entry *popen_list;

struct crt_file *__cdecl crt__wpopen(const WCHAR *cmd, const WCHAR *mode)
{
	SECURITY_ATTRIBUTES sa = { sizeof(sa), NULL, TRUE };
	STARTUPINFOW si = { .cb = sizeof(si) };
	PROCESS_INFORMATION pi;
	struct popen_entry *e = NULL;
	HANDLE rd = NULL, wr = NULL, ours, theirs;
	struct crt_file *f = NULL;
	WCHAR *line = NULL;
	char fmode[4] = "r";
	int reading = -1, binary = -1, fd = -1;

	if (!cmd || !mode) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return NULL;
	}
	for (const WCHAR *m = mode; *m; m++) {
		if (*m == 'r' || *m == 'w') {
			if (reading >= 0)
				reading = 2;
			else
				reading = *m == 'r';
		} else if (*m == 't' || *m == 'b') {
			binary = *m == 'b';
		} else if (*m != ' ') {
			reading = 2;
		}
	}
	if (reading < 0 || reading > 1) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return NULL;
	}
	if (binary < 0)
		binary = crt__fmode == CRT_O_BINARY;
	if (!CreatePipe(&rd, &wr, &sa, 0)) {
		crt_set_errno(EMFILE);
		return NULL;
	}
	ours = reading ? rd : wr;
	theirs = reading ? wr : rd;
	SetHandleInformation(ours, HANDLE_FLAG_INHERIT, 0);
	si.dwFlags = STARTF_USESTDHANDLES;
	si.hStdInput = reading ? GetStdHandle(STD_INPUT_HANDLE) : theirs;
	si.hStdOutput = reading ? theirs : GetStdHandle(STD_OUTPUT_HANDLE);
	si.hStdError = GetStdHandle(STD_ERROR_HANDLE);
	if (!(line = crt_cmd_line(cmd)) || !(e = calloc(1, sizeof(*e)))) {
		crt_set_errno(ENOMEM);
		goto fail;
	}
	if (!CreateProcessW(NULL, line, NULL, NULL, TRUE, 0, NULL, NULL, &si, &pi)) {
		crt_set_errno(crt_errno_from_spawn(GetLastError()));
		goto fail;
	}
	CloseHandle(pi.hThread);
	CloseHandle(theirs);
	theirs = NULL;
	fd = crt__open_osfhandle((intptr_t)ours, (reading ? CRT_O_RDONLY : CRT_O_WRONLY) | CRT_O_NOINHERIT |
							 (binary ? CRT_O_BINARY : CRT_O_TEXT));
	if (fd < 0) {
		CloseHandle(ours);
		ours = NULL;
	} else {
		ours = NULL; /* the descriptor has it now */
		fmode[0] = reading ? 'r' : 'w';
		fmode[1] = binary ? 'b' : 't';
		f = crt__fdopen(fd, fmode);
	}
	if (!f) {
		if (fd >= 0)
			crt__close(fd);
		/* the command sees its pipe closed; it is not waited for */
		CloseHandle(pi.hProcess);
		goto fail;
	}
	e->file = f;
	e->process = pi.hProcess;
	EnterCriticalSection(&popen_lock);
	e->next = popen_list;
	popen_list = e;
	LeaveCriticalSection(&popen_lock);
	free(line);
	TRACE(msvcrt, "%s -> %p (fd %d)\n", debugstr_w(cmd), (void *)f, fd);
	return f;
fail:
	if (ours)
		CloseHandle(ours);
	if (theirs)
		CloseHandle(theirs);
	free(line);
	free(e);
	return NULL;
}

struct crt_file *__cdecl crt__popen(const char *cmd, const char *mode)
{
	WCHAR *wc, *wm;
	struct crt_file *f;

	if (!cmd || !mode) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return NULL;
	}
	wc = crt_utf8_to_wide_alloc(cmd);
	wm = crt_utf8_to_wide_alloc(mode);
	f = wc && wm ? crt__wpopen(wc, wm) : NULL;
	if (!wc || !wm)
		crt_set_errno(ENOMEM);
	free(wc);
	free(wm);
	return f;
}

/* The command's exit status, or -1 (errno EINVAL) for a stream _popen
 * did not open. */
int __cdecl crt__pclose(struct crt_file *f)
{
	struct popen_entry *e = NULL, **pp;
	DWORD code = (DWORD)-1;

	EnterCriticalSection(&popen_lock);
	for (pp = &popen_list; *pp; pp = &(*pp)->next) {
		if ((*pp)->file == f) {
			e = *pp;
			*pp = e->next;
			break;
		}
	}
	LeaveCriticalSection(&popen_lock);
	if (!e) {
		crt_set_errno(EINVAL);
		return -1;
	}
	crt_fclose(f);
	WaitForSingleObject(e->process, INFINITE);
	if (!GetExitCodeProcess(e->process, &code))
		code = (DWORD)-1;
	CloseHandle(e->process);
	free(e);
	return (int)code;
}

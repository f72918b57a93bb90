/* The process tests' children.  process_finish waits for one (bounded: a
 * child still running fails the check and is terminated), checks and
 * returns its exit code (~0u if it did not end) and closes its handles.
 * A self_child is the test program itself started with other arguments,
 * its standard input and output pipes to the test (in_w, out_r; not
 * inherited by it), its standard error the test's.  Uses test.h's ok(). */
#ifndef NDSHIM_PE_SELF_CHILD_H
#define NDSHIM_PE_SELF_CHILD_H

#include <stdio.h>
#include <windows.h>

#define SELF_CHILD_TIMEOUT 20000

struct self_child {
	PROCESS_INFORMATION pi;
	HANDLE in_w, out_r;
};

static inline DWORD process_finish(PROCESS_INFORMATION *pi)
{
	DWORD code = ~0u, w = WaitForSingleObject(pi->hProcess, SELF_CHILD_TIMEOUT);

	ok(w == WAIT_OBJECT_0, "child %lu did not end: %#lx\n", pi->dwProcessId, w);
	if (w != WAIT_OBJECT_0)
		TerminateProcess(pi->hProcess, 1);
	else
		ok(GetExitCodeProcess(pi->hProcess, &code), "GetExitCodeProcess: %lu\n", GetLastError());
	CloseHandle(pi->hThread);
	CloseHandle(pi->hProcess);
	return code;
}

static inline BOOL self_child_start(struct self_child *c, const char *args)
{
	SECURITY_ATTRIBUTES sa = { sizeof(sa), NULL, TRUE };
	STARTUPINFOA si = { .cb = sizeof(si) };
	char exe[MAX_PATH], line[MAX_PATH + 64];
	HANDLE in_r, out_w;
	BOOL ret;

	GetModuleFileNameA(NULL, exe, sizeof(exe));
	CreatePipe(&in_r, &c->in_w, &sa, 0);
	CreatePipe(&c->out_r, &out_w, &sa, 0);
	SetHandleInformation(c->in_w, HANDLE_FLAG_INHERIT, 0);
	SetHandleInformation(c->out_r, HANDLE_FLAG_INHERIT, 0);
	si.dwFlags = STARTF_USESTDHANDLES;
	si.hStdInput = in_r;
	si.hStdOutput = out_w;
	si.hStdError = GetStdHandle(STD_ERROR_HANDLE);
	snprintf(line, sizeof(line), "\"%s\" %s", exe, args);
	ret = CreateProcessA(NULL, line, NULL, NULL, TRUE, 0, NULL, NULL, &si, &c->pi);
	ok(ret, "CreateProcess %s: %lu\n", args, GetLastError());
	CloseHandle(in_r);
	CloseHandle(out_w);
	return ret;
}

static inline DWORD self_child_finish(struct self_child *c)
{
	DWORD code = process_finish(&c->pi);

	CloseHandle(c->in_w);
	CloseHandle(c->out_r);
	return code;
}

#endif

/* A child of the test that is the test program itself, started with
 * other arguments: its standard input and output are pipes to the test
 * (in_w, out_r; not inherited by it), its standard error the test's.
 * self_child_finish waits for its end (bounded: a child still running
 * fails the check and is terminated), closes everything and returns its
 * exit code.  Uses test.h's ok(). */
#ifndef NDSHIM_PE_SELF_CHILD_H
#define NDSHIM_PE_SELF_CHILD_H

#include <stdio.h>
#include <windows.h>

#define SELF_CHILD_TIMEOUT 20000

struct self_child {
	PROCESS_INFORMATION pi;
	HANDLE in_w, out_r;
};

static void self_child_start(struct self_child *c, const char *args)
{
	SECURITY_ATTRIBUTES sa = { sizeof(sa), NULL, TRUE };
	STARTUPINFOA si = { .cb = sizeof(si) };
	char self[MAX_PATH], line[MAX_PATH + 64];
	HANDLE in_r, out_w;

	GetModuleFileNameA(NULL, self, sizeof(self));
	CreatePipe(&in_r, &c->in_w, &sa, 0);
	CreatePipe(&c->out_r, &out_w, &sa, 0);
	SetHandleInformation(c->in_w, HANDLE_FLAG_INHERIT, 0);
	SetHandleInformation(c->out_r, HANDLE_FLAG_INHERIT, 0);
	si.dwFlags = STARTF_USESTDHANDLES;
	si.hStdInput = in_r;
	si.hStdOutput = out_w;
	si.hStdError = GetStdHandle(STD_ERROR_HANDLE);
	snprintf(line, sizeof(line), "\"%s\" %s", self, args);
	ok(CreateProcessA(NULL, line, NULL, NULL, TRUE, 0, NULL, NULL, &si, &c->pi), "CreateProcess %s: %lu\n",
	   args, GetLastError());
	CloseHandle(in_r);
	CloseHandle(out_w);
}

static DWORD self_child_finish(struct self_child *c)
{
	DWORD code = ~0u, r = WaitForSingleObject(c->pi.hProcess, SELF_CHILD_TIMEOUT);

	ok(r == WAIT_OBJECT_0, "process %lu did not end: %#lx\n", c->pi.dwProcessId, r);
	if (r != WAIT_OBJECT_0)
		TerminateProcess(c->pi.hProcess, 1);
	GetExitCodeProcess(c->pi.hProcess, &code);
	CloseHandle(c->pi.hProcess);
	CloseHandle(c->pi.hThread);
	CloseHandle(c->in_w);
	CloseHandle(c->out_r);
	return code;
}

#endif

/* The ND2 rig programs' checks and waits (ndcheck.h). */
#include <winsock2.h>
#include <windows.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "ndcheck.h"

const char *ndcheck_name = "?";
int ndcheck_failures;

void check(int cond, const char *fmt, ...)
{
	va_list ap;

	printf(cond ? "ok: %s: " : "FAIL: %s: ", ndcheck_name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!cond)
		ndcheck_failures++;
}

void note(const char *fmt, ...)
{
	va_list ap;

	printf("    note: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

void die(const char *what)
{
	check(0, "%s", what);
	printf("%s: stopped, %d failed\n", ndcheck_name, ndcheck_failures);
	exit(1);
}

/* Packets taken off the port while waiting for another OVERLAPPED. */
static OVERLAPPED *seen[64];
static int nseen;

HRESULT wait_port(HANDLE port, OVERLAPPED *ov, DWORD ms)
{
	DWORD bytes, end = GetTickCount() + ms;
	ULONG_PTR key;
	OVERLAPPED *got;
	int i;

	for (i = 0; i < nseen; i++)
		if (seen[i] == ov) {
			seen[i] = seen[--nseen];
			return (HRESULT)ov->Internal;
		}
	for (;;) {
		DWORD now = GetTickCount();

		got = NULL;
		GetQueuedCompletionStatus(port, &bytes, &key, &got, now < end ? end - now : 0);
		if (!got)
			return 1;
		if (got == ov)
			return (HRESULT)ov->Internal;
		if (nseen < 64)
			seen[nseen++] = got;
	}
}

HRESULT wait_ov(HANDLE port, HRESULT st, OVERLAPPED *ov, DWORD ms)
{
	if (st != ND_PENDING)
		return st;
	st = wait_port(port, ov, ms);
	if (st == 1)
		die("a request still pending after its time");
	return st;
}

int get_result(IND2CompletionQueue *cq, ND2_RESULT *r, DWORD ms)
{
	DWORD end = GetTickCount() + ms;

	do {
		if (cq->lpVtbl->GetResults(cq, r, 1) == 1)
			return 1;
		Sleep(0);
	} while (GetTickCount() < end);
	return 0;
}

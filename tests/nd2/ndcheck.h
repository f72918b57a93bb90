/* What an ND2 rig program needs besides the provider: "ok:" / "FAIL:"
 * lines, waiting for one OVERLAPPED's packet on a completion port while
 * keeping the others, and polling a CQ.  Header-only (static functions):
 * each rig program is one executable.  Define NDCHECK_NAME (the prefix of
 * every line) before including it. */
#ifndef NDSHIM_TESTS_NDCHECK_H
#define NDSHIM_TESTS_NDCHECK_H

#include <winsock2.h>
#include <windows.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "ndspi.h"

#ifndef NDCHECK_NAME
#error define NDCHECK_NAME before including ndcheck.h
#endif

static int ndc_failures;

static void __attribute__((format(printf, 2, 3), unused)) check(int cond, const char *fmt, ...)
{
	va_list ap;

	printf(cond ? "ok: %s: " : "FAIL: %s: ", NDCHECK_NAME);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!cond)
		ndc_failures++;
}

/* What the line cannot say by itself: indented, so the suite shows it. */
static void __attribute__((format(printf, 1, 2), unused)) note(const char *fmt, ...)
{
	va_list ap;

	printf("    note: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static void __attribute__((noreturn, unused)) die(const char *what)
{
	check(0, "%s", what);
	printf("%s: stopped, %d failed\n", NDCHECK_NAME, ndc_failures);
	exit(1);
}

/* Packets taken off the port while waiting for another OVERLAPPED. */
static OVERLAPPED *ndc_seen[64];
static int ndc_nseen;

/* The ND status of ov once its packet is on port, or 1 after ms (0: only
 * what is queued now). */
static HRESULT __attribute__((unused)) wait_port(HANDLE port, OVERLAPPED *ov, DWORD ms)
{
	DWORD bytes, end = GetTickCount() + ms;
	ULONG_PTR key;
	OVERLAPPED *got;
	int i;

	for (i = 0; i < ndc_nseen; i++)
		if (ndc_seen[i] == ov) {
			ndc_seen[i] = ndc_seen[--ndc_nseen];
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
		if (ndc_nseen < 64)
			ndc_seen[ndc_nseen++] = got;
	}
}

/* st, or the final status of a pending request.  One still pending after
 * ms would write into a stack frame that is gone: the run stops there. */
static HRESULT __attribute__((unused)) wait_ov(HANDLE port, HRESULT st, OVERLAPPED *ov, DWORD ms)
{
	if (st != ND_PENDING)
		return st;
	st = wait_port(port, ov, ms);
	if (st == 1)
		die("a request still pending after its time");
	return st;
}

/* The next result of cq within ms. */
static int __attribute__((unused)) get_result(IND2CompletionQueue *cq, ND2_RESULT *r, DWORD ms)
{
	DWORD end = GetTickCount() + ms;

	do {
		if (cq->lpVtbl->GetResults(cq, r, 1) == 1)
			return 1;
		Sleep(0);
	} while (GetTickCount() < end);
	return 0;
}

#endif

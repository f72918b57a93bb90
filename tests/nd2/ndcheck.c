/* The ND2 rig programs' checks and waits (ndcheck.h). */
#include <winsock2.h>
#include <windows.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ndcheck.h"

const char *ndcheck_name = "?";
int ndcheck_failures;
ULONG_PTR ndcheck_key;

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

/* Packets taken off the port while waiting for another OVERLAPPED, with
 * what GetQueuedCompletionStatus said for each. */
static struct {
	OVERLAPPED *ov;
	BOOL ok;
} seen[64];
static int nseen;

HRESULT wait_packet(HANDLE port, OVERLAPPED *ov, DWORD ms, BOOL *packet_ok)
{
	DWORD bytes, end = GetTickCount() + ms;
	ULONG_PTR key;
	OVERLAPPED *got;
	BOOL ok;
	int i;

	for (i = 0; i < nseen; i++)
		if (seen[i].ov == ov) {
			if (packet_ok)
				*packet_ok = seen[i].ok;
			seen[i] = seen[--nseen];
			return (HRESULT)ov->Internal;
		}
	for (;;) {
		DWORD now = GetTickCount();

		got = NULL;
		ok = GetQueuedCompletionStatus(port, &bytes, &key, &got, now < end ? end - now : 0);
		if (!got)
			return 1;
		if (ndcheck_key && key != ndcheck_key)
			note("packet with key %lu", (unsigned long)key);
		if (got == ov) {
			if (packet_ok)
				*packet_ok = ok;
			return (HRESULT)ov->Internal;
		}
		if (nseen < 64) {
			seen[nseen].ov = got;
			seen[nseen++].ok = ok;
		}
	}
}

HRESULT wait_port(HANDLE port, OVERLAPPED *ov, DWORD ms)
{
	return wait_packet(port, ov, ms, NULL);
}

int no_packet(HANDLE port, DWORD ms)
{
	DWORD bytes;
	ULONG_PTR key;
	OVERLAPPED *got = NULL;
	BOOL ok;

	ok = GetQueuedCompletionStatus(port, &bytes, &key, &got, ms);
	if (got && nseen < 64) {
		seen[nseen].ov = got;
		seen[nseen++].ok = ok;
	}
	return got == NULL;
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

struct sockaddr_in addr_of(const char *ip, USHORT port)
{
	struct sockaddr_in a;

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons(port);
	a.sin_addr.s_addr = inet_addr(ip);
	return a;
}

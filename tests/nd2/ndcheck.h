/* What an ND2 rig program needs besides the provider (ndcheck.c): "ok:" /
 * "FAIL:" lines, waiting for one OVERLAPPED's packet on a completion port
 * while keeping the others, and polling a CQ.  The program sets
 * ndcheck_name, the prefix of every line, before its first check. */
#ifndef NDSHIM_TESTS_NDCHECK_H
#define NDSHIM_TESTS_NDCHECK_H

#include <winsock2.h>
#include <windows.h>

#include "ndspi.h"

extern const char *ndcheck_name;
extern int ndcheck_failures;
/* The completion key the program gave its files: a packet with another
 * one is noted (0: any key). */
extern ULONG_PTR ndcheck_key;

void check(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* What a line cannot say by itself (a check not made, and why): indented,
 * so the suites show it. */
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void die(const char *what) __attribute__((noreturn));
/* The ND status of ov once its packet is on port, or 1 after ms (0: only
 * what is queued now). */
HRESULT wait_port(HANDLE port, OVERLAPPED *ov, DWORD ms);
/* wait_port, and what GetQueuedCompletionStatus returned for ov's packet
 * (untouched after a timeout). */
HRESULT wait_packet(HANDLE port, OVERLAPPED *ov, DWORD ms, BOOL *packet_ok);
/* No packet arrives on port within ms (one that does is kept for a later
 * wait). */
int no_packet(HANDLE port, DWORD ms);
/* st, or the final status of a pending request.  One still pending after
 * ms would write into a stack frame that is gone: the run stops there. */
HRESULT wait_ov(HANDLE port, HRESULT st, OVERLAPPED *ov, DWORD ms);
/* The next result of cq within ms. */
int get_result(IND2CompletionQueue *cq, ND2_RESULT *r, DWORD ms);
struct sockaddr_in addr_of(const char *ip, USHORT port);

#endif

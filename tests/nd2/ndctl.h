/* The TCP control connection two rig processes keep in step over
 * (ndctl.c): ND has no way to say "I released my connector" or "I posted
 * my receives", and timing guesses fail under TCG. */
#ifndef NDSHIM_TESTS_NDCTL_H
#define NDSHIM_TESTS_NDCTL_H

#include <winsock2.h>
#include <windows.h>

/* The server listens on ip:port and takes one connection; the client
 * tries peer:port tries times, half a second apart.  A receive that waits
 * longer than recv_ms fails, so a peer that never answers ends the run
 * instead of hanging it.  Any failure stops the run (die). */
SOCKET ctl_connect(const char *ip, const char *peer, USHORT port, int serve, int tries, DWORD recv_ms);
/* All n bytes: 1, or 0 at end of stream, on an error or after the timeout. */
int ctl_read(SOCKET so, void *p, int n);
/* The peer process has ended (its socket closed with it) within ms. */
int ctl_closed(SOCKET so, DWORD ms);

#endif

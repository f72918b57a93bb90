/* WSADuplicateSocket: a socket for another process (or this one), which
 * gets it with WSASocket(FROM_PROTOCOL_INFO, ..., &info).  The fd goes
 * over the target's handle server (kernel32/duphandle.c) and waits there
 * under a token, carried in the WSAPROTOCOL_INFO's dwProviderReserved,
 * the field Windows leaves to the provider for exactly this. */
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>

#include "core/debug.h"
#include "core/klock.h"
#include "core/process.h"
#include "ws2_32/ws2_32_private.h"

int WINAPI WSADuplicateSocketW(SOCKET sock, DWORD pid, LPWSAPROTOCOL_INFOW info)
{
	struct ws_socket *s;
	uint32_t token;
	int meta[3];
	BOOL ok;

	TRACE(winsock, "%#lx to pid %u\n", (unsigned long)sock, (unsigned)pid);
	if (!info)
		return ws_fail(WSAEFAULT);
	if (!(s = ws_socket_get(sock)))
		return SOCKET_ERROR;
	/* A notify-only object has no Linux socket to hand on. */
	if (s->fd < 0 || !ws_catalog_find(s->family, s->type, s->protocol, info)) {
		object_unref(&s->obj);
		return ws_fail(WSAEINVAL);
	}
	klock(&s->lock);
	s->shared = true;
	kunlock(&s->lock);
	meta[0] = s->family;
	meta[1] = s->type;
	meta[2] = s->protocol;
	ok = duphandle_park_socket(pid, s->fd, meta, &token);
	object_unref(&s->obj);
	if (!ok) {
		TRACE(winsock, "pid %u cannot take it: error %u\n", (unsigned)pid, (unsigned)GetLastError());
		return ws_fail(WSAEINVAL);
	}
	info->dwProviderReserved = token;
	return 0;
}

int WINAPI WSADuplicateSocketA(SOCKET sock, DWORD pid, LPWSAPROTOCOL_INFOA info)
{
	WSAPROTOCOL_INFOW w;
	int r;

	if (!info)
		return ws_fail(WSAEFAULT);
	r = WSADuplicateSocketW(sock, pid, &w);
	if (r)
		return r;
	memcpy(info, &w, offsetof(WSAPROTOCOL_INFOW, szProtocol));
	WideCharToMultiByte(CP_ACP, 0, w.szProtocol, -1, info->szProtocol, sizeof(info->szProtocol), NULL, NULL);
	return 0;
}

SOCKET ws_socket_from_info(DWORD token, DWORD flags)
{
	int meta[3], fd = duphandle_take_socket(token, meta);

	/* Not one duplicated to us, or taken already. */
	if (fd < 0) {
		ws_fail(WSAEINVAL);
		return INVALID_SOCKET;
	}
	struct ws_socket *s;
	SOCKET sock = ws_socket_create(fd, meta[0], meta[1], meta[2], flags, &s);

	if (sock != INVALID_SOCKET) {
		struct sockaddr_storage peer;
		socklen_t len = sizeof(peer);
		int listening = 0;
		socklen_t ll = sizeof(listening);

		/* The state the source had, read back from the Linux socket. */
		getsockopt(s->fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &ll);
		klock(&s->lock);
		s->shared = true;
		s->listening = listening != 0;
		s->connected = meta[1] == WS_SOCK_STREAM && !getpeername(s->fd, (struct sockaddr *)&peer, &len);
		kunlock(&s->lock);
	}
	return sock;
}

/* getsockopt/setsockopt with Windows option numbers and value types:
 * BOOL and int options are 4 bytes, SO_LINGER is struct linger with
 * u_short fields, the timeouts are DWORD milliseconds. */
#include <errno.h>
#include <netinet/tcp.h>
#include <string.h>

#include "ws2_32/ws2_32_private.h"

#include "core/debug.h"
#include "core/errors.h"
#include "core/klock.h"

enum kind { K_BOOL, K_INT, K_BUF };

/* Options that are a plain Linux option of the same kind. */
static const struct {
	int level, name;   /* Windows */
	int ulevel, uname; /* Linux */
	enum kind kind;
} plain[] = {
	{ WS_SOL_SOCKET, WS_SO_BROADCAST, SOL_SOCKET, SO_BROADCAST, K_BOOL },
	{ WS_SOL_SOCKET, WS_SO_DONTROUTE, SOL_SOCKET, SO_DONTROUTE, K_BOOL },
	{ WS_SOL_SOCKET, WS_SO_KEEPALIVE, SOL_SOCKET, SO_KEEPALIVE, K_BOOL },
	{ WS_SOL_SOCKET, WS_SO_OOBINLINE, SOL_SOCKET, SO_OOBINLINE, K_BOOL },
	{ WS_SOL_SOCKET, WS_SO_REUSEADDR, SOL_SOCKET, SO_REUSEADDR, K_BOOL },
	{ WS_SOL_SOCKET, WS_SO_RCVBUF, SOL_SOCKET, SO_RCVBUF, K_BUF },
	{ WS_SOL_SOCKET, WS_SO_SNDBUF, SOL_SOCKET, SO_SNDBUF, K_BUF },
	{ WS_SOL_SOCKET, WS_SO_ERROR, SOL_SOCKET, SO_ERROR, K_INT },
	{ WS_IPPROTO_TCP, WS_TCP_NODELAY, IPPROTO_TCP, TCP_NODELAY, K_BOOL },
	{ WS_IPPROTO_IP, WS_IP_TTL, IPPROTO_IP, IP_TTL, K_INT },
	{ WS_IPPROTO_IP, WS_IP_TOS, IPPROTO_IP, IP_TOS, K_INT },
	{ WS_IPPROTO_IPV6, WS_IPV6_V6ONLY, IPPROTO_IPV6, IPV6_V6ONLY, K_BOOL },
	{ WS_IPPROTO_IPV6, WS_IPV6_UNICAST_HOPS, IPPROTO_IPV6, IPV6_UNICAST_HOPS, K_INT },
};

static int known_level(int level)
{
	return level == WS_SOL_SOCKET || level == WS_IPPROTO_TCP || level == WS_IPPROTO_IP ||
	       level == WS_IPPROTO_IPV6 || level == WS_IPPROTO_UDP;
}

static int get_int(struct ws_socket *s, int level, int name, int *v)
{
	socklen_t l = sizeof(*v);

	return getsockopt(s->fd, level, name, v, &l) < 0 ? wsa_error_from_errno(errno) : 0;
}

static int do_get(struct ws_socket *s, int level, int name, char *val, int *len)
{
	struct linger lg;
	socklen_t l;
	int v = 0, err;

	if (!val || !len)
		return WSAEFAULT;
	if (level == WS_SOL_SOCKET && (name == WS_SO_PROTOCOL_INFOW || name == WS_SO_PROTOCOL_INFOA)) {
		WSAPROTOCOL_INFOW info;
		int need = name == WS_SO_PROTOCOL_INFOW ? sizeof(WSAPROTOCOL_INFOW)
							: sizeof(WSAPROTOCOL_INFOA);

		if (*len < need) {
			*len = need;
			return WSAEFAULT;
		}
		if (!ws_catalog_find(s->family, s->type, s->protocol, &info))
			return WSAENOPROTOOPT;
		if (name == WS_SO_PROTOCOL_INFOW) {
			memcpy(val, &info, sizeof(info));
		} else {
			WSAPROTOCOL_INFOA *a = (WSAPROTOCOL_INFOA *)val;

			memcpy(a, &info, offsetof(WSAPROTOCOL_INFOA, szProtocol));
			for (int i = 0; i < WSAPROTOCOL_LEN + 1; i++)
				a->szProtocol[i] = (char)info.szProtocol[i];
		}
		*len = need;
		return 0;
	}
	if (*len < (int)sizeof(int))
		return WSAEFAULT;
	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++) {
		if (plain[i].level != level || plain[i].name != name)
			continue;
		err = get_int(s, plain[i].ulevel, plain[i].uname, &v);
		if (err)
			return err;
		if (plain[i].kind == K_BOOL)
			v = v ? TRUE : FALSE;
		else if (plain[i].kind == K_BUF)
			v /= 2; /* Linux reports twice what was set */
		else if (name == WS_SO_ERROR && level == WS_SOL_SOCKET)
			v = wsa_error_from_errno(v);
		goto store;
	}
	if (level != WS_SOL_SOCKET)
		return known_level(level) ? WSAENOPROTOOPT : WSAEINVAL;
	switch (name) {
	case WS_SO_ACCEPTCONN:
		v = s->listening;
		break;
	case WS_SO_TYPE:
		v = s->type;
		break;
	case WS_SO_RCVTIMEO:
		v = s->rcvtimeo;
		break;
	case WS_SO_SNDTIMEO:
		v = s->sndtimeo;
		break;
	case WS_SO_EXCLUSIVEADDRUSE:
		err = get_int(s, SOL_SOCKET, SO_REUSEADDR, &v);
		if (err)
			return err;
		v = !v;
		break;
	case WS_SO_LINGER:
	case WS_SO_DONTLINGER:
		l = sizeof(lg);
		if (getsockopt(s->fd, SOL_SOCKET, SO_LINGER, &lg, &l) < 0)
			return wsa_error_from_errno(errno);
		if (name == WS_SO_LINGER) {
			struct WS_linger wl = { lg.l_onoff ? 1 : 0, lg.l_linger };

			if (*len < (int)sizeof(wl))
				return WSAEFAULT;
			memcpy(val, &wl, sizeof(wl));
			*len = sizeof(wl);
			return 0;
		}
		v = !lg.l_onoff;
		break;
	default:
		return WSAENOPROTOOPT;
	}
store:
	memcpy(val, &v, sizeof(v));
	*len = sizeof(v);
	return 0;
}

static int do_set(struct ws_socket *s, int level, int name, const char *val, int len)
{
	struct linger lg;
	int v, one;

	/* Takes no value: ConnectEx's callers pass (NULL, 0).  Linux needs no
	 * update, the socket is complete once connected. */
	if (level == WS_SOL_SOCKET && name == WS_SO_UPDATE_CONNECT_CONTEXT)
		return s->connected ? 0 : WSAENOTCONN;
	if (!val)
		return WSAEFAULT;
	if (level == WS_SOL_SOCKET && name == WS_SO_LINGER) {
		struct WS_linger wl;

		if (len < (int)sizeof(wl))
			return WSAEFAULT;
		memcpy(&wl, val, sizeof(wl));
		lg.l_onoff = wl.l_onoff != 0;
		lg.l_linger = wl.l_linger;
		return setsockopt(s->fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg)) < 0
			       ? wsa_error_from_errno(errno) : 0;
	}
	if (len < (int)sizeof(int))
		return WSAEFAULT;
	memcpy(&v, val, sizeof(v));
	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++) {
		if (plain[i].level != level || plain[i].name != name)
			continue;
		if (name == WS_SO_ERROR && level == WS_SOL_SOCKET)
			return WSAENOPROTOOPT;
		if (plain[i].kind == K_BOOL)
			v = v != 0;
		if (setsockopt(s->fd, plain[i].ulevel, plain[i].uname, &v, sizeof(v)) < 0)
			return wsa_error_from_errno(errno);
		return 0;
	}
	if (level != WS_SOL_SOCKET)
		return known_level(level) ? WSAENOPROTOOPT : WSAEINVAL;
	switch (name) {
	case WS_SO_RCVTIMEO:
		s->rcvtimeo = v;
		return 0;
	case WS_SO_SNDTIMEO:
		s->sndtimeo = v;
		return 0;
	case WS_SO_EXCLUSIVEADDRUSE:
		/* Linux binds are exclusive unless SO_REUSEADDR is on. */
		one = 0;
		if (v && setsockopt(s->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0)
			return wsa_error_from_errno(errno);
		return 0;
	case WS_SO_DONTLINGER:
		lg.l_onoff = !v;
		lg.l_linger = 0;
		return setsockopt(s->fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg)) < 0
			       ? wsa_error_from_errno(errno) : 0;
	case WS_SO_UPDATE_ACCEPT_CONTEXT: {
		/* An AcceptEx socket is already a complete accepted socket
		 * here (names, options); the listener must still be valid. */
		SOCKET l;
		struct ws_socket *ls;

		if (len < (int)sizeof(SOCKET))
			return WSAEFAULT;
		memcpy(&l, val, sizeof(l));
		ls = ws_socket_get(l);
		if (!ls)
			return WSAENOTSOCK;
		object_unref(&ls->obj);
		return s->connected ? 0 : WSAENOTCONN;
	}
	}
	return WSAENOPROTOOPT;
}

int WINAPI WS_getsockopt(SOCKET sock, int level, int name, char *val, int *len)
{
	struct ws_socket *s = ws_socket_get(sock);
	int err;

	if (!s)
		return SOCKET_ERROR;
	TRACE(winsock, "%#lx %#x %#x\n", (unsigned long)sock, level, name);
	klock(&s->lock);
	err = do_get(s, level, name, val, len);
	kunlock(&s->lock);
	object_unref(&s->obj);
	return err ? ws_fail(err) : 0;
}

int WINAPI WS_setsockopt(SOCKET sock, int level, int name, const char *val, int len)
{
	struct ws_socket *s = ws_socket_get(sock);
	int err;

	if (!s)
		return SOCKET_ERROR;
	TRACE(winsock, "%#lx %#x %#x\n", (unsigned long)sock, level, name);
	klock(&s->lock);
	err = do_set(s, level, name, val, len);
	kunlock(&s->lock);
	object_unref(&s->obj);
	return err ? ws_fail(err) : 0;
}

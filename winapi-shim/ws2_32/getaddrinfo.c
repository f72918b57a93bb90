/* Name resolution through the Linux resolver: getaddrinfo, GetAddrInfoW,
 * freeaddrinfo, FreeAddrInfoW, gethostname.  Each result entry is one
 * allocation (entry, address, canonical name), freed one by one. */
#include <netdb.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <errno.h>

#include "ws2_32/ws2_32_private.h"

#include "core/codepage.h"
#include "core/debug.h"
#include "core/wstr.h"

static const struct {
	int ws, ux;
} ai_flag_map[] = {
	{ WS_AI_PASSIVE, AI_PASSIVE },
	{ WS_AI_CANONNAME, AI_CANONNAME },
	{ WS_AI_NUMERICHOST, AI_NUMERICHOST },
	{ WS_AI_NUMERICSERV, AI_NUMERICSERV },
	{ WS_AI_ALL, AI_ALL },
	{ WS_AI_ADDRCONFIG, AI_ADDRCONFIG },
	{ WS_AI_V4MAPPED, AI_V4MAPPED },
};

int ws_eai_to_wsa(int eai)
{
	switch (eai) {
	case 0: return 0;
	case EAI_AGAIN: return WSATRY_AGAIN;
	case EAI_BADFLAGS: return WSAEINVAL;
	case EAI_FAIL: return WSANO_RECOVERY;
	case EAI_FAMILY: return WSAEAFNOSUPPORT;
	case EAI_MEMORY: return WSA_NOT_ENOUGH_MEMORY;
	case EAI_SERVICE: return WSATYPE_NOT_FOUND;
	case EAI_SOCKTYPE: return WSAESOCKTNOSUPPORT;
	case EAI_NONAME:
	case EAI_NODATA:
	case EAI_ADDRFAMILY:
		return WSAHOST_NOT_FOUND;
	}
	return WSANO_RECOVERY;
}

static bool is_localhost(const char *node)
{
	return !strcasecmp(node, "localhost") || !strcasecmp(node, "localhost.");
}

/* Windows' resolver answers "localhost" itself (::1, then 127.0.0.1),
 * hosts file or not; Linux needs /etc/hosts for it, which a bare system
 * may lack.  So when the system resolver cannot, this answers. */
static int resolve_loopback(const char *service, const struct addrinfo *hints, struct addrinfo **res)
{
	struct addrinfo h = *hints, *v6 = NULL, *v4 = NULL, **tail;
	int err = 0;

	h.ai_flags = (h.ai_flags & ~AI_CANONNAME) | AI_NUMERICHOST;
	if (hints->ai_family != AF_INET && (err = getaddrinfo("::1", service, &h, &v6)))
		v6 = NULL;
	if (hints->ai_family != AF_INET6 && (err = getaddrinfo("127.0.0.1", service, &h, &v4)))
		v4 = NULL;
	if (!v6 && !v4)
		return ws_eai_to_wsa(err);
	/* One list: glibc frees each entry on its own, so two chains join. */
	for (tail = &v6; *tail; tail = &(*tail)->ai_next)
		;
	*tail = v4;
	*res = v6;
	return 0;
}

/* Runs the Linux resolver with Windows hints (the ADDRINFOA/W prefix is
 * the same).  *res: Linux results; a WSA error or 0. */
static int resolve(const char *node, const char *service, const struct WS_addrinfo *hints,
		   struct addrinfo **res)
{
	struct addrinfo h = { 0 };
	int family = WS_AF_UNSPEC, err;

	if (!node && !service)
		return WSAHOST_NOT_FOUND;
	if (hints) {
		if (hints->ai_addrlen || hints->ai_canonname || hints->ai_addr || hints->ai_next)
			return WSANO_RECOVERY;
		for (size_t i = 0; i < sizeof(ai_flag_map) / sizeof(ai_flag_map[0]); i++)
			if (hints->ai_flags & ai_flag_map[i].ws)
				h.ai_flags |= ai_flag_map[i].ux;
		family = hints->ai_family;
		h.ai_socktype = hints->ai_socktype;
		h.ai_protocol = hints->ai_protocol;
	}
	h.ai_family = ws_family_to_unix(family);
	if (h.ai_family < 0)
		return WSAEAFNOSUPPORT;
	if (h.ai_socktype != 0 && h.ai_socktype != SOCK_STREAM && h.ai_socktype != SOCK_DGRAM)
		return WSAESOCKTNOSUPPORT;
	/* Windows gives one entry per address when no type is asked for;
	 * Linux gives one per type. */
	if (!h.ai_socktype && !h.ai_protocol)
		h.ai_socktype = SOCK_STREAM;
	err = ws_eai_to_wsa(getaddrinfo(node, service, &h, res));
	if (err == WSAHOST_NOT_FOUND && node && is_localhost(node))
		err = resolve_loopback(service, &h, res);
	return err;
}

/* One Windows entry (ADDRINFOA or ADDRINFOW: same layout but for the
 * name's type) for a Linux entry; canon_size bytes for the name. */
static void *make_entry(const struct addrinfo *ai, const struct WS_addrinfo *hints, size_t canon_size,
			void **canon)
{
	int size = ws_sockaddr_size(ws_family_from_unix(ai->ai_family));
	struct WS_addrinfo *e;

	if (!size)
		return NULL;
	e = calloc(1, sizeof(*e) + size + canon_size);
	if (!e)
		return NULL;
	e->ai_family = ws_family_from_unix(ai->ai_family);
	if (hints && (hints->ai_socktype || hints->ai_protocol)) {
		e->ai_socktype = ai->ai_socktype;
		e->ai_protocol = ai->ai_protocol;
	}
	e->ai_addrlen = size;
	e->ai_addr = (struct WS_sockaddr *)(e + 1);
	ws_sockaddr_from_unix(ai->ai_addr, ai->ai_addrlen, e->ai_addr, &size);
	*canon = canon_size ? (char *)(e + 1) + e->ai_addrlen : NULL;
	return e;
}

int WINAPI WS_getaddrinfo(const char *node, const char *service, const struct WS_addrinfo *hints,
			  struct WS_addrinfo **out)
{
	struct WS_addrinfo *head = NULL, **tail = &head;
	struct addrinfo *res, *ai;
	int err;

	TRACE(winsock, "%s %s\n", node ? node : "(null)", service ? service : "(null)");
	if (!out) {
		SetLastError(WSA_INVALID_PARAMETER);
		return WSA_INVALID_PARAMETER;
	}
	*out = NULL;
	err = resolve(node, service, hints, &res);
	if (err) {
		SetLastError(err);
		return err;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		size_t cl = ai->ai_canonname ? strlen(ai->ai_canonname) + 1 : 0;
		void *canon;
		struct WS_addrinfo *e = make_entry(ai, hints, cl, &canon);

		if (!e)
			continue;
		if (canon) {
			memcpy(canon, ai->ai_canonname, cl);
			e->ai_canonname = canon;
		}
		e->ai_flags = ai == res && hints ? (hints->ai_flags & WS_AI_CANONNAME) : 0;
		*tail = e;
		tail = &e->ai_next;
	}
	freeaddrinfo(res);
	if (!head) {
		SetLastError(WSAHOST_NOT_FOUND);
		return WSAHOST_NOT_FOUND;
	}
	*out = head;
	return 0;
}

void WINAPI WS_freeaddrinfo(struct WS_addrinfo *ai)
{
	while (ai) {
		struct WS_addrinfo *next = ai->ai_next;

		free(ai);
		ai = next;
	}
}

int WINAPI GetAddrInfoW(PCWSTR node, PCWSTR service, const ADDRINFOW *hints, PADDRINFOW *out)
{
	char *n = NULL, *s = NULL;
	struct addrinfo *res = NULL, *ai;
	ADDRINFOW *head = NULL, **tail = &head;
	int err;

	if (!out) {
		SetLastError(WSA_INVALID_PARAMETER);
		return WSA_INVALID_PARAMETER;
	}
	*out = NULL;
	if ((node && !(n = utf16_to_utf8_dup(node))) || (service && !(s = utf16_to_utf8_dup(service)))) {
		err = WSA_NOT_ENOUGH_MEMORY;
		goto out;
	}
	err = resolve(n, s, (const struct WS_addrinfo *)hints, &res);
	if (err)
		goto out;
	for (ai = res; ai; ai = ai->ai_next) {
		WCHAR *wc = ai->ai_canonname ? utf8_to_utf16_dup(ai->ai_canonname) : NULL;
		size_t cl = wc ? (wstr_len(wc) + 1) * sizeof(WCHAR) : 0;
		void *canon;
		ADDRINFOW *e = make_entry(ai, (const struct WS_addrinfo *)hints, cl, &canon);

		if (e && canon) {
			memcpy(canon, wc, cl);
			e->ai_canonname = canon;
		}
		free(wc);
		if (!e)
			continue;
		*tail = e;
		tail = &e->ai_next;
	}
	if (!head)
		err = WSAHOST_NOT_FOUND;
out:
	if (res)
		freeaddrinfo(res);
	free(n);
	free(s);
	if (err) {
		SetLastError(err);
		return err;
	}
	*out = head;
	return 0;
}

void WINAPI FreeAddrInfoW(PADDRINFOW ai)
{
	WS_freeaddrinfo((struct WS_addrinfo *)ai);
}

int WINAPI WS_gethostname(char *name, int len)
{
	char buf[256];

	if (!name)
		return ws_fail(WSAEFAULT);
	if (gethostname(buf, sizeof(buf)) < 0)
		return ws_fail_errno(errno);
	buf[sizeof(buf) - 1] = 0;
	if (len <= 0 || strlen(buf) + 1 > (size_t)len)
		return ws_fail(WSAEFAULT);
	strcpy(name, buf);
	return 0;
}

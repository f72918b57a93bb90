/* String bindings, "[ObjUuid@]ProtSeq:[NetworkAddr][[Endpoint][,Options]]",
 * and the strings rpcrt4 hands out (freed with RpcStringFree). */
#include <stdlib.h>
#include <string.h>

#include "core/wstr.h"
#include "rpcrt4/rpcrt4_private.h"

WCHAR *rpc_wstrdup(const WCHAR *s)
{
	return wstr_dup(s ? s : u"");
}

WCHAR *rpc_wstr_from_a(const unsigned char *s)
{
	size_t n = s ? strlen((const char *)s) : 0;
	WCHAR *w = malloc((n + 1) * sizeof(WCHAR));

	/* RPC strings are ASCII: protocol sequences, addresses, UUIDs. */
	for (size_t i = 0; w && i <= n; i++)
		w[i] = i < n ? s[i] : 0;
	return w;
}

unsigned char *rpc_astr_from_w(const WCHAR *s)
{
	size_t n = s ? wstr_len(s) : 0;
	unsigned char *a = malloc(n + 1);

	for (size_t i = 0; a && i <= n; i++)
		a[i] = (unsigned char)(i < n ? (s[i] < 0x80 ? s[i] : '?') : 0);
	return a;
}

RPC_STATUS WINAPI RpcStringFreeW(RPC_WSTR *s)
{
	if (!s)
		return RPC_S_INVALID_ARG;
	free(*s);
	*s = NULL;
	return RPC_S_OK;
}

RPC_STATUS WINAPI RpcStringFreeA(RPC_CSTR *s)
{
	if (!s)
		return RPC_S_INVALID_ARG;
	free(*s);
	*s = NULL;
	return RPC_S_OK;
}

static size_t len0(const WCHAR *s)
{
	return s ? wstr_len(s) : 0;
}

static WCHAR *append(WCHAR *p, const WCHAR *s)
{
	size_t n = len0(s);

	memcpy(p, s, n * sizeof(WCHAR));
	return p + n;
}

RPC_STATUS WINAPI RpcStringBindingComposeW(RPC_WSTR obj_uuid, RPC_WSTR protseq, RPC_WSTR addr, RPC_WSTR endpoint,
					   RPC_WSTR options, RPC_WSTR *binding)
{
	size_t n = len0(obj_uuid) + len0(protseq) + len0(addr) + len0(endpoint) + len0(options) + 8;
	WCHAR *s = malloc(n * sizeof(WCHAR)), *p = s;

	if (!binding)
		return RPC_S_INVALID_ARG;
	if (!s)
		return RPC_S_OUT_OF_MEMORY;
	if (len0(obj_uuid)) {
		p = append(p, obj_uuid);
		*p++ = '@';
	}
	if (len0(protseq)) {
		p = append(p, protseq);
		*p++ = ':';
	}
	p = append(p, addr);
	if (len0(endpoint) || len0(options)) {
		*p++ = '[';
		p = append(p, endpoint);
		if (len0(options)) {
			*p++ = ',';
			p = append(p, options);
		}
		*p++ = ']';
	}
	*p = 0;
	*binding = s;
	return RPC_S_OK;
}

static WCHAR *dup_n(const WCHAR *s, size_t n)
{
	WCHAR *d = malloc((n + 1) * sizeof(WCHAR));

	if (d) {
		memcpy(d, s, n * sizeof(WCHAR));
		d[n] = 0;
	}
	return d;
}

static const WCHAR *find(const WCHAR *s, WCHAR c)
{
	for (; *s; s++)
		if (*s == c)
			return s;
	return NULL;
}

/* Splits a string binding into its five parts (each malloc'd, "" when
 * absent); RPC_S_INVALID_STRING_BINDING when it has no protocol sequence
 * or a bracket is not closed at the end. */
static RPC_STATUS split(const WCHAR *s, WCHAR *part[5])
{
	const WCHAR *at = find(s, '@'), *colon, *open, *close;
	const WCHAR *start[5] = { u"", u"", u"", u"", u"" };
	size_t len[5] = { 0 };

	if (at && (!find(s, ':') || at < find(s, ':'))) {
		start[0] = s;
		len[0] = at - s;
		s = at + 1;
	}
	colon = find(s, ':');
	if (!colon || colon == s)
		return RPC_S_INVALID_STRING_BINDING;
	start[1] = s;
	len[1] = colon - s;
	s = colon + 1;
	open = find(s, '[');
	start[2] = s;
	len[2] = open ? (size_t)(open - s) : len0(s);
	if (open) {
		const WCHAR *comma;

		close = find(open, ']');
		if (!close || close[1])
			return RPC_S_INVALID_STRING_BINDING;
		comma = find(open, ',');
		if (comma && comma > close)
			comma = NULL;
		start[3] = open + 1;
		len[3] = (comma ? comma : close) - (open + 1);
		if (comma) {
			start[4] = comma + 1;
			len[4] = close - (comma + 1);
		}
	}
	for (int i = 0; i < 5; i++) {
		if (!(part[i] = dup_n(start[i], len[i]))) {
			while (i--)
				free(part[i]);
			return RPC_S_OUT_OF_MEMORY;
		}
	}
	return RPC_S_OK;
}

RPC_STATUS WINAPI RpcStringBindingParseW(RPC_WSTR binding, RPC_WSTR *obj_uuid, RPC_WSTR *protseq, RPC_WSTR *addr,
					 RPC_WSTR *endpoint, RPC_WSTR *options)
{
	RPC_WSTR *out[5] = { obj_uuid, protseq, addr, endpoint, options };
	WCHAR *part[5];
	RPC_STATUS st;

	if (!binding)
		return RPC_S_INVALID_STRING_BINDING;
	if ((st = split(binding, part)) != RPC_S_OK)
		return st;
	for (int i = 0; i < 5; i++) {
		if (out[i])
			*out[i] = part[i];
		else
			free(part[i]);
	}
	return RPC_S_OK;
}

RPC_STATUS WINAPI RpcStringBindingComposeA(RPC_CSTR obj_uuid, RPC_CSTR protseq, RPC_CSTR addr, RPC_CSTR endpoint,
					   RPC_CSTR options, RPC_CSTR *binding)
{
	RPC_CSTR in[5] = { obj_uuid, protseq, addr, endpoint, options };
	WCHAR *w[5] = { NULL }, *wb = NULL;
	RPC_STATUS st = RPC_S_OUT_OF_MEMORY;

	for (int i = 0; i < 5; i++)
		if (in[i] && !(w[i] = rpc_wstr_from_a(in[i])))
			goto out;
	st = RpcStringBindingComposeW(w[0], w[1], w[2], w[3], w[4], &wb);
	if (st == RPC_S_OK && !(*binding = rpc_astr_from_w(wb)))
		st = RPC_S_OUT_OF_MEMORY;
out:
	for (int i = 0; i < 5; i++)
		free(w[i]);
	free(wb);
	return st;
}

RPC_STATUS WINAPI RpcStringBindingParseA(RPC_CSTR binding, RPC_CSTR *obj_uuid, RPC_CSTR *protseq, RPC_CSTR *addr,
					 RPC_CSTR *endpoint, RPC_CSTR *options)
{
	RPC_CSTR *out[5] = { obj_uuid, protseq, addr, endpoint, options };
	WCHAR *wb, *part[5];
	RPC_STATUS st;

	if (!binding)
		return RPC_S_INVALID_STRING_BINDING;
	if (!(wb = rpc_wstr_from_a(binding)))
		return RPC_S_OUT_OF_MEMORY;
	st = split(wb, part);
	free(wb);
	if (st != RPC_S_OK)
		return st;
	for (int i = 0; i < 5; i++) {
		if (out[i] && !(*out[i] = rpc_astr_from_w(part[i])))
			st = RPC_S_OUT_OF_MEMORY;
		free(part[i]);
	}
	return st;
}

/* UUIDs: UuidCreate (random, version 4), the string forms, comparison. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/guidtext.h"
#include "core/random.h"
#include "rpcrt4/rpcrt4_private.h"

RPC_STATUS WINAPI UuidCreate(UUID *uuid)
{
	random_fill(uuid, sizeof(*uuid));
	/* RFC 4122: version 4 (random) in the top nibble of Data3, the
	 * variant 10x in the top bits of Data4[0]. */
	uuid->Data3 = (uuid->Data3 & 0x0fff) | 0x4000;
	uuid->Data4[0] = (uuid->Data4[0] & 0x3f) | 0x80;
	return RPC_S_OK;
}

RPC_STATUS WINAPI UuidCreateNil(UUID *uuid)
{
	memset(uuid, 0, sizeof(*uuid));
	return RPC_S_OK;
}

static const UUID nil_uuid;

/* NULL stands for the nil UUID in the comparisons. */
int WINAPI UuidCompare(UUID *a, UUID *b, RPC_STATUS *status)
{
	const UUID *x = a ? a : &nil_uuid, *y = b ? b : &nil_uuid;

	*status = RPC_S_OK;
	if (x->Data1 != y->Data1)
		return x->Data1 < y->Data1 ? -1 : 1;
	if (x->Data2 != y->Data2)
		return x->Data2 < y->Data2 ? -1 : 1;
	if (x->Data3 != y->Data3)
		return x->Data3 < y->Data3 ? -1 : 1;
	for (int i = 0; i < 8; i++)
		if (x->Data4[i] != y->Data4[i])
			return x->Data4[i] < y->Data4[i] ? -1 : 1;
	return 0;
}

int WINAPI UuidEqual(UUID *a, UUID *b, RPC_STATUS *status)
{
	return !UuidCompare(a, b, status);
}

int WINAPI UuidIsNil(UUID *uuid, RPC_STATUS *status)
{
	return !UuidCompare(uuid, NULL, status);
}

/* "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", no braces; NULL is the nil UUID. */
static RPC_STATUS uuid_parse(const WCHAR *s, UUID *uuid)
{
	if (!s) {
		memset(uuid, 0, sizeof(*uuid));
		return RPC_S_OK;
	}
	return guid_from_text(s, uuid) && !s[36] ? RPC_S_OK : RPC_S_INVALID_STRING_UUID;
}

RPC_STATUS WINAPI UuidFromStringW(RPC_WSTR s, UUID *uuid)
{
	return uuid_parse(s, uuid);
}

RPC_STATUS WINAPI UuidFromStringA(RPC_CSTR s, UUID *uuid)
{
	WCHAR w[40];
	size_t i = 0;

	if (!s)
		return uuid_parse(NULL, uuid);
	/* Longer than 36 characters cannot be a UUID: keep one more to see it. */
	for (; i < 37 && s[i]; i++)
		w[i] = s[i];
	w[i] = 0;
	return uuid_parse(w, uuid);
}

static void uuid_format(const UUID *u, char out[37])
{
	snprintf(out, 37, "%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x", (unsigned)u->Data1, u->Data2, u->Data3,
		 u->Data4[0], u->Data4[1], u->Data4[2], u->Data4[3], u->Data4[4], u->Data4[5], u->Data4[6],
		 u->Data4[7]);
}

RPC_STATUS WINAPI UuidToStringA(UUID *uuid, RPC_CSTR *s)
{
	char buf[37];

	uuid_format(uuid ? uuid : &nil_uuid, buf);
	if (!(*s = (RPC_CSTR)strdup(buf)))
		return RPC_S_OUT_OF_MEMORY;
	return RPC_S_OK;
}

RPC_STATUS WINAPI UuidToStringW(UUID *uuid, RPC_WSTR *s)
{
	char buf[37];

	uuid_format(uuid ? uuid : &nil_uuid, buf);
	if (!(*s = rpc_wstr_from_a((const unsigned char *)buf)))
		return RPC_S_OUT_OF_MEMORY;
	return RPC_S_OK;
}

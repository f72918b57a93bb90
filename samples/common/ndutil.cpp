/* ndutil: the small helpers the samples share (status names, address
 * text); discovery is the SDK's (sdk/libnd2, ndsupport.h). */
#include "ndutil.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers ---------------------------------------------------------------- */

static const struct {
	HRESULT hr;
	const char *name;
} status_names[] = {
#define S(x) { x, #x }
	S(ND_SUCCESS), S(ND_TIMEOUT), S(ND_PENDING), S(ND_BUFFER_OVERFLOW), S(ND_DEVICE_BUSY),
	S(ND_NO_MORE_ENTRIES), S(ND_UNSUCCESSFUL), S(ND_ACCESS_VIOLATION), S(ND_INVALID_HANDLE),
	S(ND_INVALID_PARAMETER), S(ND_INVALID_DEVICE_REQUEST), S(ND_NO_MEMORY),
	S(ND_INVALID_PARAMETER_MIX), S(ND_DATA_OVERRUN), S(ND_SHARING_VIOLATION),
	S(ND_INSUFFICIENT_RESOURCES), S(ND_DEVICE_NOT_READY), S(ND_IO_TIMEOUT), S(ND_NOT_SUPPORTED),
	S(ND_INTERNAL_ERROR), S(ND_INVALID_PARAMETER_1), S(ND_INVALID_PARAMETER_2),
	S(ND_INVALID_PARAMETER_3), S(ND_INVALID_PARAMETER_4), S(ND_INVALID_PARAMETER_5),
	S(ND_INVALID_PARAMETER_6), S(ND_INVALID_PARAMETER_7), S(ND_INVALID_PARAMETER_8),
	S(ND_INVALID_PARAMETER_9), S(ND_INVALID_PARAMETER_10), S(ND_CANCELED), S(ND_REMOTE_ERROR),
	S(ND_INVALID_ADDRESS), S(ND_INVALID_DEVICE_STATE), S(ND_INVALID_BUFFER_SIZE),
	S(ND_TOO_MANY_ADDRESSES), S(ND_ADDRESS_ALREADY_EXISTS), S(ND_CONNECTION_REFUSED),
	S(ND_CONNECTION_INVALID), S(ND_CONNECTION_ACTIVE), S(ND_NETWORK_UNREACHABLE),
	S(ND_HOST_UNREACHABLE), S(ND_CONNECTION_ABORTED), S(ND_DEVICE_REMOVED),
#undef S
	{ (HRESULT)0xC000003EL, "STATUS_DATA_ERROR" },
	{ (HRESULT)0xC00000CCL, "STATUS_BAD_NETWORK_NAME" },
	{ (HRESULT)0xC000020CL, "STATUS_CONNECTION_DISCONNECTED" },
	{ (HRESULT)0xC0000238L, "STATUS_ADDRESS_ALREADY_ASSOCIATED" },
	{ (HRESULT)0xC0000135L, "STATUS_DLL_NOT_FOUND" },
	{ HRESULT_FROM_WIN32(ERROR_MOD_NOT_FOUND), "HRESULT_FROM_WIN32(ERROR_MOD_NOT_FOUND)" },
	{ HRESULT_FROM_WIN32(ERROR_PROC_NOT_FOUND), "HRESULT_FROM_WIN32(ERROR_PROC_NOT_FOUND)" },
	{ E_NOINTERFACE, "E_NOINTERFACE" },
	{ CLASS_E_CLASSNOTAVAILABLE, "CLASS_E_CLASSNOTAVAILABLE" },
};

const char *NdStatusName(HRESULT hr)
{
	for (size_t i = 0; i < sizeof(status_names) / sizeof(status_names[0]); i++) {
		if (status_names[i].hr == hr)
			return status_names[i].name;
	}
	return NULL;
}

const char *NdStatusString(HRESULT hr)
{
	static char buffers[4][96];
	static unsigned next;
	char *b = buffers[next++ % 4];
	const char *name = NdStatusName(hr);

	if (name)
		snprintf(b, sizeof(buffers[0]), "0x%08lX (%s)", (unsigned long)hr, name);
	else
		snprintf(b, sizeof(buffers[0]), "0x%08lX", (unsigned long)hr);
	return b;
}

const char *NdAddressString(const struct sockaddr *address, char *buffer, size_t size)
{
	char host[INET6_ADDRSTRLEN] = "?";
	USHORT port = 0;

	if (address->sa_family == AF_INET) {
		const sockaddr_in *in = (const sockaddr_in *)address;

		inet_ntop(AF_INET, (void *)&in->sin_addr, host, sizeof(host));
		port = ntohs(in->sin_port);
		if (port)
			snprintf(buffer, size, "%s:%u", host, port);
		else
			snprintf(buffer, size, "%s", host);
	} else if (address->sa_family == AF_INET6) {
		const sockaddr_in6 *in6 = (const sockaddr_in6 *)address;
		char scope[16] = "";

		inet_ntop(AF_INET6, (void *)&in6->sin6_addr, host, sizeof(host));
		if (in6->sin6_scope_id)
			snprintf(scope, sizeof(scope), "%%%lu", (unsigned long)in6->sin6_scope_id);
		port = ntohs(in6->sin6_port);
		if (port)
			snprintf(buffer, size, "[%s%s]:%u", host, scope, port);
		else
			snprintf(buffer, size, "%s%s", host, scope);
	} else {
		snprintf(buffer, size, "(family %u)", address->sa_family);
	}
	return buffer;
}

BOOL NdParseAddress(const char *text, USHORT defaultPort, SOCKADDR_INET *out, int *length)
{
	char host[INET6_ADDRSTRLEN + 2];
	const char *port = NULL, *colon;
	unsigned long value = defaultPort;
	size_t n;

	memset(out, 0, sizeof(*out));
	if (text[0] == '[') {
		const char *end = strchr(text, ']');

		if (!end || (end[1] && end[1] != ':'))
			return FALSE;
		n = end - text - 1;
		if (end[1] == ':')
			port = end + 2;
		text++;
	} else {
		colon = strchr(text, ':');
		/* One colon separates a port; more make an IPv6 address. */
		if (colon && !strchr(colon + 1, ':')) {
			n = colon - text;
			port = colon + 1;
		} else {
			n = strlen(text);
		}
	}
	if (n == 0 || n >= sizeof(host))
		return FALSE;
	memcpy(host, text, n);
	host[n] = 0;
	if (port) {
		char *end;

		value = strtoul(port, &end, 10);
		if (!*port || *end || value > 65535)
			return FALSE;
	}
	if (inet_pton(AF_INET, host, &out->Ipv4.sin_addr) == 1) {
		out->Ipv4.sin_family = AF_INET;
		out->Ipv4.sin_port = htons((USHORT)value);
		*length = sizeof(out->Ipv4);
		return TRUE;
	}
	if (inet_pton(AF_INET6, host, &out->Ipv6.sin6_addr) == 1) {
		out->Ipv6.sin6_family = AF_INET6;
		out->Ipv6.sin6_port = htons((USHORT)value);
		*length = sizeof(out->Ipv6);
		return TRUE;
	}
	return FALSE;
}

const char *NdGuidString(const GUID *g, char *buffer, size_t size)
{
	snprintf(buffer, size, "{%08lX-%04X-%04X-%02X%02X-%02X%02X%02X%02X%02X%02X}",
		 (unsigned long)g->Data1, g->Data2, g->Data3, g->Data4[0], g->Data4[1], g->Data4[2],
		 g->Data4[3], g->Data4[4], g->Data4[5], g->Data4[6], g->Data4[7]);
	return buffer;
}

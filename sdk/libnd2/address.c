/* Addresses: the list of every ND address, checking and resolving one,
 * and opening the adapter that owns it. */
#include <stddef.h>
#include <string.h>

#include "nd2_private.h"

static bool same_address(const struct sockaddr *a, const struct sockaddr *b)
{
	if (a->sa_family != b->sa_family)
		return false;
	if (a->sa_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr == ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	if (a->sa_family == AF_INET6) {
		const struct sockaddr_in6 *x = (const struct sockaddr_in6 *)a, *y = (const struct sockaddr_in6 *)b;

		return !memcmp(&x->sin6_addr, &y->sin6_addr, sizeof(x->sin6_addr)) &&
		       (!x->sin6_scope_id || !y->sin6_scope_id || x->sin6_scope_id == y->sin6_scope_id);
	}
	return false;
}

static bool usable_address(const SOCKET_ADDRESS *a)
{
	if (!a->lpSockaddr)
		return false;
	if (a->lpSockaddr->sa_family == AF_INET)
		return a->iSockaddrLength >= (INT)sizeof(struct sockaddr_in);
	if (a->lpSockaddr->sa_family == AF_INET6)
		return a->iSockaddrLength >= (INT)sizeof(struct sockaddr_in6);
	return false;
}

static bool entry_has_address(const NdProviderEntry *e, const struct sockaddr *address)
{
	for (INT i = 0; e->addresses && i < e->addresses->iAddressCount; i++) {
		const SOCKET_ADDRESS *a = &e->addresses->Address[i];

		if (usable_address(a) && same_address(a->lpSockaddr, address))
			return true;
	}
	return false;
}

/* Whether flags leave entry e's addresses in.  No provider ndshim's
 * catalog lists is an emulator; ND_QUERY_EXCLUDE_EMULATOR_ADDRESSES has
 * nothing to remove. */
static bool entry_wanted(const NdProviderEntry *e, DWORD flags)
{
	if (libnd2_entry_is_v1(e))
		return !(flags & ND_QUERY_EXCLUDE_NDv1_ADDRESSES);
	return !(flags & ND_QUERY_EXCLUDE_NDv2_ADDRESSES);
}

HRESULT ND_HELPER_API NdQueryAddressList(DWORD flags, SOCKET_ADDRESS_LIST *list, SIZE_T *size)
{
	SIZE_T need = offsetof(SOCKET_ADDRESS_LIST, Address), data = 0;
	INT count = 0;
	char *p;

	if (!size)
		return ND_INVALID_PARAMETER;
	if (!libnd2.started)
		return ND_DEVICE_NOT_READY;
	libnd2_process_updates();
	for (ULONG i = 0; i < libnd2.count; i++) {
		const SOCKET_ADDRESS_LIST *l = libnd2.entries[i].addresses;

		if (!entry_wanted(&libnd2.entries[i], flags))
			continue;
		for (INT j = 0; l && j < l->iAddressCount; j++) {
			if (!usable_address(&l->Address[j]))
				continue;
			count++;
			data += l->Address[j].iSockaddrLength;
		}
	}
	if (!count) {
		*size = 0;
		return ND_SUCCESS;
	}
	need += count * sizeof(SOCKET_ADDRESS) + data;
	if (!list || *size < need) {
		*size = need;
		return ND_BUFFER_OVERFLOW;
	}
	list->iAddressCount = 0;
	p = (char *)&list->Address[count];
	/* ND v2 entries' addresses first, then v1's, as the SDK lists them. */
	for (ULONG k = 0; k < 2 * libnd2.count; k++) {
		const NdProviderEntry *e = &libnd2.entries[k % libnd2.count];
		const SOCKET_ADDRESS_LIST *l = e->addresses;

		if (libnd2_entry_is_v1(e) != (k >= libnd2.count) || !entry_wanted(e, flags))
			continue;
		for (INT j = 0; l && j < l->iAddressCount; j++) {
			const SOCKET_ADDRESS *a = &l->Address[j];

			if (!usable_address(a))
				continue;
			memcpy(p, a->lpSockaddr, a->iSockaddrLength);
			list->Address[list->iAddressCount].lpSockaddr = (LPSOCKADDR)p;
			list->Address[list->iAddressCount].iSockaddrLength = a->iSockaddrLength;
			list->iAddressCount++;
			p += a->iSockaddrLength;
		}
	}
	*size = need;
	return ND_SUCCESS;
}

HRESULT ND_HELPER_API NdCheckAddress(const struct sockaddr *address, SIZE_T length)
{
	if (!address || length < sizeof(struct sockaddr_in) ||
	    (address->sa_family == AF_INET6 && length < sizeof(struct sockaddr_in6)))
		return ND_INVALID_PARAMETER;
	if (!libnd2.started)
		return ND_DEVICE_NOT_READY;
	libnd2_process_updates();
	for (ULONG i = 0; i < libnd2.count; i++)
		if (entry_has_address(&libnd2.entries[i], address))
			return ND_SUCCESS;
	return ND_INVALID_ADDRESS;
}

HRESULT ND_HELPER_API NdResolveAddress(const struct sockaddr *remote, SIZE_T remote_length, struct sockaddr *local,
				       SIZE_T *local_length)
{
	SOCKADDR_STORAGE route;
	DWORD bytes = 0;
	SOCKET s;
	int err = 0;

	if (!remote || !local || !local_length)
		return ND_INVALID_PARAMETER;
	if (!libnd2.started)
		return ND_DEVICE_NOT_READY;
	s = WSASocketW(remote->sa_family, SOCK_STREAM, 0, NULL, 0, WSA_FLAG_OVERLAPPED);
	if (s == INVALID_SOCKET)
		return ND_INVALID_ADDRESS;
	if (WSAIoctl(s, SIO_ROUTING_INTERFACE_QUERY, (void *)remote, (DWORD)remote_length, &route, sizeof(route),
		     &bytes, NULL, NULL) == SOCKET_ERROR)
		err = WSAGetLastError();
	closesocket(s);
	if (err == WSAENETUNREACH)
		return ND_NETWORK_UNREACHABLE;
	if (err == WSAEHOSTUNREACH)
		return ND_HOST_UNREACHABLE;
	if (err)
		return ND_INVALID_ADDRESS;
	/* The route must leave through an address an ND adapter serves. */
	if (NdCheckAddress((struct sockaddr *)&route, bytes) != ND_SUCCESS)
		return ND_INVALID_ADDRESS;
	if (*local_length < bytes) {
		*local_length = bytes;
		return ND_BUFFER_OVERFLOW;
	}
	memcpy(local, &route, bytes);
	*local_length = bytes;
	return ND_SUCCESS;
}

HRESULT ND_HELPER_API NdOpenAdapter(REFIID iid, const struct sockaddr *address, SIZE_T length, VOID **adapter)
{
	bool v1 = IsEqualGUID(iid, &IID_INDAdapter);
	HRESULT hr;

	if (!adapter)
		return ND_INVALID_PARAMETER;
	*adapter = NULL;
	hr = NdCheckAddress(address, length);
	if (FAILED(hr))
		return hr;
	hr = ND_INVALID_ADDRESS;
	for (ULONG i = 0; i < libnd2.count; i++) {
		NdProviderEntry *e = &libnd2.entries[i];
		IUnknown *provider;
		UINT64 id;

		if (libnd2_entry_is_v1(e) != v1 || !entry_has_address(e, address))
			continue;
		hr = libnd2_open_entry(e, &provider);
		if (FAILED(hr))
			continue;
		if (v1) {
			NdV1Provider *p = (NdV1Provider *)provider;

			hr = p->lpVtbl->OpenAdapter(p, address, length, (INDAdapter **)adapter);
		} else {
			IND2Provider *p = (IND2Provider *)provider;

			hr = p->lpVtbl->ResolveAddress(p, address, (ULONG)length, &id);
			if (SUCCEEDED(hr))
				hr = p->lpVtbl->OpenAdapter(p, iid, id, adapter);
		}
		/* The adapter holds the provider's DLL: it stays loaded until
		 * the adapter goes and NdFlushProviders or a rescan unloads it. */
		libnd2_close_entry(e, provider);
		if (SUCCEEDED(hr))
			return hr;
		*adapter = NULL;
	}
	return hr;
}

HRESULT ND_HELPER_API NdOpenV1Adapter(const struct sockaddr *address, SIZE_T length, INDAdapter **adapter)
{
	return NdOpenAdapter(&IID_INDAdapter, address, length, (VOID **)adapter);
}

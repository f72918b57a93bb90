/* ndutil: how an ND2 client finds NetworkDirect providers, their addresses
 * and adapters, shared by the samples.  It does what the ND SDK's own
 * helper does (CLIENT-BEHAVIOR.md, "Finding the provider"), in this order:
 *
 *   NdStartup      WSAStartup; a completion port watching the Winsock
 *                  catalog (WSAProviderConfigChange, key 0) and the address
 *                  list (SIO_ADDRESS_LIST_CHANGE on an overlapped socket,
 *                  key 1); a posted packet forces the first scan.
 *   every call     drains that port (timeout 0) and rescans when asked:
 *                  WSCEnumProtocols (size probe, then the ND v2 entries),
 *                  WSCGetProviderPath + ExpandEnvironmentStringsW,
 *                  LoadLibraryExW, DllGetClassObject(ProviderId,
 *                  IID_IND2Provider), QueryAddressList (ND_BUFFER_OVERFLOW
 *                  sizing); the provider object is released after each use
 *                  and the DLL freed when DllCanUnloadNow says S_OK.
 *   NdResolveAddress   SIO_ROUTING_INTERFACE_QUERY: the local ND address
 *                      that reaches a remote one.
 *   NdOpenAdapter      ResolveAddress + OpenAdapter on the provider that
 *                      owns the address.
 *   NdCleanup      closes it all and WSACleanup.
 *
 * Statuses are ND HRESULTs (ndstatus.h). */
#ifndef NDSAMPLES_NDUTIL_H
#define NDSAMPLES_NDUTIL_H

#include <winsock2.h>
#include <ws2tcpip.h>
#include <ws2spi.h>
#include <windows.h>

#include "ndspi.h"

/* One NetworkDirect v2 entry of the Winsock catalog. */
struct NdProviderEntry {
	WSAPROTOCOL_INFOW protocol;	/* as WSCEnumProtocols returned it */
	WCHAR path[MAX_PATH];		/* as WSCGetProviderPath returned it */
	WCHAR expandedPath[MAX_PATH];	/* after ExpandEnvironmentStringsW */
	HRESULT status;			/* of the last load and address query */
	SOCKET_ADDRESS_LIST *addresses;	/* its addresses (NULL: none) */
	/* Private: the loaded DLL while a provider object is out. */
	HMODULE module;
	HRESULT(WINAPI *getClassObject)(REFCLSID, REFIID, void **);
	HRESULT(WINAPI *canUnloadNow)(void);
};

/* NdQueryAddressList flags (the ND SDK's values). */
#define ND_QUERY_EXCLUDE_EMULATOR_ADDRESSES 0x00000001
#define ND_QUERY_EXCLUDE_NDv1_ADDRESSES     0x00000002
#define ND_QUERY_EXCLUDE_NDv2_ADDRESSES     0x00000004

HRESULT NdStartup(void);
HRESULT NdCleanup(void);

/* The catalog's ND v2 entries, in catalog order (valid until the next
 * Nd* call). */
ULONG NdGetProviderCount(void);
const NdProviderEntry *NdGetProvider(ULONG index);

/* Loads entry `index` and returns its IND2Provider; give it back with
 * NdReleaseProvider, which may unload the DLL. */
HRESULT NdOpenProvider(ULONG index, IND2Provider **provider);
void NdReleaseProvider(ULONG index, IND2Provider *provider);

/* Every provider's addresses in one list (ND_BUFFER_OVERFLOW and the size
 * when *size is too small; *size 0 when there are none). */
HRESULT NdQueryAddressList(DWORD flags, SOCKET_ADDRESS_LIST *list, SIZE_T *size);

/* The local ND address to reach remote: ND_INVALID_ADDRESS if the route
 * goes through an address no provider serves. */
HRESULT NdResolveAddress(const struct sockaddr *remote, SIZE_T remoteLength, struct sockaddr *local,
			 SIZE_T *localLength);

/* ND_SUCCESS when some provider serves address (port ignored). */
HRESULT NdCheckAddress(const struct sockaddr *address, SIZE_T length);

HRESULT NdOpenAdapter(REFIID iid, const struct sockaddr *address, SIZE_T length, void **adapter);

/* ---- small helpers the samples share ------------------------------------ */

/* "ND_CONNECTION_REFUSED" for 0xC0000236, NULL for a value it does not know. */
const char *NdStatusName(HRESULT hr);

/* "0xC0000236 (ND_CONNECTION_REFUSED)" into a static buffer per call site
 * (the returned pointer stays valid until the fourth next call). */
const char *NdStatusString(HRESULT hr);

/* "198.18.0.1", "198.18.0.1:4791", "[fe80::1%2]:4791" (port when nonzero). */
const char *NdAddressString(const struct sockaddr *address, char *buffer, size_t size);

/* Parses "ADDR", "ADDR:PORT", "[ADDR6]:PORT" (numeric only); the port is
 * defaultPort when absent.  FALSE for anything else. */
BOOL NdParseAddress(const char *text, USHORT defaultPort, SOCKADDR_INET *out, int *length);

/* GUIDs as the registry writes them: {BE02872B-9BB6-4666-A176-4E2C0487FE2A}. */
const char *NdGuidString(const GUID *guid, char *buffer, size_t size);

#endif

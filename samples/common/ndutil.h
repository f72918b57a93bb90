/* ndutil: helpers the samples share.  Finding providers, addresses and
 * adapters is the ND2 SDK's job (ndsupport.h, sdk/libnd2): NdStartup,
 * NdQueryAddressList, NdResolveAddress, NdOpenAdapter, ..., and ndcatalog.h
 * for the catalog entries ndinfo shows. */
#ifndef NDSAMPLES_NDUTIL_H
#define NDSAMPLES_NDUTIL_H

#include <winsock2.h>
#include <ws2tcpip.h>
#include <windows.h>

#include "ndcatalog.h"

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

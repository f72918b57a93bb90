/* ndshim's addition to ndsupport.h: the provider entries libnd2 keeps
 * behind the Nd* calls, for tools that show them (samples/ndinfo).  Not
 * part of Microsoft's SDK; programs meant to build against both use
 * ndsupport.h alone. */
#ifndef NDSHIM_NDCATALOG_H
#define NDSHIM_NDCATALOG_H

#include <ws2spi.h>

#include "ndsupport.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One NetworkDirect entry of the Winsock catalog (v2, or v1). */
typedef struct NdProviderEntry {
	WSAPROTOCOL_INFOW protocol;	/* as WSCEnumProtocols returned it */
	WCHAR path[MAX_PATH];		/* as WSCGetProviderPath returned it */
	WCHAR expandedPath[MAX_PATH];	/* after ExpandEnvironmentStringsW */
	HRESULT status;			/* of the last load and address query */
	SOCKET_ADDRESS_LIST *addresses;	/* its addresses (NULL: none) */
	/* Private: the loaded DLL while a provider object is out. */
	HMODULE module;
	HRESULT(WINAPI *getClassObject)(REFCLSID, REFIID, void **);
	HRESULT(WINAPI *canUnloadNow)(void);
} NdProviderEntry;

/* The catalog's ND entries, in catalog order (valid until the next Nd*
 * call). */
ULONG NdGetProviderCount(void);
const NdProviderEntry *NdGetProvider(ULONG index);

/* Loads ND v2 entry `index` and returns its IND2Provider; give it back
 * with NdReleaseProvider, which may unload the DLL. */
HRESULT NdOpenProvider(ULONG index, IND2Provider **provider);
void NdReleaseProvider(ULONG index, IND2Provider *provider);

#ifdef __cplusplus
}
#endif

#endif

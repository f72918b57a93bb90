/* libnd2's shared state: the provider list and the completion port that
 * tells it when to rescan (docs: CLIENT-BEHAVIOR.md, "Finding the
 * provider").  Single-threaded, like the ND SDK's helper: callers
 * serialise Nd* calls. */
#ifndef LIBND2_PRIVATE_H
#define LIBND2_PRIVATE_H

#include <winsock2.h>
#include <ws2tcpip.h>
#include <ws2spi.h>
#include <windows.h>
#include <stdbool.h>

#include "ndcatalog.h"

/* ND v1's provider, as far as discovery uses it (vtable order of
 * INDProvider: IUnknown, QueryAddressList, OpenAdapter). */
typedef struct NdV1Provider NdV1Provider;
struct NdV1ProviderVtbl {
	HRESULT(STDMETHODCALLTYPE *QueryInterface)(NdV1Provider *This, REFIID riid, void **out);
	ULONG(STDMETHODCALLTYPE *AddRef)(NdV1Provider *This);
	ULONG(STDMETHODCALLTYPE *Release)(NdV1Provider *This);
	HRESULT(STDMETHODCALLTYPE *QueryAddressList)(NdV1Provider *This, SOCKET_ADDRESS_LIST *list, SIZE_T *size);
	HRESULT(STDMETHODCALLTYPE *OpenAdapter)(NdV1Provider *This, const struct sockaddr *address, SIZE_T length,
						INDAdapter **adapter);
};
struct NdV1Provider {
	const struct NdV1ProviderVtbl *lpVtbl;
};

struct nd_state {
	bool started;
	HANDLE port;
	SOCKET sock;		/* carries SIO_ADDRESS_LIST_CHANGE */
	WSAOVERLAPPED addrOv;
	bool addrPending;
	HANDLE change;		/* WSAProviderConfigChange's handle */
	WSAOVERLAPPED changeOv;
	bool changePending;
	NdProviderEntry *entries;
	ULONG count;
};
extern struct nd_state libnd2;

/* catalog.c */
void libnd2_process_updates(void);
bool libnd2_entry_is_v1(const NdProviderEntry *e);
/* A provider object of entry e (IND2Provider or NdV1Provider), loading
 * its DLL; libnd2_close_entry releases it and unloads the DLL when it can. */
HRESULT libnd2_open_entry(NdProviderEntry *e, IUnknown **provider);
void libnd2_close_entry(NdProviderEntry *e, IUnknown *provider);

#endif

/* The ND SDK's helper API (ndsupport.h): finding NetworkDirect providers
 * through the Winsock catalog and opening adapters by address.  ndshim's
 * own header, written from the documented behaviour; the functions are in
 * libnd2.a (sdk/libnd2/), linked statically as ndutil.lib is on Windows.
 * Usable from mingw-w64 C and C++:
 *
 *     PKG_CONFIG_PATH=PREFIX/lib/pkgconfig x86_64-w64-mingw32-pkg-config --cflags --libs nd2
 *
 * Include <winsock2.h> and <ws2tcpip.h> first (SOCKET_ADDRESS_LIST,
 * struct sockaddr).  Statuses are ND HRESULTs (ndstatus.h). */
#ifndef NDSHIM_NDSUPPORT_H
#define NDSHIM_NDSUPPORT_H

#include "ndspi.h"

/* NdQueryAddressList flags. */
#define ND_QUERY_EXCLUDE_EMULATOR_ADDRESSES 0x00000001
#define ND_QUERY_EXCLUDE_NDv1_ADDRESSES     0x00000002
#define ND_QUERY_EXCLUDE_NDv2_ADDRESSES     0x00000004

#define ND_HELPER_API __stdcall

#ifdef __cplusplus
extern "C" {
#endif

/* ND v1's adapter: declared only as far as NdOpenV1Adapter needs it. */
#ifndef NDSHIM_INDADAPTER_DECLARED
#define NDSHIM_INDADAPTER_DECLARED
typedef struct INDAdapter INDAdapter;
#endif

/* Initialises Winsock and the provider list; call once before the others
 * (later calls succeed and do nothing). */
HRESULT ND_HELPER_API NdStartup(VOID);

/* Releases every provider and Winsock: the end of NdStartup's work. */
HRESULT ND_HELPER_API NdCleanup(VOID);

/* Unloads the provider DLLs that have no object in use. */
VOID ND_HELPER_API NdFlushProviders(VOID);

/* Every local address an ND provider serves, in one SOCKET_ADDRESS_LIST
 * (ND v2 providers first, then v1).  When *pcbAddressList is too small:
 * ND_BUFFER_OVERFLOW with the size needed; no address at all: ND_SUCCESS
 * with *pcbAddressList 0. */
HRESULT ND_HELPER_API NdQueryAddressList(DWORD flags, SOCKET_ADDRESS_LIST *pAddressList,
					 SIZE_T *pcbAddressList);

/* The local ND address that reaches pRemoteAddress (the system's route,
 * SIO_ROUTING_INTERFACE_QUERY): ND_INVALID_ADDRESS when that address is
 * not an ND one, ND_BUFFER_OVERFLOW when *pcbLocalAddress is too small. */
HRESULT ND_HELPER_API NdResolveAddress(const struct sockaddr *pRemoteAddress, SIZE_T cbRemoteAddress,
				       struct sockaddr *pLocalAddress, SIZE_T *pcbLocalAddress);

/* ND_SUCCESS when an ND provider serves pAddress (its port is ignored),
 * else ND_INVALID_ADDRESS. */
HRESULT ND_HELPER_API NdCheckAddress(const struct sockaddr *pAddress, SIZE_T cbAddress);

/* Opens the adapter that owns the local address pAddress: for
 * IID_IND2Adapter through the ND v2 providers (ResolveAddress +
 * OpenAdapter), for IID_INDAdapter through the v1 ones. */
HRESULT ND_HELPER_API NdOpenAdapter(REFIID iid, const struct sockaddr *pAddress, SIZE_T cbAddress,
				    VOID **ppIAdapter);

/* NdOpenAdapter(IID_INDAdapter, ...) for ND v1 clients. */
HRESULT ND_HELPER_API NdOpenV1Adapter(const struct sockaddr *pAddress, SIZE_T cbAddress, INDAdapter **ppIAdapter);

#ifdef __cplusplus
}
#endif

#endif

/* ndshim's NetworkDirect v2 provider, as the Winsock catalog lists it.
 *
 * The provider GUID is fixed: it is the ProviderId of the first ND v2
 * catalog entry, which the ND client passes to WSCGetProviderPath and, as
 * the rclsid, to the provider DLL's DllGetClassObject.  When several
 * providers are configured (NDSHIM_ND_PROVIDERS), entry i (from 0) has
 * this GUID with i added to its last byte; its ND v1 entry adds
 * NDSHIM_PROVIDER_V1_OFFSET too.
 *
 *   {BE02872B-9BB6-4666-A176-4E2C0487FE2A}
 *
 * Usable from mingw (the provider) and from host gcc (ws2_32). */
#ifndef NDSHIM_PROVIDER_H
#define NDSHIM_PROVIDER_H

#define NDSHIM_PROVIDER_GUID_INIT \
	{ 0xbe02872b, 0x9bb6, 0x4666, { 0xa1, 0x76, 0x4e, 0x2c, 0x04, 0x87, 0xfe, 0x2a } }

/* The DLL the default catalog entry names, found beside ndrun. */
#define NDSHIM_PROVIDER_DLL "nd2prov.dll"

/* Catalog entry name (WSAPROTOCOL_INFOW.szProtocol). */
#define NDSHIM_PROVIDER_NAME "ndshim NetworkDirect v2 (rdma-core)"

/* Each v2 entry has an ND v1 twin naming the same DLL: its GUID is the
 * v2 entry's with this added to the last byte (DllGetClassObject accepts
 * both, as it ignores that byte). */
#define NDSHIM_PROVIDER_V1_OFFSET 0x80
#define NDSHIM_PROVIDER_V1_NAME "ndshim NetworkDirect v1 (rdma-core)"
#define NDSHIM_ND_VERSION_1 0x1

/* ND v2 catalog entry fields the ND client checks (CLIENT-BEHAVIOR.md). */
#define NDSHIM_ND_VERSION_2 0x20000
#define NDSHIM_PFL_NETWORKDIRECT_PROVIDER 0x00000010

#endif

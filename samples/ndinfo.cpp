/* ndinfo: the NetworkDirect providers this machine has, their addresses,
 * and what each adapter can do (ND2_ADAPTER_INFO), like ibv_devinfo -v.
 *
 *   ndinfo          every provider of the Winsock catalog and its adapters
 *                   with their main limits
 *   ndinfo -v       everything: catalog fields and all of ND2_ADAPTER_INFO
 *   ndinfo -l       one line per adapter (like ibv_devinfo -l / ibv_devices)
 *
 * Exit status 0 when at least one adapter was opened and queried, 1 when
 * none was ("no NetworkDirect adapters found"), 2 for a bad command line. */
#include "common/ndutil.h"

#include <stdio.h>
#include <string.h>

#define MAX_ADAPTERS 16

static enum { SHOW_DEFAULT, SHOW_LIST, SHOW_VERBOSE } show = SHOW_DEFAULT;

struct Adapter {
	UINT64 id;
	ULONG nAddresses;
	const SOCKADDR *addresses[16];
};

static const char *FamilyName(int family)
{
	return family == AF_INET ? "AF_INET" : family == AF_INET6 ? "AF_INET6" : "?";
}

struct FlagName {
	ULONG bit;
	const char *name;
};

static void PrintFlags(ULONG flags, const FlagName *names, size_t n)
{
	printf("0x%08lX", (unsigned long)flags);
	for (size_t i = 0; i < n; i++) {
		if (flags & names[i].bit) {
			printf(" %s", names[i].name);
			flags &= ~names[i].bit;
		}
	}
	if (flags)
		printf(" (0x%lX)", (unsigned long)flags);
	printf("\n");
}

static void PrintProviderFlags(const WSAPROTOCOL_INFOW *p)
{
	static const FlagName service[] = {
		{ XP1_CONNECTIONLESS, "XP1_CONNECTIONLESS" },
		{ XP1_GUARANTEED_DELIVERY, "XP1_GUARANTEED_DELIVERY" },
		{ XP1_GUARANTEED_ORDER, "XP1_GUARANTEED_ORDER" },
		{ XP1_MESSAGE_ORIENTED, "XP1_MESSAGE_ORIENTED" },
		{ XP1_CONNECT_DATA, "XP1_CONNECT_DATA" },
		{ XP1_DISCONNECT_DATA, "XP1_DISCONNECT_DATA" },
		{ XP1_IFS_HANDLES, "XP1_IFS_HANDLES" },
	}, provider[] = {
		{ PFL_MULTIPLE_PROTO_ENTRIES, "PFL_MULTIPLE_PROTO_ENTRIES" },
		{ PFL_RECOMMENDED_PROTO_ENTRY, "PFL_RECOMMENDED_PROTO_ENTRY" },
		{ PFL_HIDDEN, "PFL_HIDDEN" },
		{ PFL_MATCHES_PROTOCOL_ZERO, "PFL_MATCHES_PROTOCOL_ZERO" },
		{ PFL_NETWORKDIRECT_PROVIDER, "PFL_NETWORKDIRECT_PROVIDER" },
	};

	printf("\tservice_flags1:\t\t");
	PrintFlags(p->dwServiceFlags1, service, sizeof(service) / sizeof(service[0]));
	printf("\tprovider_flags:\t\t");
	PrintFlags(p->dwProviderFlags, provider, sizeof(provider) / sizeof(provider[0]));
}

static void PrintAdapterInfo(const ND2_ADAPTER_INFO *info)
{
	static const FlagName flags[] = {
		{ ND_ADAPTER_FLAG_IN_ORDER_DMA_SUPPORTED, "IN_ORDER_DMA" },
		{ ND_ADAPTER_FLAG_CQ_INTERRUPT_MODERATION_SUPPORTED, "CQ_INTERRUPT_MODERATION" },
		{ ND_ADAPTER_FLAG_MULTI_ENGINE_SUPPORTED, "MULTI_ENGINE" },
		{ ND_ADAPTER_FLAG_CQ_RESIZE_SUPPORTED, "CQ_RESIZE" },
		{ ND_ADAPTER_FLAG_LOOPBACK_CONNECTIONS_SUPPORTED, "LOOPBACK_CONNECTIONS" },
	};
	UINT64 id = info->AdapterId;

	if (show == SHOW_VERBOSE)
		printf("\t\tInfoVersion:\t\t\t0x%lX\n", (unsigned long)info->InfoVersion);
	printf("\t\tVendorId:\t\t\t0x%04X\n", info->VendorId);
	printf("\t\tDeviceId:\t\t\t0x%04X\n", info->DeviceId);
	printf("\t\tAdapterId:\t\t\t0x%016llX (node_guid %04x:%04x:%04x:%04x)\n",
	       (unsigned long long)id, (unsigned)(id >> 48) & 0xffff, (unsigned)(id >> 32) & 0xffff,
	       (unsigned)(id >> 16) & 0xffff, (unsigned)id & 0xffff);
	if (show == SHOW_VERBOSE)
		printf("\t\tMaxRegistrationSize:\t\t0x%llx\n", (unsigned long long)info->MaxRegistrationSize);
	if (show == SHOW_VERBOSE)
		printf("\t\tMaxWindowSize:\t\t\t0x%llx\n", (unsigned long long)info->MaxWindowSize);
	printf("\t\tMaxInitiatorSge:\t\t%lu\n", (unsigned long)info->MaxInitiatorSge);
	printf("\t\tMaxReceiveSge:\t\t\t%lu\n", (unsigned long)info->MaxReceiveSge);
	if (show == SHOW_VERBOSE)
		printf("\t\tMaxReadSge:\t\t\t%lu\n", (unsigned long)info->MaxReadSge);
	printf("\t\tMaxTransferLength:\t\t%lu\n", (unsigned long)info->MaxTransferLength);
	if (show == SHOW_VERBOSE)
		printf("\t\tMaxInlineDataSize:\t\t%lu\n", (unsigned long)info->MaxInlineDataSize);
	if (show == SHOW_VERBOSE)
		printf("\t\tMaxInboundReadLimit:\t\t%lu\n", (unsigned long)info->MaxInboundReadLimit);
	if (show == SHOW_VERBOSE)
		printf("\t\tMaxOutboundReadLimit:\t\t%lu\n", (unsigned long)info->MaxOutboundReadLimit);
	printf("\t\tMaxReceiveQueueDepth:\t\t%lu\n", (unsigned long)info->MaxReceiveQueueDepth);
	printf("\t\tMaxInitiatorQueueDepth:\t\t%lu\n", (unsigned long)info->MaxInitiatorQueueDepth);
	if (show == SHOW_VERBOSE)
		printf("\t\tMaxSharedReceiveQueueDepth:\t%lu\n", (unsigned long)info->MaxSharedReceiveQueueDepth);
	printf("\t\tMaxCompletionQueueDepth:\t%lu\n", (unsigned long)info->MaxCompletionQueueDepth);
	if (show == SHOW_VERBOSE)
		printf("\t\tInlineRequestThreshold:\t\t%lu\n", (unsigned long)info->InlineRequestThreshold);
	if (show == SHOW_VERBOSE)
		printf("\t\tLargeRequestThreshold:\t\t%lu\n", (unsigned long)info->LargeRequestThreshold);
	if (show == SHOW_VERBOSE)
		printf("\t\tMaxCallerData:\t\t\t%lu\n", (unsigned long)info->MaxCallerData);
	if (show == SHOW_VERBOSE)
		printf("\t\tMaxCalleeData:\t\t\t%lu\n", (unsigned long)info->MaxCalleeData);
	printf("\t\tAdapterFlags:\t\t\t");
	PrintFlags(info->AdapterFlags, flags, sizeof(flags) / sizeof(flags[0]));
}

/* The adapter's own view of its addresses (IND2Adapter::QueryAddressList). */
static void PrintAdapterAddresses(IND2Adapter *adapter)
{
	SOCKET_ADDRESS_LIST *list = NULL;
	ULONG size = 0;
	HRESULT hr;
	char text[80];

	hr = adapter->QueryAddressList(NULL, &size);
	while (hr == ND_BUFFER_OVERFLOW && size) {
		delete[] (char *)list;
		list = (SOCKET_ADDRESS_LIST *)new char[size];
		hr = adapter->QueryAddressList(list, &size);
	}
	printf("\t\taddresses:\t\t\t");
	if (hr != ND_SUCCESS) {
		printf("IND2Adapter::QueryAddressList failed: %s\n", NdStatusString(hr));
	} else if (!list || !list->iAddressCount) {
		printf("(none)\n");
	} else {
		for (INT i = 0; i < list->iAddressCount; i++)
			printf("%s%s", i ? " " : "", NdAddressString(list->Address[i].lpSockaddr, text, sizeof(text)));
		printf("\n");
	}
	delete[] (char *)list;
}

/* Opens and describes one adapter; TRUE when it could be queried. */
static bool ShowAdapter(IND2Provider *provider, ULONG provider_index, const Adapter *a, ULONG n)
{
	IND2Adapter *adapter = NULL;
	ND2_ADAPTER_INFO info;
	ULONG size = sizeof(info);
	HRESULT hr;
	char text[80];

	if (show == SHOW_LIST) {
		printf("    %-8lu 0x%016llX  ", (unsigned long)provider_index, (unsigned long long)a->id);
	} else {
		printf("\n\tadapter %lu: AdapterId 0x%016llX\n", (unsigned long)n, (unsigned long long)a->id);
		printf("\t\tresolved from:\t\t\t");
	}
	for (ULONG i = 0; i < a->nAddresses; i++)
		printf("%s%s", i ? " " : "", NdAddressString(a->addresses[i], text, sizeof(text)));
	printf("\n");
	hr = provider->OpenAdapter(IID_IND2Adapter, a->id, (void **)&adapter);
	if (FAILED(hr)) {
		fprintf(show == SHOW_LIST ? stderr : stdout, "%sIND2Provider::OpenAdapter failed: %s\n",
			show == SHOW_LIST ? "ndinfo: " : "\t\t", NdStatusString(hr));
		return false;
	}
	memset(&info, 0, sizeof(info));
	/* Clients set ND_VERSION_2 here although the documentation says 1. */
	info.InfoVersion = ND_VERSION_2;
	hr = adapter->Query(&info, &size);
	if (hr != ND_SUCCESS) {
		fprintf(show == SHOW_LIST ? stderr : stdout, "%sIND2Adapter::Query failed: %s\n",
			show == SHOW_LIST ? "ndinfo: " : "\t\t", NdStatusString(hr));
	} else if (show != SHOW_LIST) {
		PrintAdapterAddresses(adapter);
		PrintAdapterInfo(&info);
	}
	adapter->Release();
	return hr == ND_SUCCESS;
}

/* One provider entry: its catalog fields, then each adapter its addresses
 * resolve to.  Returns the number of adapters it could query. */
static ULONG ShowProvider(ULONG index)
{
	const NdProviderEntry *e = NdGetProvider(index);
	const SOCKET_ADDRESS_LIST *list = e->addresses;
	IND2Provider *provider = NULL;
	Adapter adapters[MAX_ADAPTERS];
	ULONG nAdapters = 0, good = 0;
	HRESULT hr;
	char text[80];

	if (show != SHOW_LIST) {
		printf("\nprovider %lu: %ls\n", (unsigned long)index, e->protocol.szProtocol);
		if (show == SHOW_VERBOSE) {
			printf("\tprovider_id:\t\t%s\n", NdGuidString(&e->protocol.ProviderId, text, sizeof(text)));
			printf("\tcatalog_entry_id:\t%lu\n", (unsigned long)e->protocol.dwCatalogEntryId);
		}
		printf("\tpath:\t\t\t%ls\n", e->path);
		if (wcscmp(e->path, e->expandedPath))
			printf("\texpanded_path:\t\t%ls\n", e->expandedPath);
		if (show == SHOW_VERBOSE) {
			printf("\tversion:\t\t0x%X (ND v%d)\n", e->protocol.iVersion,
			       e->protocol.iVersion == ND_VERSION_1 ? 1 : e->protocol.iVersion >> 16);
			printf("\taddress_family:\t\t%s\n", FamilyName(e->protocol.iAddressFamily));
			PrintProviderFlags(&e->protocol);
		}
	}
	if (e->status != ND_SUCCESS) {
		if (show == SHOW_LIST)
			fprintf(stderr, "ndinfo: provider %lu (%ls): %s (the provider could not be loaded or queried)\n",
				(unsigned long)index, e->path, NdStatusString(e->status));
		else
			printf("\tstatus:\t\t\t%s (the provider could not be loaded or queried)\n",
			       NdStatusString(e->status));
		return 0;
	}
	if (show != SHOW_LIST) {
		printf("\taddresses:\t\t");
		for (INT i = 0; list && i < list->iAddressCount; i++)
			printf("%s%s", i ? " " : "",
			       NdAddressString(list->Address[i].lpSockaddr, text, sizeof(text)));
		printf("%s\n", list && list->iAddressCount ? "" : "(none)");
	}
	if (!list)
		return 0;
	/* A v1 entry's adapters are v1 objects (INDAdapter, no AdapterId):
	 * its addresses are what there is to show. */
	if (e->protocol.iVersion == ND_VERSION_1)
		return 0;

	hr = NdOpenProvider(index, &provider);
	if (FAILED(hr)) {
		fprintf(show == SHOW_LIST ? stderr : stdout, "%sDllGetClassObject(IID_IND2Provider) failed: %s\n",
			show == SHOW_LIST ? "ndinfo: " : "\t", NdStatusString(hr));
		return 0;
	}
	/* Addresses that resolve to the same AdapterId share an adapter. */
	for (INT i = 0; i < list->iAddressCount; i++) {
		const SOCKADDR *sa = list->Address[i].lpSockaddr;
		UINT64 id;
		ULONG j;

		hr = provider->ResolveAddress(sa, list->Address[i].iSockaddrLength, &id);
		if (FAILED(hr)) {
			fprintf(show == SHOW_LIST ? stderr : stdout, "%sResolveAddress(%s) failed: %s\n",
				show == SHOW_LIST ? "ndinfo: " : "\t", NdAddressString(sa, text, sizeof(text)),
				NdStatusString(hr));
			continue;
		}
		for (j = 0; j < nAdapters && adapters[j].id != id; j++)
			;
		if (j == nAdapters) {
			if (nAdapters == MAX_ADAPTERS)
				continue;
			adapters[nAdapters].id = id;
			adapters[nAdapters].nAddresses = 0;
			nAdapters++;
		}
		if (adapters[j].nAddresses < sizeof(adapters[j].addresses) / sizeof(adapters[j].addresses[0]))
			adapters[j].addresses[adapters[j].nAddresses++] = sa;
	}
	for (ULONG j = 0; j < nAdapters; j++)
		good += ShowAdapter(provider, index, &adapters[j], j);
	NdReleaseProvider(index, provider);
	return good;
}

static void Usage(FILE *f)
{
	fprintf(f, "Usage: ndinfo [-l | -v]\n"
		   "Lists the NetworkDirect providers (v2 and v1) of the Winsock catalog, their\n"
		   "addresses and each adapter's ND2_ADAPTER_INFO (like ibv_devinfo).\n"
		   "\n"
		   "  -l, --list      one line per adapter: provider, AdapterId, addresses\n"
		   "  -v, --verbose   every catalog field and every ND2_ADAPTER_INFO field\n"
		   "  -h, --help      this text\n"
		   "\n"
		   "Exit status: 0 at least one adapter was opened and queried, 1 none was\n"
		   "(\"no NetworkDirect adapters found\"), 2 bad command line.\n");
}

int main(int argc, char **argv)
{
	SOCKET_ADDRESS_LIST *all = NULL;
	SIZE_T size = 0;
	ULONG count, adapters = 0;
	HRESULT hr;
	char text[80];

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			Usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "-l") || !strcmp(argv[i], "--list")) {
			show = SHOW_LIST;
		} else if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose")) {
			show = SHOW_VERBOSE;
		} else {
			fprintf(stderr, "ndinfo: unknown argument '%s'\n", argv[i]);
			Usage(stderr);
			return 2;
		}
	}
	hr = NdStartup();
	if (FAILED(hr)) {
		fprintf(stderr, "ndinfo: NdStartup failed: %s\n", NdStatusString(hr));
		return 1;
	}
	count = NdGetProviderCount();
	/* The launcher (tools/ndinfo) reads this line to say why. */
	if (!count)
		fprintf(stderr, "ndinfo: no NetworkDirect provider in the Winsock catalog\n");
	if (show == SHOW_LIST) {
		printf("    provider AdapterId           addresses\n");
		printf("    -------- ------------------  ---------\n");
	} else {
		printf("NetworkDirect providers in the Winsock catalog: %lu\n", (unsigned long)count);
		hr = NdQueryAddressList(0, NULL, &size);
		if (hr == ND_BUFFER_OVERFLOW) {
			all = (SOCKET_ADDRESS_LIST *)new char[size];
			hr = NdQueryAddressList(0, all, &size);
		}
		printf("NetworkDirect addresses:");
		if (hr == ND_SUCCESS && all) {
			for (INT i = 0; i < all->iAddressCount; i++)
				printf(" %s", NdAddressString(all->Address[i].lpSockaddr, text, sizeof(text)));
			printf("\n");
		} else if (hr == ND_SUCCESS) {
			printf(" (none)\n");
		} else {
			printf(" NdQueryAddressList failed: %s\n", NdStatusString(hr));
		}
		delete[] (char *)all;
	}

	for (ULONG i = 0; i < count; i++)
		adapters += ShowProvider(i);
	NdCleanup();
	fflush(stdout);
	if (!adapters) {
		fprintf(stderr, "ndinfo: no NetworkDirect adapters found\n");
		return 1;
	}
	if (show != SHOW_LIST)
		printf("\n%lu adapter%s\n", (unsigned long)adapters, adapters == 1 ? "" : "s");
	return 0;
}

// The installed ND2 SDK from C++, the way Microsoft's samples use it:
// interfaces as classes, REFIID as a reference.  Opens the adapter of the
// first NetworkDirect address and queries it.
// Exit status: 0 done ("nd2client-cxx: ok"), 1 no NetworkDirect address,
// 2 a step failed.
#include <winsock2.h>
#include <ws2tcpip.h>
#include <windows.h>
#include <cstdio>
#include <vector>

#include <ndsupport.h>

static int Failed(const char *what, HRESULT hr)
{
	std::printf("nd2client-cxx: %s failed: 0x%08lX\n", what, static_cast<unsigned long>(hr));
	return 2;
}

int main()
{
	SIZE_T size = 0;
	HRESULT hr = NdStartup();
	if (FAILED(hr))
		return Failed("NdStartup", hr);
	hr = NdQueryAddressList(0, nullptr, &size);
	if (hr == ND_SUCCESS && size == 0) {
		std::printf("nd2client-cxx: no NetworkDirect addresses\n");
		NdCleanup();
		return 1;
	}
	std::vector<char> buffer(size);
	SOCKET_ADDRESS_LIST *list = reinterpret_cast<SOCKET_ADDRESS_LIST *>(buffer.data());
	hr = NdQueryAddressList(0, list, &size);
	if (FAILED(hr))
		return Failed("NdQueryAddressList", hr);

	IND2Adapter *adapter = nullptr;
	hr = NdOpenAdapter(IID_IND2Adapter, list->Address[0].lpSockaddr, list->Address[0].iSockaddrLength,
			   reinterpret_cast<void **>(&adapter));
	if (FAILED(hr))
		return Failed("NdOpenAdapter", hr);
	ND2_ADAPTER_INFO info = {};
	info.InfoVersion = ND_VERSION_2;
	ULONG infoSize = sizeof(info);
	hr = adapter->Query(&info, &infoSize);
	adapter->Release();
	if (FAILED(hr))
		return Failed("IND2Adapter::Query", hr);
	std::printf("adapter 0x%016llX: max transfer %lu\n", static_cast<unsigned long long>(info.AdapterId),
		    static_cast<unsigned long>(info.MaxTransferLength));
	NdFlushProviders();
	NdCleanup();
	std::printf("nd2client-cxx: ok\n");
	return 0;
}

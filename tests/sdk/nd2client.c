/* An outside ND2 client: built with mingw-w64 against the INSTALLED ND2
 * SDK only (x86_64-w64-mingw32-pkg-config nd2), as a project of its own
 * would be, and run under the installed ndrun.  It walks the SDK's helper
 * API and the first steps every ND2 program takes:
 *
 *   NdStartup, NdQueryAddressList (size probe, then the list),
 *   NdCheckAddress, NdResolveAddress, NdOpenAdapter(IID_IND2Adapter),
 *   IND2Adapter::Query, an overlapped file, a completion queue, a memory
 *   region registered and deregistered through an OVERLAPPED,
 *   NdOpenV1Adapter (the provider's ND v1 entry: an INDAdapter, released
 *   to 0; the SDK declares it opaque, so through IUnknown),
 *   NdFlushProviders, NdCleanup.
 *
 * Exit status: 0 all of it worked ("nd2client: ok"), 1 this machine has no
 * NetworkDirect address ("nd2client: no NetworkDirect addresses"), 2 a
 * step failed (the line says which and with what status). */
#include <winsock2.h>
#include <ws2tcpip.h>
#include <windows.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ndsupport.h>

static int failed(const char *what, HRESULT hr)
{
	printf("nd2client: %s failed: 0x%08lX\n", what, (unsigned long)hr);
	return 2;
}

/* Waits for an overlapped ND request the way clients do. */
static HRESULT wait_request(IND2Overlapped *o, OVERLAPPED *ov, HRESULT hr)
{
	if (hr == ND_PENDING)
		hr = o->lpVtbl->GetOverlappedResult(o, ov, TRUE);
	return hr;
}

static int use_adapter(IND2Adapter *adapter)
{
	ND2_ADAPTER_INFO info;
	ULONG size = sizeof(info);
	IND2CompletionQueue *cq = NULL;
	IND2MemoryRegion *mr = NULL;
	OVERLAPPED ov;
	HANDLE file = NULL;
	static char buffer[65536];
	HRESULT hr;
	int rc = 2;

	memset(&info, 0, sizeof(info));
	info.InfoVersion = ND_VERSION_2;
	hr = adapter->lpVtbl->Query(adapter, &info, &size);
	if (FAILED(hr))
		return failed("IND2Adapter::Query", hr);
	printf("adapter 0x%016llX: vendor 0x%04X device 0x%04X, max transfer %lu, CQ depth %lu\n",
	       (unsigned long long)info.AdapterId, info.VendorId, info.DeviceId, (unsigned long)info.MaxTransferLength,
	       (unsigned long)info.MaxCompletionQueueDepth);
	hr = adapter->lpVtbl->CreateOverlappedFile(adapter, &file);
	if (FAILED(hr))
		return failed("IND2Adapter::CreateOverlappedFile", hr);
	hr = adapter->lpVtbl->CreateCompletionQueue(adapter, &IID_IND2CompletionQueue, file, 64, 0, 0, (void **)&cq);
	if (FAILED(hr)) {
		rc = failed("IND2Adapter::CreateCompletionQueue", hr);
		goto out_file;
	}
	hr = adapter->lpVtbl->CreateMemoryRegion(adapter, &IID_IND2MemoryRegion, file, (void **)&mr);
	if (FAILED(hr)) {
		rc = failed("IND2Adapter::CreateMemoryRegion", hr);
		goto out_cq;
	}
	memset(&ov, 0, sizeof(ov));
	ov.hEvent = CreateEventW(NULL, FALSE, FALSE, NULL);
	hr = mr->lpVtbl->Register(mr, buffer, sizeof(buffer),
				  ND_MR_FLAG_ALLOW_LOCAL_WRITE | ND_MR_FLAG_ALLOW_REMOTE_WRITE, &ov);
	hr = wait_request((IND2Overlapped *)mr, &ov, hr);
	if (FAILED(hr)) {
		rc = failed("IND2MemoryRegion::Register", hr);
		goto out_mr;
	}
	printf("memory region: %u bytes, local token 0x%08X, remote token 0x%08X\n", (unsigned)sizeof(buffer),
	       mr->lpVtbl->GetLocalToken(mr), mr->lpVtbl->GetRemoteToken(mr));
	hr = wait_request((IND2Overlapped *)mr, &ov, mr->lpVtbl->Deregister(mr, &ov));
	if (FAILED(hr)) {
		rc = failed("IND2MemoryRegion::Deregister", hr);
		goto out_mr;
	}
	rc = 0;
out_mr:
	CloseHandle(ov.hEvent);
	mr->lpVtbl->Release(mr);
out_cq:
	cq->lpVtbl->Release(cq);
out_file:
	CloseHandle(file);
	return rc;
}

int main(int argc, char **argv)
{
	SOCKET_ADDRESS_LIST *list;
	SOCKADDR_STORAGE local;
	SIZE_T size = 0, local_size = sizeof(local);
	IND2Adapter *adapter = NULL;
	INDAdapter *v1 = NULL;
	char text[INET6_ADDRSTRLEN];
	HRESULT hr;
	int rc;

	if (argc > 1) {
		printf("usage: nd2client\n");
		return strcmp(argv[1], "--help") ? 2 : 0;
	}
	hr = NdStartup();
	if (FAILED(hr))
		return failed("NdStartup", hr);
	hr = NdQueryAddressList(0, NULL, &size);
	if (hr == ND_SUCCESS && size == 0) {
		printf("nd2client: no NetworkDirect addresses\n");
		NdCleanup();
		return 1;
	}
	if (hr != ND_BUFFER_OVERFLOW)
		return failed("NdQueryAddressList (size probe)", hr);
	list = malloc(size);
	hr = NdQueryAddressList(0, list, &size);
	if (FAILED(hr) || list->iAddressCount < 1)
		return failed("NdQueryAddressList", hr);
	for (INT i = 0; i < list->iAddressCount; i++) {
		DWORD n = sizeof(text);

		WSAAddressToStringA(list->Address[i].lpSockaddr, list->Address[i].iSockaddrLength, NULL, text, &n);
		printf("address %d: %s\n", i, text);
	}
	hr = NdCheckAddress(list->Address[0].lpSockaddr, list->Address[0].iSockaddrLength);
	if (hr != ND_SUCCESS)
		return failed("NdCheckAddress", hr);
	/* The route to our own address leaves through it. */
	hr = NdResolveAddress(list->Address[0].lpSockaddr, list->Address[0].iSockaddrLength, (struct sockaddr *)&local,
			      &local_size);
	if (hr != ND_SUCCESS)
		return failed("NdResolveAddress", hr);
	if (local.ss_family != list->Address[0].lpSockaddr->sa_family)
		return failed("NdResolveAddress (address family)", E_UNEXPECTED);
	hr = NdOpenAdapter(&IID_IND2Adapter, (struct sockaddr *)&local, local_size, (void **)&adapter);
	if (FAILED(hr))
		return failed("NdOpenAdapter", hr);
	rc = use_adapter(adapter);
	adapter->lpVtbl->Release(adapter);
	hr = NdOpenV1Adapter(list->Address[0].lpSockaddr, list->Address[0].iSockaddrLength, &v1);
	if (FAILED(hr) || !v1) {
		rc = failed("NdOpenV1Adapter", hr);
	} else if (((IUnknown *)v1)->lpVtbl->Release((IUnknown *)v1) != 0) {
		printf("nd2client: the ND v1 adapter outlived its last Release\n");
		rc = 2;
	} else {
		printf("ND v1 adapter opened and released\n");
	}
	free(list);
	NdFlushProviders();
	hr = NdCleanup();
	if (FAILED(hr))
		return failed("NdCleanup", hr);
	if (!rc)
		printf("nd2client: ok\n");
	return rc;
}

/* ndadapter: the adapter, its limits, its overlapped file and port. */
#include "ndadapter.h"

#include <stdio.h>
#include <string.h>

bool NdOpen(const sockaddr *local, int localLength, bool blocking, IND2Adapter **adapter, ND2_ADAPTER_INFO *info,
	    HANDLE *file, NdWaiter *w, char *why, size_t whySize)
{
	ULONG size = sizeof(*info);
	HRESULT hr;

	*adapter = NULL;
	*file = NULL;
	w->port = NULL;
	hr = NdOpenAdapter(IID_IND2Adapter, local, localLength, (void **)adapter);
	if (FAILED(hr)) {
		SIZE_T n = 0;
		char text[80];

		*adapter = NULL;
		/* With no address at all, the cause is upstream of this one. */
		NdQueryAddressList(0, NULL, &n);
		snprintf(why, whySize, "no NetworkDirect adapter for %s: %s%s", NdAddressString(local, text, sizeof(text)),
			 NdStatusString(hr), n ? "" : " (no provider has any address; ndinfo says why)");
		return false;
	}
	memset(info, 0, sizeof(*info));
	info->InfoVersion = ND_VERSION_2;
	hr = (*adapter)->Query(info, &size);
	if (hr != ND_SUCCESS) {
		snprintf(why, whySize, "IND2Adapter::Query failed: %s", NdStatusString(hr));
		return false;
	}
	hr = (*adapter)->CreateOverlappedFile(file);
	if (FAILED(hr)) {
		*file = NULL;
		snprintf(why, whySize, "IND2Adapter::CreateOverlappedFile failed: %s", NdStatusString(hr));
		return false;
	}
	if (blocking) {
		w->port = CreateIoCompletionPort(*file, NULL, 0, 0);
		if (!w->port) {
			snprintf(why, whySize, "CreateIoCompletionPort failed: %lu", GetLastError());
			return false;
		}
	}
	return true;
}

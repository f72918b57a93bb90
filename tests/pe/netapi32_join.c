/* netapi32: NetApiBufferAllocate/Size/Free, and NetGetJoinInformation
 * for a machine in a workgroup. */
#include <windows.h>
#include <lm.h>

#include "test.h"

int main(void)
{
	NETSETUP_JOIN_STATUS status = NetSetupUnknownStatus;
	WCHAR *name = NULL;
	void *buf = NULL;
	DWORD size = 0;

	ok(NetApiBufferAllocate(100, &buf) == NERR_Success && buf, "NetApiBufferAllocate\n");
	ok(NetApiBufferSize(buf, &size) == NERR_Success && size >= 100, "NetApiBufferSize %lu\n", size);
	memset(buf, 0x5a, 100);
	ok(NetApiBufferFree(buf) == NERR_Success, "NetApiBufferFree\n");
	ok(NetApiBufferFree(NULL) == NERR_Success, "NetApiBufferFree(NULL)\n");

	ok(NetGetJoinInformation(NULL, &name, &status) == NERR_Success, "NetGetJoinInformation\n");
	ok(status == NetSetupWorkgroupName, "join status %d\n", status);
	ok(name && !lstrcmpiW(name, L"WORKGROUP"), "workgroup [%ls]\n", name ? name : L"");
	NetApiBufferFree(name);
	return test_summary();
}

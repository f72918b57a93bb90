/* What an ND2 client does at start-up (CLIENT-BEHAVIOR.md, "Finding the
 * provider"): a completion port with an overlapped socket (key 1) and
 * the provider-change handle (key 0), SIO_ADDRESS_LIST_CHANGE pending, a
 * posted packet to force the first scan, draining with timeout 0; then
 * the catalog scan, the provider path and the DLL's two entry points.
 * Run with NDSHIM_ND_PROVIDERS naming the stand-in provider DLL. */
#include <winsock2.h>
#include <ws2spi.h>
#include <windows.h>
#include <stdlib.h>

#include "ndshim_provider.h"

#ifndef STATUS_CANCELLED
#define STATUS_CANCELLED ((DWORD)0xC0000120)
#endif
#include "test.h"

#define XP1_ND (XP1_GUARANTEED_DELIVERY | XP1_GUARANTEED_ORDER | XP1_MESSAGE_ORIENTED | \
		XP1_CONNECT_DATA)

typedef HANDLE(WINAPI *create_port_fn)(HANDLE, HANDLE, ULONG_PTR, DWORD);
typedef BOOL(WINAPI *post_fn)(HANDLE, DWORD, ULONG_PTR, LPOVERLAPPED);
typedef BOOL(WINAPI *get_fn)(HANDLE, LPDWORD, PULONG_PTR, LPOVERLAPPED *, DWORD);

static void startup_sequence(void)
{
	HMODULE k32 = GetModuleHandleA("kernel32.dll");
	create_port_fn create_port = (create_port_fn)(void *)GetProcAddress(k32, "CreateIoCompletionPort");
	post_fn post = (post_fn)(void *)GetProcAddress(k32, "PostQueuedCompletionStatus");
	get_fn get = (get_fn)(void *)GetProcAddress(k32, "GetQueuedCompletionStatus");
	static WSAOVERLAPPED ov;
	HANDLE port, change = NULL;
	SOCKET s;
	DWORD bytes, ret;
	ULONG_PTR key;
	OVERLAPPED *pov;
	int packets = 0;

	s = WSASocketW(AF_INET, SOCK_STREAM, 0, NULL, 0, WSA_FLAG_OVERLAPPED);
	ok(s != INVALID_SOCKET, "WSASocketW: %d\n", WSAGetLastError());
	ok(WSAProviderConfigChange(&change, NULL, NULL) == 0 && change, "WSAProviderConfigChange: %d\n",
	   WSAGetLastError());
	if (!create_port) {
		/* Until the completion-port code lands in ndrun. */
		printf("completion ports not available: port steps skipped\n");
	} else {
		port = create_port(INVALID_HANDLE_VALUE, NULL, 0, 0);
		ok(port != NULL, "CreateIoCompletionPort: %lu\n", GetLastError());
		ok(create_port((HANDLE)s, port, 1, 0) == port, "associate socket: %lu\n", GetLastError());
		ok(create_port(change, port, 0, 0) == port, "associate change handle: %lu\n",
		   GetLastError());
	}
	ok(WSAIoctl(s, SIO_ADDRESS_LIST_CHANGE, NULL, 0, NULL, 0, &bytes, &ov, NULL) == SOCKET_ERROR &&
	   WSAGetLastError() == WSA_IO_PENDING, "SIO_ADDRESS_LIST_CHANGE: %d\n", WSAGetLastError());
	ok(ov.Internal == STATUS_PENDING, "Internal %#lx\n", (unsigned long)ov.Internal);
	if (create_port) {
		ok(post(port, 0, 0, NULL), "PostQueuedCompletionStatus: %lu\n", GetLastError());
		while (get(port, &bytes, &key, &pov, 0)) {
			ok(key == 0 && !pov, "packet key %lu ov %p\n", (unsigned long)key, pov);
			packets++;
		}
		ret = GetLastError();
		ok(packets == 1 && ret == WAIT_TIMEOUT, "%d packets, then %lu\n", packets, ret);
	}
	/* Closing the socket aborts the address-change request. */
	closesocket(s);
	ok((DWORD)ov.Internal == STATUS_CANCELLED, "after close: Internal %#lx\n", (unsigned long)ov.Internal);
	if (create_port) {
		ok(get(port, &bytes, &key, &pov, 1000) == FALSE && pov == &ov && key == 1 &&
		   GetLastError() == ERROR_OPERATION_ABORTED, "aborted packet: key %lu error %lu\n",
		   (unsigned long)key, GetLastError());
		CloseHandle(port);
	}
	CloseHandle(change);
}

static void scan(void)
{
	const GUID want = NDSHIM_PROVIDER_GUID_INIT;
	WSAPROTOCOL_INFOW *info;
	DWORD len = 0;
	int err = 0, n, found = -1, count = 0, v1;
	WCHAR path[MAX_PATH], expanded[MAX_PATH];
	int plen = MAX_PATH, tiny = 2;
	HMODULE dll;

	ok(WSCEnumProtocols(NULL, NULL, &len, &err) == SOCKET_ERROR && err == WSAENOBUFS &&
	   len >= sizeof(*info) && len % sizeof(*info) == 0, "size probe: err %d len %lu\n", err, len);
	info = malloc(len);
	n = WSCEnumProtocols(NULL, info, &len, &err);
	ok(n > 0 && (DWORD)n * sizeof(*info) == len, "WSCEnumProtocols: %d err %d\n", n, err);
	for (int i = 0; i < n; i++) {
		if ((info[i].dwServiceFlags1 & XP1_ND) != XP1_ND)
			continue;
		if (info[i].iVersion != 0x20000 ||
		    (info[i].dwProviderFlags & (PFL_HIDDEN | 0x10)) != (PFL_HIDDEN | 0x10))
			continue;
		if ((info[i].iAddressFamily != AF_INET && info[i].iAddressFamily != AF_INET6) ||
		    info[i].iSocketType != -1 || info[i].iProtocol != 0 || info[i].iProtocolMaxOffset)
			continue;
		found = i;
		count++;
	}
	ok(count == 1, "%d NetworkDirect v2 entries\n", count);
	if (found < 0)
		return;
	ok(!memcmp(&info[found].ProviderId, &want, sizeof(GUID)), "provider GUID\n");
	len = 0;
	WSAEnumProtocolsW(NULL, NULL, &len);
	/* Hidden entries stay out of WSAEnumProtocolsW: the v2 entry and its
	 * ND v1 twin (iVersion 1, PFL_HIDDEN alone, same DLL). */
	ok(len == (DWORD)(n - 2) * sizeof(*info), "WSAEnumProtocolsW size %lu\n", len);
	for (v1 = 0; v1 < n; v1++)
		if (info[v1].iVersion == 1 && info[v1].iSocketType == -1)
			break;
	ok(v1 < n && info[v1].dwProviderFlags == PFL_HIDDEN &&
	   (info[v1].dwServiceFlags1 & XP1_ND) == XP1_ND && info[v1].iProtocol == 0,
	   "an ND v1 entry with PFL_HIDDEN alone\n");

	ok(WSCGetProviderPath(&info[found].ProviderId, path, &tiny, &err) == SOCKET_ERROR &&
	   err == WSAEFAULT && tiny > 2, "small path buffer: err %d need %d\n", err, tiny);
	ok(WSCGetProviderPath(&info[found].ProviderId, path, &plen, &err) == 0, "path: %d\n", err);
	ok(ExpandEnvironmentStringsW(path, expanded, MAX_PATH) > 0, "expand\n");
	dll = LoadLibraryExW(expanded, NULL, 0);
	ok(dll != NULL, "LoadLibraryExW: %lu\n", GetLastError());
	if (dll) {
		HRESULT(WINAPI * can_unload)(void) =
			(HRESULT(WINAPI *)(void))(void *)GetProcAddress(dll, "DllCanUnloadNow");

		ok(GetProcAddress(dll, "DllGetClassObject") != NULL, "DllGetClassObject\n");
		ok(can_unload && can_unload() == S_OK, "DllCanUnloadNow\n");
		ok(FreeLibrary(dll), "FreeLibrary\n");
	}
	{
		GUID other = want;

		other.Data1 ^= 1;
		plen = MAX_PATH;
		ok(WSCGetProviderPath(&other, path, &plen, &err) == SOCKET_ERROR && err == WSAEINVAL,
		   "unknown GUID: %d\n", err);
	}
	free(info);
}

int main(void)
{
	WSADATA wsa;

	ok(WSAStartup(MAKEWORD(2, 2), &wsa) == 0, "WSAStartup\n");
	startup_sequence();
	scan();
	WSACleanup();
	return test_summary();
}

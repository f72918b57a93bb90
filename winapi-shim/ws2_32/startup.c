/* WSAStartup/WSACleanup and the Winsock last error (the thread's Win32
 * last error, as on Windows). */
#include <string.h>

#include "ws2_32/ws2_32_private.h"

#include "core/debug.h"

atomic_int ws_started;

int WINAPI WSAStartup(WORD version, LPWSADATA data)
{
	TRACE(winsock, "%#x %p\n", version, data);
	if (!LOBYTE(version))
		return WSAVERNOTSUPPORTED;
	if (!data)
		return WSAEFAULT;
	memset(data, 0, sizeof(*data));
	/* 2.2 is the highest; a request above it gets 2.2. */
	if (LOBYTE(version) > 2 || (LOBYTE(version) == 2 && HIBYTE(version) > 2))
		data->wVersion = MAKEWORD(2, 2);
	else
		data->wVersion = version;
	data->wHighVersion = MAKEWORD(2, 2);
	strcpy(data->szDescription, "WinSock 2.0");
	strcpy(data->szSystemStatus, "Running");
	atomic_fetch_add(&ws_started, 1);
	if (!ws_io_start())
		return WSASYSNOTREADY;
	return 0;
}

int WINAPI WSACleanup(void)
{
	int n = atomic_load(&ws_started);

	while (n > 0 && !atomic_compare_exchange_weak(&ws_started, &n, n - 1))
		;
	if (n <= 0)
		return ws_fail(WSANOTINITIALISED);
	return 0;
}

int WINAPI WSAGetLastError(void)
{
	return GetLastError();
}

void WINAPI WSASetLastError(int err)
{
	SetLastError(err);
}

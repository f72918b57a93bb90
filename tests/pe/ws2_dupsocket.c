/* WSADuplicateSocket + WSASocket(FROM_PROTOCOL_INFO): the accepted end
 * of a loopback TCP connection goes to a child ("ws2_dupsocket child"),
 * which gets the WSAPROTOCOL_INFOW bytes on its stdin, makes its socket
 * from them and talks over it; and the same within one process.  Every
 * wait is bounded. */
#include <winsock2.h>
#include <ws2tcpip.h>
#include <windows.h>
#include <stdio.h>
#include <string.h>

#include "test.h"

#define TIMEOUT 20000

static const char greeting[] = "sent by the child";

static int child(void)
{
	WSAPROTOCOL_INFOW info;
	char reply[16] = "";
	DWORD got = 0, n;
	WSADATA wsa;
	SOCKET s;

	WSAStartup(MAKEWORD(2, 2), &wsa);
	while (got < sizeof(info) &&
	       ReadFile(GetStdHandle(STD_INPUT_HANDLE), (char *)&info + got, sizeof(info) - got, &n, NULL) && n)
		got += n;
	if (got != sizeof(info))
		return 60;
	s = WSASocketW(FROM_PROTOCOL_INFO, FROM_PROTOCOL_INFO, FROM_PROTOCOL_INFO, &info, 0, 0);
	if (s == INVALID_SOCKET)
		return 61;
	if (send(s, greeting, sizeof(greeting), 0) != sizeof(greeting))
		return 62;
	if (recv(s, reply, sizeof(reply), 0) != 3 || memcmp(reply, "bye", 3))
		return 63;
	closesocket(s);
	return 0;
}

/* A connected pair over loopback: *a the connecting end, *b accepted. */
static void connected_pair(SOCKET *a, SOCKET *b)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	SOCKET l = socket(AF_INET, SOCK_STREAM, IPPROTO_TCP);
	int len = sizeof(addr);

	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ok(!bind(l, (struct sockaddr *)&addr, sizeof(addr)) && !listen(l, 1) &&
		   !getsockname(l, (struct sockaddr *)&addr, &len),
	   "listen: %d\n", WSAGetLastError());
	*a = socket(AF_INET, SOCK_STREAM, IPPROTO_TCP);
	ok(!connect(*a, (struct sockaddr *)&addr, sizeof(addr)), "connect: %d\n", WSAGetLastError());
	*b = accept(l, NULL, NULL);
	ok(*b != INVALID_SOCKET, "accept: %d\n", WSAGetLastError());
	closesocket(l);
}

static void test_to_child(void)
{
	SECURITY_ATTRIBUTES sa = { sizeof(sa), NULL, TRUE };
	STARTUPINFOA si = { .cb = sizeof(si) };
	char self[MAX_PATH], line[MAX_PATH + 16], buf[64] = "";
	PROCESS_INFORMATION pi;
	WSAPROTOCOL_INFOW info;
	HANDLE in_r, in_w;
	SOCKET a, b;
	DWORD n, code = ~0u;
	int r;

	connected_pair(&a, &b);
	GetModuleFileNameA(NULL, self, sizeof(self));
	CreatePipe(&in_r, &in_w, &sa, 0);
	SetHandleInformation(in_w, HANDLE_FLAG_INHERIT, 0);
	si.dwFlags = STARTF_USESTDHANDLES;
	si.hStdInput = in_r;
	si.hStdOutput = GetStdHandle(STD_OUTPUT_HANDLE);
	si.hStdError = GetStdHandle(STD_ERROR_HANDLE);
	snprintf(line, sizeof(line), "\"%s\" child", self);
	ok(CreateProcessA(NULL, line, NULL, NULL, TRUE, 0, NULL, NULL, &si, &pi), "CreateProcess: %lu\n",
	   GetLastError());
	CloseHandle(in_r);

	memset(&info, 0, sizeof(info));
	r = WSADuplicateSocketW(b, pi.dwProcessId, &info);
	ok(!r, "WSADuplicateSocketW: %d\n", WSAGetLastError());
	ok(info.iAddressFamily == AF_INET && info.iSocketType == SOCK_STREAM && info.iProtocol == IPPROTO_TCP,
	   "info: %d %d %d\n", info.iAddressFamily, info.iSocketType, info.iProtocol);
	WriteFile(in_w, &info, sizeof(info), &n, NULL);
	CloseHandle(in_w);
	/* Ours goes: the child's stays connected. */
	closesocket(b);

	r = recv(a, buf, sizeof(buf), 0);
	ok(r == sizeof(greeting) && !strcmp(buf, greeting), "from the child's socket: %d %s\n", r, buf);
	ok(send(a, "bye", 3, 0) == 3, "send: %d\n", WSAGetLastError());
	ok(WaitForSingleObject(pi.hProcess, TIMEOUT) == WAIT_OBJECT_0, "child ended\n");
	GetExitCodeProcess(pi.hProcess, &code);
	ok(code == 0, "child exit code %lu\n", code);
	/* Its close was the last: the connection ends. */
	ok(recv(a, buf, sizeof(buf), 0) == 0, "end of stream after the child's close\n");
	CloseHandle(pi.hProcess);
	CloseHandle(pi.hThread);
	closesocket(a);
}

/* Into this very process: a second SOCKET for the same connection. */
static void test_to_self(void)
{
	WSAPROTOCOL_INFOW info;
	char buf[8] = "";
	SOCKET a, b, c;

	connected_pair(&a, &b);
	ok(!WSADuplicateSocketW(b, GetCurrentProcessId(), &info), "WSADuplicateSocketW: %d\n", WSAGetLastError());
	c = WSASocketW(FROM_PROTOCOL_INFO, FROM_PROTOCOL_INFO, FROM_PROTOCOL_INFO, &info, 0, 0);
	ok(c != INVALID_SOCKET && c != b, "WSASocketW from the info: %d\n", WSAGetLastError());
	closesocket(b);
	ok(send(c, "dup", 3, 0) == 3, "send on the duplicate: %d\n", WSAGetLastError());
	ok(recv(a, buf, sizeof(buf), 0) == 3 && !memcmp(buf, "dup", 3), "received: %s\n", buf);
	SetLastError(0xdeadbeef);
	ok(WSADuplicateSocketW(INVALID_SOCKET, GetCurrentProcessId(), &info) == SOCKET_ERROR &&
		   WSAGetLastError() == WSAENOTSOCK,
	   "not a socket: %d\n", WSAGetLastError());
	closesocket(c);
	closesocket(a);
}

int main(int argc, char **argv)
{
	WSADATA wsa;

	if (argc >= 2 && !strcmp(argv[1], "child"))
		return child();
	WSAStartup(MAKEWORD(2, 2), &wsa);
	test_to_child();
	test_to_self();
	WSACleanup();
	return test_summary();
}

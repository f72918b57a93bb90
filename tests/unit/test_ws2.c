/* ws2_32's Linux side: errno -> Winsock error and Winsock <-> NTSTATUS
 * mapping, sockaddr conversion, the text address forms, and the
 * provider catalog (configured through NDSHIM_ND_PROVIDERS before the
 * first catalog call). */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define WIN32_NO_STATUS
#include "ws2_32/ws2_32_private.h"
#include "core/wstr.h"
#include "core/errors.h"
#include "ndshim_provider.h"
#include "win32_helper.h"
#undef WIN32_NO_STATUS
#include <ntstatus.h>

static void test_errno_mapping(void **state)
{
	assert_int_equal(wsa_error_from_errno(ECONNREFUSED), WSAECONNREFUSED);
	assert_int_equal(wsa_error_from_errno(ECONNRESET), WSAECONNRESET);
	assert_int_equal(wsa_error_from_errno(EAGAIN), WSAEWOULDBLOCK);
	assert_int_equal(wsa_error_from_errno(EADDRINUSE), WSAEADDRINUSE);
	assert_int_equal(wsa_error_from_errno(ENOTCONN), WSAENOTCONN);
	assert_int_equal(wsa_error_from_errno(ETIMEDOUT), WSAETIMEDOUT);
	assert_int_equal(wsa_error_from_errno(EHOSTUNREACH), WSAEHOSTUNREACH);
	assert_int_equal(wsa_error_from_errno(0), 0);
	assert_int_equal(wsa_error_from_errno(EKEYEXPIRED), WSASYSCALLFAILURE);
	/* The Win32 (non-socket) mapping is a different table. */
	assert_int_equal(win32_error_from_errno(ECONNREFUSED), ERROR_CONNECTION_REFUSED);
}

static void test_status_mapping(void **state)
{
	static const DWORD errs[] = { 0, WSA_OPERATION_ABORTED, WSAECONNRESET, WSAECONNREFUSED,
				      WSAEMSGSIZE, WSAETIMEDOUT, WSAENOTCONN, WSAECONNABORTED };

	assert_int_equal(ntstatus_from_wsa(WSA_OPERATION_ABORTED), STATUS_CANCELLED);
	assert_int_equal(ntstatus_from_wsa(WSAECONNRESET), STATUS_CONNECTION_RESET);
	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++)
		assert_int_equal(wsa_from_ntstatus(ntstatus_from_wsa(errs[i])), errs[i]);
	assert_int_equal(ntstatus_from_wsa(123456), STATUS_UNSUCCESSFUL);
}

static void test_sockaddr_conversion(void **state)
{
	struct WS_sockaddr_in6 w6 = { .sin6_family = WS_AF_INET6, .sin6_port = 0x1234,
				      .sin6_scope_id = 7 };
	struct sockaddr_storage ss;
	struct WS_sockaddr_in back;
	socklen_t sl;
	int len;

	w6.sin6_addr.u.Byte[15] = 1;
	assert_int_equal(ws_sockaddr_to_unix((struct WS_sockaddr *)&w6, sizeof(w6), &ss, &sl), 0);
	assert_int_equal(ss.ss_family, AF_INET6);
	assert_int_equal(sl, sizeof(struct sockaddr_in6));
	assert_int_equal(((struct sockaddr_in6 *)&ss)->sin6_scope_id, 7);
	assert_int_equal(((struct sockaddr_in6 *)&ss)->sin6_addr.s6_addr[15], 1);
	assert_int_equal(ws_sockaddr_to_unix((struct WS_sockaddr *)&w6, 16, &ss, &sl), WSAEFAULT);
	assert_int_equal(ws_sockaddr_to_unix(NULL, 16, &ss, &sl), WSAEFAULT);
	w6.sin6_family = 99;
	assert_int_equal(ws_sockaddr_to_unix((struct WS_sockaddr *)&w6, sizeof(w6), &ss, &sl),
			 WSAEAFNOSUPPORT);

	struct sockaddr_in u4 = { .sin_family = AF_INET, .sin_port = 0x5000,
				  .sin_addr.s_addr = 0x0100007f };
	len = 8;
	assert_int_equal(ws_sockaddr_from_unix((struct sockaddr *)&u4, sizeof(u4),
					       (struct WS_sockaddr *)&back, &len), WSAEFAULT);
	assert_int_equal(len, sizeof(back));
	assert_int_equal(ws_sockaddr_from_unix((struct sockaddr *)&u4, sizeof(u4),
					       (struct WS_sockaddr *)&back, &len), 0);
	assert_int_equal(back.sin_family, WS_AF_INET);
	assert_int_equal(back.sin_port, 0x5000);
}

static void test_text_forms(void **state)
{
	struct WS_sockaddr_in6 sin6;
	struct WS_sockaddr_in sin;
	char buf[64];
	WCHAR wbuf[64];
	DWORD len;
	int l;

	l = sizeof(sin6);
	assert_int_equal(WSAStringToAddressA("[2001:db8::1%4]:65535", WS_AF_INET6, NULL,
					     (struct WS_sockaddr *)&sin6, &l), 0);
	assert_int_equal(sin6.sin6_scope_id, 4);
	assert_int_equal(sin6.sin6_port, htons(65535));
	len = sizeof(buf);
	assert_int_equal(WSAAddressToStringA((struct WS_sockaddr *)&sin6, sizeof(sin6), NULL, buf,
					     &len), 0);
	assert_string_equal(buf, "[2001:db8::1%4]:65535");
	assert_int_equal(len, strlen(buf) + 1);
	l = sizeof(sin6);
	SetLastError(0);
	assert_int_equal(WSAStringToAddressA("[2001:db8::1", WS_AF_INET6, NULL,
					     (struct WS_sockaddr *)&sin6, &l), SOCKET_ERROR);
	assert_int_equal(GetLastError(), WSAEINVAL);
	l = sizeof(sin);
	assert_int_equal(WSAStringToAddressA("1.2.3.4:", WS_AF_INET, NULL,
					     (struct WS_sockaddr *)&sin, &l), SOCKET_ERROR);
	assert_int_equal(WSAStringToAddressA(NULL, WS_AF_INET, NULL, (struct WS_sockaddr *)&sin, &l),
			 SOCKET_ERROR);
	assert_int_equal(WSAStringToAddressA("1.2.3.4", 1234, NULL, (struct WS_sockaddr *)&sin, &l),
			 SOCKET_ERROR);
	assert_int_equal(GetLastError(), WSAEINVAL);
	len = 3;
	assert_int_equal(WSAAddressToStringW((struct WS_sockaddr *)&sin6, sizeof(sin6), NULL, wbuf,
					     &len), SOCKET_ERROR);
	assert_int_equal(GetLastError(), WSAEFAULT);
	assert_int_equal(len, strlen("[2001:db8::1%4]:65535") + 1);
	assert_int_equal(WS_inet_pton(WS_AF_INET, "1.2.3", buf), 0);
	assert_int_equal(WS_inet_pton(WS_AF_INET, NULL, buf), -1);
	assert_int_equal(GetLastError(), WSAEFAULT);
	assert_int_equal(InetPtonW(WS_AF_INET6, u"::ffff:1.2.3.4", buf), 1);
	assert_null(InetNtopW(WS_AF_INET6, buf, wbuf, 4));
	assert_int_equal(GetLastError(), ERROR_INVALID_PARAMETER);
}

static void test_catalog(void **state)
{
	const GUID nd = NDSHIM_PROVIDER_GUID_INIT;
	WSAPROTOCOL_INFOW info[8];
	DWORD len = 0;
	int err = 0, n, nd_count = 0, v1_count = 0;
	WCHAR path[256];
	INT plen;

	assert_int_equal(WSCEnumProtocols(NULL, NULL, &len, &err), SOCKET_ERROR);
	assert_int_equal(err, WSAENOBUFS);
	/* 4 base + 2 configured, each as ND v2 and as ND v1 */
	assert_int_equal(len, 8 * sizeof(WSAPROTOCOL_INFOW));
	len = sizeof(info);
	n = WSCEnumProtocols(NULL, info, &len, &err);
	assert_int_equal(n, 8);
	for (int i = 0; i < n; i++) {
		if (info[i].iVersion == NDSHIM_ND_VERSION_1 && info[i].iSocketType == -1) {
			GUID v1 = nd;

			/* v1: PFL_HIDDEN alone, after every v2 entry. */
			assert_int_equal(info[i].dwProviderFlags, PFL_HIDDEN);
			assert_int_equal(info[i].dwServiceFlags1, XP1_GUARANTEED_DELIVERY |
					 XP1_GUARANTEED_ORDER | XP1_MESSAGE_ORIENTED | XP1_CONNECT_DATA);
			assert_int_equal(info[i].iProtocol, 0);
			assert_int_equal(info[i].iProtocolMaxOffset, 0);
			assert_true(i >= 6);
			v1.Data4[7] += NDSHIM_PROVIDER_V1_OFFSET + v1_count;
			assert_memory_equal(&info[i].ProviderId, &v1, sizeof(GUID));
			v1_count++;
			continue;
		}
		if (!(info[i].dwProviderFlags & NDSHIM_PFL_NETWORKDIRECT_PROVIDER))
			continue;
		assert_int_equal(info[i].iVersion, 0x20000);
		assert_int_equal(info[i].dwProviderFlags, PFL_HIDDEN | 0x10);
		assert_int_equal(info[i].dwServiceFlags1, XP1_GUARANTEED_DELIVERY |
				 XP1_GUARANTEED_ORDER | XP1_MESSAGE_ORIENTED | XP1_CONNECT_DATA);
		assert_int_equal(info[i].iAddressFamily, WS_AF_INET6);
		assert_int_equal(info[i].iSocketType, -1);
		assert_int_equal(info[i].iProtocol, 0);
		assert_int_equal(info[i].iProtocolMaxOffset, 0);
		nd_count++;
	}
	assert_int_equal(nd_count, 2);
	assert_int_equal(v1_count, 2);
	/* The first configured provider has the fixed GUID, the second +1. */
	plen = 256;
	assert_int_equal(WSCGetProviderPath((GUID *)&nd, path, &plen, &err), 0);
	assert_int_equal(wstr_cmp(path, u"Z:\\opt\\nd\\first.dll"), 0);
	GUID second = nd;

	second.Data4[7]++;
	plen = 256;
	assert_int_equal(WSCGetProviderPath(&second, path, &plen, &err), 0);
	assert_int_equal(wstr_cmp(path, u"%ProgramFiles%\\nd\\second.dll"), 0);
	/* The v1 twin of the second names the same DLL. */
	second.Data4[7] += NDSHIM_PROVIDER_V1_OFFSET;
	plen = 256;
	assert_int_equal(WSCGetProviderPath(&second, path, &plen, &err), 0);
	assert_int_equal(wstr_cmp(path, u"%ProgramFiles%\\nd\\second.dll"), 0);
	second.Data4[7] -= NDSHIM_PROVIDER_V1_OFFSET;
	plen = 3;
	assert_int_equal(WSCGetProviderPath(&second, path, &plen, &err), SOCKET_ERROR);
	assert_int_equal(err, WSAEFAULT);
	assert_int_equal(plen, strlen("%ProgramFiles%\\nd\\second.dll") + 1);
	/* Hidden entries are not in WSAEnumProtocolsW. */
	len = sizeof(info);
	assert_int_equal(WSAEnumProtocolsW(NULL, info, &len), 4);
	/* Filtered by protocol: TCP only. */
	INT protos[] = { WS_IPPROTO_TCP, 0 };

	len = sizeof(info);
	assert_int_equal(WSCEnumProtocols(protos, info, &len, &err), 2);
	assert_int_equal(info[0].iProtocol, WS_IPPROTO_TCP);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_errno_mapping),
		cmocka_unit_test(test_status_mapping),
		cmocka_unit_test(test_sockaddr_conversion),
		cmocka_unit_test(test_text_forms),
		cmocka_unit_test(test_catalog),
	};

	setenv("NDSHIM_ND_PROVIDERS", "/opt/nd/first.dll;%ProgramFiles%\\nd\\second.dll", 1);
	return cmocka_run_group_tests(tests, win32_test_setup, win32_test_teardown);
}

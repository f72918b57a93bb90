/* wsock32.dll's getsockopt and setsockopt: Winsock 1.1 numbered the IP
 * level's options differently (winsock.h) from Winsock 2 (ws2ipdef.h),
 * and wsock32 takes the old numbers; they are turned into ws2_32's
 * before the call.  Every other function of wsock32 is ws2_32's own. */
#include "ws2_32/ws2_32_private.h"
#include "wsock32/wsock32_private.h"

/* Winsock 1.1's IPPROTO_IP options 1..9 -> Winsock 2's. */
static int ip_option(int level, int opt)
{
	static const int v2[] = { 0, 1 /* IP_OPTIONS */, 9 /* IP_MULTICAST_IF */, 10 /* IP_MULTICAST_TTL */,
				  11 /* IP_MULTICAST_LOOP */, 12 /* IP_ADD_MEMBERSHIP */,
				  13 /* IP_DROP_MEMBERSHIP */, 4 /* IP_TTL */, 3 /* IP_TOS */,
				  14 /* IP_DONTFRAGMENT */ };

	if (level == WS_IPPROTO_IP && opt > 0 && opt < (int)(sizeof(v2) / sizeof(v2[0])))
		return v2[opt];
	return opt;
}

int WINAPI wsock32_getsockopt(SOCKET s, int level, int opt, char *val, int *len)
{
	return WS_getsockopt(s, level, ip_option(level, opt), val, len);
}

int WINAPI wsock32_setsockopt(SOCKET s, int level, int opt, const char *val, int len)
{
	return WS_setsockopt(s, level, ip_option(level, opt), val, len);
}

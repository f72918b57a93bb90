/* wsock32.dll: Winsock 1.1, which Windows implements by forwarding to
 * ws2_32; here its exports are ws2_32's functions (with wsock32's own
 * ordinals), but for the two whose option numbers differ (sockopt.c). */
#ifndef NDSHIM_WSOCK32_PRIVATE_H
#define NDSHIM_WSOCK32_PRIVATE_H

int WINAPI wsock32_getsockopt(SOCKET s, int level, int opt, char *val, int *len);
int WINAPI wsock32_setsockopt(SOCKET s, int level, int opt, const char *val, int len);

#endif

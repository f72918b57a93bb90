/* Reading Linux's network interfaces: iphlpapi/ifaces.h. */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "iphlpapi/ifaces.h"
#include "core/hexdigit.h"

static bool read_line(const char *sysroot, const char *name, const char *file, char *buf, size_t size)
{
	char path[256];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "%s/sys/class/net/%s/%s", sysroot, name, file);
	f = fopen(path, "re");
	if (!f)
		return false;
	ok = fgets(buf, (int)size, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = 0;
	return ok;
}

static uint64_t read_u64(const char *sysroot, const char *name, const char *file, uint64_t fallback)
{
	char buf[64], *end;
	unsigned long long v;

	if (!read_line(sysroot, name, file, buf, sizeof(buf)))
		return fallback;
	errno = 0;
	v = strtoull(buf, &end, 10);
	return errno || end == buf || buf[0] == '-' ? fallback : v;
}

static unsigned int windows_type(const char *sysroot, const char *name, unsigned int arphrd)
{
	char path[256];

	switch (arphrd) {
	case ARPHRD_LOOPBACK:
		return IFC_TYPE_LOOPBACK;
	case ARPHRD_ETHER:
		/* Wi-Fi links are Ethernet to Linux, with a wireless/ folder. */
		snprintf(path, sizeof(path), "%s/sys/class/net/%s/wireless", sysroot, name);
		return access(path, F_OK) == 0 ? IFC_TYPE_WIRELESS : IFC_TYPE_ETHERNET;
	case ARPHRD_INFINIBAND:
		return IFC_TYPE_INFINIBAND;
	case ARPHRD_PPP:
		return IFC_TYPE_PPP;
	case ARPHRD_NONE: case ARPHRD_TUNNEL: case ARPHRD_TUNNEL6: case ARPHRD_SIT: case ARPHRD_IPGRE:
		return IFC_TYPE_TUNNEL;
	}
	return IFC_TYPE_OTHER;
}

/* "02:fc:00:00:00:01" -> bytes; at most max of them. */
static unsigned int parse_mac(const char *s, uint8_t *out, unsigned int max)
{
	unsigned int n = 0;

	while (n < max && hex_digit(s[0]) >= 0 && hex_digit(s[1]) >= 0) {
		out[n++] = (uint8_t)(hex_digit(s[0]) << 4 | hex_digit(s[1]));
		s += 2;
		if (*s != ':')
			break;
		s++;
	}
	return n;
}

static void fill_link(const char *sysroot, struct ifc *c)
{
	char buf[256];
	uint64_t mbps;

	c->type = windows_type(sysroot, c->name, (unsigned int)read_u64(sysroot, c->name, "type", 0xffff));
	c->mtu = (unsigned int)read_u64(sysroot, c->name, "mtu", 0);
	if (read_line(sysroot, c->name, "operstate", buf, sizeof(buf)))
		c->oper_up = !strcmp(buf, "up") ||
			     (!strcmp(buf, "unknown") && read_u64(sysroot, c->name, "carrier", 0) == 1);
	c->admin_up = (read_u64(sysroot, c->name, "flags", 0) & IFF_UP) != 0;
	if (c->type != IFC_TYPE_LOOPBACK && read_line(sysroot, c->name, "address", buf, sizeof(buf)))
		c->mac_len = parse_mac(buf, c->mac, sizeof(c->mac));
	/* speed is in Mbit/s, -1 (read as nothing) when unknown. */
	mbps = read_u64(sysroot, c->name, "speed", 0);
	c->speed = mbps * 1000000;
	c->stats.rx_bytes = read_u64(sysroot, c->name, "statistics/rx_bytes", 0);
	c->stats.rx_packets = read_u64(sysroot, c->name, "statistics/rx_packets", 0);
	c->stats.rx_multicast = read_u64(sysroot, c->name, "statistics/multicast", 0);
	c->stats.rx_dropped = read_u64(sysroot, c->name, "statistics/rx_dropped", 0);
	c->stats.rx_errors = read_u64(sysroot, c->name, "statistics/rx_errors", 0);
	c->stats.tx_bytes = read_u64(sysroot, c->name, "statistics/tx_bytes", 0);
	c->stats.tx_packets = read_u64(sysroot, c->name, "statistics/tx_packets", 0);
	c->stats.tx_dropped = read_u64(sysroot, c->name, "statistics/tx_dropped", 0);
	c->stats.tx_errors = read_u64(sysroot, c->name, "statistics/tx_errors", 0);
}

static unsigned int prefix_len(const uint8_t *mask, unsigned int bytes)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < bytes; i++)
		n += (unsigned int)__builtin_popcount(mask[i]);
	return n;
}

static int add_addr(struct ifc *c, const struct ifaddrs *a)
{
	struct ifc_addr *n = realloc(c->addrs, (c->naddrs + 1) * sizeof(*n));
	struct ifc_addr *x;

	if (!n)
		return -1;
	c->addrs = n;
	x = &n[c->naddrs++];
	memset(x, 0, sizeof(*x));
	if (a->ifa_addr->sa_family == AF_INET) {
		x->family = 4;
		memcpy(x->addr, &((const struct sockaddr_in *)a->ifa_addr)->sin_addr, 4);
		if (a->ifa_netmask)
			x->prefix = prefix_len((const uint8_t *)&((const struct sockaddr_in *)a->ifa_netmask)->sin_addr, 4);
	} else {
		const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)a->ifa_addr;
		x->family = 6;
		memcpy(x->addr, &s6->sin6_addr, 16);
		x->scope_id = s6->sin6_scope_id;
		if (a->ifa_netmask)
			x->prefix = prefix_len((const uint8_t *)&((const struct sockaddr_in6 *)a->ifa_netmask)->sin6_addr, 16);
	}
	return 0;
}

/* Default routes: /proc/net/route (hex, host order of the kernel's
 * little-endian words) and /proc/net/ipv6_route (hex bytes). */
static void read_gateways(const char *sysroot, struct ifc *list, int n)
{
	char path[256], line[512], ifname[64];
	unsigned int dest, gw, flags, mask;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/net/route", sysroot);
	if ((f = fopen(path, "re"))) {
		while (fgets(line, sizeof(line), f)) {
			if (sscanf(line, "%63s %x %x %x %*d %*d %*d %x", ifname, &dest, &gw, &flags, &mask) != 5)
				continue;
			if (dest || mask || !(flags & 2 /* RTF_GATEWAY */))
				continue;
			for (int i = 0; i < n; i++)
				if (!strcmp(list[i].name, ifname) && !list[i].has_gw4) {
					list[i].has_gw4 = true;
					list[i].gw4.family = 4;
					memcpy(list[i].gw4.addr, &gw, 4);
				}
		}
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/proc/net/ipv6_route", sysroot);
	if ((f = fopen(path, "re"))) {
		char d[33], g[33];
		unsigned int dlen;
		while (fgets(line, sizeof(line), f)) {
			if (sscanf(line, "%32s %x %*s %*x %32s %*x %*x %*x %x %63s", d, &dlen, g, &flags, ifname) != 5)
				continue;
			if (dlen || strspn(d, "0") != 32 || strspn(g, "0") == 32 || !(flags & 2))
				continue;
			for (int i = 0; i < n; i++)
				if (!strcmp(list[i].name, ifname) && !list[i].has_gw6) {
					list[i].has_gw6 = true;
					list[i].gw6.family = 6;
					for (int b = 0; b < 16; b++)
						list[i].gw6.addr[b] = (uint8_t)(hex_digit(g[2 * b]) << 4 | hex_digit(g[2 * b + 1]));
				}
		}
		fclose(f);
	}
}

static int by_index(const void *a, const void *b)
{
	const struct ifc *x = a, *y = b;

	return x->index < y->index ? -1 : x->index > y->index;
}

int ifc_list(const char *sysroot, struct ifc **out)
{
	struct ifaddrs *all, *a;
	struct ifc *list = NULL;
	int n = 0;

	if (getifaddrs(&all))
		return -1;
	/* One entry per name (every interface has an AF_PACKET entry, and
	 * one per address). */
	for (a = all; a; a = a->ifa_next) {
		int i;
		for (i = 0; i < n && strcmp(list[i].name, a->ifa_name); i++)
			;
		if (i == n) {
			struct ifc *nl = realloc(list, (n + 1) * sizeof(*nl));
			if (!nl)
				goto fail;
			list = nl;
			memset(&list[n], 0, sizeof(list[n]));
			snprintf(list[n].name, sizeof(list[n].name), "%s", a->ifa_name);
			list[n].index = if_nametoindex(a->ifa_name);
			n++;
		}
		if (a->ifa_addr && (a->ifa_addr->sa_family == AF_INET || a->ifa_addr->sa_family == AF_INET6))
			if (add_addr(&list[i], a))
				goto fail;
	}
	freeifaddrs(all);
	for (int i = 0; i < n; i++)
		fill_link(sysroot, &list[i]);
	read_gateways(sysroot, list, n);
	qsort(list, n, sizeof(*list), by_index);
	*out = list;
	return n;
fail:
	freeifaddrs(all);
	ifc_free(list, n);
	errno = ENOMEM;
	return -1;
}

void ifc_free(struct ifc *list, int n)
{
	for (int i = 0; i < n; i++)
		free(list[i].addrs);
	free(list);
}

static const struct {
	unsigned int type;
	const char *prefix;
} luid_prefixes[] = {
	{ IFC_TYPE_ETHERNET, "ethernet" }, { IFC_TYPE_LOOPBACK, "loopback" }, { IFC_TYPE_WIRELESS, "wireless" },
	{ IFC_TYPE_TUNNEL, "tunnel" },	   { IFC_TYPE_PPP, "ppp" },	      { IFC_TYPE_OTHER, "other" },
};

void ifc_luid_name(unsigned int type, unsigned int luid_index, char *buf, unsigned int size)
{
	for (size_t i = 0; i < sizeof(luid_prefixes) / sizeof(luid_prefixes[0]); i++)
		if (luid_prefixes[i].type == type) {
			snprintf(buf, size, "%s_%u", luid_prefixes[i].prefix, luid_index);
			return;
		}
	snprintf(buf, size, "iftype%u_%u", type, luid_index);
}

static bool parse_uint(const char *s, unsigned int *out)
{
	char *end;
	unsigned long v;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > 0xffffff)
		return false;
	*out = (unsigned int)v;
	return true;
}

bool ifc_parse_luid_name(const char *name, unsigned int *type, unsigned int *luid_index)
{
	const char *us = strrchr(name, '_');
	size_t plen;

	if (!us)
		return false;
	plen = (size_t)(us - name);
	for (size_t i = 0; i < sizeof(luid_prefixes) / sizeof(luid_prefixes[0]); i++)
		if (strlen(luid_prefixes[i].prefix) == plen && !strncasecmp(name, luid_prefixes[i].prefix, plen)) {
			*type = luid_prefixes[i].type;
			return parse_uint(us + 1, luid_index);
		}
	if (plen > 6 && !strncasecmp(name, "iftype", 6)) {
		char t[16];
		if (plen - 6 >= sizeof(t))
			return false;
		memcpy(t, name + 6, plen - 6);
		t[plen - 6] = 0;
		return parse_uint(t, type) && parse_uint(us + 1, luid_index);
	}
	return false;
}

int ifc_dns_servers(const char *sysroot, struct ifc_addr *out, int max)
{
	char path[256], line[512], addr[128];
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/etc/resolv.conf", sysroot);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (n < max && fgets(line, sizeof(line), f)) {
		if (sscanf(line, " nameserver %127s", addr) != 1)
			continue;
		memset(&out[n], 0, sizeof(out[n]));
		if (inet_pton(AF_INET, addr, out[n].addr) == 1) {
			out[n++].family = 4;
		} else {
			char *pct = strchr(addr, '%');
			if (pct)
				*pct = 0;
			if (inet_pton(AF_INET6, addr, out[n].addr) == 1)
				out[n++].family = 6;
		}
	}
	fclose(f);
	return n;
}

unsigned int ifc_best_index(const struct ifc_addr *dest)
{
	struct sockaddr_storage ss, local;
	socklen_t len = sizeof(local);
	struct ifc *list;
	unsigned int index = 0;
	int fd, n;

	memset(&ss, 0, sizeof(ss));
	if (dest->family == 4) {
		struct sockaddr_in *s = (struct sockaddr_in *)&ss;
		s->sin_family = AF_INET;
		s->sin_port = htons(9);
		memcpy(&s->sin_addr, dest->addr, 4);
	} else {
		struct sockaddr_in6 *s = (struct sockaddr_in6 *)&ss;
		s->sin6_family = AF_INET6;
		s->sin6_port = htons(9);
		memcpy(&s->sin6_addr, dest->addr, 16);
		s->sin6_scope_id = dest->scope_id;
	}
	fd = socket(ss.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	if (connect(fd, (struct sockaddr *)&ss, ss.ss_family == AF_INET ? sizeof(struct sockaddr_in)
									 : sizeof(struct sockaddr_in6)) ||
	    getsockname(fd, (struct sockaddr *)&local, &len)) {
		close(fd);
		return 0;
	}
	close(fd);
	n = ifc_list("", &list);
	for (int i = 0; i < n && !index; i++)
		for (unsigned int k = 0; k < list[i].naddrs && !index; k++) {
			const struct ifc_addr *x = &list[i].addrs[k];
			if (x->family == 4 && local.ss_family == AF_INET &&
			    !memcmp(x->addr, &((struct sockaddr_in *)&local)->sin_addr, 4))
				index = list[i].index;
			if (x->family == 6 && local.ss_family == AF_INET6 &&
			    !memcmp(x->addr, &((struct sockaddr_in6 *)&local)->sin6_addr, 16))
				index = list[i].index;
		}
	if (n > 0)
		ifc_free(list, n);
	return index;
}

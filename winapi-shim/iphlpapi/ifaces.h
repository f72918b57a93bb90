/* The machine's network interfaces as Linux reports them (getifaddrs,
 * /sys/class/net, /proc/net/route and ipv6_route, resolv.conf), in plain
 * types, for the iphlpapi functions that describe them the Windows way.
 * This header sees neither Linux's nor Windows' socket headers, so both
 * sides can include it. */
#ifndef NDSHIM_IPHLPAPI_IFACES_H
#define NDSHIM_IPHLPAPI_IFACES_H

#include <stdbool.h>
#include <stdint.h>

/* Windows interface types (ipifcons.h) that Linux link types become. */
#define IFC_TYPE_OTHER 1
#define IFC_TYPE_ETHERNET 6
#define IFC_TYPE_PPP 23
#define IFC_TYPE_LOOPBACK 24
#define IFC_TYPE_WIRELESS 71
#define IFC_TYPE_TUNNEL 131
#define IFC_TYPE_INFINIBAND 199

struct ifc_addr {
	int family;		/* 4 or 6 */
	uint8_t addr[16];	/* network order; 4 bytes for IPv4 */
	unsigned int prefix;	/* prefix length in bits */
	uint32_t scope_id;	/* IPv6 link-local: the interface index */
};

struct ifc_stats {
	uint64_t rx_bytes, rx_packets, rx_multicast, rx_dropped, rx_errors;
	uint64_t tx_bytes, tx_packets, tx_dropped, tx_errors;
};

struct ifc {
	char name[32];		/* the Linux name (eth0) */
	unsigned int index;	/* the Linux (and Windows) interface index */
	unsigned int type;	/* IFC_TYPE_* */
	unsigned int mtu;
	bool admin_up;		/* IFF_UP */
	bool oper_up;		/* operstate "up" (or "unknown" with carrier, as lo) */
	uint8_t mac[8];
	unsigned int mac_len;
	uint64_t speed;		/* bits per second, 0 when unknown */
	struct ifc_stats stats;
	unsigned int naddrs;
	struct ifc_addr *addrs;
	bool has_gw4, has_gw6;	/* a default route through it */
	struct ifc_addr gw4, gw6;
};

/* Every interface, by index (sysroot: where /sys and /proc are, "" for
 * the real ones; tests give a copy).  Returns the count, or -1 with
 * errno; *out is malloc'd, freed with ifc_free. */
int ifc_list(const char *sysroot, struct ifc **out);
void ifc_free(struct ifc *list, int n);

/* The name Windows gives an interface of this type and LUID index
 * ("ethernet_32768", "loopback_0"), and back (false when malformed). */
void ifc_luid_name(unsigned int type, unsigned int luid_index, char *buf, unsigned int size);
bool ifc_parse_luid_name(const char *name, unsigned int *type, unsigned int *luid_index);

/* The DNS servers of resolv.conf (under sysroot/etc); their count. */
int ifc_dns_servers(const char *sysroot, struct ifc_addr *out, int max);

/* The index of the interface the kernel would send to addr from (a
 * UDP socket connected there); 0 when there is no route. */
unsigned int ifc_best_index(const struct ifc_addr *dest);

#endif

/* GetAdaptersAddresses and GetAdaptersInfo: every interface, with its
 * unicast addresses (and with the flags asking for them, its on-link
 * prefixes and default gateways), the DNS servers of resolv.conf on the
 * interfaces that are up (but loopback), the link's type, MTU, state,
 * speed and hardware address.  Anycast and multicast addresses, WINS and
 * DHCP details are not reported (NULL lists, zeros).
 *
 * Everything is laid out in the caller's buffer, which a first pass
 * sizes: too small a buffer fails with ERROR_BUFFER_OVERFLOW and the
 * size needed. */
#include <stdio.h>
#include <string.h>

#include "iphlpapi/iphlpapi_private.h"

/* Microsoft's name for 0x80; the Wine headers call it
 * GAA_FLAG_INCLUDE_ALL_GATEWAYS. */
#ifndef GAA_FLAG_INCLUDE_GATEWAYS
#define GAA_FLAG_INCLUDE_GATEWAYS GAA_FLAG_INCLUDE_ALL_GATEWAYS
#endif

/* A bump allocator over the caller's buffer; with base NULL it only
 * counts, and the writers below skip writing. */
struct bump {
	BYTE *base;
	size_t used;
};

static void *bump(struct bump *b, size_t size)
{
	void *p;

	b->used = (b->used + 7) & ~(size_t)7;
	p = b->base ? b->base + b->used : NULL;
	b->used += size;
	if (p)
		memset(p, 0, size);
	return p;
}

static WCHAR *bump_wstr(struct bump *b, const char *s)
{
	size_t n = strlen(s);
	WCHAR *w = bump(b, (n + 1) * sizeof(WCHAR));

	if (w)
		for (size_t i = 0; i <= n; i++)
			w[i] = (WCHAR)(unsigned char)s[i];
	return w;
}

/* A SOCKET_ADDRESS of the Windows layout (AF_INET6 is 23 there). */
static void bump_sockaddr(struct bump *b, const struct ifc_addr *a, SOCKET_ADDRESS *out)
{
	if (a->family == 4) {
		SOCKADDR_IN *s = bump(b, sizeof(*s));
		if (s) {
			s->sin_family = AF_INET;
			memcpy(&s->sin_addr, a->addr, 4);
			out->lpSockaddr = (SOCKADDR *)s;
			out->iSockaddrLength = sizeof(*s);
		}
	} else {
		SOCKADDR_IN6 *s = bump(b, sizeof(*s));
		if (s) {
			s->sin6_family = AF_INET6;
			memcpy(&s->sin6_addr, a->addr, 16);
			s->sin6_scope_id = a->scope_id;
			out->lpSockaddr = (SOCKADDR *)s;
			out->iSockaddrLength = sizeof(*s);
		}
	}
}

static BOOL wanted(ULONG family, int f)
{
	return family == AF_UNSPEC || (family == AF_INET && f == 4) || (family == AF_INET6 && f == 6);
}

static BOOL link_local6(const struct ifc_addr *a)
{
	return a->family == 6 && a->addr[0] == 0xfe && (a->addr[1] & 0xc0) == 0x80;
}

/* The prefix of an address: its first prefix bits. */
static struct ifc_addr masked(const struct ifc_addr *a)
{
	struct ifc_addr m = *a;
	unsigned int bytes = a->family == 4 ? 4 : 16;

	for (unsigned int i = 0; i < bytes; i++) {
		unsigned int keep = a->prefix > i * 8 ? a->prefix - i * 8 : 0;
		m.addr[i] &= keep >= 8 ? 0xff : (BYTE)(0xff << (8 - keep));
	}
	m.scope_id = 0;
	return m;
}

static void lay_out(struct bump *b, const struct ifc *list, int n, const struct ifc_addr *dns, int ndns,
		    ULONG family, ULONG flags, IP_ADAPTER_ADDRESSES **first)
{
	IP_ADAPTER_ADDRESSES *prev = NULL;

	*first = NULL;
	for (int i = 0; i < n; i++) {
		const struct ifc *c = &list[i];
		IP_ADAPTER_ADDRESSES *a = bump(b, sizeof(*a));
		char guid[40];
		BOOL v4 = FALSE, v6 = FALSE;

		for (unsigned int k = 0; k < c->naddrs; k++) {
			v4 |= c->addrs[k].family == 4;
			v6 |= c->addrs[k].family == 6;
		}
		iphlp_guid_string(c, guid);
		char *name = bump(b, strlen(guid) + 1);
		WCHAR *empty = bump_wstr(b, "");
		WCHAR *desc = bump_wstr(b, c->name);
		WCHAR *friendly = bump_wstr(b, c->name);
		if (a) {
			a->Length = sizeof(*a);
			a->IfIndex = c->index;
			memcpy(name, guid, strlen(guid) + 1);
			a->AdapterName = name;
			a->DnsSuffix = empty;
			a->Description = desc;
			a->FriendlyName = friendly;
			memcpy(a->PhysicalAddress, c->mac, c->mac_len);
			a->PhysicalAddressLength = c->mac_len;
			a->Flags = (v4 ? IP_ADAPTER_IPV4_ENABLED : 0) | (v6 ? IP_ADAPTER_IPV6_ENABLED : 0);
			a->Mtu = c->mtu;
			a->IfType = c->type;
			a->OperStatus = c->oper_up ? IfOperStatusUp : IfOperStatusDown;
			a->Ipv6IfIndex = v6 ? c->index : 0;
			a->ZoneIndices[ScopeLevelInterface] = c->index;
			a->ZoneIndices[ScopeLevelLink] = c->index;
			a->TransmitLinkSpeed = c->speed;
			a->ReceiveLinkSpeed = c->speed;
			a->Luid.Value = iphlp_luid(c);
			a->CompartmentId = 1;
			a->ConnectionType = NET_IF_CONNECTION_DEDICATED;
			a->TunnelType = c->type == IFC_TYPE_TUNNEL ? TUNNEL_TYPE_OTHER : TUNNEL_TYPE_NONE;
			if (prev)
				prev->Next = a;
			else
				*first = a;
			prev = a;
		}

		if (!(flags & GAA_FLAG_SKIP_UNICAST)) {
			IP_ADAPTER_UNICAST_ADDRESS *last = NULL;
			for (unsigned int k = 0; k < c->naddrs; k++) {
				const struct ifc_addr *x = &c->addrs[k];
				if (!wanted(family, x->family))
					continue;
				IP_ADAPTER_UNICAST_ADDRESS *u = bump(b, sizeof(*u));
				SOCKET_ADDRESS sa = { 0 };
				bump_sockaddr(b, x, &sa);
				if (!u)
					continue;
				u->Length = sizeof(*u);
				u->Flags = link_local6(x) || c->type == IFC_TYPE_LOOPBACK ? 0 : IP_ADAPTER_ADDRESS_DNS_ELIGIBLE;
				u->Address = sa;
				u->PrefixOrigin = link_local6(x) ? IpPrefixOriginWellKnown : IpPrefixOriginManual;
				u->SuffixOrigin = link_local6(x) ? IpSuffixOriginLinkLayerAddress : IpSuffixOriginManual;
				u->DadState = IpDadStatePreferred;
				u->ValidLifetime = u->PreferredLifetime = u->LeaseLifetime = 0xffffffff;
				u->OnLinkPrefixLength = (UINT8)x->prefix;
				if (last)
					last->Next = u;
				else
					a->FirstUnicastAddress = u;
				last = u;
			}
		}
		if (flags & GAA_FLAG_INCLUDE_PREFIX) {
			IP_ADAPTER_PREFIX *last = NULL;
			for (unsigned int k = 0; k < c->naddrs; k++) {
				if (!wanted(family, c->addrs[k].family))
					continue;
				struct ifc_addr m = masked(&c->addrs[k]);
				IP_ADAPTER_PREFIX *p = bump(b, sizeof(*p));
				SOCKET_ADDRESS sa = { 0 };
				bump_sockaddr(b, &m, &sa);
				if (!p)
					continue;
				p->Length = sizeof(*p);
				p->Address = sa;
				p->PrefixLength = m.prefix;
				if (last)
					last->Next = p;
				else
					a->FirstPrefix = p;
				last = p;
			}
		}
		if (flags & GAA_FLAG_INCLUDE_GATEWAYS) {
			IP_ADAPTER_GATEWAY_ADDRESS_LH *last = NULL;
			const struct ifc_addr *gws[2] = { c->has_gw4 ? &c->gw4 : NULL, c->has_gw6 ? &c->gw6 : NULL };
			for (int k = 0; k < 2; k++) {
				if (!gws[k] || !wanted(family, gws[k]->family))
					continue;
				IP_ADAPTER_GATEWAY_ADDRESS_LH *g = bump(b, sizeof(*g));
				SOCKET_ADDRESS sa = { 0 };
				bump_sockaddr(b, gws[k], &sa);
				if (!g)
					continue;
				g->Length = sizeof(*g);
				g->Address = sa;
				if (last)
					last->Next = g;
				else
					a->FirstGatewayAddress = g;
				last = g;
			}
		}
		if (!(flags & GAA_FLAG_SKIP_DNS_SERVER) && c->oper_up && c->type != IFC_TYPE_LOOPBACK) {
			IP_ADAPTER_DNS_SERVER_ADDRESS *last = NULL;
			for (int k = 0; k < ndns; k++) {
				if (!wanted(family, dns[k].family))
					continue;
				IP_ADAPTER_DNS_SERVER_ADDRESS *d = bump(b, sizeof(*d));
				SOCKET_ADDRESS sa = { 0 };
				bump_sockaddr(b, &dns[k], &sa);
				if (!d)
					continue;
				d->Length = sizeof(*d);
				d->Address = sa;
				if (last)
					last->Next = d;
				else
					a->FirstDnsServerAddress = d;
				last = d;
			}
		}
	}
}

ULONG WINAPI GetAdaptersAddresses(ULONG family, ULONG flags, PVOID reserved, PIP_ADAPTER_ADDRESSES out,
				  PULONG size)
{
	struct ifc_addr dns[8];
	struct bump b = { NULL, 0 };
	IP_ADAPTER_ADDRESSES *first;
	struct ifc *list;
	int n, ndns;

	if (!size || (family != AF_UNSPEC && family != AF_INET && family != AF_INET6) || reserved)
		return ERROR_INVALID_PARAMETER;
	if ((n = iphlp_list(&list)) < 0)
		return GetLastError();
	if (!n) {
		ifc_free(list, n);
		return ERROR_NO_DATA;
	}
	ndns = ifc_dns_servers("", dns, 8);
	lay_out(&b, list, n, dns, ndns, family, flags, &first);
	if (!out || *size < b.used) {
		*size = (ULONG)b.used;
		ifc_free(list, n);
		return ERROR_BUFFER_OVERFLOW;
	}
	b.base = (BYTE *)out;
	b.used = 0;
	lay_out(&b, list, n, dns, ndns, family, flags, &first);
	ifc_free(list, n);
	return ERROR_SUCCESS;
}

static void ip_string(const struct ifc_addr *a, IP_ADDRESS_STRING *s)
{
	snprintf(s->String, sizeof(s->String), "%u.%u.%u.%u", a->addr[0], a->addr[1], a->addr[2], a->addr[3]);
}

static void mask_string(unsigned int prefix, IP_MASK_STRING *s)
{
	UINT32 m = prefix ? 0xffffffffu << (32 - prefix) : 0;

	snprintf(s->String, sizeof(s->String), "%u.%u.%u.%u", m >> 24, (m >> 16) & 0xff, (m >> 8) & 0xff, m & 0xff);
}

/* IPv4 adapters, loopback left out, as GetAdaptersInfo lists them. */
static void lay_out_info(struct bump *b, const struct ifc *list, int n, IP_ADAPTER_INFO **first)
{
	IP_ADAPTER_INFO *prev = NULL;

	*first = NULL;
	for (int i = 0; i < n; i++) {
		const struct ifc *c = &list[i];
		IP_ADAPTER_INFO *a;
		IP_ADDR_STRING *last = NULL;

		if (c->type == IFC_TYPE_LOOPBACK)
			continue;
		a = bump(b, sizeof(*a));
		if (a) {
			a->ComboIndex = c->index;
			iphlp_guid_string(c, a->AdapterName);
			snprintf(a->Description, sizeof(a->Description), "%s", c->name);
			a->AddressLength = c->mac_len;
			memcpy(a->Address, c->mac, c->mac_len);
			a->Index = c->index;
			a->Type = c->type;
			strcpy(a->IpAddressList.IpAddress.String, "0.0.0.0");
			strcpy(a->IpAddressList.IpMask.String, "0.0.0.0");
			strcpy(a->GatewayList.IpAddress.String, "0.0.0.0");
			strcpy(a->GatewayList.IpMask.String, "0.0.0.0");
			if (c->has_gw4) {
				ip_string(&c->gw4, &a->GatewayList.IpAddress);
				strcpy(a->GatewayList.IpMask.String, "255.255.255.255");
			}
			if (prev)
				prev->Next = a;
			else
				*first = a;
			prev = a;
		}
		for (unsigned int k = 0; k < c->naddrs; k++) {
			const struct ifc_addr *x = &c->addrs[k];
			IP_ADDR_STRING *s;
			if (x->family != 4)
				continue;
			/* The first address lives in the adapter itself. */
			s = last ? bump(b, sizeof(*s)) : (a ? &a->IpAddressList : NULL);
			if (!s)
				continue;
			ip_string(x, &s->IpAddress);
			mask_string(x->prefix, &s->IpMask);
			if (last)
				last->Next = s;
			last = s;
		}
	}
}

DWORD WINAPI GetAdaptersInfo(PIP_ADAPTER_INFO out, PULONG size)
{
	struct bump b = { NULL, 0 };
	IP_ADAPTER_INFO *first;
	struct ifc *list;
	int n;

	if (!size)
		return ERROR_INVALID_PARAMETER;
	if ((n = iphlp_list(&list)) < 0)
		return GetLastError();
	lay_out_info(&b, list, n, &first);
	if (!b.used) {
		ifc_free(list, n);
		return ERROR_NO_DATA;
	}
	if (!out || *size < b.used) {
		*size = (ULONG)b.used;
		ifc_free(list, n);
		return ERROR_BUFFER_OVERFLOW;
	}
	b.base = (BYTE *)out;
	b.used = 0;
	lay_out_info(&b, list, n, &first);
	ifc_free(list, n);
	return ERROR_SUCCESS;
}

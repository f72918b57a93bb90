/* Adapters: the RDMA devices rdma_cm knows, their addresses (those of the
 * netdevs that carry them), open/close and the limits ND2_ADAPTER_INFO
 * reports. */
#include <dirent.h>
#include <endian.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nd_unix.h"

/* ---- addresses ------------------------------------------------------------ */

int nd_addr_to_linux(const struct nd_unix_addr *in, struct sockaddr_storage *out)
{
	uint16_t fam;

	memset(out, 0, sizeof(*out));
	if (in->len < 2 || in->len > sizeof(in->bytes))
		return -1;
	memcpy(&fam, in->bytes, 2);
	if (fam == ND_UNIX_AF_INET && in->len >= sizeof(struct sockaddr_in)) {
		memcpy(out, in->bytes, sizeof(struct sockaddr_in));
		out->ss_family = AF_INET;
		return 0;
	}
	if (fam == ND_UNIX_AF_INET6 && in->len >= sizeof(struct sockaddr_in6)) {
		/* Same layout as Windows' SOCKADDR_IN6; only the family differs. */
		memcpy(out, in->bytes, sizeof(struct sockaddr_in6));
		out->ss_family = AF_INET6;
		return 0;
	}
	return -1;
}

/* A destination a connection can reach: rdma_cm would take 0.0.0.0 (or
 * a multicast or broadcast address, or port 0) and wait out its timeouts;
 * Windows' providers refuse those at once with STATUS_BAD_NETWORK_NAME. */
bool nd_addr_connectable(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *a = (const struct sockaddr_in *)ss;
		uint32_t ip = ntohl(a->sin_addr.s_addr);

		return a->sin_port && (ip >> 24) != 0 && !IN_MULTICAST(ip) && ip != INADDR_BROADCAST;
	}
	if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)ss;

		return a->sin6_port && !IN6_IS_ADDR_UNSPECIFIED(&a->sin6_addr) && !IN6_IS_ADDR_MULTICAST(&a->sin6_addr);
	}
	return false;
}

void nd_addr_from_linux(const struct sockaddr *sa, struct nd_unix_addr *out)
{
	uint16_t fam;

	memset(out, 0, sizeof(*out));
	if (sa->sa_family == AF_INET) {
		memcpy(out->bytes, sa, sizeof(struct sockaddr_in));
		fam = ND_UNIX_AF_INET;
		out->len = sizeof(struct sockaddr_in);
	} else if (sa->sa_family == AF_INET6) {
		memcpy(out->bytes, sa, sizeof(struct sockaddr_in6));
		fam = ND_UNIX_AF_INET6;
		out->len = sizeof(struct sockaddr_in6);
	} else {
		return;
	}
	memcpy(out->bytes, &fam, 2);
}

static uint64_t device_id(struct ibv_context *ctx)
{
	return be64toh(ibv_get_device_guid(ctx->device));
}

struct netdevs {
	char names[16][IF_NAMESIZE];
	int n;
};

static void netdevs_add(struct netdevs *nd, const char *name)
{
	int i;

	for (i = 0; i < nd->n; i++)
		if (!strcmp(nd->names[i], name))
			return;
	if (nd->n < 16)
		snprintf(nd->names[nd->n++], IF_NAMESIZE, "%s", name);
}

/* RoCE: the netdevs of the device's populated GID entries.  The kernel
 * hands those over in one ioctl (rdma-core reads sysfs itself where the
 * kernel lacks it); reading every slot through sysfs instead cost rxe, with
 * 1024 slots per port and nearly all of them empty, about 3,000 opens per
 * provider start. */
static void gid_netdevs(struct ibv_context *ctx, struct netdevs *nd)
{
	struct ibv_device_attr da;
	struct ibv_port_attr pa;
	struct ibv_gid_entry *ents;
	char name[IF_NAMESIZE];
	size_t slots = 0;
	ssize_t n, i;
	unsigned int port;

	if (ibv_query_device(ctx, &da)) {
		nd_log("%s: ibv_query_device: %s", ctx->device->name, strerror(errno));
		return;
	}
	for (port = 1; port <= da.phys_port_cnt; port++) {
		if (ibv_query_port(ctx, port, &pa)) {
			nd_log("%s: ibv_query_port(%u): %s", ctx->device->name, port, strerror(errno));
			return;
		}
		slots += pa.gid_tbl_len;
	}
	if (!slots || !(ents = calloc(slots, sizeof(*ents))))
		return;
	n = ibv_query_gid_table(ctx, ents, slots, 0);
	if (n < 0)
		nd_log("%s: ibv_query_gid_table: %s", ctx->device->name, strerror((int)-n));
	/* An IB GID has no netdev (ndev_ifindex 0); IPoIB is found below. */
	for (i = 0; i < n; i++)
		if (ents[i].ndev_ifindex && if_indextoname(ents[i].ndev_ifindex, name))
			netdevs_add(nd, name);
	free(ents);
}

/* The netdevs under an RDMA device: RoCE ties them to GIDs; an IPoIB netdev
 * points at its device through /sys/class/net/X/device/infiniband/DEV. */
static void device_netdevs(struct ibv_context *ctx, struct netdevs *nd)
{
	char path[PATH_MAX];
	struct dirent *pe;
	DIR *pd;

	nd->n = 0;
	gid_netdevs(ctx, nd);
	if ((pd = opendir("/sys/class/net"))) {
		while ((pe = readdir(pd))) {
			if (pe->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "/sys/class/net/%s/device/infiniband/%s", pe->d_name,
				 ctx->device->name);
			if (access(path, F_OK) == 0)
				netdevs_add(nd, pe->d_name);
		}
		closedir(pd);
	}
}

/* Calls fn for each (address, adapter id); stops when fn returns non-zero. */
static void for_each_address(int (*fn)(const struct sockaddr *sa, uint64_t id, void *arg), void *arg)
{
	struct ibv_context **devs;
	struct ifaddrs *ifa0, *ifa;
	int i, j, n = 0;

	devs = rdma_get_devices(&n);
	if (!devs)
		return;
	if (getifaddrs(&ifa0)) {
		rdma_free_devices(devs);
		return;
	}
	for (i = 0; i < n; i++) {
		struct netdevs nd;
		uint64_t id = device_id(devs[i]);

		device_netdevs(devs[i], &nd);
		for (ifa = ifa0; ifa; ifa = ifa->ifa_next) {
			if (!ifa->ifa_addr || (ifa->ifa_addr->sa_family != AF_INET &&
					       ifa->ifa_addr->sa_family != AF_INET6))
				continue;
			if (!(ifa->ifa_flags & IFF_UP))
				continue;
			for (j = 0; j < nd.n; j++)
				if (!strcmp(ifa->ifa_name, nd.names[j]))
					break;
			if (j < nd.n && fn(ifa->ifa_addr, id, arg))
				goto out;
		}
	}
out:
	freeifaddrs(ifa0);
	rdma_free_devices(devs);
}

struct collect {
	struct nd_unix_query_addresses_params *p;
	struct nd_unix_address_entry *out;
	uint32_t count;
};

static int collect_one(const struct sockaddr *sa, uint64_t id, void *arg)
{
	struct collect *c = arg;

	if (c->p->adapter_id && c->p->adapter_id != id)
		return 0;
	if (c->count < c->p->capacity && c->out) {
		nd_addr_from_linux(sa, &c->out[c->count].addr);
		c->out[c->count].adapter_id = id;
	}
	c->count++;
	return 0;
}

ND_CALL(query_addresses)
{
	struct nd_unix_query_addresses_params *p = params;
	struct nd_unix_address_entry tmp[64];
	struct collect c = { p, tmp, 0 };
	uint32_t cap = p->capacity;

	/* Collect into a bounce buffer so an overflow leaves the caller's
	 * buffer untouched, as QueryAddressList promises. */
	if (p->capacity > 64)
		p->capacity = 64;
	for_each_address(collect_one, &c);
	p->capacity = cap;
	if (c.count > 64)
		c.count = 64;
	if (c.count > cap) {
		p->count = c.count;
		return ND_BUFFER_OVERFLOW;
	}
	if (c.count)
		memcpy((void *)(uintptr_t)p->entries, tmp, c.count * sizeof(tmp[0]));
	p->count = c.count;
	return ND_SUCCESS;
}

struct match {
	struct sockaddr_storage want;
	uint64_t id;
	bool found;
};

static int match_one(const struct sockaddr *sa, uint64_t id, void *arg)
{
	struct match *m = arg;

	if (sa->sa_family != m->want.ss_family)
		return 0;
	if (sa->sa_family == AF_INET) {
		if (((const struct sockaddr_in *)sa)->sin_addr.s_addr !=
		    ((struct sockaddr_in *)&m->want)->sin_addr.s_addr)
			return 0;
	} else if (memcmp(&((const struct sockaddr_in6 *)sa)->sin6_addr,
			  &((struct sockaddr_in6 *)&m->want)->sin6_addr, 16)) {
		return 0;
	}
	m->id = id;
	m->found = true;
	return 1;
}

ND_CALL(resolve_address)
{
	struct nd_unix_resolve_address_params *p = params;
	struct match m = { .found = false };

	if (nd_addr_to_linux(&p->addr, &m.want))
		return ND_INVALID_ADDRESS;
	for_each_address(match_one, &m);
	if (!m.found)
		return ND_INVALID_ADDRESS;
	p->adapter_id = m.id;
	return ND_SUCCESS;
}

/* ---- adapters ---------------------------------------------------------------- */

/* rxe advertises 1 << 20 work requests and CQ entries but allocates a
 * queue's whole ring up front (rxe_queue_init): a QP created at that depth
 * takes hundreds of MiB of kernel memory and meets the OOM killer before
 * any ENOMEM.  The limits Query reports and creation checks are ones a
 * host can give; still far above what ND clients ask for. */
#define ND_MAX_QUEUE_DEPTH 16384
#define ND_MAX_CQ_DEPTH 65536

static void clamp_depths(struct ibv_device_attr *d)
{
	if (d->max_qp_wr > ND_MAX_QUEUE_DEPTH)
		d->max_qp_wr = ND_MAX_QUEUE_DEPTH;
	if (d->max_srq_wr > ND_MAX_QUEUE_DEPTH)
		d->max_srq_wr = ND_MAX_QUEUE_DEPTH;
	if (d->max_cqe > ND_MAX_CQ_DEPTH)
		d->max_cqe = ND_MAX_CQ_DEPTH;
}

/* Devices whose placement of incoming data follows the wire order (rxe is
 * software and writes each packet's payload in sequence). */
static bool known_in_order(const char *name)
{
	static const char *const names[] = { "rxe", "mlx4", "mlx5" };
	unsigned i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strncmp(name, names[i], strlen(names[i])))
			return true;
	return false;
}

/* The largest message the port really carries.  InfiniBand's is 2^31
 * bytes, and rxe's data path takes any message up to it, but Linux 6.1's
 * rxe reports 8 MiB (RXE_PORT_MAX_MSG_SZ, which later kernels raised to
 * 2^31): the SDK's ndmw reads 32 MiB and writes 16 MiB in one request,
 * which Windows hardware takes (it reports about 1 GiB), and they work on
 * rxe.  Other devices report what they enforce. */
static uint32_t real_max_msg(const struct nd_adapter *a)
{
	if (!strncmp(a->ctx->device->name, "rxe", 3) && a->port.max_msg_sz < (1u << 31))
		return 1u << 31;
	return a->port.max_msg_sz;
}

/* The wc_flags bit that says a Receive carried the peer's invalidation.
 * rdma-core's rxe provider hands the kernel's work completion over as it
 * is, kernel flag numbering included: there IB_WC_WITH_INVALIDATE is bit
 * 2, which libibverbs numbers IBV_WC_IP_CSUM_OK (meaningless on an RC
 * Receive); IBV_WC_WITH_INV (bit 3) never appears.  Seen on Debian 12's
 * kernel 6.1 rxe with rdma-core 44 (docs/nd1.md).  rxe reports vendor id
 * 0xffffff. */
static unsigned wc_with_inv(const struct nd_adapter *a)
{
	if (a->attr.vendor_id == 0xffffff || !strncmp(a->ctx->device->name, "rxe", 3))
		return 1u << 2;
	return IBV_WC_WITH_INV;
}

/* Verbs has no query for the inline limit: find the largest a QP accepts. */
static uint32_t probe_max_inline(struct nd_adapter *a)
{
	static const uint32_t tries[] = { 1024, 512, 256, 128, 64, 32 };
	struct ibv_cq *cq = ibv_create_cq(a->ctx, 1, NULL, NULL, 0);
	uint32_t best = 0;
	unsigned i;

	if (!cq)
		return 0;
	for (i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		struct ibv_qp_init_attr ia = {
			.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
			.cap = { .max_send_wr = 1, .max_recv_wr = 1, .max_send_sge = 1,
				 .max_recv_sge = 1, .max_inline_data = tries[i] },
		};
		struct ibv_qp *qp = ibv_create_qp(a->pd, &ia);
		if (qp) {
			best = ia.cap.max_inline_data;
			ibv_destroy_qp(qp);
			break;
		}
	}
	ibv_destroy_cq(cq);
	return best;
}

/* Nor for CQ resizing: try it. */
static bool probe_cq_resize(struct nd_adapter *a)
{
	struct ibv_cq *cq = ibv_create_cq(a->ctx, 2, NULL, NULL, 0);
	bool ok;

	if (!cq)
		return false;
	ok = ibv_resize_cq(cq, 8) == 0;
	ibv_destroy_cq(cq);
	return ok;
}

/* One watch per device context: every adapter opened on a device shares
 * librdmacm's context and so its async-event fd.  Under nd_ev_lock. */
struct async_watch {
	struct ibv_context *ctx;
	int refs;
	bool removed;
	struct nd_ev_source src;
};
static struct async_watch watches[16];
/* How many watches say removed (nd_ev_lock to change): the check on
 * every call's way in reads this one word while no device is gone,
 * instead of scanning the table (about 100 instructions, twice per
 * CQ Notify). */
static uint32_t n_removed;
static struct nd_adapter *adapters;	/* nd_ev_lock */

static void async_handler(struct nd_ev_source *src)
{
	struct async_watch *w = container_of(src, struct async_watch, src);
	struct ibv_async_event ev;

	while (ibv_get_async_event(w->ctx, &ev) == 0) {
		switch (ev.event_type) {
		case IBV_EVENT_CQ_ERR:
			nd_cq_async_event(ev.element.cq->cq_context, ev.event_type);
			break;
		case IBV_EVENT_SRQ_ERR:
		case IBV_EVENT_SRQ_LIMIT_REACHED:
			nd_srq_async_event(ev.element.srq->srq_context, ev.event_type);
			break;
		case IBV_EVENT_DEVICE_FATAL:
			nd_device_removed(w->ctx);
			break;
		case IBV_EVENT_QP_FATAL:
		case IBV_EVENT_QP_REQ_ERR:
		case IBV_EVENT_QP_ACCESS_ERR:
			nd_log("%s on a queue pair", ibv_event_type_str(ev.event_type));
			if (ev.element.qp->qp_context)
				nd_qp_mark_failed(ev.element.qp->qp_context);
			break;
		default:
			break;
		}
		ibv_ack_async_event(&ev);
	}
}

/* nd_ev_lock held. */
static int watch_device(struct ibv_context *ctx)
{
	struct async_watch *free_w = NULL;
	unsigned i;

	for (i = 0; i < sizeof(watches) / sizeof(watches[0]); i++) {
		if (watches[i].refs && watches[i].ctx == ctx) {
			watches[i].refs++;
			return 0;
		}
		if (!watches[i].refs && !free_w)
			free_w = &watches[i];
	}
	if (!free_w)
		return ENOSPC;
	free_w->ctx = ctx;
	if (free_w->removed)
		__atomic_store_n(&n_removed, n_removed - 1, __ATOMIC_RELAXED);
	__atomic_store_n(&free_w->removed, false, __ATOMIC_RELAXED);
	free_w->src.fd = ctx->async_fd;
	free_w->src.handler = async_handler;
	if (nd_ev_add(&free_w->src))
		return errno;
	free_w->refs = 1;
	return 0;
}

/* nd_ev_lock held. */
static void unwatch_device(struct ibv_context *ctx)
{
	unsigned i;

	for (i = 0; i < sizeof(watches) / sizeof(watches[0]); i++)
		if (watches[i].refs && watches[i].ctx == ctx) {
			if (!--watches[i].refs)
				nd_ev_remove(&watches[i].src);
			return;
		}
}

/* The device went away (rdma_cm's DEVICE_REMOVAL on one of its ids, or a
 * fatal async event): from now on only cleanup succeeds on its adapters,
 * everything else returns ND_DEVICE_REMOVED.  nd_ev_lock held. */
void nd_device_removed(struct ibv_context *ctx)
{
	struct nd_adapter *a;
	struct nd_cq *cq;
	struct nd_srq *srq;
	unsigned i;

	for (i = 0; i < sizeof(watches) / sizeof(watches[0]); i++)
		if (watches[i].refs && watches[i].ctx == ctx && !watches[i].removed) {
			nd_log("device %s removed: only cleanup succeeds on its objects", ctx->device->name);
			__atomic_store_n(&watches[i].removed, true, __ATOMIC_RELEASE);
			__atomic_store_n(&n_removed, n_removed + 1, __ATOMIC_RELEASE);
		}
	/* An idle CQ or SRQ gets no event from a device that is gone: its
	 * waiters would sleep for ever.  Notify checks the flag under the
	 * object's lock, so none slips in after this sweep.  The lists
	 * change only under nd_ev_lock too; adapter->lock is not taken, as
	 * a poller holding a CQ's lock takes it (remote invalidations). */
	for (a = adapters; a; a = a->next) {
		if (a->ctx != ctx)
			continue;
		for (cq = a->cqs; cq; cq = cq->next)
			nd_cq_device_removed(cq);
		for (srq = a->srqs; srq; srq = srq->next)
			nd_srq_device_removed(srq);
	}
}

/* Lock-free: called on every object's way in. */
bool nd_adapter_removed(const struct nd_adapter *a)
{
	unsigned i;

	if (likely(!__atomic_load_n(&n_removed, __ATOMIC_ACQUIRE)))
		return false;
	for (i = 0; i < sizeof(watches) / sizeof(watches[0]); i++)
		if (__atomic_load_n(&watches[i].removed, __ATOMIC_ACQUIRE) && watches[i].ctx == a->ctx)
			return true;
	return false;
}

ND_CALL(adapter_open)
{
	struct nd_unix_adapter_open_params *p = params;
	struct ibv_context **devs;
	struct nd_adapter *a;
	int i, n = 0, err;

	devs = rdma_get_devices(&n);
	if (!devs)
		return nd_status_from_errno(errno);
	for (i = 0; i < n; i++)
		if (device_id(devs[i]) == p->adapter_id)
			break;
	if (i == n) {
		rdma_free_devices(devs);
		return ND_INVALID_PARAMETER;
	}
	a = calloc(1, sizeof(*a));
	if (!a) {
		rdma_free_devices(devs);
		return ND_NO_MEMORY;
	}
	a->obj.kind = ND_KIND_ADAPTER;
	/* librdmacm keeps its device contexts open for the process; using its
	 * context keeps our QPs and its ids on the same one. */
	a->ctx = devs[i];
	rdma_free_devices(devs);
	a->adapter_id = p->adapter_id;
	pthread_mutex_init(&a->lock, NULL);
	err = ibv_query_device(a->ctx, &a->attr);
	if (err)
		goto fail_free;
	clamp_depths(&a->attr);
	err = ibv_query_port(a->ctx, 1, &a->port);
	if (err)
		goto fail_free;
	a->port.max_msg_sz = real_max_msg(a);
	a->pd = ibv_alloc_pd(a->ctx);
	if (!a->pd) {
		err = errno;
		goto fail_free;
	}
	a->max_sge = a->attr.max_sge;
	a->max_inline = probe_max_inline(a);
	a->cq_resize = probe_cq_resize(a);
	a->in_order = known_in_order(a->ctx->device->name);
	a->wc_with_inv = wc_with_inv(a);
	pthread_mutex_lock(&nd_ev_lock);
	err = watch_device(a->ctx);
	if (!err) {
		a->next = adapters;
		adapters = a;
	}
	pthread_mutex_unlock(&nd_ev_lock);
	if (err)
		goto fail_pd;
	p->adapter = nd_handle(&a->obj);
	return ND_SUCCESS;

fail_pd:
	ibv_dealloc_pd(a->pd);
fail_free:
	free(a);
	return nd_status_from_errno(err ? err : EINVAL);
}

void nd_adapter_hold(struct nd_adapter *a)
{
	__atomic_fetch_add(&a->children, 1, __ATOMIC_RELAXED);
}

void nd_adapter_release(struct nd_adapter *a)
{
	__atomic_fetch_sub(&a->children, 1, __ATOMIC_RELEASE);
}

ND_CALL(adapter_close)
{
	struct nd_unix_object_params *p = params;
	struct nd_adapter *a = nd_obj_get(p->object, ND_KIND_ADAPTER), **link;

	if (!a)
		return ND_INVALID_HANDLE;
	if (__atomic_load_n(&a->children, __ATOMIC_ACQUIRE))
		return ND_DEVICE_BUSY;
	pthread_mutex_lock(&nd_ev_lock);
	unwatch_device(a->ctx);
	for (link = &adapters; *link; link = &(*link)->next)
		if (*link == a) {
			*link = a->next;
			break;
		}
	pthread_mutex_unlock(&nd_ev_lock);
	ibv_dealloc_pd(a->pd);
	a->obj.kind = 0;
	nd_ev_defer_free(a);
	return ND_SUCCESS;
}

ND_CALL(adapter_query)
{
	struct nd_unix_adapter_query_params *p = params;
	struct nd_adapter *a = nd_obj_get(p->adapter, ND_KIND_ADAPTER);
	struct nd_unix_adapter_info *i = &p->info;
	const struct ibv_device_attr *d;
	int sge;

	if (!a)
		return ND_INVALID_HANDLE;
	d = &a->attr;
	memset(i, 0, sizeof(*i));
	i->vendor_id = (uint16_t)d->vendor_id;
	i->device_id = (uint16_t)d->vendor_part_id;
	i->adapter_id = a->adapter_id;
	i->max_registration_size = d->max_mr_size;
	i->max_window_size = d->max_mr_size;
	sge = d->max_sge;
	i->max_initiator_sge = sge;
	i->max_receive_sge = sge;
	i->max_read_sge = d->max_sge_rd && d->max_sge_rd < sge ? d->max_sge_rd : sge;
	i->max_transfer_length = a->port.max_msg_sz;
	i->max_inline_data_size = a->max_inline;
	i->max_inbound_read_limit = d->max_qp_rd_atom;
	i->max_outbound_read_limit = d->max_qp_init_rd_atom;
	i->max_receive_queue_depth = d->max_qp_wr;
	i->max_initiator_queue_depth = d->max_qp_wr;
	i->max_shared_receive_queue_depth = d->max_srq ? d->max_srq_wr : 0;
	i->max_completion_queue_depth = d->max_cqe;
	/* Inline saves the adapter a DMA read; below this it is the better
	 * choice.  Above LargeRequestThreshold a Read/Write avoids the
	 * receiver's copy out of its bounce buffers (a fixed guess: verbs
	 * exposes nothing to derive it from). */
	i->inline_request_threshold = a->max_inline;
	i->large_request_threshold = 16384;
	i->max_caller_data = ND_MAX_CALLER_DATA;
	i->max_callee_data = ND_MAX_CALLEE_DATA;
	i->adapter_flags = ND_ADAPTER_FLAG_CQ_RESIZE_SUPPORTED |
			   ND_ADAPTER_FLAG_LOOPBACK_CONNECTIONS_SUPPORTED;
	if (!a->cq_resize)
		i->adapter_flags &= ~ND_ADAPTER_FLAG_CQ_RESIZE_SUPPORTED;
	if (a->in_order)
		i->adapter_flags |= ND_ADAPTER_FLAG_IN_ORDER_DMA_SUPPORTED;
	return ND_SUCCESS;
}

/* Drives nd2prov_unix.so through its call table exactly as nd2prov.dll
 * will, on a real rdma-core device (run inside the Soft-RoCE rig).
 *
 *   driver local ADDR          server and client, two processes, one host
 *   driver server ADDR PEER    the passive side, across two guests
 *   driver client ADDR PEER    the active side
 *
 * Prints "ok: ..." / "FAIL: ..." per check and exits non-zero if any failed. */
#include <arpa/inet.h>
#include <dirent.h>
#include <dlfcn.h>
#include <ifaddrs.h>
#include <limits.h>
#include <net/if.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "nd2provider/unix_call.h"
#include "nd_codes.h"

#define PORT 54321
#define NOPORT 54999
#define FILE_HANDLE 0x4242
#define RECV_SLOTS 16
#define SLOT_SIZE 65536

static const struct nd_unix_entry *E;
static const char *role = "?";
static int failures;

static void check(int cond, const char *fmt, ...)
{
	va_list ap;

	printf(cond ? "ok: nd2unix %s: " : "FAIL: nd2unix %s: ", role);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!cond)
		failures++;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int32_t call(unsigned code, void *p)
{
	return E->calls[code](p);
}

/* ---- the host's completion path, as ndrun will provide it ---------------- */
struct tov {
	int count;
	int32_t status;
	uint64_t file;
	int order;
};
static pthread_mutex_t ov_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ov_cond = PTHREAD_COND_INITIALIZER;
static int completions;

static void complete(uint64_t file, uint64_t overlapped, int32_t status, uint64_t bytes)
{
	struct tov *t = (struct tov *)(uintptr_t)overlapped;

	pthread_mutex_lock(&ov_lock);
	t->count++;
	t->status = status;
	t->file = file;
	t->order = ++completions;
	pthread_cond_broadcast(&ov_cond);
	pthread_mutex_unlock(&ov_lock);
}

static struct nd_unix_ov ov_of(struct tov *t)
{
	memset(t, 0, sizeof(*t));
	return (struct nd_unix_ov){ FILE_HANDLE, (uint64_t)(uintptr_t)t };
}

/* The request's status once it completed, or 1 on timeout. */
static int32_t wait_ov(struct tov *t, int ms)
{
	struct timespec dl;
	int32_t st = 1;

	clock_gettime(CLOCK_REALTIME, &dl);
	dl.tv_sec += ms / 1000;
	dl.tv_nsec += (ms % 1000) * 1000000L;
	if (dl.tv_nsec >= 1000000000L) {
		dl.tv_sec++;
		dl.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&ov_lock);
	while (!t->count && pthread_cond_timedwait(&ov_cond, &ov_lock, &dl) == 0)
		;
	if (t->count)
		st = t->status;
	pthread_mutex_unlock(&ov_lock);
	return st;
}

/* ---- helpers ----------------------------------------------------------------- */
static struct nd_unix_addr addr_of(const char *ip, uint16_t port)
{
	struct nd_unix_addr a;
	uint16_t fam = ND_UNIX_AF_INET, p = htons(port);

	memset(&a, 0, sizeof(a));
	memcpy(a.bytes, &fam, 2);
	memcpy(a.bytes + 2, &p, 2);
	inet_pton(AF_INET, ip, a.bytes + 4);
	a.len = 16;
	return a;
}

static int same_ip(const struct nd_unix_addr *a, const char *ip)
{
	struct nd_unix_addr b = addr_of(ip, 0);
	return a->len == 16 && !memcmp(a->bytes, b.bytes, 2) && !memcmp(a->bytes + 4, b.bytes + 4, 4);
}

/* The address list the provider gave before it read the GID table through
 * ibv_query_gid_table: the addresses of the netdevs named by every
 * gid_attrs/ndevs slot in sysfs (or tied to the device as IPoIB), read the
 * slow way, one file per slot.  Kept here as the reference. */
static int sysfs_netdev(const char *name)
{
	char path[PATH_MAX], line[IF_NAMESIZE + 2];
	struct dirent *de, *pe, *ge;
	DIR *dd, *pd, *gd;
	int hit = 0;

	if (!(dd = opendir("/sys/class/infiniband")))
		return 0;
	while (!hit && (de = readdir(dd))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/net/%s/device/infiniband/%s", name, de->d_name);
		if (access(path, F_OK) == 0)
			hit = 1;
		snprintf(path, sizeof(path), "/sys/class/infiniband/%s/ports", de->d_name);
		if (hit || !(pd = opendir(path)))
			continue;
		while (!hit && (pe = readdir(pd))) {
			if (pe->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "/sys/class/infiniband/%s/ports/%s/gid_attrs/ndevs", de->d_name,
				 pe->d_name);
			if (!(gd = opendir(path)))
				continue;
			while (!hit && (ge = readdir(gd))) {
				FILE *f;
				if (ge->d_name[0] == '.')
					continue;
				snprintf(path, sizeof(path), "/sys/class/infiniband/%s/ports/%s/gid_attrs/ndevs/%s",
					 de->d_name, pe->d_name, ge->d_name);
				if (!(f = fopen(path, "r")))
					continue;
				if (fgets(line, sizeof(line), f)) {
					line[strcspn(line, "\n")] = 0;
					hit = !strcmp(line, name);
				}
				fclose(f);
			}
			closedir(gd);
		}
		closedir(pd);
	}
	closedir(dd);
	return hit;
}

static void addr_text(const struct nd_unix_addr *a, char *out, size_t len)
{
	uint16_t fam;

	memcpy(&fam, a->bytes, 2);
	if (fam == ND_UNIX_AF_INET && a->len >= 8)
		inet_ntop(AF_INET, a->bytes + 4, out, len);
	else if (fam == ND_UNIX_AF_INET6 && a->len >= 24)
		inet_ntop(AF_INET6, a->bytes + 8, out, len);
	else
		snprintf(out, len, "(family %u)", fam);
}

static int cmp_text(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* The provider's list against the reference, as sorted sets of addresses. */
static void check_address_list(const struct nd_unix_address_entry *ents, uint32_t n)
{
	char want[16][INET6_ADDRSTRLEN], got[16][INET6_ADDRSTRLEN];
	struct ifaddrs *ifa0, *ifa;
	uint32_t nw = 0, i;
	int same;

	if (getifaddrs(&ifa0)) {
		check(0, "getifaddrs: %s", strerror(errno));
		return;
	}
	for (ifa = ifa0; ifa; ifa = ifa->ifa_next) {
		if (!ifa->ifa_addr || (ifa->ifa_addr->sa_family != AF_INET && ifa->ifa_addr->sa_family != AF_INET6) ||
		    !(ifa->ifa_flags & IFF_UP) || !sysfs_netdev(ifa->ifa_name) || nw == 16)
			continue;
		if (ifa->ifa_addr->sa_family == AF_INET)
			inet_ntop(AF_INET, &((struct sockaddr_in *)ifa->ifa_addr)->sin_addr, want[nw], sizeof(want[0]));
		else
			inet_ntop(AF_INET6, &((struct sockaddr_in6 *)ifa->ifa_addr)->sin6_addr, want[nw], sizeof(want[0]));
		nw++;
	}
	freeifaddrs(ifa0);
	for (i = 0; i < n && i < 16; i++)
		addr_text(&ents[i].addr, got[i], sizeof(got[0]));
	same = nw == n && n <= 16;
	if (same) {
		qsort(want, nw, sizeof(want[0]), cmp_text);
		qsort(got, n, sizeof(got[0]), cmp_text);
		for (i = 0; i < n; i++)
			same &= !strcmp(want[i], got[i]);
	}
	check(same, "QueryAddresses gives the %u addresses a full sysfs scan of the GID slots finds (it gave %u%s%s)",
	      nw, n, n ? ", first " : "", n ? got[0] : "");
}

static uint16_t port_of(const struct nd_unix_addr *a)
{
	uint16_t p;
	memcpy(&p, a->bytes + 2, 2);
	return ntohs(p);
}

struct side {
	uint64_t adapter, cq, qp, mr, connector, listener;
	struct nd_unix_adapter_info info;
	uint8_t *buf;			/* RECV_SLOTS receive slots, then a send area */
	struct nd_unix_mr_tokens tok;
	int posted, reaped;		/* receives */
};

static uint8_t *send_area(struct side *s)
{
	return s->buf + RECV_SLOTS * SLOT_SIZE;
}

static int32_t post_recv(struct side *s, int slot)
{
	struct nd_unix_sge sge = { (uint64_t)(uintptr_t)(s->buf + slot * SLOT_SIZE), SLOT_SIZE, s->tok.local };
	struct nd_unix_post_params p = { s->qp, 0x1000 + slot, (uint64_t)(uintptr_t)&sge, 1, 0 };
	int32_t st = call(ND_UNIX_QP_RECEIVE, &p);

	if (!st)
		s->posted++;
	return st;
}

static int32_t send_buf(struct side *s, const void *data, uint32_t len, uint32_t flags, uint64_t ctx)
{
	struct nd_unix_sge sge = { (uint64_t)(uintptr_t)data, len, s->tok.local };
	struct nd_unix_post_params p = { s->qp, ctx, len || (flags & ND_OP_FLAG_INLINE) ? (uint64_t)(uintptr_t)&sge : 0,
					 len ? 1 : 0, flags };
	return call(ND_UNIX_QP_SEND, &p);
}

/* Polls until one result arrives (the fast path, busy) or ms pass. */
static int get_one(struct side *s, struct nd_unix_result *r, int ms)
{
	double end = now_ms() + ms;
	struct nd_unix_cq_get_results_params p = { s->cq, (uint64_t)(uintptr_t)r, 1, 0 };

	do {
		call(ND_UNIX_CQ_GET_RESULTS, &p);
		if (p.count)
			return 1;
		/* One guest CPU may carry both sides: let the other one run. */
		sched_yield();
	} while (now_ms() < end);
	return 0;
}

/* The next receive completion, checking its slot and order. */
static int recv_one(struct side *s, struct nd_unix_result *r, int ms)
{
	if (!get_one(s, r, ms))
		return 0;
	if (r->request_type != Nd2RequestTypeReceive)
		return 0;
	s->reaped++;
	return 1;
}

static void fill(uint8_t *p, uint32_t n, uint32_t seed)
{
	uint32_t i;
	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(seed * 31 + i * 7);
}

static int verify(const uint8_t *p, uint32_t n, uint32_t seed)
{
	uint32_t i;
	for (i = 0; i < n; i++)
		if (p[i] != (uint8_t)(seed * 31 + i * 7))
			return 0;
	return 1;
}

static void open_side(struct side *s, const char *ip)
{
	struct nd_unix_resolve_address_params ra = { addr_of(ip, 0), 0 };
	struct nd_unix_query_addresses_params qa = { 0, 0, 0, 0 };
	struct nd_unix_address_entry ents[16];
	struct nd_unix_adapter_open_params ao;
	struct nd_unix_adapter_query_params aq;
	struct nd_unix_cq_create_params cc;
	struct nd_unix_qp_create_params qc;
	struct nd_unix_create_params mc;
	struct nd_unix_mr_register_params mrp;
	struct tov t;
	uint32_t i;
	int found = 0;

	int32_t st = call(ND_UNIX_QUERY_ADDRESSES, &qa);
	check(st == ND_BUFFER_OVERFLOW && qa.count >= 1, "QueryAddresses(0 entries) asks for more room (status %#x, %u)", st, qa.count);
	qa.entries = (uint64_t)(uintptr_t)ents;
	qa.capacity = 16;
	st = call(ND_UNIX_QUERY_ADDRESSES, &qa);
	for (i = 0; i < qa.count && i < 16; i++)
		found |= same_ip(&ents[i].addr, ip);
	check(st == 0 && found, "QueryAddresses lists %s (%u addresses)", ip, qa.count);
	if (st == 0)
		check_address_list(ents, qa.count);
	st = call(ND_UNIX_RESOLVE_ADDRESS, &ra);
	check(st == 0 && ra.adapter_id, "ResolveAddress(%s) gives adapter %#llx", ip, (unsigned long long)ra.adapter_id);
	struct nd_unix_resolve_address_params bad = { addr_of("192.0.2.77", 0), 0 };
	check(call(ND_UNIX_RESOLVE_ADDRESS, &bad) == ND_INVALID_ADDRESS, "ResolveAddress of a foreign address: ND_INVALID_ADDRESS");

	ao.adapter_id = ra.adapter_id;
	st = call(ND_UNIX_ADAPTER_OPEN, &ao);
	check(st == 0, "OpenAdapter (status %#x)", st);
	s->adapter = ao.adapter;
	struct nd_unix_adapter_open_params ao2 = { ra.adapter_id, 0 };
	struct nd_unix_object_params o2;
	st = call(ND_UNIX_ADAPTER_OPEN, &ao2);
	o2.object = ao2.adapter;
	check(st == 0 && ao2.adapter != ao.adapter && call(ND_UNIX_ADAPTER_CLOSE, &o2) == 0,
	      "a second adapter on the same device opens and closes");
	aq.adapter = s->adapter;
	st = call(ND_UNIX_ADAPTER_QUERY, &aq);
	s->info = aq.info;
	check(st == 0 && aq.info.adapter_id == ra.adapter_id, "Query");
	check(aq.info.max_caller_data >= 56 && aq.info.max_callee_data >= 56,
	      "Query: private data caller %u callee %u >= 56", aq.info.max_caller_data, aq.info.max_callee_data);
	check(aq.info.max_completion_queue_depth >= 160 && aq.info.max_receive_queue_depth >= 128 &&
	      aq.info.max_initiator_queue_depth >= 32,
	      "Query: depths cq %u recv %u init %u", aq.info.max_completion_queue_depth,
	      aq.info.max_receive_queue_depth, aq.info.max_initiator_queue_depth);
	check(aq.info.max_inbound_read_limit >= 16 && aq.info.max_outbound_read_limit >= 16,
	      "Query: read limits %u/%u", aq.info.max_inbound_read_limit, aq.info.max_outbound_read_limit);
	check(aq.info.max_inline_data_size >= 32 && aq.info.max_initiator_sge >= 1 && aq.info.max_read_sge <= aq.info.max_initiator_sge,
	      "Query: inline %u, sge %u/%u/%u, transfer %u, flags %#x", aq.info.max_inline_data_size,
	      aq.info.max_initiator_sge, aq.info.max_receive_sge, aq.info.max_read_sge,
	      aq.info.max_transfer_length, aq.info.adapter_flags);

	cc = (struct nd_unix_cq_create_params){ s->adapter, 0, 0, 0 };
	check(call(ND_UNIX_CQ_CREATE, &cc) == ND_INVALID_PARAMETER_3, "CreateCompletionQueue(0): ND_INVALID_PARAMETER_3");
	cc.depth = 256;
	st = call(ND_UNIX_CQ_CREATE, &cc);
	check(st == 0, "CreateCompletionQueue(256)");
	s->cq = cc.cq;

	memset(&qc, 0, sizeof(qc));
	qc.adapter = s->adapter;
	qc.recv_cq = qc.initiator_cq = s->cq;
	qc.context = 0xC0FFEE;
	qc.recv_depth = 128;
	qc.initiator_depth = 64;
	qc.recv_sge = 1;
	qc.initiator_sge = 1;
	qc.inline_size = 64 < aq.info.max_inline_data_size ? 64 : aq.info.max_inline_data_size;
	st = call(ND_UNIX_QP_CREATE, &qc);
	check(st == 0, "CreateQueuePair (status %#x)", st);
	s->qp = qc.qp;

	mc = (struct nd_unix_create_params){ s->adapter, 0 };
	check(call(ND_UNIX_MR_CREATE, &mc) == 0, "CreateMemoryRegion");
	s->mr = mc.object;
	s->buf = aligned_alloc(4096, (RECV_SLOTS + 1) * SLOT_SIZE);
	memset(s->buf, 0, (RECV_SLOTS + 1) * SLOT_SIZE);
	mrp = (struct nd_unix_mr_register_params){ s->mr, 0, 0, 0, 0, (uint64_t)(uintptr_t)&s->tok, ov_of(&t) };
	check(call(ND_UNIX_MR_REGISTER, &mrp) == ND_INVALID_PARAMETER, "Register(NULL, 0): ND_INVALID_PARAMETER");
	mrp.buffer = (uint64_t)(uintptr_t)s->buf;
	check(call(ND_UNIX_MR_REGISTER, &mrp) == ND_INVALID_BUFFER_SIZE, "Register(buf, 0): ND_INVALID_BUFFER_SIZE");
	check(t.count == 0, "failed Registers complete nothing");
	mrp.length = (RECV_SLOTS + 1) * SLOT_SIZE;
	mrp.flags = ND_MR_FLAG_ALLOW_LOCAL_WRITE | ND_MR_FLAG_ALLOW_REMOTE_READ | ND_MR_FLAG_ALLOW_REMOTE_WRITE;
	st = call(ND_UNIX_MR_REGISTER, &mrp);
	check(st == ND_PENDING && wait_ov(&t, 5000) == 0 && t.count == 1 && t.file == FILE_HANDLE,
	      "Register pends, then completes once on its file (status %#x, tokens %#x/%#x)", st, s->tok.local, s->tok.remote);
}


/* Objects that need no peer: CQ Notify/Cancel order and Resize, the SRQ,
 * memory windows. */
static void local_objects(struct side *s)
{
	struct nd_unix_cq_notify_params np;
	struct nd_unix_object_params o = { s->cq };
	struct nd_unix_cq_resize_params rz = { s->cq, 512, 0 };
	struct tov t1, t2, t3;
	int32_t st1, st2, st3;

	np = (struct nd_unix_cq_notify_params){ s->cq, ov_of(&t1), ND_CQ_NOTIFY_ANY, 0 };
	st1 = call(ND_UNIX_CQ_NOTIFY, &np);
	np = (struct nd_unix_cq_notify_params){ s->cq, ov_of(&t2), ND_CQ_NOTIFY_SOLICITED, 0 };
	st2 = call(ND_UNIX_CQ_NOTIFY, &np);
	np = (struct nd_unix_cq_notify_params){ s->cq, ov_of(&t3), ND_CQ_NOTIFY_ERRORS, 0 };
	st3 = call(ND_UNIX_CQ_NOTIFY, &np);
	check(st1 == ND_PENDING && st2 == ND_PENDING && st3 == ND_PENDING && !t1.count && !t2.count && !t3.count,
	      "Notify ANY, SOLICITED and ERRORS pend on an idle CQ");
	call(ND_UNIX_CANCEL, &o);
	check(t1.status == ND_CANCELED && t2.status == ND_CANCELED && t3.status == ND_CANCELED &&
	      t1.order < t2.order && t2.order < t3.order,
	      "CancelOverlappedRequests completes them ND_CANCELED, in the order issued");
	if (s->info.adapter_flags & ND_ADAPTER_FLAG_CQ_RESIZE_SUPPORTED)
		check(call(ND_UNIX_CQ_RESIZE, &rz) == 0, "Resize the CQ to 512");

	struct nd_unix_srq_create_params sc = { s->adapter, 64, 2, 4, 0, 0 };
	int32_t st = call(ND_UNIX_SRQ_CREATE, &sc);
	check(st == 0 || (st == ND_NOT_SUPPORTED && !s->info.max_shared_receive_queue_depth),
	      "CreateSharedReceiveQueue (status %#x, depth limit %u)", st, s->info.max_shared_receive_queue_depth);
	if (st == 0) {
		struct nd_unix_qp_create_params qc = { s->adapter, s->cq, s->cq, sc.srq, 0xABC, 0, 16, 0, 1, 0, 0, 0 };
		struct nd_unix_sge sge = { (uint64_t)(uintptr_t)send_area(s), 64, s->tok.local };
		struct nd_unix_post_params rp = { sc.srq, 0x77, (uint64_t)(uintptr_t)&sge, 1, 0 };
		struct nd_unix_ov_params sn = { sc.srq, ov_of(&t1) };
		struct nd_unix_object_params so = { sc.srq }, qo;
		int i, ok = 1;

		check(call(ND_UNIX_QP_CREATE, &qc) == 0, "CreateQueuePairWithSrq");
		for (i = 0; i < 8; i++)
			ok &= call(ND_UNIX_SRQ_RECEIVE, &rp) == 0;
		check(ok, "8 Receives on the SRQ");
		check(call(ND_UNIX_SRQ_NOTIFY, &sn) == ND_PENDING, "SRQ Notify pends");
		check(call(ND_UNIX_SRQ_DESTROY, &so) == ND_DEVICE_BUSY, "an SRQ with a QP on it cannot go: ND_DEVICE_BUSY");
		qo.object = qc.qp;
		check(call(ND_UNIX_QP_DESTROY, &qo) == 0, "release the QP on the SRQ");
		check(call(ND_UNIX_SRQ_DESTROY, &so) == 0 && t1.status == ND_CANCELED,
		      "release the SRQ: its Notify completes ND_CANCELED");
	}

	struct nd_unix_create_params mw = { s->adapter, 0 };
	st = call(ND_UNIX_MW_CREATE, &mw);
	check(st == 0 || st == ND_NOT_SUPPORTED, "CreateMemoryWindow (status %#x)", st);
	if (st == 0) {
		o.object = mw.object;
		check(call(ND_UNIX_MW_DESTROY, &o) == 0, "release the memory window");
	}
}

static void close_side(struct side *s)
{
	struct nd_unix_ov_params dp = { s->mr, ov_of(&(struct tov){ 0 }) };
	struct tov t;
	struct nd_unix_object_params o;

	dp.ov = ov_of(&t);
	check(call(ND_UNIX_MR_DEREGISTER, &dp) == ND_PENDING && wait_ov(&t, 5000) == 0, "Deregister pends, then completes");
	o.object = s->mr;
	check(call(ND_UNIX_MR_DESTROY, &o) == 0, "release the memory region");
	o.object = s->adapter;
	check(call(ND_UNIX_ADAPTER_CLOSE, &o) == ND_DEVICE_BUSY, "closing an adapter with live objects: ND_DEVICE_BUSY");
	if (s->connector) {
		o.object = s->connector;
		check(call(ND_UNIX_CONNECTOR_DESTROY, &o) == 0, "release the connector");
	}
	if (s->listener) {
		o.object = s->listener;
		check(call(ND_UNIX_LISTENER_DESTROY, &o) == 0, "release the listener");
	}
	o.object = s->qp;
	check(call(ND_UNIX_QP_DESTROY, &o) == 0, "release the queue pair");
	o.object = s->cq;
	check(call(ND_UNIX_CQ_DESTROY, &o) == 0, "release the completion queue");
	o.object = s->adapter;
	check(call(ND_UNIX_ADAPTER_CLOSE, &o) == 0, "close the adapter");
	free(s->buf);
}

static uint64_t new_connector(struct side *s)
{
	struct nd_unix_create_params p = { s->adapter, 0 };
	call(ND_UNIX_CONNECTOR_CREATE, &p);
	return p.object;
}

/* A short-lived extra connection on its own CQ, for the failures that end
 * a connection: a Receive too small (recv_len 16) and no Receive at all
 * (recv_len 0, the sender's RNR retries run out). */
struct extra {
	uint64_t cq, qp, connector;
};

static void extra_open(struct side *s, struct extra *x)
{
	struct nd_unix_cq_create_params cc = { s->adapter, 16, 0, 0 };
	struct nd_unix_qp_create_params qc = { s->adapter, 0, 0, 0, 0xE0, 4, 4, 1, 1, 0, 0, 0 };

	call(ND_UNIX_CQ_CREATE, &cc);
	x->cq = qc.recv_cq = qc.initiator_cq = cc.cq;
	call(ND_UNIX_QP_CREATE, &qc);
	x->qp = qc.qp;
	x->connector = new_connector(s);
}

static void extra_close(struct extra *x)
{
	struct nd_unix_object_params o = { x->connector };

	call(ND_UNIX_CONNECTOR_DESTROY, &o);
	o.object = x->qp;
	call(ND_UNIX_QP_DESTROY, &o);
	o.object = x->cq;
	call(ND_UNIX_CQ_DESTROY, &o);
}

static int extra_result(uint64_t cq, struct nd_unix_result *r, int ms)
{
	struct side tmp = { .cq = cq };
	return get_one(&tmp, r, ms);
}

#define EXTRA_SRQ 1u	/* recv_len: a QP on an SRQ that gets its Receive late */

static void serve_extra(struct side *s, uint32_t recv_len)
{
	struct extra x;
	struct tov t;
	struct nd_unix_result r;
	struct nd_unix_sge sge = { (uint64_t)(uintptr_t)s->buf, recv_len, s->tok.local };
	struct nd_unix_post_params rp;

	struct nd_unix_srq_create_params sc = { s->adapter, 16, 1, 0, 0, 0 };

	if (recv_len == EXTRA_SRQ) {
		struct nd_unix_cq_create_params cc = { s->adapter, 16, 0, 0 };
		struct nd_unix_qp_create_params qc = { s->adapter, 0, 0, 0, 0xE5, 0, 4, 0, 1, 0, 0, 0 };
		call(ND_UNIX_SRQ_CREATE, &sc);
		call(ND_UNIX_CQ_CREATE, &cc);
		x.cq = qc.recv_cq = qc.initiator_cq = cc.cq;
		qc.srq = sc.srq;
		call(ND_UNIX_QP_CREATE, &qc);
		x.qp = qc.qp;
		x.connector = new_connector(s);
		sge.length = SLOT_SIZE;
	} else {
		extra_open(s, &x);
	}
	rp = (struct nd_unix_post_params){ x.qp, 0xE1, (uint64_t)(uintptr_t)&sge, 1, 0 };
	if (recv_len && recv_len != EXTRA_SRQ)
		call(ND_UNIX_QP_RECEIVE, &rp);
	struct nd_unix_get_request_params gr = { s->listener, x.connector, ov_of(&t) };
	int ok = call(ND_UNIX_LISTENER_GET_CONNECTION_REQUEST, &gr) == ND_PENDING && wait_ov(&t, 60000) == 0;
	struct nd_unix_accept_params ap = { x.connector, x.qp, 0, 0, 0, 0, 0, ov_of(&t) };
	ok = ok && call(ND_UNIX_CONNECTOR_ACCEPT, &ap) == ND_PENDING && wait_ov(&t, 30000) == 0;
	check(ok, "extra connection %u accepted", recv_len);
	if (recv_len == EXTRA_SRQ) {
		/* Longer than a plain QP's RNR retries last (about 4 s here). */
		sleep(7);
		rp.object = sc.srq;
		ok = call(ND_UNIX_SRQ_RECEIVE, &rp) == 0 && extra_result(x.cq, &r, 30000);
		check(ok && r.status == 0 && r.bytes == 100 && r.qp_context == 0xE5 && r.request_context == 0xE1 &&
		      r.request_type == Nd2RequestTypeReceive,
		      "a Send to a QP on an empty SRQ waits for a Receive posted 7 s later (status %#x, qp context %#llx)",
		      ok ? r.status : 1, ok ? (unsigned long long)r.qp_context : 0ull);
		struct tov tnd;
		struct nd_unix_ov_params ndp = { x.connector, ov_of(&tnd) };
		call(ND_UNIX_CONNECTOR_NOTIFY_DISCONNECT, &ndp);
		wait_ov(&tnd, 30000);
		extra_close(&x);
		struct nd_unix_object_params so = { sc.srq };
		check(call(ND_UNIX_SRQ_DESTROY, &so) == 0, "release the SRQ");
		return;
	}
	if (recv_len) {
		ok = extra_result(x.cq, &r, 30000);
		check(ok && r.status == ND_DATA_OVERRUN && r.request_type == Nd2RequestTypeReceive && r.request_context == 0xE1,
		      "a Send larger than the Receive: the Receive completes ND_DATA_OVERRUN (got %#x)", ok ? r.status : 1);
	} else {
		struct tov tnd;
		struct nd_unix_ov_params ndp = { x.connector, ov_of(&tnd) };
		call(ND_UNIX_CONNECTOR_NOTIFY_DISCONNECT, &ndp);
		wait_ov(&tnd, 30000);	/* the client goes once its Send has failed */
	}
	extra_close(&x);
}

static void client_extra(struct side *s, const char *peer, uint32_t recv_len)
{
	struct extra x;
	struct tov t;
	struct nd_unix_result r;
	double t0;
	int32_t st;
	int ok;

	extra_open(s, &x);
	struct nd_unix_connect_params cp = { x.connector, x.qp, addr_of(peer, PORT), 0, 0, 0, 0, 0, ov_of(&t) };
	ok = call(ND_UNIX_CONNECTOR_CONNECT, &cp) == ND_PENDING && wait_ov(&t, 60000) == 0;
	struct nd_unix_ov_params ccp = { x.connector, ov_of(&t) };
	ok = ok && call(ND_UNIX_CONNECTOR_COMPLETE_CONNECT, &ccp) == ND_PENDING && wait_ov(&t, 10000) == 0;
	check(ok, "extra connection %u established", recv_len);
	struct nd_unix_sge sge = { (uint64_t)(uintptr_t)send_area(s), 100, s->tok.local };
	struct nd_unix_post_params sp = { x.qp, 0xE2, (uint64_t)(uintptr_t)&sge, 1, 0 };
	sleep(1);	/* the server's Accept completes before our Send lands */
	t0 = now_ms();
	st = call(ND_UNIX_QP_SEND, &sp);
	ok = st == 0 && extra_result(x.cq, &r, 60000) && r.request_type == Nd2RequestTypeSend && r.request_context == 0xE2;
	if (recv_len == EXTRA_SRQ)
		check(ok && r.status == ND_SUCCESS && now_ms() - t0 > 5000,
		      "a Send to a peer's empty SRQ is retried until it lands (%#x after %.0f ms)",
		      ok ? r.status : 1, now_ms() - t0);
	else if (recv_len)
		check(ok && (r.status == ND_SUCCESS || r.status == ND_STATUS_DATA_ERROR),
		      "its sender sees ND_SUCCESS or STATUS_DATA_ERROR (got %#x)", ok ? r.status : 1);
	else
		check(ok && r.status == ND_IO_TIMEOUT,
		      "a Send with no Receive posted on a plain QP fails ND_IO_TIMEOUT (got %#x after %.0f ms)",
		      ok ? r.status : 1, now_ms() - t0);
	extra_close(&x);
}

/* ---- the passive side ------------------------------------------------------ */
static const char reject_data[] = "no thanks";
static const char accept_data[] = "server-hello: welcome aboard";
static const char client_data[] = "client-hello, from MS-MPI 28";	/* 28 bytes + NUL */
static const uint32_t sizes[] = { 1, 100, 4096, 65536 };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))
#define PINGS 200

struct remote_buf {
	uint64_t addr;
	uint32_t token;
	uint32_t pad;
};

static void serve(struct side *s, const char *ip, const char *peer)
{
	struct nd_unix_create_params lc = { s->adapter, 0 };
	struct nd_unix_addr_params ab;
	struct nd_unix_listen_params lp;
	struct nd_unix_get_request_params gr;
	struct nd_unix_private_data_params pd;
	struct nd_unix_read_limits_params rl;
	struct nd_unix_accept_params ap;
	struct nd_unix_cq_notify_params np;
	struct nd_unix_result r;
	struct tov t, tn, td, tnd;
	uint8_t data[256];
	int32_t st;
	uint32_t i;
	int ok, slot;

	check(call(ND_UNIX_LISTENER_CREATE, &lc) == 0, "CreateListener");
	s->listener = lc.object;
	ab = (struct nd_unix_addr_params){ s->listener, addr_of(ip, PORT) };
	check(call(ND_UNIX_LISTENER_GET_LOCAL_ADDRESS, &ab) == ND_INVALID_DEVICE_STATE,
	      "Listener GetLocalAddress before Bind: ND_INVALID_DEVICE_STATE");
	ab.addr = addr_of(ip, PORT);
	check(call(ND_UNIX_LISTENER_BIND, &ab) == 0, "Listener Bind %s:%d", ip, PORT);
	/* Bound is enough (MS-MPI asks before Listen). */
	memset(&ab.addr, 0, sizeof(ab.addr));
	st = call(ND_UNIX_LISTENER_GET_LOCAL_ADDRESS, &ab);
	check(st == 0 && same_ip(&ab.addr, ip) && port_of(&ab.addr) == PORT, "Listener GetLocalAddress before Listen");
	ab.addr = addr_of(ip, PORT);
	check(call(ND_UNIX_LISTENER_BIND, &ab) == ND_STATUS_ADDRESS_ALREADY_ASSOCIATED,
	      "second Bind: STATUS_ADDRESS_ALREADY_ASSOCIATED");
	lp = (struct nd_unix_listen_params){ s->listener, 0, 0 };
	check(call(ND_UNIX_LISTENER_LISTEN, &lp) == 0, "Listen");
	memset(&ab.addr, 0, sizeof(ab.addr));
	st = call(ND_UNIX_LISTENER_GET_LOCAL_ADDRESS, &ab);
	check(st == 0 && same_ip(&ab.addr, ip) && port_of(&ab.addr) == PORT, "Listener GetLocalAddress");

	/* GetConnectionRequest pends; Cancel completes it ND_CANCELED at once. */
	s->connector = new_connector(s);
	gr = (struct nd_unix_get_request_params){ s->listener, s->connector, ov_of(&t) };
	st = call(ND_UNIX_LISTENER_GET_CONNECTION_REQUEST, &gr);
	struct nd_unix_object_params cp = { s->listener };
	call(ND_UNIX_CANCEL, &cp);
	check(st == ND_PENDING && t.count == 1 && t.status == ND_CANCELED,
	      "GetConnectionRequest pends; CancelOverlappedRequests completes it ND_CANCELED before returning");

	/* Receives before the connection. */
	for (slot = 0, ok = 1; slot < RECV_SLOTS; slot++)
		ok &= post_recv(s, slot) == 0;
	check(ok, "%d Receives posted before Accept", RECV_SLOTS);

	/* First request: reject, with private data. */
	gr.ov = ov_of(&t);
	st = call(ND_UNIX_LISTENER_GET_CONNECTION_REQUEST, &gr);
	check(st == ND_PENDING && wait_ov(&t, 120000) == 0, "GetConnectionRequest completes for the first request");
	pd = (struct nd_unix_private_data_params){ s->connector, 0, 0, 0 };
	st = call(ND_UNIX_CONNECTOR_GET_PRIVATE_DATA, &pd);
	check(st == ND_BUFFER_OVERFLOW && pd.length >= 28, "GetPrivateData(NULL, 0): ND_BUFFER_OVERFLOW, size %u", pd.length);
	struct nd_unix_reject_params rj = { s->connector, (uint64_t)(uintptr_t)reject_data, sizeof(reject_data), 0 };
	check(call(ND_UNIX_CONNECTOR_REJECT, &rj) == 0, "Reject with private data");
	struct nd_unix_object_params co = { s->connector };
	call(ND_UNIX_CONNECTOR_DESTROY, &co);

	/* Second request: accept. */
	s->connector = new_connector(s);
	gr.connector = s->connector;
	gr.ov = ov_of(&t);
	st = call(ND_UNIX_LISTENER_GET_CONNECTION_REQUEST, &gr);
	check(st == ND_PENDING && wait_ov(&t, 60000) == 0, "GetConnectionRequest completes for the second request");
	pd = (struct nd_unix_private_data_params){ s->connector, (uint64_t)(uintptr_t)data, sizeof(data), 0 };
	st = call(ND_UNIX_CONNECTOR_GET_PRIVATE_DATA, &pd);
	check(st == 0 && pd.length >= 28 && !memcmp(data, client_data, 28), "GetPrivateData: the client's 28 bytes (length %u)", pd.length);
	rl = (struct nd_unix_read_limits_params){ s->connector, 0, 0 };
	st = call(ND_UNIX_CONNECTOR_GET_READ_LIMITS, &rl);
	check(st == 0 && rl.inbound == 8 && rl.outbound == 4, "GetReadLimits: the client's outbound 8 / inbound 4 (got %u/%u)", rl.inbound, rl.outbound);
	ab = (struct nd_unix_addr_params){ s->connector };
	st = call(ND_UNIX_CONNECTOR_GET_PEER_ADDRESS, &ab);
	check(st == 0 && same_ip(&ab.addr, peer), "GetPeerAddress is the client, %s", peer);
	ap = (struct nd_unix_accept_params){ s->connector, s->qp, 16, 16, (uint64_t)(uintptr_t)data, s->info.max_callee_data + 1, 0, ov_of(&t) };
	check(call(ND_UNIX_CONNECTOR_ACCEPT, &ap) == ND_INVALID_BUFFER_SIZE && !t.count, "Accept with too much private data: ND_INVALID_BUFFER_SIZE");
	ap.private_data = (uint64_t)(uintptr_t)accept_data;
	ap.private_data_len = sizeof(accept_data);
	st = call(ND_UNIX_CONNECTOR_ACCEPT, &ap);
	check(st == ND_PENDING && wait_ov(&t, 30000) == 0, "Accept pends, then completes when the client completes");
	tnd = (struct tov){ 0 };
	struct nd_unix_ov_params ndp = { s->connector, ov_of(&tnd) };
	check(call(ND_UNIX_CONNECTOR_NOTIFY_DISCONNECT, &ndp) == ND_PENDING, "NotifyDisconnect pends");

	/* Notify(ANY) before the first message, then the messages of each size. */
	np = (struct nd_unix_cq_notify_params){ s->cq, ov_of(&tn), ND_CQ_NOTIFY_ANY, 0 };
	st = call(ND_UNIX_CQ_NOTIFY, &np);
	check(st == ND_PENDING && wait_ov(&tn, 30000) == 0, "Notify(ANY) completes when a message arrives");
	for (i = 0, ok = 1; i < NSIZES; i++) {
		int got = recv_one(s, &r, 30000);
		slot = (int)(r.request_context - 0x1000);
		ok &= got && r.status == 0 && r.bytes == sizes[i] && r.qp_context == 0xC0FFEE &&
		      slot == (int)i && verify(s->buf + slot * SLOT_SIZE, sizes[i], i);
		if (!ok) {
			check(0, "receive %u: got %d status %#x bytes %u ctx %#llx", i, got, r.status, r.bytes,
			      (unsigned long long)r.request_context);
			break;
		}
		post_recv(s, slot);
	}
	check(ok, "received %zu messages (1 B to 64 KiB) in order, data intact", NSIZES);
	ok = recv_one(s, &r, 30000) && r.status == 0 && r.bytes == 32 && verify(s->buf + 4 * SLOT_SIZE, 32, 99);
	check(ok, "inline Send arrived (32 bytes)");
	post_recv(s, 4);
	ok = recv_one(s, &r, 30000) && r.status == 0 && r.bytes == 0 && r.request_context == 0x1005;
	check(ok, "zero-byte Send arrived as a zero-byte receive");
	post_recv(s, 5);

	/* Tell the client where it may Write and Read. */
	struct remote_buf rb = { (uint64_t)(uintptr_t)send_area(s), s->tok.remote, 0 };
	memcpy(send_area(s) + 4096, &rb, sizeof(rb));
	fill(send_area(s), 4096, 7);
	st = send_buf(s, send_area(s) + 4096, sizeof(rb), 0, 0x5E);
	ok = st == 0 && get_one(s, &r, 30000) && r.status == 0 && r.request_type == Nd2RequestTypeSend && r.request_context == 0x5E;
	check(ok, "Send completes with its context and RequestType Send");

	/* Ping-pong: answer each 64-byte message. */
	for (i = 0, ok = 1; i < PINGS && ok; i++) {
		ok = recv_one(s, &r, 30000) && r.status == 0 && r.bytes == 64;
		slot = (int)(r.request_context - 0x1000);
		post_recv(s, slot);
		ok = ok && send_buf(s, send_area(s) + 8192, 64, ND_OP_FLAG_SILENT_SUCCESS, 0x70) == 0;
	}
	check(ok, "answered %d pings", PINGS);

	/* The client's Write landed, then it says so. */
	ok = recv_one(s, &r, 30000) && r.status == 0 && verify(send_area(s) + 16384, 4096, 11);
	check(ok, "RDMA Write from the client landed in registered memory");
	post_recv(s, (int)(r.request_context - 0x1000));

	/* The client disconnects: NotifyDisconnect completes, then our
	 * Disconnect flushes every posted receive with ND_CANCELED. */
	check(wait_ov(&tnd, 30000) == 0, "NotifyDisconnect completes when the client disconnects");
	struct nd_unix_ov_params dp = { s->connector, ov_of(&td) };
	st = call(ND_UNIX_CONNECTOR_DISCONNECT, &dp);
	check(st == ND_PENDING && wait_ov(&td, 30000) == 0, "Disconnect after the peer's completes");
	for (i = 0, ok = 1; i < RECV_SLOTS; i++)
		ok &= recv_one(s, &r, 10000) && r.status == ND_CANCELED && r.request_type == Nd2RequestTypeReceive;
	check(ok, "Disconnect flushed the %d posted Receives: ND_CANCELED, RequestType Receive", RECV_SLOTS);
	serve_extra(s, 16);
	serve_extra(s, 0);
	serve_extra(s, EXTRA_SRQ);
}


/* ---- the active side --------------------------------------------------------- */
static int32_t try_connect(struct side *s, const char *ip, uint16_t port, const void *pd, uint32_t len, struct tov *t)
{
	struct nd_unix_connect_params cp = { s->connector, s->qp, addr_of(ip, port), 4, 8,
					     (uint64_t)(uintptr_t)pd, len, 0, ov_of(t) };
	int32_t st = call(ND_UNIX_CONNECTOR_CONNECT, &cp);

	return st == ND_PENDING ? wait_ov(t, 30000) : st;
}

static void client(struct side *s, const char *ip, const char *peer)
{
	struct nd_unix_addr_params ab;
	struct nd_unix_private_data_params pd;
	struct nd_unix_read_limits_params rl;
	struct nd_unix_result r;
	struct tov t;
	uint8_t data[256], big[256];
	uint32_t nbig = s->info.max_caller_data + 1;
	double t0, t1;
	int32_t st;
	uint32_t i;
	int ok, slot, attempts;

	for (slot = 0, ok = 1; slot < RECV_SLOTS; slot++)
		ok &= post_recv(s, slot) == 0;
	check(ok, "%d Receives posted before Connect", RECV_SLOTS);
	check(send_buf(s, send_area(s), 1, 0, 1) == ND_CONNECTION_INVALID, "Send before connecting: ND_CONNECTION_INVALID");

	/* Nobody listens on NOPORT: an error, not a hang. */
	struct nd_unix_object_params co;
	s->connector = new_connector(s);
	t0 = now_ms();
	st = try_connect(s, peer, NOPORT, NULL, 0, &t);
	check(st == ND_CONNECTION_REFUSED, "Connect to a port nobody serves: ND_CONNECTION_REFUSED (%#x) in %.0f ms", st, now_ms() - t0);
	co.object = s->connector;
	call(ND_UNIX_CONNECTOR_DESTROY, &co);
	s->connector = new_connector(s);
	co.object = s->connector;
	if (strcmp(ip, peer)) {
		/* On a real link ARP fails; on one host's dummy netdev (NOARP) the
		 * CM's request would only time out after a minute. */
		t0 = now_ms();
		st = try_connect(s, "198.18.0.99", PORT, NULL, 0, &t);
		check(st != 0 && st != 1, "Connect to an address no host has fails (%#x) in %.0f ms", st, now_ms() - t0);
	} else {
		struct nd_unix_connect_params cp = { s->connector, s->qp, addr_of("198.18.0.99", PORT), 0, 0, 0, 0, 0, ov_of(&t) };
		st = call(ND_UNIX_CONNECTOR_CONNECT, &cp);
		usleep(100000);
		call(ND_UNIX_CANCEL, &co);
		check(st == ND_PENDING && t.count == 1 && t.status == ND_CANCELED,
		      "a pending Connect completes ND_CANCELED when canceled");
	}
	call(ND_UNIX_CONNECTOR_DESTROY, &co);

	s->connector = new_connector(s);
	ab = (struct nd_unix_addr_params){ s->connector, addr_of(ip, 0) };
	check(call(ND_UNIX_CONNECTOR_BIND, &ab) == 0, "Connector Bind %s:0", ip);
	check(call(ND_UNIX_CONNECTOR_BIND, &ab) == ND_STATUS_ADDRESS_ALREADY_ASSOCIATED,
	      "second Bind: STATUS_ADDRESS_ALREADY_ASSOCIATED");
	memset(big, 'x', sizeof(big));
	st = try_connect(s, peer, PORT, big, nbig, &t);
	check(st == ND_INVALID_BUFFER_SIZE && !t.count, "Connect with %u bytes of private data: ND_INVALID_BUFFER_SIZE, nothing completes", nbig);

	/* The server rejects the first request it sees (with data "no thanks");
	 * until it listens, the refusal comes without data: retry. */
	for (attempts = 0; attempts < 60; attempts++) {
		st = try_connect(s, peer, PORT, client_data, 28, &t);
		pd = (struct nd_unix_private_data_params){ s->connector, (uint64_t)(uintptr_t)data, sizeof(data), 0 };
		memset(data, 0, sizeof(data));
		if (st == ND_CONNECTION_REFUSED && call(ND_UNIX_CONNECTOR_GET_PRIVATE_DATA, &pd) == 0 &&
		    !memcmp(data, reject_data, sizeof(reject_data)))
			break;
		sleep(1);
	}
	check(st == ND_CONNECTION_REFUSED && attempts < 60, "a rejected Connect completes ND_CONNECTION_REFUSED with the reject's private data");

	/* The same connector connects again; the server accepts. */
	st = try_connect(s, peer, PORT, client_data, 28, &t);
	check(st == 0, "Connect on the same connector after the refusal (status %#x)", st);
	memset(data, 0, sizeof(data));
	pd = (struct nd_unix_private_data_params){ s->connector, (uint64_t)(uintptr_t)data, sizeof(data), 0 };
	st = call(ND_UNIX_CONNECTOR_GET_PRIVATE_DATA, &pd);
	check(st == 0 && pd.length >= sizeof(accept_data) && !memcmp(data, accept_data, sizeof(accept_data)),
	      "GetPrivateData: the Accept's data (length %u)", pd.length);
	rl = (struct nd_unix_read_limits_params){ s->connector };
	st = call(ND_UNIX_CONNECTOR_GET_READ_LIMITS, &rl);
	check(st == 0 && rl.inbound == 4 && rl.outbound == 8, "GetReadLimits after the Accept: %u/%u (want 4/8)", rl.inbound, rl.outbound);
	struct nd_unix_connect_params again = { s->connector, s->qp, addr_of(peer, PORT), 0, 0, 0, 0, 0, ov_of(&t) };
	check(call(ND_UNIX_CONNECTOR_CONNECT, &again) == ND_CONNECTION_ACTIVE && !t.count, "a second Connect: ND_CONNECTION_ACTIVE");
	struct nd_unix_ov_params ccp = { s->connector, ov_of(&t) };
	st = call(ND_UNIX_CONNECTOR_COMPLETE_CONNECT, &ccp);
	check(st == ND_PENDING && wait_ov(&t, 10000) == 0, "CompleteConnect pends, then completes");
	ab = (struct nd_unix_addr_params){ s->connector };
	check(call(ND_UNIX_CONNECTOR_GET_PEER_ADDRESS, &ab) == 0 && same_ip(&ab.addr, peer) && port_of(&ab.addr) == PORT,
	      "GetPeerAddress is %s:%d", peer, PORT);
	ab = (struct nd_unix_addr_params){ s->connector };
	check(call(ND_UNIX_CONNECTOR_GET_LOCAL_ADDRESS, &ab) == 0 && same_ip(&ab.addr, ip) && port_of(&ab.addr) != 0,
	      "GetLocalAddress is %s with a port", ip);

	/* Messages of each size, then inline (from unregistered memory) and zero-byte. */
	for (i = 0, ok = 1; i < NSIZES; i++) {
		uint8_t *b = send_area(s);
		fill(b, sizes[i], i);
		ok &= send_buf(s, b, sizes[i], 0, 0x100 + i) == 0;
		ok &= get_one(s, &r, 30000) && r.status == 0 && r.request_type == Nd2RequestTypeSend &&
		      r.request_context == 0x100 + i && r.qp_context == 0xC0FFEE;
	}
	check(ok, "sent %zu messages, each completed with its context", NSIZES);
	uint8_t stackbuf[32];
	fill(stackbuf, 32, 99);
	st = send_buf(s, stackbuf, 32, ND_OP_FLAG_INLINE, 0x200);
	memset(stackbuf, 0, sizeof(stackbuf));	/* inline: copied at post time */
	check(st == 0 && get_one(s, &r, 30000) && r.status == 0 && r.request_context == 0x200, "inline Send from unregistered memory");
	st = send_buf(s, NULL, 0, 0, 0x201);
	check(st == 0 && get_one(s, &r, 30000) && r.status == 0 && r.request_context == 0x201, "zero-byte Send (nSge 0)");

	/* The server's buffer description. */
	ok = recv_one(s, &r, 30000) && r.status == 0 && r.bytes == sizeof(struct remote_buf);
	struct remote_buf rb;
	slot = (int)(r.request_context - 0x1000);
	memcpy(&rb, s->buf + slot * SLOT_SIZE, sizeof(rb));
	post_recv(s, slot);
	check(ok, "received the server's buffer and token");

	/* Ping-pong latency, 64 bytes, silent sends. */
	t0 = now_ms();
	for (i = 0, ok = 1; i < PINGS && ok; i++) {
		ok = send_buf(s, send_area(s), 64, ND_OP_FLAG_SILENT_SUCCESS, 0x300) == 0 &&
		     recv_one(s, &r, 30000) && r.status == 0 && r.bytes == 64;
		post_recv(s, (int)(r.request_context - 0x1000));
	}
	t1 = now_ms();
	check(ok, "%d ping-pongs of 64 bytes: %.1f us per round trip", PINGS, (t1 - t0) * 1000 / PINGS);

	/* Read the server's 4 KiB, Write 4 KiB back at offset 16 KiB. */
	struct nd_unix_sge sge = { (uint64_t)(uintptr_t)(send_area(s) + 8192), 4096, s->tok.local };
	struct nd_unix_rdma_params rd = { s->qp, 0x400, (uint64_t)(uintptr_t)&sge, 1, 0, rb.addr, rb.token, 0 };
	memset(send_area(s) + 8192, 0, 4096);
	st = call(ND_UNIX_QP_READ, &rd);
	ok = st == 0 && get_one(s, &r, 30000) && r.status == 0 && r.request_type == Nd2RequestTypeRead &&
	     verify(send_area(s) + 8192, 4096, 7);
	check(ok, "RDMA Read of the server's buffer (status %#x)", r.status);
	fill(send_area(s) + 8192, 4096, 11);
	struct nd_unix_rdma_params wr = { s->qp, 0x401, (uint64_t)(uintptr_t)&sge, 1, 0, rb.addr + 16384, rb.token, 0 };
	st = call(ND_UNIX_QP_WRITE, &wr);
	ok = st == 0 && get_one(s, &r, 30000) && r.status == 0 && r.request_type == Nd2RequestTypeWrite;
	check(ok, "RDMA Write completes");
	ok = send_buf(s, send_area(s), 8, 0, 0x402) == 0 && get_one(s, &r, 30000) && r.status == 0;
	check(ok, "told the server the Write is done");

	/* Flush: every posted Receive completes ND_CANCELED as a Receive. */
	struct nd_unix_object_params qo = { s->qp };
	check(call(ND_UNIX_QP_FLUSH, &qo) == 0, "Flush");
	for (i = 0, ok = 1; i < RECV_SLOTS; i++)
		ok &= recv_one(s, &r, 10000) && r.status == ND_CANCELED && r.request_type == Nd2RequestTypeReceive &&
		      r.qp_context == 0xC0FFEE && r.request_context >= 0x1000 && r.request_context < 0x1000 + RECV_SLOTS;
	check(ok, "Flush completed the %d posted Receives ND_CANCELED, RequestType Receive, contexts intact", RECV_SLOTS);
	ok = send_buf(s, send_area(s), 8, 0, 0x500) == 0 && get_one(s, &r, 10000) &&
	     r.status == ND_CANCELED && r.request_type == Nd2RequestTypeSend && r.request_context == 0x500;
	check(ok, "a Send after Flush completes ND_CANCELED, RequestType Send");
	struct nd_unix_ov_params dp = { s->connector, ov_of(&t) };
	st = call(ND_UNIX_CONNECTOR_DISCONNECT, &dp);
	check(st == ND_PENDING && wait_ov(&t, 30000) == 0, "Disconnect pends, then completes");
	client_extra(s, peer, 16);
	client_extra(s, peer, 0);
	client_extra(s, peer, EXTRA_SRQ);
}

static int run(const char *what, const char *ip, const char *peer)
{
	struct nd_unix_host host = { ND_UNIX_ABI_VERSION, 0, complete };
	const char *so = getenv("ND2UNIX_SO");
	struct side s;
	double t0 = now_ms();
	void *h;

	role = what;
	h = dlopen(so ? so : "build/" ND_UNIX_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		check(0, "dlopen: %s", dlerror());
		return 1;
	}
	E = dlsym(h, ND_UNIX_ENTRY_SYMBOL);
	check(E && E->abi_version == ND_UNIX_ABI_VERSION && E->call_count == ND_UNIX_CALL_COUNT,
	      "the .so exports %s with ABI %d and %d calls", ND_UNIX_ENTRY_SYMBOL, ND_UNIX_ABI_VERSION, ND_UNIX_CALL_COUNT);
	if (!E || E->init(&host) != 0) {
		check(0, "init");
		return 1;
	}
	memset(&s, 0, sizeof(s));
	open_side(&s, ip);
	if (!failures && !strcmp(what, "server"))
		local_objects(&s);
	if (!failures) {
		if (!strcmp(what, "server"))
			serve(&s, ip, peer);
		else
			client(&s, ip, peer);
	}
	close_side(&s);
	printf("%s: took %.0f ms, %d failed\n", what, now_ms() - t0, failures);
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	int st;
	pid_t pid;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && !strcmp(argv[1], "local")) {
		pid = fork();
		if (pid == 0)
			return run("server", argv[2], argv[2]);
		st = run("client", argv[2], argv[2]);
		if (waitpid(pid, &pid, 0) < 0 || !WIFEXITED(pid) || WEXITSTATUS(pid))
			st = 1;
		return st;
	}
	if (argc == 4 && (!strcmp(argv[1], "server") || !strcmp(argv[1], "client")))
		return run(argv[1], argv[2], argv[3]);
	fprintf(stderr, "usage: %s local ADDR | server ADDR PEER | client ADDR PEER\n", argv[0]);
	return 2;
}

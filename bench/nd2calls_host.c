/* make bench-nd2-host: the instructions nd2prov_unix.so's own code spends per
 * Send and per GetResults, on the host, to the instruction.  The guest's
 * figures (make bench-vm-cost) average over whatever ndpingpong's calls
 * happened to find; here each call is driven alone against a fake verbs
 * layer: a QP in RTS and a CQ whose ops are two stubs (fake_post_send,
 * fake_poll_cq), which bench/nd2calls-host subtracts.  The QP and CQ are
 * built as qp_create and cq_create leave them, without a device.  The
 * calls are the fast entries nd2prov.dll makes (nd_fast_qp_send,
 * nd_fast_cq_get_results: unix_call.h), with the arguments in registers.
 *
 *   nd2calls_host SO MODE ITERATIONS
 *   MODE  send | send-inline    Send (flags 0 | ND_OP_FLAG_INLINE), then
 *                               GetResults returning its one result
 *         empty                 GetResults on an empty CQ */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nd_unix.h"

static uint64_t last_wr;
static int completed;

int fake_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad);
int fake_poll_cq(struct ibv_cq *cq, int n, struct ibv_wc *wc);

int fake_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad)
{
	last_wr = wr->wr_id;
	completed = 1;
	return 0;
}

int fake_poll_cq(struct ibv_cq *cq, int n, struct ibv_wc *wc)
{
	if (!completed || n < 1)
		return 0;
	completed = 0;
	memset(wc, 0, sizeof(*wc));
	wc->wr_id = last_wr;
	wc->status = IBV_WC_SUCCESS;
	wc->opcode = IBV_WC_SEND;
	return 1;
}

int main(int argc, char **argv)
{
	static struct ibv_context ctx;
	static struct ibv_qp iqp;
	static struct ibv_cq icq;
	static struct nd_adapter adapter;
	static struct nd_qp qp;
	static struct nd_cq cq;
	static struct nd_slot sq[64];
	static char buf[64];
	const struct nd_unix_entry *e;
	struct nd_unix_fast_entries_params fast = { 0 };
	nd_unix_post_fn send;
	nd_unix_get_results_fn get_results;
	struct nd_unix_sge sge = { (uintptr_t)buf, 2, 1 };
	struct nd_unix_result res[10];
	uint32_t flags;
	void *so;
	long i, n;

	if (argc != 4 || (strcmp(argv[2], "send") && strcmp(argv[2], "send-inline") && strcmp(argv[2], "empty"))) {
		fprintf(stderr, "usage: %s SO send|send-inline|empty ITERATIONS\n", argv[0]);
		return 2;
	}
	flags = strcmp(argv[2], "send-inline") ? 0 : ND_OP_FLAG_INLINE;
	n = atol(argv[3]);
	so = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!so) {
		fprintf(stderr, "nd2calls_host: %s\n", dlerror());
		return 1;
	}
	e = dlsym(so, ND_UNIX_ENTRY_SYMBOL);
	if (!e || e->abi_version != ND_UNIX_ABI_VERSION || e->call_count != ND_UNIX_CALL_COUNT) {
		fprintf(stderr, "nd2calls_host: %s is not this tree's nd2prov_unix.so\n", argv[1]);
		return 1;
	}
	if (e->calls[ND_UNIX_FAST_ENTRIES](&fast) || !fast.qp_send || !fast.cq_get_results) {
		fprintf(stderr, "nd2calls_host: %s gives no fast entries\n", argv[1]);
		return 1;
	}
	send = (nd_unix_post_fn)(uintptr_t)fast.qp_send;
	get_results = (nd_unix_get_results_fn)(uintptr_t)fast.cq_get_results;
	ctx.ops.post_send = fake_post_send;
	ctx.ops.poll_cq = fake_poll_cq;
	iqp.context = &ctx;
	iqp.state = IBV_QPS_RTS;
	icq.context = &ctx;
	qp.obj.kind = ND_KIND_QP;
	qp.adapter = &adapter;
	qp.qp = &iqp;
	qp.send_cq = qp.recv_cq = &cq;
	qp.context = 0x1234;
	qp.max_send_sge = qp.max_recv_sge = 4;
	qp.max_inline = 64;
	qp.max_transfer = 1u << 30;
	qp.sq = sq;
	qp.sq_mask = 63;
	cq.obj.kind = ND_KIND_CQ;
	cq.adapter = &adapter;
	cq.cq = &icq;
	cq.soft_tail = &cq.soft;

	/* ndpingpong's shape: one SGE, a result array of 10. */
	for (i = 0; i < n; i++) {
		uint32_t count;
		int32_t st;

		if (argv[2][0] != 'e' && (st = send((uintptr_t)&qp, 0x55, (uintptr_t)&sge, 1, flags))) {
			fprintf(stderr, "nd2calls_host: Send %ld: status 0x%08x\n", i, (unsigned)st);
			return 1;
		}
		count = get_results((uintptr_t)&cq, (uintptr_t)res, 10);
		if (count != (argv[2][0] != 'e') ||
		    (count && (res[0].request_context != 0x55 || res[0].qp_context != 0x1234 || res[0].status))) {
			fprintf(stderr, "nd2calls_host: GetResults %ld: %u results, not what was sent\n", i, count);
			return 1;
		}
	}
	return 0;
}

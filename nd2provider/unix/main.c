/* nd2prov_unix.so's one export: the call table and init. */
#include <stdarg.h>
#include <stdio.h>

#include "nd_unix.h"

static struct nd_unix_host host;

void nd_complete(const struct nd_unix_ov *ov, int32_t status, uint64_t bytes)
{
	host.complete(ov->file, ov->overlapped, status, bytes);
}

void *nd_wake_attach(uint64_t file, int fd, const struct nd_unix_wake_ops *ops, void *ctx)
{
	return host.wake_attach ? host.wake_attach(file, fd, ops, ctx) : NULL;
}

void nd_wake_detach(void *att)
{
	host.wake_detach(att);
}

void nd_log(const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(stderr, "nd2prov_unix: %s\n", buf);
}

ND_CALL(cancel)
{
	struct nd_unix_object_params *p = params;
	struct nd_obj *o = (struct nd_obj *)(uintptr_t)p->object;

	if (!o)
		return ND_INVALID_HANDLE;
	switch (o->kind) {
	case ND_KIND_CQ: return nd_cq_cancel((struct nd_cq *)o);
	case ND_KIND_SRQ: return nd_srq_cancel((struct nd_srq *)o);
	case ND_KIND_CONNECTOR: return nd_connector_cancel((struct nd_connector *)o);
	case ND_KIND_LISTENER: return nd_listener_cancel((struct nd_listener *)o);
	case ND_KIND_MR: return ND_SUCCESS;	/* Register/Deregister never stay pending */
	default: return ND_INVALID_HANDLE;
	}
}

/* Checked against the contract's types, so a changed signature does not
 * reach the PE side's calls unnoticed. */
ND_CALL(fast_entries)
{
	struct nd_unix_fast_entries_params *p = params;
	const nd_unix_post_fn send = nd_fast_qp_send, receive = nd_fast_qp_receive;
	const nd_unix_get_results_fn get_results = nd_fast_cq_get_results;

	p->qp_send = (uintptr_t)send;
	p->qp_receive = (uintptr_t)receive;
	p->cq_get_results = (uintptr_t)get_results;
	return ND_SUCCESS;
}

#define E(id, fn) [ND_UNIX_##id] = nd_call_##fn
static const nd_unix_call_fn calls[] = {
	E(QUERY_ADDRESSES, query_addresses),
	E(RESOLVE_ADDRESS, resolve_address),
	E(ADAPTER_OPEN, adapter_open),
	E(ADAPTER_CLOSE, adapter_close),
	E(ADAPTER_QUERY, adapter_query),
	E(CANCEL, cancel),
	E(CQ_CREATE, cq_create),
	E(CQ_DESTROY, cq_destroy),
	E(CQ_RESIZE, cq_resize),
	E(CQ_NOTIFY, cq_notify),
	E(CQ_GET_RESULTS, cq_get_results),
	E(SRQ_CREATE, srq_create),
	E(SRQ_DESTROY, srq_destroy),
	E(SRQ_MODIFY, srq_modify),
	E(SRQ_NOTIFY, srq_notify),
	E(SRQ_RECEIVE, srq_receive),
	E(MR_CREATE, mr_create),
	E(MR_DESTROY, mr_destroy),
	E(MR_REGISTER, mr_register),
	E(MR_DEREGISTER, mr_deregister),
	E(MW_CREATE, mw_create),
	E(MW_DESTROY, mw_destroy),
	E(QP_CREATE, qp_create),
	E(QP_DESTROY, qp_destroy),
	E(QP_FLUSH, qp_flush),
	E(QP_SEND, qp_send),
	E(QP_RECEIVE, qp_receive),
	E(QP_READ, qp_read),
	E(QP_WRITE, qp_write),
	E(QP_BIND, qp_bind),
	E(QP_INVALIDATE, qp_invalidate),
	E(CONNECTOR_CREATE, connector_create),
	E(CONNECTOR_DESTROY, connector_destroy),
	E(CONNECTOR_BIND, connector_bind),
	E(CONNECTOR_CONNECT, connector_connect),
	E(CONNECTOR_COMPLETE_CONNECT, connector_complete_connect),
	E(CONNECTOR_ACCEPT, connector_accept),
	E(CONNECTOR_REJECT, connector_reject),
	E(CONNECTOR_GET_READ_LIMITS, connector_get_read_limits),
	E(CONNECTOR_GET_PRIVATE_DATA, connector_get_private_data),
	E(CONNECTOR_GET_LOCAL_ADDRESS, connector_get_local_address),
	E(CONNECTOR_GET_PEER_ADDRESS, connector_get_peer_address),
	E(CONNECTOR_NOTIFY_DISCONNECT, connector_notify_disconnect),
	E(CONNECTOR_DISCONNECT, connector_disconnect),
	E(LISTENER_CREATE, listener_create),
	E(LISTENER_DESTROY, listener_destroy),
	E(LISTENER_BIND, listener_bind),
	E(LISTENER_LISTEN, listener_listen),
	E(LISTENER_GET_LOCAL_ADDRESS, listener_get_local_address),
	E(LISTENER_GET_CONNECTION_REQUEST, listener_get_connection_request),
	E(QP_SEND_INVALIDATE, qp_send_invalidate),
	E(QP_BATCH, qp_batch),
	E(MW_WATCH, mw_watch),
	E(FAST_ENTRIES, fast_entries),
};
_Static_assert(sizeof(calls) / sizeof(calls[0]) == ND_UNIX_CALL_COUNT, "one entry per call id");

static int32_t nd_unix_init(const struct nd_unix_host *h)
{
	unsigned i;

	if (!h || h->abi_version != ND_UNIX_ABI_VERSION || !h->complete)
		return ND_INVALID_PARAMETER;
	/* Designated initialisers leave a forgotten id NULL, not a short table. */
	for (i = 0; i < ND_UNIX_CALL_COUNT; i++)
		if (!calls[i]) {
			nd_log("call %u has no entry", i);
			return ND_INTERNAL_ERROR;
		}
	if (host.complete)
		return ND_SUCCESS;
	host = *h;
	if (nd_ev_start())
		return ND_INSUFFICIENT_RESOURCES;
	return ND_SUCCESS;
}

__attribute__((visibility("default"))) const struct nd_unix_entry nd_unix_entry = {
	.abi_version = ND_UNIX_ABI_VERSION,
	.call_count = ND_UNIX_CALL_COUNT,
	.init = nd_unix_init,
	.calls = calls,
};

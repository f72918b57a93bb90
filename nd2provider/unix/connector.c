/* Connectors on rdma_cm, with the application's own QP: the id never owns
 * a QP, so librdmacm hands us CONNECT_RESPONSE and we drive the QP through
 * RTR and RTS (CompleteConnect, Accept) ourselves.
 *
 * Locks: nd_ev_lock, then c->lock.  rdma_destroy_id waits until every
 * event of its id is acknowledged; the event thread fetches and acks
 * events under nd_ev_lock, so ids are destroyed with nd_ev_lock held and
 * c->lock not held. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nd_unix.h"

#define RESOLVE_TIMEOUT_MS 2000
/* RNR retries this side asks its peer to make: finite on a plain QP, so a
 * Send with no Receive posted ends in ND_IO_TIMEOUT; unlimited (7) on an
 * SRQ, where an empty queue must not break the connection.  The CM carries
 * the value to the peer's QP. */
#define RNR_RETRY_PLAIN 6
#define RNR_RETRY_INFINITE 7
/* Transport retries: 7 is the most IB allows, but rxe takes 7 to mean
 * "forever", so a peer that vanishes without a word (its link cut, its
 * host gone) would leave every request pending for good.  With 6, such
 * requests end ND_IO_TIMEOUT after some seconds, the rest flushed. */
#define TRANSPORT_RETRY 6

static uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

ND_CALL(connector_create)
{
	struct nd_unix_create_params *p = params;
	struct nd_adapter *a = nd_obj_get(p->adapter, ND_KIND_ADAPTER);
	struct nd_connector *c;

	if (!a)
		return ND_INVALID_HANDLE;
	if (!nd_cm_channel())
		return ND_INSUFFICIENT_RESOURCES;
	c = calloc(1, sizeof(*c));
	if (!c)
		return ND_NO_MEMORY;
	c->obj.kind = ND_KIND_CONNECTOR;
	c->adapter = a;
	pthread_mutex_init(&c->lock, NULL);
	nd_pending_init(&c->pending);
	nd_adapter_hold(a);
	p->object = nd_handle(&c->obj);
	return ND_SUCCESS;
}

/* c->lock held. */
static int ensure_id(struct nd_connector *c)
{
	if (c->id)
		return 0;
	return rdma_create_id(nd_cm_channel(), &c->id, c, RDMA_PS_TCP) ? errno : 0;
}

ND_CALL(connector_destroy)
{
	struct nd_unix_object_params *p = params;
	struct nd_connector *c = nd_obj_get(p->object, ND_KIND_CONNECTOR);

	if (!c)
		return ND_INVALID_HANDLE;
	pthread_mutex_lock(&nd_ev_lock);
	c->obj.kind = 0;	/* the event thread now drops its events */
	if (c->id)
		rdma_destroy_id(c->id);	/* a connected id disconnects */
	pthread_mutex_unlock(&nd_ev_lock);
	pthread_mutex_lock(&c->lock);
	nd_pending_complete(&c->pending, ND_TAG_ANY, ND_CANCELED);
	pthread_mutex_unlock(&c->lock);
	nd_adapter_release(c->adapter);
	pthread_mutex_destroy(&c->lock);
	free(c);
	return ND_SUCCESS;
}

/* The address must belong to this connector's adapter. */
static bool on_adapter(struct rdma_cm_id *id, struct nd_adapter *a)
{
	return !id->verbs || be64toh(ibv_get_device_guid(id->verbs->device)) == a->adapter_id;
}

ND_CALL(connector_bind)
{
	struct nd_unix_addr_params *p = params;
	struct nd_connector *c = nd_obj_get(p->object, ND_KIND_CONNECTOR);
	struct sockaddr_storage ss;
	int32_t st = ND_SUCCESS;
	int err;

	if (!c)
		return ND_INVALID_HANDLE;
	if (nd_addr_to_linux(&p->addr, &ss))
		return ND_INVALID_ADDRESS;
	pthread_mutex_lock(&c->lock);
	if (c->has_bound || c->state != ND_CONN_IDLE) {
		st = ND_STATUS_ADDRESS_ALREADY_ASSOCIATED;
		goto out;
	}
	err = ensure_id(c);
	if (!err && rdma_bind_addr(c->id, (struct sockaddr *)&ss))
		err = errno;
	/* MS-MPI binds its connectors to its listener's address and port
	 * (the address its GetLocalAddress gave), which Windows' providers
	 * allow; rdma_cm gives a port to one id only, and the active side's
	 * port means nothing to the peer's CM, so such a connector takes an
	 * ephemeral port of that address instead.  A port anything else holds
	 * stays a sharing violation. */
	if (err == EADDRINUSE && nd_listener_holds((struct sockaddr *)&ss)) {
		if (ss.ss_family == AF_INET)
			((struct sockaddr_in *)&ss)->sin_port = 0;
		else
			((struct sockaddr_in6 *)&ss)->sin6_port = 0;
		err = rdma_bind_addr(c->id, (struct sockaddr *)&ss) ? errno : 0;
	}
	if (err) {
		st = nd_status_from_errno(err);
		goto out;
	}
	if (!on_adapter(c->id, c->adapter)) {
		st = ND_INVALID_ADDRESS;
		goto out;
	}
	c->bound = ss;
	c->has_bound = true;
	c->state = ND_CONN_BOUND;
out:
	pthread_mutex_unlock(&c->lock);
	return st;
}

/* A connector whose attempt failed may Connect again, on a fresh id bound
 * to the same address.  Called without c->lock. */
static int32_t renew_id(struct nd_connector *c)
{
	struct rdma_cm_id *old;
	int err = 0;

	pthread_mutex_lock(&nd_ev_lock);
	pthread_mutex_lock(&c->lock);
	if (c->state != ND_CONN_FAILED) {
		pthread_mutex_unlock(&c->lock);
		pthread_mutex_unlock(&nd_ev_lock);
		return ND_SUCCESS;
	}
	old = c->id;
	c->id = NULL;
	c->state = ND_CONN_IDLE;
	pthread_mutex_unlock(&c->lock);
	if (old)
		rdma_destroy_id(old);
	pthread_mutex_lock(&c->lock);
	err = ensure_id(c);
	if (!err && c->has_bound) {
		if (rdma_bind_addr(c->id, (struct sockaddr *)&c->bound))
			err = errno;
		else
			c->state = ND_CONN_BOUND;
	}
	pthread_mutex_unlock(&c->lock);
	pthread_mutex_unlock(&nd_ev_lock);
	return nd_status_from_errno(err);
}

/* Past INIT and not failed: the QP carries (or is joining) a connection. */
static bool qp_connected(const struct nd_qp *qp)
{
	return qp->qp && qp->qp->state >= IBV_QPS_RTR && qp->qp->state <= IBV_QPS_SQE;
}

ND_CALL(connector_connect)
{
	struct nd_unix_connect_params *p = params;
	struct nd_connector *c = nd_obj_get(p->connector, ND_KIND_CONNECTOR);
	struct nd_qp *qp = nd_obj_get(p->qp, ND_KIND_QP);
	struct sockaddr_storage dst;
	int32_t st;
	int err;

	if (!c)
		return ND_INVALID_HANDLE;
	if (nd_adapter_removed(c->adapter))
		return ND_DEVICE_REMOVED;
	if (!qp)
		return ND_INVALID_PARAMETER_1;
	if (p->private_data_len > ND_MAX_CALLER_DATA)
		return ND_INVALID_BUFFER_SIZE;
	if (p->private_data_len && !p->private_data)
		return ND_INVALID_PARAMETER_6;
	if (nd_addr_to_linux(&p->dest, &dst))
		return ND_INVALID_ADDRESS;
	if (!nd_addr_connectable(&dst))
		return ND_STATUS_BAD_NETWORK_NAME;
	/* Another connector already connected it (docs: ND_CONNECTION_ACTIVE). */
	if (qp_connected(qp))
		return ND_CONNECTION_ACTIVE;
	st = renew_id(c);
	if (st)
		return st;
	pthread_mutex_lock(&c->lock);
	if (c->state != ND_CONN_IDLE && c->state != ND_CONN_BOUND) {
		pthread_mutex_unlock(&c->lock);
		return ND_CONNECTION_ACTIVE;
	}
	err = ensure_id(c);
	if (err) {
		pthread_mutex_unlock(&c->lock);
		return nd_status_from_errno(err);
	}
	if (p->private_data_len)	/* NULL data with length 0 is allowed */
		memcpy(c->out_data, (const void *)(uintptr_t)p->private_data, p->private_data_len);
	c->out_len = p->private_data_len;
	/* Callers may ask for more than the adapter has: limit silently. */
	c->inbound = min_u32(p->inbound_read_limit, c->adapter->attr.max_qp_rd_atom);
	c->outbound = min_u32(p->outbound_read_limit, c->adapter->attr.max_qp_init_rd_atom);
	c->qp = qp;
	c->peer_len = 0;
	st = nd_pending_add(&c->pending, &p->ov, ND_TAG_CONNECT, NULL);
	if (st != ND_PENDING)
		goto out;
	if (rdma_resolve_addr(c->id, NULL, (struct sockaddr *)&dst, RESOLVE_TIMEOUT_MS)) {
		st = nd_status_from_errno(errno);
		free(nd_pending_take(&c->pending, ND_TAG_CONNECT));
		goto out;
	}
	c->state = ND_CONN_RESOLVING;
out:
	pthread_mutex_unlock(&c->lock);
	return st;
}

/* c->lock held: the attempt is over. */
static void connect_failed(struct nd_connector *c, int32_t st)
{
	c->state = ND_CONN_FAILED;
	nd_pending_complete(&c->pending, ND_TAG_CONNECT, st);
}

static void save_peer(struct nd_connector *c, const struct rdma_conn_param *cp)
{
	c->peer_len = cp->private_data_len > ND_PRIVATE_DATA_MAX ? ND_PRIVATE_DATA_MAX : cp->private_data_len;
	if (c->peer_len && cp->private_data)
		memcpy(c->peer_data, cp->private_data, c->peer_len);
	else
		c->peer_len = 0;
	/* The kernel turns the peer's values around: responder_resources is
	 * how many Reads the peer will send us, initiator_depth how many it
	 * takes from us. */
	c->peer_inbound = cp->responder_resources;
	c->peer_outbound = cp->initiator_depth;
}

static void start_connect(struct nd_connector *c)
{
	struct rdma_conn_param cp;

	memset(&cp, 0, sizeof(cp));
	cp.private_data = c->out_len ? c->out_data : NULL;
	cp.private_data_len = c->out_len;
	cp.responder_resources = c->inbound;
	cp.initiator_depth = c->outbound;
	cp.retry_count = TRANSPORT_RETRY;
	cp.rnr_retry_count = c->qp->srq ? RNR_RETRY_INFINITE : RNR_RETRY_PLAIN;
	cp.srq = c->qp->srq != NULL;
	cp.qp_num = c->qp->qp_num;
	if (rdma_connect(c->id, &cp))
		connect_failed(c, nd_status_from_errno(errno));
	else
		c->state = ND_CONN_CONNECTING;
}

/* c->lock held: the connecting side went away after our Accept readied
 * the queue pair; its posted requests end ND_CANCELED rather than wait on
 * a connection that will never be. */
static void accept_failed(struct nd_connector *c, int32_t st)
{
	c->state = ND_CONN_FAILED;
	if (c->qp && c->qp->qp)
		nd_qp_to_error(c->qp);
	nd_pending_complete(&c->pending, ND_TAG_ACCEPT, st);
}

/* c->lock held: Accept on a request whose connecting side already left
 * completes (not fails) with st; the queue pair is untouched. */
static int32_t accept_gone(struct nd_connector *c, const struct nd_unix_ov *ov, int32_t st)
{
	int32_t r = nd_pending_add(&c->pending, ov, ND_TAG_ACCEPT, NULL);

	if (r == ND_PENDING) {
		c->state = ND_CONN_FAILED;
		nd_pending_complete(&c->pending, ND_TAG_ACCEPT, st);
	}
	return r;
}

static void disconnected(struct nd_connector *c)
{
	c->state = ND_CONN_DISCONNECTED;
	nd_pending_complete(&c->pending, ND_TAG_DISCONNECT, ND_SUCCESS);
	nd_pending_complete(&c->pending, ND_TAG_NOTIFY_DISCONNECT, ND_SUCCESS);
}

/* The event thread, nd_ev_lock held; acks ev. */
void nd_connector_cm_event(struct nd_connector *c, struct rdma_cm_event *ev)
{
	bool reject = false;

	pthread_mutex_lock(&c->lock);
	switch (ev->event) {
	case RDMA_CM_EVENT_ADDR_RESOLVED:
		if (c->state != ND_CONN_RESOLVING)
			break;
		if (!on_adapter(c->id, c->adapter))
			connect_failed(c, ND_INVALID_ADDRESS);
		else if (rdma_resolve_route(c->id, RESOLVE_TIMEOUT_MS))
			connect_failed(c, nd_status_from_errno(errno));
		break;
	case RDMA_CM_EVENT_ROUTE_RESOLVED:
		if (c->state == ND_CONN_RESOLVING)
			start_connect(c);
		break;
	case RDMA_CM_EVENT_CONNECT_RESPONSE:
		if (c->state != ND_CONN_CONNECTING) {
			reject = true;	/* abandoned (canceled) attempt */
			break;
		}
		save_peer(c, &ev->param.conn);
		c->state = ND_CONN_RESPONDED;
		nd_pending_complete(&c->pending, ND_TAG_CONNECT, ND_SUCCESS);
		break;
	case RDMA_CM_EVENT_ADDR_ERROR:
	case RDMA_CM_EVENT_ROUTE_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_REJECTED:
	case RDMA_CM_EVENT_CONNECT_ERROR:
		if (ev->event == RDMA_CM_EVENT_REJECTED && c->state != ND_CONN_REQUESTED)
			save_peer(c, &ev->param.conn);
		if (c->state == ND_CONN_RESOLVING || c->state == ND_CONN_CONNECTING) {
			connect_failed(c, nd_status_from_cm_event(ev));
		} else if (c->state == ND_CONN_ACCEPTING) {
			/* The connecting side gave up (Reject, released its
			 * connector, exited) or never sent its CompleteConnect. */
			accept_failed(c, ev->event == RDMA_CM_EVENT_REJECTED ? ND_CONNECTION_REFUSED : ND_IO_TIMEOUT);
		} else if (c->state == ND_CONN_REQUESTED) {
			/* Gone before our Accept: the Accept will say so. */
			c->peer_gone = ND_CONNECTION_REFUSED;
		} else if (c->state == ND_CONN_RESPONDED) {
			/* The accepting side went away (its process ended)
			 * before our CompleteConnect: the CompleteConnect fails,
			 * and what the queue pair holds ends now. */
			c->peer_gone = ND_CONNECTION_ABORTED;
			if (c->qp && c->qp->qp)
				nd_qp_to_error(c->qp);
		}
		break;
	case RDMA_CM_EVENT_ESTABLISHED:
		if (c->state == ND_CONN_ACCEPTING) {
			c->state = ND_CONN_CONNECTED;
			c->ever_connected = true;
			nd_pending_complete(&c->pending, ND_TAG_ACCEPT, ND_SUCCESS);
		}
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
		if (c->state == ND_CONN_REQUESTED) {
			c->peer_gone = ND_CONNECTION_REFUSED;
			break;
		}
		if (c->state == ND_CONN_ACCEPTING) {
			accept_failed(c, ND_CONNECTION_REFUSED);
		} else if (c->state == ND_CONN_CONNECTED || c->state == ND_CONN_DISCONNECTING) {
			/* The peer disconnected (or its process ended): every
			 * request still on our queue pair ends ND_CANCELED, as
			 * on Windows (docs/nd2-decisions.md). */
			if (c->qp && c->qp->qp)
				nd_qp_to_error(c->qp);
			/* Answer the peer's request now: its Disconnect
			 * completes without waiting for ours, which may never
			 * come. */
			if (c->state == ND_CONN_CONNECTED)
				rdma_disconnect(c->id);
		}
		disconnected(c);
		break;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		/* The queue pair would keep its requests forever: the device
		 * stays until the last process lets go of it, but nothing
		 * arrives on it any more. */
		nd_device_removed(c->adapter->ctx);
		c->state = ND_CONN_FAILED;
		if (c->qp && c->qp->qp)
			nd_qp_to_error(c->qp);
		nd_pending_complete(&c->pending, ND_TAG_ANY, ND_DEVICE_REMOVED);
		break;
	default:
		break;
	}
	if (reject)
		rdma_reject(c->id, NULL, 0);
	pthread_mutex_unlock(&c->lock);
	rdma_ack_cm_event(ev);
}

/* c->lock held: INIT again with the CM's port and keys, then RTR and RTS. */
static int ready_qp(struct nd_connector *c, struct nd_qp *qp, uint32_t inbound, uint32_t outbound)
{
	int err;

	if (!qp->qp)
		return EINVAL;
	err = nd_qp_modify_from_cm(qp, c->id, IBV_QPS_INIT, 0);
	/* Inbound exactly as granted: with 0 the device refuses the peer's
	 * Reads (a NAK, ND_REMOTE_ERROR at the peer), as the limit promises.
	 * Outbound at least 1: rxe holds a Read back for ever when its QP
	 * may have none in flight, and the peer's limit is what refuses it. */
	if (!err)
		err = nd_qp_modify_from_cm(qp, c->id, IBV_QPS_RTR, inbound);
	if (!err)
		err = nd_qp_modify_from_cm(qp, c->id, IBV_QPS_RTS, outbound ? outbound : 1);
	return err;
}

ND_CALL(connector_complete_connect)
{
	struct nd_unix_ov_params *p = params;
	struct nd_connector *c = nd_obj_get(p->object, ND_KIND_CONNECTOR);
	int32_t st = ND_PENDING;
	int err;

	if (!c)
		return ND_INVALID_HANDLE;
	if (nd_adapter_removed(c->adapter))
		return ND_DEVICE_REMOVED;
	pthread_mutex_lock(&c->lock);
	if (c->state != ND_CONN_RESPONDED) {
		st = ND_CONNECTION_INVALID;
		goto out;
	}
	if (c->peer_gone) {
		c->state = ND_CONN_FAILED;
		st = c->peer_gone;
		goto out;
	}
	err = ready_qp(c, c->qp, c->inbound, min_u32(c->outbound, c->peer_outbound));
	if (!err && rdma_establish(c->id))
		err = errno;
	if (err) {
		c->state = ND_CONN_FAILED;
		if (c->qp && c->qp->qp)
			nd_qp_to_error(c->qp);
		/* EINVAL: the kernel saw the peer's REJ before its event
		 * reached us. */
		st = err == EINVAL ? ND_CONNECTION_ABORTED : nd_status_from_errno(err);
		goto out;
	}
	c->state = ND_CONN_CONNECTED;
	c->ever_connected = true;
	nd_complete(&p->ov, ND_SUCCESS, 0);
out:
	pthread_mutex_unlock(&c->lock);
	return st;
}

ND_CALL(connector_accept)
{
	struct nd_unix_accept_params *p = params;
	struct nd_connector *c = nd_obj_get(p->connector, ND_KIND_CONNECTOR);
	struct nd_qp *qp = nd_obj_get(p->qp, ND_KIND_QP);
	struct rdma_conn_param cp;
	uint32_t in, out;
	int32_t st;
	int err;

	if (!c)
		return ND_INVALID_HANDLE;
	if (nd_adapter_removed(c->adapter))
		return ND_DEVICE_REMOVED;
	if (!qp)
		return ND_INVALID_PARAMETER_1;
	if (p->private_data_len > ND_MAX_CALLEE_DATA)
		return ND_INVALID_BUFFER_SIZE;
	if (p->private_data_len && !p->private_data)
		return ND_INVALID_PARAMETER_4;
	pthread_mutex_lock(&c->lock);
	if (c->state != ND_CONN_REQUESTED) {
		st = c->state == ND_CONN_CONNECTED ? ND_CONNECTION_ACTIVE : ND_CONNECTION_INVALID;
		goto out;
	}
	/* The connecting side is already gone: the Accept completes with it,
	 * leaving the queue pair as it was. */
	if (c->peer_gone) {
		st = accept_gone(c, &p->ov, c->peer_gone);
		goto out;
	}
	if (qp_connected(qp)) {
		st = ND_CONNECTION_ACTIVE;
		goto out;
	}
	/* The lower of ours, the adapter's and what the peer offered. */
	in = min_u32(min_u32(p->inbound_read_limit, c->adapter->attr.max_qp_rd_atom), c->peer_inbound);
	out = min_u32(min_u32(p->outbound_read_limit, c->adapter->attr.max_qp_init_rd_atom), c->peer_outbound);
	c->qp = qp;
	err = ready_qp(c, qp, in, out);
	if (err == EINVAL && qp->qp && qp->qp->state == IBV_QPS_INIT) {
		/* The kernel already dropped the request (the peer's REJ came
		 * first) and its event is still on the way. */
		st = accept_gone(c, &p->ov, ND_CONNECTION_REFUSED);
		goto out;
	}
	if (err) {
		st = nd_status_from_errno(err);
		goto out;
	}
	st = nd_pending_add(&c->pending, &p->ov, ND_TAG_ACCEPT, NULL);
	if (st != ND_PENDING)
		goto out;
	memset(&cp, 0, sizeof(cp));
	cp.private_data = (const void *)(uintptr_t)p->private_data;
	cp.private_data_len = p->private_data_len;
	cp.responder_resources = in;
	cp.initiator_depth = out;
	cp.retry_count = TRANSPORT_RETRY;
	cp.rnr_retry_count = qp->srq ? RNR_RETRY_INFINITE : RNR_RETRY_PLAIN;
	cp.srq = qp->srq != NULL;
	cp.qp_num = qp->qp_num;
	if (rdma_accept(c->id, &cp)) {
		err = errno;
		if (err == EINVAL) {
			/* The kernel saw the peer's REJ before its event reached
			 * us: a connection-level failure, completed like one. */
			accept_failed(c, ND_CONNECTION_REFUSED);
			goto out;
		}
		st = nd_status_from_errno(err);
		free(nd_pending_take(&c->pending, ND_TAG_ACCEPT));
		goto out;
	}
	c->state = ND_CONN_ACCEPTING;
out:
	pthread_mutex_unlock(&c->lock);
	return st;
}

ND_CALL(connector_reject)
{
	struct nd_unix_reject_params *p = params;
	struct nd_connector *c = nd_obj_get(p->connector, ND_KIND_CONNECTOR);
	int32_t st = ND_SUCCESS;

	if (!c)
		return ND_INVALID_HANDLE;
	if (p->private_data_len > ND_MAX_CALLEE_DATA)
		return ND_INVALID_BUFFER_SIZE;
	pthread_mutex_lock(&c->lock);
	if (c->state != ND_CONN_REQUESTED && c->state != ND_CONN_RESPONDED) {
		st = ND_CONNECTION_INVALID;
	} else if (rdma_reject(c->id, (const void *)(uintptr_t)p->private_data, p->private_data_len)) {
		st = nd_status_from_errno(errno);
	} else {
		c->state = ND_CONN_FAILED;
	}
	pthread_mutex_unlock(&c->lock);
	return st;
}

static bool has_peer(const struct nd_connector *c)
{
	return c->state == ND_CONN_RESPONDED || c->state == ND_CONN_REQUESTED ||
	       c->state == ND_CONN_ACCEPTING || c->state == ND_CONN_CONNECTED ||
	       c->state == ND_CONN_DISCONNECTING || c->state == ND_CONN_DISCONNECTED;
}

ND_CALL(connector_get_read_limits)
{
	struct nd_unix_read_limits_params *p = params;
	struct nd_connector *c = nd_obj_get(p->connector, ND_KIND_CONNECTOR);
	int32_t st = ND_SUCCESS;

	if (!c)
		return ND_INVALID_HANDLE;
	pthread_mutex_lock(&c->lock);
	if (has_peer(c)) {
		p->inbound = c->peer_inbound;
		p->outbound = c->peer_outbound;
	} else {
		st = ND_CONNECTION_INVALID;
	}
	pthread_mutex_unlock(&c->lock);
	return st;
}

ND_CALL(connector_get_private_data)
{
	struct nd_unix_private_data_params *p = params;
	struct nd_connector *c = nd_obj_get(p->connector, ND_KIND_CONNECTOR);
	int32_t st = ND_SUCCESS;

	if (!c)
		return ND_INVALID_HANDLE;
	pthread_mutex_lock(&c->lock);
	/* A refused Connect keeps the reject's private data. */
	if (!has_peer(c) && !(c->state == ND_CONN_FAILED && c->peer_len)) {
		st = ND_CONNECTION_INVALID;
	} else {
		uint32_t n = min_u32(p->capacity, c->peer_len);
		if (n && p->buffer)
			memcpy((void *)(uintptr_t)p->buffer, c->peer_data, n);
		p->length = c->peer_len;
		if (c->peer_len > p->capacity)
			st = ND_BUFFER_OVERFLOW;
	}
	pthread_mutex_unlock(&c->lock);
	return st;
}

ND_CALL(connector_get_local_address)
{
	struct nd_unix_addr_params *p = params;
	struct nd_connector *c = nd_obj_get(p->object, ND_KIND_CONNECTOR);
	int32_t st = ND_SUCCESS;

	if (!c)
		return ND_INVALID_HANDLE;
	pthread_mutex_lock(&c->lock);
	if (!c->id || c->state == ND_CONN_IDLE || c->state == ND_CONN_FAILED)
		st = ND_CONNECTION_INVALID;
	else
		nd_addr_from_linux(rdma_get_local_addr(c->id), &p->addr);
	pthread_mutex_unlock(&c->lock);
	return st;
}

ND_CALL(connector_get_peer_address)
{
	struct nd_unix_addr_params *p = params;
	struct nd_connector *c = nd_obj_get(p->object, ND_KIND_CONNECTOR);
	int32_t st = ND_SUCCESS;

	if (!c)
		return ND_INVALID_HANDLE;
	pthread_mutex_lock(&c->lock);
	if (!c->id || !has_peer(c))
		st = ND_CONNECTION_INVALID;
	else
		nd_addr_from_linux(rdma_get_peer_addr(c->id), &p->addr);
	pthread_mutex_unlock(&c->lock);
	return st;
}

ND_CALL(connector_notify_disconnect)
{
	struct nd_unix_ov_params *p = params;
	struct nd_connector *c = nd_obj_get(p->object, ND_KIND_CONNECTOR);
	int32_t st;

	if (!c)
		return ND_INVALID_HANDLE;
	pthread_mutex_lock(&c->lock);
	if (!has_peer(c)) {
		st = ND_CONNECTION_INVALID;
	} else {
		st = nd_pending_add(&c->pending, &p->ov, ND_TAG_NOTIFY_DISCONNECT, NULL);
		if (st == ND_PENDING && c->state == ND_CONN_DISCONNECTED)
			nd_pending_complete(&c->pending, ND_TAG_NOTIFY_DISCONNECT, ND_SUCCESS);
	}
	pthread_mutex_unlock(&c->lock);
	return st;
}

ND_CALL(connector_disconnect)
{
	struct nd_unix_ov_params *p = params;
	struct nd_connector *c = nd_obj_get(p->object, ND_KIND_CONNECTOR);
	int32_t st;

	if (!c)
		return ND_INVALID_HANDLE;
	if (nd_adapter_removed(c->adapter))
		return ND_DEVICE_REMOVED;
	pthread_mutex_lock(&c->lock);
	if ((c->state != ND_CONN_CONNECTED && c->state != ND_CONN_DISCONNECTED) || c->disconnect_called) {
		st = ND_CONNECTION_INVALID;
		goto out;
	}
	st = nd_pending_add(&c->pending, &p->ov, ND_TAG_DISCONNECT, NULL);
	if (st != ND_PENDING)
		goto out;
	c->disconnect_called = true;
	/* Disconnect flushes: every outstanding request ends ND_CANCELED. */
	if (c->qp && c->qp->qp)
		nd_qp_to_error(c->qp);
	if (c->state == ND_CONN_DISCONNECTED) {
		rdma_disconnect(c->id);	/* answers the peer's request if not yet */
		nd_pending_complete(&c->pending, ND_TAG_DISCONNECT, ND_SUCCESS);
	} else if (rdma_disconnect(c->id)) {
		/* Nothing to wait for: the connection is already gone. */
		disconnected(c);
	} else {
		c->state = ND_CONN_DISCONNECTING;
	}
out:
	pthread_mutex_unlock(&c->lock);
	return st;
}

int32_t nd_connector_cancel(struct nd_connector *c)
{
	pthread_mutex_lock(&c->lock);
	if (c->state == ND_CONN_RESOLVING || c->state == ND_CONN_CONNECTING)
		c->state = ND_CONN_FAILED;	/* a late response is rejected */
	nd_pending_complete(&c->pending, ND_TAG_ANY, ND_CANCELED);
	pthread_mutex_unlock(&c->lock);
	return ND_SUCCESS;
}

/* nd_ev_lock held (not c->lock): the listener hands a request over. */
void nd_connector_take_request(struct nd_connector *c, struct nd_conn_request *r)
{
	struct rdma_cm_id *old;

	pthread_mutex_lock(&c->lock);
	old = c->id;
	c->id = r->id;
	r->id->context = c;
	memcpy(c->peer_data, r->data, r->len);
	c->peer_len = r->len;
	c->peer_inbound = r->inbound;
	c->peer_outbound = r->outbound;
	c->peer_gone = 0;
	c->state = ND_CONN_REQUESTED;
	pthread_mutex_unlock(&c->lock);
	if (old)
		rdma_destroy_id(old);
}

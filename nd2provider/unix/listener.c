/* Listeners on rdma_cm.  Connection requests wait in a queue (up to the
 * backlog) until a GetConnectionRequest hands one to a connector; requests
 * wait for connection requests the same way.  Locks: nd_ev_lock, then
 * l->lock, then the connector's. */
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include "nd_unix.h"

/* Every listener, for nd_listener_holds; a leaf lock. */
static pthread_mutex_t nd_listeners_lock = PTHREAD_MUTEX_INITIALIZER;
static struct nd_listener *nd_listeners;

static uint16_t port_of(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return ((const struct sockaddr_in *)sa)->sin_port;
	if (sa->sa_family == AF_INET6)
		return ((const struct sockaddr_in6 *)sa)->sin6_port;
	return 0;
}

/* SA's address is HELD's, or HELD is the wildcard of SA's family. */
static bool same_or_any(const struct sockaddr *held, const struct sockaddr *sa)
{
	if (held->sa_family != sa->sa_family)
		return false;
	if (sa->sa_family == AF_INET) {
		in_addr_t h = ((const struct sockaddr_in *)held)->sin_addr.s_addr;
		return h == INADDR_ANY || h == ((const struct sockaddr_in *)sa)->sin_addr.s_addr;
	}
	if (sa->sa_family == AF_INET6) {
		const struct in6_addr *h = &((const struct sockaddr_in6 *)held)->sin6_addr;
		return IN6_IS_ADDR_UNSPECIFIED(h) ||
		       !memcmp(h, &((const struct sockaddr_in6 *)sa)->sin6_addr, sizeof(*h));
	}
	return false;
}

bool nd_listener_holds(const struct sockaddr *sa)
{
	struct nd_listener *l;
	bool held = false;

	if (!port_of(sa))
		return false;
	pthread_mutex_lock(&nd_listeners_lock);
	for (l = nd_listeners; l && !held; l = l->next)
		held = l->bound.ss_family && port_of((struct sockaddr *)&l->bound) == port_of(sa) &&
		       same_or_any((struct sockaddr *)&l->bound, sa);
	pthread_mutex_unlock(&nd_listeners_lock);
	return held;
}

ND_CALL(listener_create)
{
	struct nd_unix_create_params *p = params;
	struct nd_adapter *a = nd_obj_get(p->adapter, ND_KIND_ADAPTER);
	struct nd_listener *l;

	if (!a)
		return ND_INVALID_HANDLE;
	if (!nd_cm_channel())
		return ND_INSUFFICIENT_RESOURCES;
	l = calloc(1, sizeof(*l));
	if (!l)
		return ND_NO_MEMORY;
	l->obj.kind = ND_KIND_LISTENER;
	l->adapter = a;
	pthread_mutex_init(&l->lock, NULL);
	nd_pending_init(&l->pending);
	l->requests_tail = &l->requests;
	if (rdma_create_id(nd_cm_channel(), &l->id, l, RDMA_PS_TCP)) {
		int err = errno;
		free(l);
		return nd_status_from_errno(err);
	}
	nd_adapter_hold(a);
	pthread_mutex_lock(&nd_listeners_lock);
	l->next = nd_listeners;
	nd_listeners = l;
	pthread_mutex_unlock(&nd_listeners_lock);
	p->object = nd_handle(&l->obj);
	return ND_SUCCESS;
}

/* nd_ev_lock held, no event of r->id unacknowledged. */
static void drop_request(struct nd_conn_request *r, bool reject)
{
	if (reject)
		rdma_reject(r->id, NULL, 0);
	rdma_destroy_id(r->id);
	free(r);
}

ND_CALL(listener_destroy)
{
	struct nd_unix_object_params *p = params;
	struct nd_listener *l = nd_obj_get(p->object, ND_KIND_LISTENER), **pl;
	struct nd_conn_request *r;

	if (!l)
		return ND_INVALID_HANDLE;
	pthread_mutex_lock(&nd_listeners_lock);
	for (pl = &nd_listeners; *pl; pl = &(*pl)->next)
		if (*pl == l) {
			*pl = l->next;
			break;
		}
	pthread_mutex_unlock(&nd_listeners_lock);
	pthread_mutex_lock(&nd_ev_lock);
	l->obj.kind = 0;
	rdma_destroy_id(l->id);
	while ((r = l->requests)) {
		l->requests = r->next;
		drop_request(r, true);
	}
	pthread_mutex_lock(&l->lock);
	nd_pending_complete(&l->pending, ND_TAG_ANY, ND_CANCELED);
	pthread_mutex_unlock(&l->lock);
	pthread_mutex_unlock(&nd_ev_lock);
	nd_adapter_release(l->adapter);
	free(l);
	return ND_SUCCESS;
}

ND_CALL(listener_bind)
{
	struct nd_unix_addr_params *p = params;
	struct nd_listener *l = nd_obj_get(p->object, ND_KIND_LISTENER);
	struct sockaddr_storage ss;
	int32_t st = ND_SUCCESS;

	if (!l)
		return ND_INVALID_HANDLE;
	if (nd_addr_to_linux(&p->addr, &ss))
		return ND_INVALID_ADDRESS;
	pthread_mutex_lock(&l->lock);
	if (rdma_get_local_addr(l->id)->sa_family)
		st = ND_STATUS_ADDRESS_ALREADY_ASSOCIATED;
	else if (rdma_bind_addr(l->id, (struct sockaddr *)&ss))
		st = nd_status_from_errno(errno);
	else if (l->id->verbs &&
		 be64toh(ibv_get_device_guid(l->id->verbs->device)) != l->adapter->adapter_id)
		st = ND_INVALID_ADDRESS;
	if (st == ND_SUCCESS) {
		pthread_mutex_lock(&nd_listeners_lock);
		memcpy(&l->bound, rdma_get_local_addr(l->id), sizeof(struct sockaddr_storage));
		pthread_mutex_unlock(&nd_listeners_lock);
	}
	pthread_mutex_unlock(&l->lock);
	return st;
}

ND_CALL(listener_listen)
{
	struct nd_unix_listen_params *p = params;
	struct nd_listener *l = nd_obj_get(p->listener, ND_KIND_LISTENER);
	int32_t st = ND_SUCCESS;

	if (!l)
		return ND_INVALID_HANDLE;
	if (nd_adapter_removed(l->adapter))
		return ND_DEVICE_REMOVED;
	pthread_mutex_lock(&l->lock);
	if (l->listening) {
		st = ND_INVALID_DEVICE_STATE;
	} else if (rdma_listen(l->id, (int)(p->backlog > 1024 ? 1024 : p->backlog))) {
		st = errno == EINVAL ? ND_INVALID_DEVICE_STATE : nd_status_from_errno(errno);
	} else {
		l->listening = true;
		l->backlog = p->backlog;
	}
	pthread_mutex_unlock(&l->lock);
	return st;
}

ND_CALL(listener_get_local_address)
{
	struct nd_unix_addr_params *p = params;
	struct nd_listener *l = nd_obj_get(p->object, ND_KIND_LISTENER);
	int32_t st = ND_SUCCESS;

	if (!l)
		return ND_INVALID_HANDLE;
	/* Bound is enough, though Microsoft's page says "must be listening":
	 * MS-MPI binds to port 0, asks GetLocalAddress for the port it got and
	 * only then calls Listen (its ND adapter's Listen), which Windows'
	 * providers allow.  Before Bind there is no address to give. */
	pthread_mutex_lock(&l->lock);
	if (!rdma_get_local_addr(l->id)->sa_family)
		st = ND_INVALID_DEVICE_STATE;
	else
		nd_addr_from_linux(rdma_get_local_addr(l->id), &p->addr);
	pthread_mutex_unlock(&l->lock);
	return st;
}

/* l->lock and nd_ev_lock held: pair queued requests with waiting calls. */
static void match(struct nd_listener *l)
{
	while (l->requests && l->pending.head) {
		struct nd_conn_request *r = l->requests;
		struct nd_pending *p = nd_pending_take(&l->pending, ND_TAG_ANY);

		l->requests = r->next;
		if (!l->requests)
			l->requests_tail = &l->requests;
		l->queued--;
		nd_connector_take_request(p->arg, r);
		nd_complete(&p->ov, ND_SUCCESS, 0);
		free(p);
		free(r);
	}
}

ND_CALL(listener_get_connection_request)
{
	struct nd_unix_get_request_params *p = params;
	struct nd_listener *l = nd_obj_get(p->listener, ND_KIND_LISTENER);
	struct nd_connector *c = nd_obj_get(p->connector, ND_KIND_CONNECTOR);
	int32_t st;

	if (!l)
		return ND_INVALID_HANDLE;
	if (nd_adapter_removed(l->adapter))
		return ND_DEVICE_REMOVED;
	if (!c)
		return ND_INVALID_PARAMETER_1;
	pthread_mutex_lock(&nd_ev_lock);
	pthread_mutex_lock(&l->lock);
	st = nd_pending_add(&l->pending, &p->ov, 0, c);
	if (st == ND_PENDING)
		match(l);
	pthread_mutex_unlock(&l->lock);
	pthread_mutex_unlock(&nd_ev_lock);
	return st;
}

int32_t nd_listener_cancel(struct nd_listener *l)
{
	pthread_mutex_lock(&l->lock);
	nd_pending_complete(&l->pending, ND_TAG_ANY, ND_CANCELED);
	pthread_mutex_unlock(&l->lock);
	return ND_SUCCESS;
}

/* The event thread, nd_ev_lock held; acks ev. */
void nd_listener_cm_event(struct nd_listener *l, struct rdma_cm_event *ev)
{
	struct nd_conn_request *r = NULL, **rp;
	struct rdma_cm_id *id = ev->id;
	bool drop = false;

	pthread_mutex_lock(&l->lock);
	if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST) {
		const struct rdma_conn_param *cp = &ev->param.conn;

		r = calloc(1, sizeof(*r));
		if (!r || (l->backlog && l->queued >= l->backlog)) {
			drop = true;
		} else {
			r->id = id;
			r->len = cp->private_data_len > ND_PRIVATE_DATA_MAX ? ND_PRIVATE_DATA_MAX : cp->private_data_len;
			if (cp->private_data)
				memcpy(r->data, cp->private_data, r->len);
			else
				r->len = 0;
			r->inbound = cp->responder_resources;
			r->outbound = cp->initiator_depth;
			*l->requests_tail = r;
			l->requests_tail = &r->next;
			l->queued++;
			match(l);
			r = NULL;
		}
	} else if (ev->event == RDMA_CM_EVENT_DEVICE_REMOVAL && id == l->id) {
		nd_device_removed(l->adapter->ctx);
		nd_pending_complete(&l->pending, ND_TAG_ANY, ND_DEVICE_REMOVED);
	} else if (id != l->id) {
		/* A queued request whose peer gave up before we handed it out. */
		for (rp = &l->requests; *rp; rp = &(*rp)->next)
			if ((*rp)->id == id) {
				r = *rp;
				*rp = r->next;
				if (l->requests_tail == &r->next)
					l->requests_tail = rp;
				l->queued--;
				break;
			}
	}
	pthread_mutex_unlock(&l->lock);
	rdma_ack_cm_event(ev);
	/* Only now, with its event acknowledged, can the id go. */
	if (drop) {
		rdma_reject(id, NULL, 0);
		rdma_destroy_id(id);
		free(r);
	} else if (r) {
		drop_request(r, false);
	}
}

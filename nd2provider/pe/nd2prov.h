/* nd2prov.dll private header: the COM objects and what they share.
 *
 * Every object embeds its interface (the vtable pointer) first, so the
 * interface pointer and the object pointer are the same and to_xxx() is a
 * cast checked by the vtable.  The Linux side owns every rdma-core object;
 * ours hold its uint64_t handle (nd2provider/unix_call.h) and call it
 * through NdshimUnixCall with a params struct on the stack, except for
 * the per-message calls (Send, Receive, GetResults), which call the unix
 * side's fast entries directly.
 *
 * Reference counts (struct nd_ref): `refs` is what AddRef/Release return
 * to the caller; `live` adds the holds objects take on each other (a QP on
 * its CQs and SRQ, every object on its adapter, a connector on the QPs it
 * connected, a listener on a connector lent to a pending
 * GetConnectionRequest).  An object goes when `live` reaches zero, so
 * internal holds never show in a caller-visible count.
 *
 * The module counts live objects, not calls: DllCanUnloadNow says S_OK
 * only when none is alive. */
#ifndef NDSHIM_ND2PROV_H
#define NDSHIM_ND2PROV_H

#include <winsock2.h>
#include <ws2tcpip.h>
#include <windows.h>
#include <stddef.h>
#include <stdint.h>

#include "ndspi.h"
#include "ndshim.h"
#include "nd2provider/unix_call.h"

/* NTSTATUS codes clients compare against that ndstatus.h does not name. */
#define ND_STATUS_ADDRESS_ALREADY_ASSOCIATED ((HRESULT)0xC0000238L)

#define ND_PTR(p) ((uint64_t)(uintptr_t)(p))

/* ---- dllmain.c: module object count, memory ---------------------------- */
void nd_module_get(void);
void nd_module_put(void);
void *nd_alloc(size_t n);	/* zeroed */
void nd_free(void *p);

/* ---- trace.c: NDSHIM_DEBUG=+nd on the COM methods ---------------------- */
enum nd_iface {
	ND_IFACE_PROVIDER,
	ND_IFACE_ADAPTER,
	ND_IFACE_CQ,
	ND_IFACE_SRQ,
	ND_IFACE_MR,
	ND_IFACE_MW,
	ND_IFACE_QP,
	ND_IFACE_CONNECTOR,
	ND_IFACE_LISTENER,
	ND_IFACE_COUNT
};
/* The vtable a new object gets: vtbl, or its traced copy when +nd is on. */
const void *nd_vtbl(enum nd_iface id, const void *vtbl, size_t size);
/* Whether lpVtbl is this interface's (traced or not): for to_xxx checks. */
BOOL nd_vtbl_is(enum nd_iface id, const void *lpVtbl, const void *vtbl);
#define ND_VTBL(id, v) ((void *)nd_vtbl(id, &(v), sizeof(v)))
#define ND_VTBL_IS(id, lp, v) nd_vtbl_is(id, lp, &(v))

/* ---- reference counts ------------------------------------------------------ */
struct nd_ref {
	LONG refs;	/* the caller's */
	LONG live;	/* the caller's + internal holds */
};

static inline void nd_ref_init(struct nd_ref *r)
{
	r->refs = 1;
	r->live = 1;
}

static inline ULONG nd_ref_add(struct nd_ref *r)
{
	InterlockedIncrement(&r->live);
	return (ULONG)InterlockedIncrement(&r->refs);
}

/* An internal hold: keeps the object, invisible to the caller. */
static inline void nd_ref_hold(struct nd_ref *r)
{
	InterlockedIncrement(&r->live);
}

/* TRUE when that was the last of all: the caller destroys the object. */
static inline BOOL nd_ref_put(struct nd_ref *r)
{
	return InterlockedDecrement(&r->live) == 0;
}

/* Release's count; *dead when the object must go now. */
static inline ULONG nd_ref_release(struct nd_ref *r, BOOL *dead)
{
	ULONG n = (ULONG)InterlockedDecrement(&r->refs);

	*dead = nd_ref_put(r);
	return n;
}

/* ---- overlapped.c: the IND2Overlapped pieces ------------------------------- */
/* Registers ov as pending for owner on file, then makes the unix call
 * (whose params carry {file, ov}): ND_PENDING, or the call's synchronous
 * failure, reported through the return value only. */
HRESULT nd_ov_issue(HANDLE file, OVERLAPPED *ov, const void *owner, ULONG code, void *params);
/* nd_ov_issue for a call whose only argument is the OVERLAPPED (its
 * params are struct nd_unix_ov_params): ND_INVALID_PARAMETER_1 for a NULL
 * ov, as the methods taking one document. */
HRESULT nd_ov_call(HANDLE file, const void *owner, uint64_t object, ULONG code, OVERLAPPED *ov);
/* CancelOverlappedRequests: the unix side completes the object's requests
 * in issue order; then anything still pending for owner on file. */
HRESULT nd_ov_cancel(HANDLE file, const void *owner, uint64_t object);
HRESULT nd_ov_result(OVERLAPPED *ov, BOOL wait);
static inline struct nd_unix_ov nd_ov(HANDLE file, OVERLAPPED *ov)
{
	return (struct nd_unix_ov){ ND_PTR(file), ND_PTR(ov) };
}
static inline BOOL nd_valid_file(HANDLE h)
{
	return h != NULL && h != INVALID_HANDLE_VALUE;
}

/* GetNotifyAffinity of the CQ and the SRQ (cq.c). */
HRESULT nd_notify_affinity(USHORT group, KAFFINITY affinity, USHORT *pgroup, KAFFINITY *paffinity);

/* ---- addresses (provider.c) ------------------------------------------------ */
/* adapter_id 0: every adapter's.  The QueryAddressList sizing protocol. */
HRESULT nd_query_address_list(uint64_t adapter_id, SOCKET_ADDRESS_LIST *list, ULONG *cb);
/* A caller's sockaddr as the unix side takes it: FALSE when it is not a
 * whole AF_INET / AF_INET6 address. */
BOOL nd_addr_from_sockaddr(const struct sockaddr *sa, ULONG cb, struct nd_unix_addr *out);
/* GetLocalAddress/GetPeerAddress's sizing protocol. */
HRESULT nd_addr_to_caller(const struct nd_unix_addr *a, struct sockaddr *sa, ULONG *cb);

/* ---- objects ------------------------------------------------------------------ */
struct nd_adapter {
	IND2Adapter iface;
	struct nd_ref ref;
	uint64_t h;
	ND2_ADAPTER_INFO info;	/* InfoVersion left 0 */
	struct nd_unix_fast_entries_params fast;	/* for the QPs' and CQs' per-message calls */
};

struct nd_cq {
	IND2CompletionQueue iface;
	struct nd_ref ref;
	struct nd_adapter *adapter;
	uint64_t h;
	nd_unix_get_results_fn get_results;	/* fast entry: no NdshimUnixCall */
	HANDLE file;
	USHORT group;
	KAFFINITY affinity;
};

struct nd_srq {
	IND2SharedReceiveQueue iface;
	struct nd_ref ref;
	struct nd_adapter *adapter;
	uint64_t h;
	nd_unix_get_results_fn get_results;	/* fast entry: no NdshimUnixCall */
	HANDLE file;
	USHORT group;
	KAFFINITY affinity;
};

struct nd_mr {
	IND2MemoryRegion iface;
	struct nd_ref ref;
	struct nd_adapter *adapter;
	uint64_t h;
	HANDLE file;
	struct nd_unix_mr_tokens tokens;	/* written by the unix side */
};

struct nd_mw {
	IND2MemoryWindow iface;
	struct nd_ref ref;
	struct nd_adapter *adapter;
	uint64_t h;
	volatile UINT32 remote_token;	/* network order, set by Bind */
};

struct nd_qp {
	IND2QueuePair iface;
	struct nd_ref ref;
	struct nd_adapter *adapter;
	uint64_t h;
	nd_unix_post_fn send, receive;	/* fast entries: no NdshimUnixCall */
	struct nd_cq *rcq, *icq;
	struct nd_srq *srq;
};

struct nd_listener;

/* A QP the unix connector may still point at (held until the connector goes). */
struct nd_qp_hold {
	struct nd_qp_hold *next;
	struct nd_qp *qp;
};

struct nd_connector {
	IND2Connector iface;
	struct nd_ref ref;
	struct nd_adapter *adapter;
	uint64_t h;
	HANDLE file;
	SRWLOCK lock;			/* qps */
	struct nd_qp_hold *qps;
	/* Lent to a listener's GetConnectionRequest (nd_lend_lock). */
	struct nd_listener *lent_to;
	struct nd_connector *lent_next;
};

struct nd_listener {
	IND2Listener iface;
	struct nd_ref ref;
	struct nd_adapter *adapter;
	uint64_t h;
	HANDLE file;
	struct nd_connector *lent;	/* nd_lend_lock */
};

HRESULT nd_provider_create(void **out);

/* Each type's constructor (called by the adapter with its arguments
 * checked) and its recogniser for IUnknown* arguments: NULL unless u is
 * one of ours, of that type. */
HRESULT nd_adapter_open(uint64_t adapter_id, REFIID iid, void **out);
void nd_adapter_hold(struct nd_adapter *a);
void nd_adapter_put(struct nd_adapter *a);

HRESULT nd_cq_create(struct nd_adapter *a, HANDLE file, ULONG depth, USHORT group, KAFFINITY affinity,
		     void **out);
struct nd_cq *nd_cq_from(IUnknown *u);
void nd_cq_hold(struct nd_cq *cq);
void nd_cq_put(struct nd_cq *cq);

HRESULT nd_srq_create(struct nd_adapter *a, HANDLE file, ULONG depth, ULONG max_sge, ULONG threshold,
		      USHORT group, KAFFINITY affinity, void **out);
struct nd_srq *nd_srq_from(IUnknown *u);
void nd_srq_hold(struct nd_srq *srq);
void nd_srq_put(struct nd_srq *srq);

HRESULT nd_mr_create(struct nd_adapter *a, HANDLE file, void **out);
struct nd_mr *nd_mr_from(IUnknown *u);

HRESULT nd_mw_create(struct nd_adapter *a, void **out);
struct nd_mw *nd_mw_from(IUnknown *u);

HRESULT nd_qp_create(struct nd_adapter *a, struct nd_cq *rcq, struct nd_cq *icq, struct nd_srq *srq,
		     void *context, ULONG recv_depth, ULONG init_depth, ULONG recv_sge, ULONG init_sge,
		     ULONG inline_size, void **out);
struct nd_qp *nd_qp_from(IUnknown *u);
void nd_qp_hold(struct nd_qp *qp);
void nd_qp_put(struct nd_qp *qp);

HRESULT nd_connector_create(struct nd_adapter *a, HANDLE file, void **out);
struct nd_connector *nd_connector_from(IUnknown *u);
/* The unix connector has been handed a connection request (so no pending
 * GetConnectionRequest refers to it any more). */
BOOL nd_connector_handed(struct nd_connector *c);
void nd_connector_put(struct nd_connector *c);

HRESULT nd_listener_create(struct nd_adapter *a, HANDLE file, void **out);
/* Guards every connector's lent_to/lent_next and listeners' lent lists. */
extern SRWLOCK nd_lend_lock;

/* QueryInterface for an object answering IUnknown, its own IID and,
 * when overlapped, IND2Overlapped. */
static inline HRESULT nd_qi(void *self, struct nd_ref *ref, REFIID riid, void **out, const IID *own,
			    BOOL overlapped)
{
	if (!out)
		return E_POINTER;
	if (riid && (IsEqualIID(riid, &IID_IUnknown) || IsEqualIID(riid, own) ||
		     (overlapped && IsEqualIID(riid, &IID_IND2Overlapped)))) {
		nd_ref_add(ref);
		*out = self;
		return S_OK;
	}
	*out = NULL;
	return E_NOINTERFACE;
}

#endif

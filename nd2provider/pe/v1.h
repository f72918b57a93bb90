/* nd2prov.dll's ND v1 objects (INDProvider, INDAdapter and what they
 * make), for older clients found through the catalog's v1 entry.
 *
 * Each v1 object is a thin client of the provider's own v2 object of the
 * same kind (IND2Adapter, IND2CompletionQueue, IND2QueuePair, ...), used
 * through its public interface: the rdma-core work, the argument checks
 * the two generations share and the overlapped machinery stay in one
 * place, and the v1 layer only converts what v1 spells differently
 * (SIZE_T sizes, ND_RESULT pointers as request contexts, ND_MR_HANDLE,
 * network-order memory window descriptors, Listen by port).
 *
 * Every v1 object of an adapter issues its overlapped requests on the
 * adapter's one file (GetFileHandle), as v1 has no other. */
#ifndef NDSHIM_ND2PROV_V1_H
#define NDSHIM_ND2PROV_V1_H

#include "nd2prov.h"

/* The most scatter/gather entries one v1 request converts (on the stack);
 * CreateEndpoint refuses larger limits. */
#define ND1_MAX_SGE 64

#ifndef MAXULONG
#define MAXULONG 0xffffffffUL
#endif

/* A method call on a COM object from C. */
#define ND_CALL(o, m, ...) ((o)->lpVtbl->m((o), ##__VA_ARGS__))

#define ND1_MR_MAGIC 0x3152444eu	/* "NDR1" */

struct nd1_adapter {
	INDAdapter iface;
	LONG refs;
	IND2Adapter *v2;
	HANDLE file;
	struct sockaddr_storage addr;	/* the one it was opened by, port 0 */
	ULONG addr_len;
	ND2_ADAPTER_INFO info;
	SRWLOCK lock;			/* mrs */
	struct nd1_mr *mrs;
};

/* What an ND_MR_HANDLE points to. */
struct nd1_mr {
	UINT32 magic;
	IND2MemoryRegion *v2;
	struct nd1_mr *next;
};

struct nd1_cq {
	INDCompletionQueue iface;
	LONG refs;
	struct nd1_adapter *adapter;
	IND2CompletionQueue *v2;
};

struct nd1_mw {
	INDMemoryWindow iface;
	LONG refs;
	struct nd1_adapter *adapter;
	IND2MemoryWindow *v2;
	ND_RESULT *invalidate_result;
};

struct nd1_endpoint {
	INDEndpoint iface;
	LONG refs;
	struct nd1_adapter *adapter;
	IND2QueuePair *v2;
	struct nd1_cq *in_cq, *out_cq;
	ULONG in_sge, out_sge;
	ULONG in_read, out_read;
};

struct nd1_connector {
	INDConnector iface;
	LONG refs;
	struct nd1_adapter *adapter;
	IND2Connector *v2;
	BOOL bound;
	struct nd1_endpoint *endpoint;	/* the one Connect or Accept used */
};

HRESULT nd1_provider_create(REFIID riid, void **out);
HRESULT nd1_class_factory(REFIID riid, void **out);

/* v1_adapter.c */
HRESULT nd1_adapter_open(const struct sockaddr *sa, SIZE_T len, INDAdapter **out);
void nd1_adapter_hold(struct nd1_adapter *a);
void nd1_adapter_put(struct nd1_adapter *a);
/* The v2 region behind a handle, or NULL when it is not one of ours. */
IND2MemoryRegion *nd1_mr_from(ND_MR_HANDLE h);
HRESULT nd1_ov_result(OVERLAPPED *ov, SIZE_T *bytes, BOOL wait);
/* An address with the adapter's IP and the given port (host order). */
ULONG nd1_local_addr(const struct nd1_adapter *a, USHORT port, struct sockaddr_storage *out);

/* v1_cq.c */
HRESULT nd1_cq_create(struct nd1_adapter *a, SIZE_T entries, INDCompletionQueue **out);
struct nd1_cq *nd1_cq_from(INDCompletionQueue *i);

/* v1_mw.c */
HRESULT nd1_mw_create(struct nd1_adapter *a, ND_RESULT *invalidate_result, INDMemoryWindow **out);
struct nd1_mw *nd1_mw_from(INDMemoryWindow *i);

/* v1_endpoint.c */
HRESULT nd1_endpoint_create(struct nd1_adapter *a, struct nd1_cq *in_cq, struct nd1_cq *out_cq,
			    SIZE_T in_entries, SIZE_T out_entries, SIZE_T in_sge, SIZE_T out_sge,
			    SIZE_T in_read, SIZE_T out_read, SIZE_T *max_inline, INDEndpoint **out);
struct nd1_endpoint *nd1_endpoint_from(INDEndpoint *i);
void nd1_endpoint_hold(struct nd1_endpoint *ep);
void nd1_endpoint_put(struct nd1_endpoint *ep);

/* v1_connector.c */
HRESULT nd1_connector_create(struct nd1_adapter *a, INDConnector **out);
struct nd1_connector *nd1_connector_from(INDConnector *i);

/* v1_listen.c */
HRESULT nd1_listen_create(struct nd1_adapter *a, SIZE_T backlog, INT protocol, USHORT port, USHORT *assigned,
			  INDListen **out);

/* QueryInterface of a v1 object: IUnknown, its own IID and, when
 * overlapped, INDOverlapped. */
static inline HRESULT nd1_qi(void *self, LONG *refs, REFIID riid, void **out, const IID *own, BOOL overlapped)
{
	if (!out)
		return E_POINTER;
	if (riid && (IsEqualIID(riid, &IID_IUnknown) || IsEqualIID(riid, own) ||
		     (overlapped && IsEqualIID(riid, &IID_INDOverlapped)))) {
		InterlockedIncrement(refs);
		*out = self;
		return S_OK;
	}
	*out = NULL;
	return E_NOINTERFACE;
}

static inline UINT64 nd1_bswap64(UINT64 v)
{
	return __builtin_bswap64(v);
}

#endif

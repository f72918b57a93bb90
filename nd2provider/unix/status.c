/* Every translation into ND status (== NTSTATUS) for the Linux side:
 * errno, ibv_wc_status and rdma_cm events.  Unknown values are logged once
 * and become ND_UNSUCCESSFUL. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nd_unix.h"

static void log_once(const char *what, int value)
{
	static uint64_t seen[3][4];
	int dom = what[0] == 'e' ? 0 : what[0] == 'w' ? 1 : 2;
	unsigned v = (unsigned)value & 255;
	uint64_t bit = 1ull << (v & 63);

	if (__atomic_fetch_or(&seen[dom][v >> 6], bit, __ATOMIC_RELAXED) & bit)
		return;
	nd_log("unmapped %s %d: reported as ND_UNSUCCESSFUL", what, value);
}

int32_t nd_status_from_errno(int err)
{
	switch (err) {
	case 0: return ND_SUCCESS;
	case ENOMEM: return ND_NO_MEMORY;
	case ENOSPC: case EAGAIN: case EMFILE: case ENFILE: return ND_INSUFFICIENT_RESOURCES;
	case EINVAL: return ND_INVALID_PARAMETER;
	case EFAULT: return ND_ACCESS_VIOLATION;
	case EPERM: case EACCES: return ND_ACCESS_VIOLATION;
	case EBUSY: return ND_DEVICE_BUSY;
	case ENODEV: case ENXIO: return ND_DEVICE_REMOVED;
	case EADDRINUSE: return ND_SHARING_VIOLATION;
	case EADDRNOTAVAIL: return ND_INVALID_ADDRESS;
	case EAFNOSUPPORT: return ND_INVALID_ADDRESS;
	case ETIMEDOUT: return ND_IO_TIMEOUT;
	case ECONNREFUSED: return ND_CONNECTION_REFUSED;
	case ECONNRESET: case ECONNABORTED: return ND_CONNECTION_ABORTED;
	case EHOSTUNREACH: return ND_HOST_UNREACHABLE;
	case ENETUNREACH: return ND_NETWORK_UNREACHABLE;
	case EISCONN: return ND_CONNECTION_ACTIVE;
	case ENOTCONN: return ND_CONNECTION_INVALID;
	case EOPNOTSUPP: case ENOSYS: return ND_NOT_SUPPORTED;
	default:
		log_once("errno", err);
		return ND_UNSUCCESSFUL;
	}
}

/* The ND2_RESULT table (IND2CompletionQueue.md) plus what clients rely on
 * (CLIENT-BEHAVIOR.md): a receive too small for the incoming Send is
 * ND_DATA_OVERRUN; the sender of that Send sees STATUS_DATA_ERROR. */
static int32_t wc_status(enum ibv_wc_status st, uint32_t type);

/* Error completions only: NDSHIM_DEBUG=+nd2unix shows what verbs said. */
int32_t nd_status_from_wc(enum ibv_wc_status st, uint32_t type)
{
	static int debug = -1;
	int32_t nd = wc_status(st, type);

	if (debug < 0) {
		const char *e = getenv("NDSHIM_DEBUG");
		debug = e && strstr(e, "nd2unix") != NULL;
	}
	if (debug)
		nd_log("completion of request type %u: %s -> %#x", type, ibv_wc_status_str(st), (unsigned)nd);
	return nd;
}

static int32_t wc_status(enum ibv_wc_status st, uint32_t type)
{
	switch (st) {
	case IBV_WC_SUCCESS: return ND_SUCCESS;
	case IBV_WC_WR_FLUSH_ERR: return ND_CANCELED;
	case IBV_WC_LOC_LEN_ERR: return ND_DATA_OVERRUN;
	case IBV_WC_LOC_PROT_ERR: case IBV_WC_LOC_ACCESS_ERR:
	case IBV_WC_REM_ACCESS_ERR:
		return (type == Nd2RequestTypeBind || type == Nd2RequestTypeInvalidate) ?
			ND_INVALID_DEVICE_REQUEST : ND_ACCESS_VIOLATION;
	case IBV_WC_MW_BIND_ERR: return ND_INVALID_DEVICE_REQUEST;
	case IBV_WC_REM_INV_REQ_ERR:
		return type == Nd2RequestTypeSend ? ND_STATUS_DATA_ERROR : ND_REMOTE_ERROR;
	/* rxe (Linux 6.1) reports a Receive too small for the incoming Send
	 * as a local QP operation error at the receiver and a remote
	 * operation error at the sender, where hardware says LOC_LEN_ERR and
	 * REM_INV_REQ_ERR; a Receive or a Send can fail these ways for no
	 * other reason a well-formed request can cause. */
	case IBV_WC_REM_OP_ERR:
		return type == Nd2RequestTypeSend ? ND_STATUS_DATA_ERROR : ND_REMOTE_ERROR;
	case IBV_WC_LOC_QP_OP_ERR:
		return type == Nd2RequestTypeReceive ? ND_DATA_OVERRUN : ND_INTERNAL_ERROR;
	case IBV_WC_REM_ABORT_ERR: case IBV_WC_REM_INV_RD_REQ_ERR:
	case IBV_WC_BAD_RESP_ERR: case IBV_WC_LOC_RDD_VIOL_ERR:
		return ND_REMOTE_ERROR;
	case IBV_WC_RETRY_EXC_ERR: case IBV_WC_RNR_RETRY_EXC_ERR: case IBV_WC_RESP_TIMEOUT_ERR:
		return ND_IO_TIMEOUT;
	case IBV_WC_LOC_EEC_OP_ERR: case IBV_WC_INV_EECN_ERR:
	case IBV_WC_INV_EEC_STATE_ERR: case IBV_WC_FATAL_ERR: case IBV_WC_GENERAL_ERR:
		return ND_INTERNAL_ERROR;
	default:
		log_once("wc status", st);
		return ND_UNSUCCESSFUL;
	}
}


/* The final status of a Connect or Accept that an rdma_cm event ends. */
int32_t nd_status_from_cm_event(const struct rdma_cm_event *ev)
{
	switch (ev->event) {
	case RDMA_CM_EVENT_ESTABLISHED:
	case RDMA_CM_EVENT_CONNECT_RESPONSE:
		return ND_SUCCESS;
	case RDMA_CM_EVENT_REJECTED:
		/* consumer reject, no listener, or anything else the peer's CM
		 * refused with: the docs' ND_CONNECTION_REFUSED covers all */
		return ND_CONNECTION_REFUSED;
	case RDMA_CM_EVENT_ADDR_ERROR:
		return ND_HOST_UNREACHABLE;
	case RDMA_CM_EVENT_ROUTE_ERROR:
		return ND_NETWORK_UNREACHABLE;
	case RDMA_CM_EVENT_UNREACHABLE:
		return ND_IO_TIMEOUT;
	case RDMA_CM_EVENT_CONNECT_ERROR:
		return ND_CONNECTION_ABORTED;
	case RDMA_CM_EVENT_DISCONNECTED:
		return ND_CONNECTION_ABORTED;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		return ND_DEVICE_REMOVED;
	default:
		log_once("cm event", ev->event);
		return ND_UNSUCCESSFUL;
	}
}

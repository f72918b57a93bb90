/* ws2_32.dll: Winsock on Linux sockets.
 *
 * Every file here sees both the Linux socket headers and the Wine Winsock
 * headers with USE_WS_PREFIX, so the Windows layouts and constants carry
 * a WS_ prefix (struct WS_sockaddr, WS_AF_INET6, WS_SOL_SOCKET) and the
 * exported functions that clash with libc are WS_socket, WS_bind, ...
 * (the spec maps the Windows names to them).
 *
 * A SOCKET is a handle in the one handle table; its object (struct
 * ws_socket) wraps a Linux socket that is always O_NONBLOCK.  Blocking
 * Winsock calls wait in poll(); overlapped requests that cannot finish at
 * once are queued on the socket and driven by the one I/O thread
 * (iothread.c, epoll), which also feeds WSAEventSelect and watches
 * netlink for SIO_ADDRESS_LIST_CHANGE. */
#ifndef NDSHIM_WS2_32_PRIVATE_H
#define NDSHIM_WS2_32_PRIVATE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <netinet/in.h>

#define USE_WS_PREFIX
#define _WS2_32_
#include <winsock2.h>
#include <ws2tcpip.h>
#include <ws2spi.h>
#include <mswsock.h>
#include <mstcpip.h>

#include <winternl.h>

#include "core/list.h"
#include "core/object.h"
#include "core/overlapped.h"

struct thread;

/* WSAStartup minus WSACleanup calls (startup.c). */
extern atomic_int ws_started;

/* Moves every item of src to the tail of dst. */
static inline void ws_list_move(struct list *dst, struct list *src)
{
	while (!list_empty(src)) {
		struct list *item = src->next;

		list_remove(item);
		list_add_tail(dst, item);
	}
}

/* ---- requests (overlapped.c) --------------------------------------------- */
enum ws_req_type {
	WS_REQ_RECV,       /* WSARecv, WSARecvFrom */
	WS_REQ_SEND,       /* WSASend, WSASendTo */
	WS_REQ_ACCEPT,     /* AcceptEx, queued on the listening socket */
	WS_REQ_ACCEPT_DATA, /* AcceptEx's first data, queued on the accepted socket */
	WS_REQ_CONNECT,    /* ConnectEx */
	WS_REQ_ADDR_CHANGE, /* SIO_ADDRESS_LIST_CHANGE (global list) */
};

#define WS_MAX_BUFS 64

struct ws_socket;

struct ws_request {
	struct list entry;
	enum ws_req_type type;
	struct ws_socket *target; /* completes here (port, key); referenced */
	WSAOVERLAPPED *ov;
	LPWSAOVERLAPPED_COMPLETION_ROUTINE routine;
	struct thread *thread; /* runs routine as an APC; referenced */
	DWORD tid;          /* the issuing thread, for CancelIo */
	unsigned int nbufs;
	WSABUF bufs[WS_MAX_BUFS];
	DWORD flags;        /* MSG_* (Windows values) */
	DWORD *flags_out;   /* WSARecv's lpFlags */
	struct WS_sockaddr *addr; /* recvfrom's address out, sendto's address in */
	int *addr_len;
	struct sockaddr_storage to; /* sendto / connect target (Linux) */
	socklen_t to_len;
	DWORD done;         /* bytes moved so far (ConnectEx data) */
	struct ws_socket *accept; /* AcceptEx: the socket receiving the connection */
	DWORD accept_data, accept_local, accept_remote;
	bool started;       /* ConnectEx: connect() issued */
	DWORD result_err, result_bytes; /* set when done, completed unlocked */
};

/* ---- sockets (socket.c) --------------------------------------------------- */
struct ws_socket {
	struct object obj;
	int fd;
	int family, type, protocol; /* Windows values */
	DWORD wsa_flags;            /* WSA_FLAG_* */
	pthread_mutex_t lock;       /* everything below */
	bool nonblocking;           /* FIONBIO or WSAEventSelect */
	bool listening;
	bool connecting;            /* a non-blocking connect is in progress */
	bool connected;             /* stream: connect/accept done */
	bool eof;                   /* the peer's FIN was seen */
	bool closed;                /* the last handle is gone */
	/* WSADuplicateSocket gave the Linux socket to another SOCKET (here or
	 * in another process): closing this one must not shut it down. */
	bool shared;
	DWORD rcvtimeo, sndtimeo;   /* ms, 0 = none */
	struct list reads;          /* ws_request: RECV, ACCEPT, ACCEPT_DATA */
	struct list writes;         /* ws_request: SEND, CONNECT */
	/* WSAEventSelect */
	struct object *event;
	LONG event_mask;
	LONG events;                /* recorded, not yet enumerated */
	LONG enabled;               /* FD_* bits that may be recorded again */
	int event_errors[FD_MAX_EVENTS];
	/* I/O thread registration */
	int io_slot;                /* -1: no slot (see iothread.c) */
	bool in_epoll;
	uint32_t io_interest;
	/* Overlapped completion: the completion port, its key, the handle's
	 * notification modes and its own signaled state (core/overlapped.h). */
	struct io_target io;
};

extern const struct object_ops ws_socket_ops;

/* wsa_flags bit of the WSAProviderConfigChange handle: a socket object
 * with no fd, so it shares the request and completion machinery, but
 * not a SOCKET (ws_socket_get refuses it). */
#define WS_FLAG_NOTIFY_ONLY 0x80000000u

static inline struct ws_socket *to_ws_socket(struct object *obj)
{
	return container_of(obj, struct ws_socket, obj);
}

/* The socket behind s, referenced (object_unref when done), or NULL with
 * WSAENOTSOCK as the last error. */
struct ws_socket *ws_socket_get(SOCKET s);
/* A new socket object around fd (made non-blocking; -1 for a
 * WS_FLAG_NOTIFY_ONLY object) with a handle; the
 * SOCKET or INVALID_SOCKET with the last error set (fd closed). */
SOCKET ws_socket_create(int fd, int family, int type, int protocol, DWORD wsa_flags,
			struct ws_socket **out);

/* Waits until fd is ready for events (POLLIN/POLLOUT) or timeout ms
 * (0: forever).  0 when ready, else a WSA error (WSAETIMEDOUT, WSAEINTR
 * when the socket was closed meanwhile). */
int ws_wait(struct ws_socket *s, short events, DWORD timeout);

/* recvmsg/sendmsg on the socket's fd with Windows buffers and flags;
 * bytes, or -1 with errno. */
ssize_t ws_do_recv(struct ws_socket *s, const WSABUF *bufs, unsigned int n, DWORD *flags,
		   struct sockaddr_storage *from, socklen_t *from_len);
ssize_t ws_do_send(struct ws_socket *s, const WSABUF *bufs, unsigned int n, DWORD flags,
		   const struct sockaddr_storage *to, socklen_t to_len);
int ws_msg_flags_to_unix(DWORD flags, int *out);

/* Sets the last error (Winsock code) and returns SOCKET_ERROR. */
int ws_fail(DWORD err);
int ws_fail_errno(int err);

/* ---- the I/O thread (iothread.c) ---------------------------------------- */
/* Starts the thread once; false with the last error set when it cannot. */
bool ws_io_start(void);
/* Socket lock held: recomputes what the I/O thread watches for s
 * (pending requests, WSAEventSelect) and registers it if needed.  Returns
 * a WSA error or 0. */
int ws_io_update_locked(struct ws_socket *s);
/* Takes s out of the I/O thread (last handle closed). */
void ws_io_forget(struct ws_socket *s);
/* SIO_ADDRESS_LIST_CHANGE requests pend on a global list, completed on
 * the next netlink address message. */
int ws_io_queue_addr_change(struct ws_request *r);
void ws_io_cancel_addr_change(struct ws_socket *s);

/* ---- overlapped completion (complete.c) ----------------------------------- */
struct ws_request *ws_request_new(enum ws_req_type type, struct ws_socket *target,
				  WSAOVERLAPPED *ov, LPWSAOVERLAPPED_COMPLETION_ROUTINE routine);
void ws_request_free(struct ws_request *r);
/* Completes r with a Windows error (0 = success): fills the OVERLAPPED,
 * queues the port packet, sets the event or queues the completion
 * routine, and frees r.  sync: the request finished inside the call that
 * started it (FILE_SKIP_COMPLETION_PORT_ON_SUCCESS applies). */
void ws_request_complete(struct ws_request *r, DWORD error, DWORD bytes, bool sync);
/* Socket lock held: tries the request's operation once.  WS_TRY_DONE
 * (r->result_* set), WS_TRY_BLOCKED, or WS_TRY_MOVED (AcceptEx went on
 * to wait for data on the accepted socket, which now owns r). */
enum { WS_TRY_DONE, WS_TRY_BLOCKED, WS_TRY_MOVED };
int ws_request_try(struct ws_socket *s, struct ws_request *r);
/* Socket lock held: tries the queued requests in order until one would
 * block; the finished ones go to done, to be completed (ws_complete_list)
 * once the lock is dropped. */
void ws_process_queue_locked(struct ws_socket *s, struct list *queue, struct list *done);
void ws_complete_list(struct list *done);
unsigned int ws_cancel_requests(struct io_target *t, bool (*match)(struct io_request *probe, void *ctx),
				void *ctx, NTSTATUS status);
/* Starts an overlapped request: completes at once when possible, else
 * queues it.  Returns 0 or SOCKET_ERROR with the last error set
 * (WSA_IO_PENDING when queued). */
int ws_request_start(struct ws_socket *s, struct ws_request *r, DWORD *bytes_out);

/* ---- WSAEventSelect (eventselect.c) --------------------------------------- */
/* Socket lock held: records network events (FD_* bits with their
 * errors) and sets the event. */
void ws_record_events_locked(struct ws_socket *s, LONG bits, int error);
/* Socket lock held: the call that re-enables bit happened (recv for
 * FD_READ, accept for FD_ACCEPT, a send that would block for FD_WRITE). */
void ws_reenable_locked(struct ws_socket *s, LONG bits);

/* ---- addresses (addr.c) ----------------------------------------------------- */
int ws_family_to_unix(int family);
int ws_family_from_unix(int family);
/* Windows sockaddr -> Linux; WSAEFAULT/WSAEAFNOSUPPORT or 0. */
int ws_sockaddr_to_unix(const struct WS_sockaddr *wsa, int len, struct sockaddr_storage *out,
			socklen_t *out_len);
/* Linux sockaddr -> Windows into buf of *len bytes; *len gets the size.
 * WSAEFAULT when it does not fit (the size is still stored). */
int ws_sockaddr_from_unix(const struct sockaddr *sa, socklen_t sa_len, struct WS_sockaddr *buf,
			  int *len);
int ws_sockaddr_size(int ws_family);

int WINAPI WS_gethostname(char *name, int len);

/* ---- name services (getaddrinfo.c, netdb.c) ------------------------------ */
/* A Linux getaddrinfo/getnameinfo EAI_* result as a Winsock error. */
int ws_eai_to_wsa(int eai);
/* netdb.c (gethostbyname, getservbyname, getprotobyname and their
 * reverse forms, getnameinfo, GetNameInfoW, GetHostNameW) and poll.c
 * (WSAPoll) export functions the Wine headers declare. */

/* FD_READ ... FD_ADDRESS_LIST_CHANGE (FD_MAX_EVENTS bits). */
#define WS_FD_ALL_EVENTS ((1 << FD_MAX_EVENTS) - 1)

/* The byte-order exports (the Wine headers make them macros). */
WS_u_long WINAPI WS_htonl(WS_u_long v);
WS_u_short WINAPI WS_htons(WS_u_short v);
WS_u_long WINAPI WS_ntohl(WS_u_long v);
WS_u_short WINAPI WS_ntohs(WS_u_short v);

/* ---- the provider catalog (catalog.c) ------------------------------------- */
/* The WSAPROTOCOL_INFOW of (family, type, protocol), for SO_PROTOCOL_INFOW
 * and WSASocketW; false when no base entry matches. */
bool ws_catalog_find(int family, int type, int protocol, WSAPROTOCOL_INFOW *out);
/* dupsocket.c: WSASocket with a WSADuplicateSocket info (token from its
 * dwProviderReserved). */
SOCKET ws_socket_from_info(DWORD token, DWORD flags);

/* ---- ioctls (ioctl.c) ------------------------------------------------------- */
int ws_address_list(int family, SOCKET_ADDRESS_LIST *buf, DWORD len, DWORD *needed);
int ws_routing_query(const struct WS_sockaddr *remote, int len, struct WS_sockaddr *out,
		     DWORD out_len, DWORD *needed);

/* ---- extension functions (mswsock.c) -------------------------------------- */
BOOL WINAPI ws_ConnectEx(SOCKET s, const struct WS_sockaddr *name, int namelen, PVOID buf,
			 DWORD len, DWORD *sent, LPOVERLAPPED ov);
BOOL WINAPI ws_DisconnectEx(SOCKET s, LPOVERLAPPED ov, DWORD flags, DWORD reserved);

#endif

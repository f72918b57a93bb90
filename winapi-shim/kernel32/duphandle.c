/* DuplicateHandle into and out of another ndrun process
 * (docs/processes.md, "DuplicateHandle across processes").
 *
 * Each ndrun process that may be on the other end serves requests on a
 * unix socket, /dev/shm/ndshim-<uid>/p<pid>.sock: ndrun children from
 * their start, every other process from its first CreateProcess or
 * OpenProcess (a process it can name is one it can be asked about).
 * The server is a plain pthread blocked in accept: no Windows thread,
 * and nothing at all in a process that never deals with another.
 *
 * An object travels as what backs it: the fd of a file or pipe end
 * (SCM_RIGHTS), the segment of a named event, semaphore, mutex or
 * mapping (its fd, reopened by the receiver so that it holds a
 * reference of its own), the memfd of an unnamed mapping.  An unnamed
 * event, semaphore or mutex is made a shared object first (the memfd of
 * its page travels: core/promote.c).  A completion port travels as a
 * way to post to it (core/iocp_remote.h).  In-process objects with
 * nothing behind them (threads, timers) cannot travel:
 * ERROR_NOT_SUPPORTED. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "core/debug.h"
#include "core/errors.h"
#include "core/file.h"
#include "core/handle.h"
#include "core/iocp.h"
#include "core/iocp_remote.h"
#include "core/process.h"
#include "core/shm.h"
#include "core/shsync.h"
#include "core/spawn.h"
#include "core/startup.h"
#include "core/sync.h"
#include "kernel32/kernel32_private.h"

enum { HX_PUT = 1, HX_GET, HX_CLOSE, HX_PARK };
enum { HX_FILE = 1, HX_PIPE, HX_SYNC, HX_MAPPING, HX_SOCKET, HX_PROCESS, HX_PORT };

#define HX_PATH_MAX 512

/* What describes one object on the wire (its fd, if any, beside it). */
struct hx_obj {
	uint32_t kind;
	uint32_t access;  /* HX_FILE/PIPE: the file's granted rights */
	uint32_t options; /* HX_FILE/PIPE: FILE_FLAG_*; HX_MAPPING: PAGE_* */
	uint32_t type;    /* HX_SYNC: enum shsync_type */
	uint64_t size;    /* HX_MAPPING; HX_PROCESS: the pid */
	char path[HX_PATH_MAX]; /* a segment's file name, "" for none */
};

struct hx_req {
	uint32_t op;
	uint32_t access;  /* of the new handle */
	uint32_t flags;   /* HANDLE_FLAG_INHERIT */
	uint32_t close_source;
	uint64_t handle;  /* HX_GET, HX_CLOSE: in the server */
	struct hx_obj obj; /* HX_PUT */
};

struct hx_reply {
	uint32_t error;   /* 0 or a Win32 error */
	uint32_t access;  /* HX_GET: the source handle's rights */
	uint64_t handle;  /* HX_PUT: the new handle */
	struct hx_obj obj; /* HX_GET */
};

static void socket_path(pid_t pid, struct sockaddr_un *a)
{
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	snprintf(a->sun_path, sizeof(a->sun_path), "/dev/shm/ndshim-%u/p%d.sock", (unsigned)getuid(), (int)pid);
}

/* One message and at most one fd. */
static int send_msg(int s, const void *buf, size_t len, int fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { (void *)buf, len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (fd >= 0) {
		struct cmsghdr *c;

		m.msg_control = cbuf;
		m.msg_controllen = sizeof(cbuf);
		c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	return sendmsg(s, &m, MSG_NOSIGNAL) == (ssize_t)len ? 0 : -1;
}

static int recv_msg(int s, void *buf, size_t len, int *fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { buf, len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
			    .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c;
	ssize_t n;

	*fd = -1;
	n = recvmsg(s, &m, MSG_CMSG_CLOEXEC);
	for (c = CMSG_FIRSTHDR(&m); n >= 0 && c; c = CMSG_NXTHDR(&m, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
			memcpy(fd, CMSG_DATA(c), sizeof(int));
	return n == (ssize_t)len ? 0 : -1;
}

/* ---- objects to and from the wire ---- */

/* The description of obj and the fd to send with it: owned by obj,
 * or made for the message when *fd_ours (the sender closes it). */
static DWORD export_object(struct object *obj, struct hx_obj *o, int *fd, bool *fd_ours)
{
	enum shsync_type type;
	const char *path;
	uint64_t size;
	DWORD prot;

	memset(o, 0, sizeof(*o));
	*fd = -1;
	*fd_ours = false;
	if (obj->ops == &iocp_ops || obj->ops == &iocp_remote_ops) {
		/* The write end of the port's channel, to post through. */
		o->kind = HX_PORT;
		if ((*fd = iocp_remote_export(obj)) < 0)
			return GetLastError();
		*fd_ours = true;
		return 0;
	}
	if (obj->ops == &file_ops) {
		struct file *f = to_file(obj);

		/* Named pipe ends and console streams live in this
		 * process (their fd, if any, is not the whole object). */
		if (f->fd < 0 || f->pipe || f->console_pending || !f->own_fd)
			return ERROR_NOT_SUPPORTED;
		o->kind = f->anon_pipe ? HX_PIPE : HX_FILE;
		o->access = f->access;
		o->options = f->options;
		*fd = f->fd;
		return 0;
	}
	if (obj->ops == &process_ops) {
		/* A pid: the receiver opens the process itself. */
		o->kind = HX_PROCESS;
		o->size = (uint64_t)to_process(obj)->pid;
		return 0;
	}
	/* An unnamed event, semaphore or mutex leaves the process: shared
	 * from now on (obj keeps its twin, and with it the fd). */
	if (sync_is_local(obj)) {
		struct object *twin = sync_share(obj);

		if (!twin)
			return GetLastError();
		object_unref(twin);
	}
	if (shsync_export(obj, &type, fd, &path)) {
		o->kind = HX_SYNC;
		o->type = type;
	} else if (mapping_export(obj, fd, &path, &size, &prot)) {
		o->kind = HX_MAPPING;
		o->size = size;
		o->options = prot;
	} else {
		TRACE(handle, "%s objects cannot go to another process\n", obj->ops->type_name);
		return ERROR_NOT_SUPPORTED;
	}
	if (path && strlen(path) >= sizeof(o->path))
		return ERROR_NOT_SUPPORTED;
	snprintf(o->path, sizeof(o->path), "%s", path ? path : "");
	return 0;
}

/* A segment fd received: a descriptor of our own (its own shared
 * flock: the sender's close must not find itself the last holder). */
static int reopen_segment(int fd)
{
	char self[64];
	struct stat st;
	int own;

	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	own = open(self, O_RDWR | O_CLOEXEC);
	if (own < 0)
		return -1;
	if (flock(own, LOCK_SH) || fstat(own, &st)) {
		close(own);
		return -1;
	}
	return own;
}

/* The object o describes, made from fd (consumed). */
static struct object *import_object(const struct hx_obj *o, int fd, DWORD *err)
{
	struct object *obj = NULL;
	char *path = NULL;
	int own;

	*err = ERROR_INVALID_HANDLE;
	if (o->kind == HX_PROCESS) {
		if (fd >= 0)
			close(fd);
		obj = process_open_pid((int)o->size);
		if (!obj)
			*err = GetLastError();
		return obj;
	}
	if (fd < 0)
		return NULL;
	switch (o->kind) {
	case HX_PORT:
		obj = iocp_remote_import(fd);
		if (!obj)
			*err = GetLastError();
		return obj;
	case HX_FILE:
	case HX_PIPE: {
		struct file *f = file_create(fd, o->access, o->options, true);

		if (!f) {
			*err = GetLastError();
			close(fd);
			return NULL;
		}
		f->anon_pipe = o->kind == HX_PIPE;
		return &f->obj;
	}
	case HX_SYNC:
	case HX_MAPPING:
		if (o->path[0]) {
			own = reopen_segment(fd);
			close(fd);
			path = strndup(o->path, sizeof(o->path));
			if (own < 0 || !path) {
				*err = own < 0 ? win32_error_from_errno(errno) : ERROR_NOT_ENOUGH_MEMORY;
				if (own >= 0)
					close(own);
				free(path);
				return NULL;
			}
			fd = own;
			shm_adopt(fd, path);
		}
		obj = o->kind == HX_SYNC ? shsync_import(fd, path, (enum shsync_type)o->type)
					 : mapping_import(fd, path, o->size, o->options);
		if (!obj)
			*err = GetLastError();
		return obj;
	}
	close(fd);
	return NULL;
}

/* ---- the server ---- */

/* ---- sockets for WSASocket(FROM_PROTOCOL_INFO) ---- */

/* A socket another process (or this one) duplicated to us with
 * WSADuplicateSocket, until WSASocket takes it by its token. */
struct parked {
	struct parked *next;
	uint32_t token;
	int fd;
	int meta[3];
};

static struct parked *parked_list;
static uint32_t parked_next = 1;
static pthread_mutex_t parked_lock = PTHREAD_MUTEX_INITIALIZER;

/* fd now belongs to the list; 0 when out of memory. */
static uint32_t park(int fd, const int meta[3])
{
	struct parked *p = malloc(sizeof(*p));
	uint32_t token;

	if (!p) {
		close(fd);
		return 0;
	}
	pthread_mutex_lock(&parked_lock);
	token = parked_next++;
	if (!parked_next)
		parked_next = 1;
	*p = (struct parked){ parked_list, token, fd, { meta[0], meta[1], meta[2] } };
	parked_list = p;
	pthread_mutex_unlock(&parked_lock);
	return token;
}

int duphandle_take_socket(uint32_t token, int meta[3])
{
	struct parked **pp, *p = NULL;
	int fd = -1;

	pthread_mutex_lock(&parked_lock);
	for (pp = &parked_list; *pp; pp = &(*pp)->next) {
		if ((*pp)->token == token) {
			p = *pp;
			*pp = p->next;
			break;
		}
	}
	pthread_mutex_unlock(&parked_lock);
	if (p) {
		fd = p->fd;
		memcpy(meta, p->meta, sizeof(p->meta));
		free(p);
	}
	return fd;
}

static pthread_once_t server_once = PTHREAD_ONCE_INIT;
static int given_socket = -1;

static void serve_one(int c)
{
	struct hx_req req;
	struct hx_reply rep = { 0 };
	struct object *obj;
	DWORD access = 0;
	bool fd_ours = false;
	char ack;
	int fd = -1;
	HANDLE h;

	if (recv_msg(c, &req, sizeof(req), &fd))
		goto out;
	switch (req.op) {
	case HX_PUT:
		obj = import_object(&req.obj, fd, &rep.error);
		fd = -1;
		if (!obj)
			break;
		rep.error = 0;
		h = handle_create(obj, req.access, req.flags);
		object_unref(obj);
		if (!h)
			rep.error = GetLastError();
		rep.handle = (uintptr_t)h;
		break;
	case HX_GET:
		/* Table entries only: which process a pseudo-handle means
		 * here is not documented (the docs ask for the caller's). */
		obj = handle_get((HANDLE)(uintptr_t)req.handle, NULL);
		if (obj && !handle_get_info((HANDLE)(uintptr_t)req.handle, &access, NULL)) {
			object_unref(obj);
			obj = NULL;
		}
		if (!obj) {
			if (obj)
				object_unref(obj);
			rep.error = ERROR_INVALID_HANDLE;
			break;
		}
		rep.access = access;
		rep.error = export_object(obj, &rep.obj, &fd, &fd_ours);
		if (!rep.error && !send_msg(c, &rep, sizeof(rep), fd)) {
			/* The receiver holds a reference of its own before
			 * the source may go (the object's last one, maybe). */
			if (recv(c, &ack, 1, 0) == 1 && req.close_source)
				handle_close((HANDLE)(uintptr_t)req.handle);
		}
		if (!fd_ours)
			fd = -1;
		object_unref(obj);
		if (!rep.error)
			goto out;
		break;
	case HX_PARK:
		if (req.obj.kind != HX_SOCKET || fd < 0) {
			rep.error = ERROR_INVALID_PARAMETER;
			break;
		}
		rep.handle = park(fd, (const int[3]){ (int)req.obj.access, (int)req.obj.options, (int)req.obj.type });
		fd = -1;
		if (!rep.handle)
			rep.error = ERROR_NOT_ENOUGH_MEMORY;
		break;
	case HX_CLOSE:
		if (!handle_close((HANDLE)(uintptr_t)req.handle))
			rep.error = ERROR_INVALID_HANDLE;
		break;
	default:
		rep.error = ERROR_INVALID_PARAMETER;
	}
	send_msg(c, &rep, sizeof(rep), -1);
out:
	if (fd >= 0)
		close(fd);
}

static void *server_thread(void *arg)
{
	int ls = (int)(intptr_t)arg;

	for (;;) {
		/* A client that stalls does not hold the server for long. */
		struct timeval tv = { 5, 0 };
		struct ucred cred;
		socklen_t len = sizeof(cred);
		int c = accept4(ls, NULL, NULL, SOCK_CLOEXEC);

		if (c < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			ndrun_error("handle server: accept: %s", strerror(errno));
			return NULL;
		}
		setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		setsockopt(c, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
		/* The folder is the user's alone; this is a second lock. */
		if (!getsockopt(c, SOL_SOCKET, SO_PEERCRED, &cred, &len) && cred.uid == getuid())
			serve_one(c);
		close(c);
	}
	return NULL;
}

static _Atomic bool serving;

void duphandle_server_exit(void)
{
	struct sockaddr_un a;

	if (!atomic_load(&serving))
		return;
	socket_path(getpid(), &a);
	unlink(a.sun_path);
}

void duphandle_server_gone(pid_t pid)
{
	struct sockaddr_un a;

	socket_path(pid, &a);
	unlink(a.sun_path);
}

static void start_server(void)
{
	struct sockaddr_un a;
	sigset_t all, old;
	pthread_attr_t attr;
	pthread_t t;
	int ls;

	socket_path(getpid(), &a);
	ls = given_socket;
	if (ls >= 0) {
		int listening = 0;
		socklen_t len = sizeof(listening);

		fcntl(ls, F_SETFD, FD_CLOEXEC);
		if (getsockopt(ls, SOL_SOCKET, SO_ACCEPTCONN, &listening, &len) || !listening) {
			close(ls);
			ls = -1;
		}
	}
	if (ls >= 0)
		goto serve;
	/* ndrun makes the folder with the first named object; a stale
	 * socket of a dead process with our pid goes. */
	{
		char dir[64];

		snprintf(dir, sizeof(dir), "/dev/shm/ndshim-%u", (unsigned)getuid());
		mkdir(dir, 0700);
	}
	unlink(a.sun_path);
	ls = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (ls < 0 || bind(ls, (struct sockaddr *)&a, sizeof(a)) || listen(ls, 16)) {
		TRACE(handle, "no handle server: %s\n", strerror(errno));
		if (ls >= 0)
			close(ls);
		return;
	}
serve:
	/* The thread takes no signal meant for the program's threads. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	if (pthread_create(&t, &attr, server_thread, (void *)(intptr_t)ls)) {
		close(ls);
		unlink(a.sun_path);
	} else {
		atomic_store(&serving, true);
	}
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void duphandle_server_start_given(int fd)
{
	given_socket = fd;
	pthread_once(&server_once, start_server);
}

void duphandle_server_start(void)
{
	pthread_once(&server_once, start_server);
}

/* ---- the client ---- */

/* A connection to pid's server: -1 with the last error set. */
static int connect_to(pid_t pid)
{
	struct sockaddr_un a;
	int s;

	socket_path(pid, &a);
	s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (s < 0 || connect(s, (struct sockaddr *)&a, sizeof(a))) {
		TRACE(handle, "pid %d serves no handles: %s\n", (int)pid, strerror(errno));
		if (s >= 0)
			close(s);
		/* Not an ndrun process, or one that has ended. */
		SetLastError(ERROR_ACCESS_DENIED);
		return -1;
	}
	return s;
}

/* The process behind a process handle for DuplicateHandle: 0 for this
 * one, else its pid; -1 with the last error set. */
static pid_t process_of(HANDLE h)
{
	struct object *obj;
	pid_t pid;

	if (h == PSEUDO_HANDLE_CURRENT_PROCESS)
		return 0;
	obj = handle_get_access(h, &process_ops, PROCESS_DUP_HANDLE);
	if (!obj)
		return -1;
	pid = to_process(obj)->pid;
	object_unref(obj);
	return pid == getpid() ? 0 : pid;
}

/* The object behind handle h of process pid, with a reference, and the
 * handle's rights. */
static struct object *get_remote(pid_t pid, HANDLE h, bool close_source, DWORD *access)
{
	struct hx_req req = { .op = HX_GET, .handle = (uintptr_t)h, .close_source = close_source };
	struct hx_reply rep;
	struct object *obj;
	DWORD err;
	int s = connect_to(pid), fd;

	if (s < 0)
		return NULL;
	if (send_msg(s, &req, sizeof(req), -1) || recv_msg(s, &rep, sizeof(rep), &fd)) {
		close(s);
		SetLastError(ERROR_ACCESS_DENIED);
		return NULL;
	}
	if (rep.error) {
		if (fd >= 0)
			close(fd);
		close(s);
		SetLastError(rep.error);
		return NULL;
	}
	obj = import_object(&rep.obj, fd, &err);
	/* The ack: the source may be closed now. */
	send(s, "k", 1, MSG_NOSIGNAL);
	close(s);
	if (!obj) {
		SetLastError(err);
		return NULL;
	}
	*access = rep.access;
	return obj;
}

static HANDLE put_remote(pid_t pid, struct object *obj, DWORD access, DWORD flags)
{
	struct hx_req req = { .op = HX_PUT, .access = access, .flags = flags };
	struct hx_reply rep;
	bool fd_ours;
	DWORD err;
	int s, fd, rfd;

	if ((err = export_object(obj, &req.obj, &fd, &fd_ours))) {
		SetLastError(err);
		return NULL;
	}
	s = connect_to(pid);
	if (s >= 0 && (send_msg(s, &req, sizeof(req), fd) || recv_msg(s, &rep, sizeof(rep), &rfd))) {
		close(s);
		s = -1;
		SetLastError(ERROR_ACCESS_DENIED);
	}
	if (fd_ours)
		close(fd);
	if (s < 0)
		return NULL;
	close(s);
	if (rfd >= 0)
		close(rfd);
	if (rep.error) {
		SetLastError(rep.error);
		return NULL;
	}
	return (HANDLE)(uintptr_t)rep.handle;
}

static bool close_remote(pid_t pid, HANDLE h)
{
	struct hx_req req = { .op = HX_CLOSE, .handle = (uintptr_t)h };
	struct hx_reply rep;
	int s = connect_to(pid), fd;

	if (s < 0)
		return false;
	if (send_msg(s, &req, sizeof(req), -1) || recv_msg(s, &rep, sizeof(rep), &fd)) {
		close(s);
		SetLastError(ERROR_ACCESS_DENIED);
		return false;
	}
	close(s);
	if (rep.error)
		SetLastError(rep.error);
	return !rep.error;
}

BOOL duphandle_cross_process(HANDLE src_process, HANDLE src, HANDLE dst_process, HANDLE *dst,
			     DWORD access, BOOL inherit, DWORD options)
{
	pid_t from = process_of(src_process), to;
	DWORD src_access = 0;
	struct object *obj;
	HANDLE h;

	if (from < 0)
		return FALSE;
	/* A NULL target process (or target handle) only closes the source. */
	to = dst_process ? process_of(dst_process) : 0;
	if (to < 0)
		return FALSE;
	if (from && (!dst || !dst_process)) {
		if (!(options & DUPLICATE_CLOSE_SOURCE)) {
			SetLastError(ERROR_INVALID_PARAMETER);
			return FALSE;
		}
		return close_remote(from, src);
	}
	if (from) {
		obj = get_remote(from, src, options & DUPLICATE_CLOSE_SOURCE, &src_access);
	} else if (src == PSEUDO_HANDLE_CURRENT_PROCESS || src == PSEUDO_HANDLE_CURRENT_THREAD) {
		obj = handle_get(src, NULL);
		src_access = src == PSEUDO_HANDLE_CURRENT_PROCESS ? PROCESS_ALL_ACCESS : THREAD_ALL_ACCESS;
	} else {
		obj = handle_get(src, NULL);
		if (obj && !handle_get_info(src, &src_access, NULL)) {
			object_unref(obj);
			obj = NULL;
		}
	}
	if (!obj)
		return FALSE;
	if (!(options & DUPLICATE_SAME_ACCESS))
		src_access = access;
	if (to)
		h = put_remote(to, obj, src_access, inherit ? HANDLE_FLAG_INHERIT : 0);
	else
		h = handle_create(obj, src_access, inherit ? HANDLE_FLAG_INHERIT : 0);
	object_unref(obj);
	TRACE(handle, "%p of pid %d -> %p in pid %d\n", src, from ? from : getpid(), h, to ? to : getpid());
	/* Closed "regardless of any error status", as documented. */
	if (!from && (options & DUPLICATE_CLOSE_SOURCE)) {
		DWORD err = GetLastError();

		handle_close(src);
		SetLastError(err);
	}
	if (!h)
		return FALSE;
	*dst = h;
	return TRUE;
}

BOOL duphandle_park_socket(DWORD pid, int fd, const int meta[3], uint32_t *token)
{
	struct hx_req req = { .op = HX_PARK };
	struct hx_reply rep;
	int s, rfd;

	if (pid == (DWORD)getpid()) {
		int own = fcntl(fd, F_DUPFD_CLOEXEC, 0);

		if (own < 0 || !(*token = park(own, meta))) {
			SetLastError(ERROR_NOT_ENOUGH_MEMORY);
			return FALSE;
		}
		return TRUE;
	}
	req.obj.kind = HX_SOCKET;
	req.obj.access = (uint32_t)meta[0];
	req.obj.options = (uint32_t)meta[1];
	req.obj.type = (uint32_t)meta[2];
	if ((s = connect_to((pid_t)pid)) < 0)
		return FALSE;
	if (send_msg(s, &req, sizeof(req), fd) || recv_msg(s, &rep, sizeof(rep), &rfd)) {
		close(s);
		SetLastError(ERROR_ACCESS_DENIED);
		return FALSE;
	}
	close(s);
	if (rfd >= 0)
		close(rfd);
	if (rep.error) {
		SetLastError(rep.error);
		return FALSE;
	}
	*token = (uint32_t)rep.handle;
	return TRUE;
}

/* ---- inheritance by CreateProcess ---- */

bool duphandle_inherit_segment(struct object *obj, struct spawn_inherit *si)
{
	enum shsync_type type;
	const char *path = NULL;
	uint64_t size = 0;
	DWORD prot = 0;
	int fd;

	memset(si, 0, sizeof(*si));
	if (shsync_export(obj, &type, &fd, &path)) {
		si->kind = STARTUP_KIND_SYNC;
		si->type = type;
	} else if (mapping_export(obj, &fd, &path, &size, &prot)) {
		si->kind = STARTUP_KIND_MAPPING;
		si->type = prot;
		si->size = size;
	} else {
		return false;
	}
	/* A descriptor of the child's own: a segment's with its own shared
	 * lock taken now, so that our closing the handle right after
	 * CreateProcess cannot take the child's object for unheld. */
	si->fd = path ? reopen_segment(fd) : fcntl(fd, F_DUPFD_CLOEXEC, 0);
	si->path = path;
	return si->fd >= 0;
}

struct object *duphandle_import_inherited(unsigned int kind, int fd, const char *path, uint64_t size,
					  uint32_t type)
{
	char *own = path ? strdup(path) : NULL;
	struct object *obj;

	if (path && !own) {
		close(fd);
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	shm_adopt(fd, own);
	if (kind == STARTUP_KIND_SYNC)
		obj = shsync_import(fd, own, (enum shsync_type)type);
	else
		obj = mapping_import(fd, own, size, type);
	return obj;
}

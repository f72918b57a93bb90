#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define WIN32_NO_STATUS
#include "core/debug.h"
#include "core/errors.h"
#include "core/file.h"
#include "core/handle.h"
#include "core/klock.h"
#include "core/pipe.h"
#include "core/sync.h"
#include "core/syncio.h"
#include "core/wait.h"
#include "core/wstr.h"
#undef WIN32_NO_STATUS
#include <ntstatus.h>
#include <winternl.h>

struct pipe_msg {
	struct pipe_msg *next;
	size_t len, off; /* off: bytes of it already read */
	char data[];
};

struct pipe_queue {
	struct pipe_msg *head, *tail;
	size_t bytes; /* unread bytes in all messages */
};

enum pipe_state {
	LISTENING,    /* waiting for a client */
	CONNECTED,
	CLOSING,      /* the client end closed; the server must disconnect */
	DISCONNECTED, /* DisconnectNamedPipe; ConnectNamedPipe listens again */
};

enum { REQ_READ = 1, REQ_CONNECT };

/* Behind each pending pipe request (io_request_data). */
struct req_data {
	void *buf;
	DWORD len;
	NTSTATUS status; /* once completed by someone else */
	ULONG_PTR info;
	struct file *file; /* referenced while the completion runs */
};

struct pipe_instance {
	pthread_mutex_t lock; /* everything below, and both ends' io targets */
	atomic_uint refs;
	struct list entry;    /* in all_instances while the server end is open */
	WCHAR *name;          /* after the \\.\pipe\ prefix */
	DWORD pipe_mode, max_instances;
	enum pipe_state state;
	struct file *server, *client; /* the ends, until closed (or disconnected) */
	struct pipe_queue to_server, to_client;
	bool client_reads_messages;
};

/* instances_lock before an instance's lock. */
static struct list all_instances = LIST_INIT(all_instances);
static pthread_mutex_t instances_lock = PTHREAD_MUTEX_INITIALIZER;

static const WCHAR pipe_prefix[] = u"\\\\.\\pipe\\";
#define PREFIX_LEN (sizeof(pipe_prefix) / sizeof(WCHAR) - 1)

bool pipe_is_name(const WCHAR *name)
{
	return name && !wstr_nicmp(name, pipe_prefix, PREFIX_LEN);
}

void pipe_release(struct pipe_instance *p)
{
	struct pipe_msg *m, *next;

	if (atomic_fetch_sub(&p->refs, 1) != 1)
		return;
	for (m = p->to_server.head; m; m = next) {
		next = m->next;
		free(m);
	}
	for (m = p->to_client.head; m; m = next) {
		next = m->next;
		free(m);
	}
	pthread_mutex_destroy(&p->lock);
	free(p->name);
	free(p);
}

static void queue_flush(struct pipe_queue *q)
{
	struct pipe_msg *m, *next;

	for (m = q->head; m; m = next) {
		next = m->next;
		free(m);
	}
	q->head = q->tail = NULL;
	q->bytes = 0;
}

/* ---- per-end views (instance lock held) ------------------------------ */

static struct pipe_queue *inbound(struct pipe_instance *p, struct file *f)
{
	return f->pipe_server ? &p->to_server : &p->to_client;
}

static bool reads_messages(struct pipe_instance *p, struct file *f)
{
	return f->pipe_server ? (p->pipe_mode & PIPE_READMODE_MESSAGE) != 0 : p->client_reads_messages;
}

/* STATUS_SUCCESS when f may transfer data; *peer the other end or NULL
 * when it is gone (then reads drain what is left, writes fail). */
static NTSTATUS end_state(struct pipe_instance *p, struct file *f, struct file **peer)
{
	if (f->pipe_server) {
		if (p->state == LISTENING)
			return STATUS_PIPE_LISTENING;
		if (p->state == DISCONNECTED)
			return STATUS_PIPE_DISCONNECTED;
		*peer = p->client;
	} else {
		if (p->client != f)
			return STATUS_PIPE_DISCONNECTED;
		*peer = p->server;
	}
	return STATUS_SUCCESS;
}

/* Takes up to len bytes for f: STATUS_PENDING when nothing is there. */
static NTSTATUS take_data(struct pipe_instance *p, struct file *f, void *buf, DWORD len,
			  ULONG_PTR *info)
{
	struct pipe_queue *q = inbound(p, f);
	size_t n = 0;

	if (!q->head)
		return STATUS_PENDING;
	if (reads_messages(p, f)) {
		struct pipe_msg *m = q->head;
		size_t k = m->len - m->off < len ? m->len - m->off : len;

		memcpy(buf, m->data + m->off, k);
		m->off += k;
		q->bytes -= k;
		*info = k;
		if (m->off < m->len)
			return STATUS_BUFFER_OVERFLOW; /* the rest stays for the next read */
		q->head = m->next;
		if (!q->head)
			q->tail = NULL;
		free(m);
		return STATUS_SUCCESS;
	}
	while (q->head && n < len) {
		struct pipe_msg *m = q->head;
		size_t k = m->len - m->off < len - n ? m->len - m->off : len - n;

		memcpy((char *)buf + n, m->data + m->off, k);
		m->off += k;
		n += k;
		q->bytes -= k;
		if (m->off == m->len) {
			q->head = m->next;
			if (!q->head)
				q->tail = NULL;
			free(m);
		}
	}
	*info = n;
	return STATUS_SUCCESS;
}

/* Moves f's first pending request of kind (if any) to done, completed
 * with status/info; the file is referenced until the completion ran. */
static void finish_req(struct file *f, struct io_request *req, NTSTATUS status, ULONG_PTR info,
		       struct list *done)
{
	struct req_data *d = io_request_data(req);

	io_request_remove_locked(req);
	d->status = status;
	d->info = info;
	d->file = f;
	object_ref(&f->obj);
	list_add_tail(done, &req->entry);
}

static struct io_request *first_req(struct file *f, int kind)
{
	struct list *cur;

	LIST_FOR_EACH(cur, &f->io.pending) {
		struct io_request *req = LIST_ENTRY(cur, struct io_request, entry);

		if (req->kind == kind)
			return req;
	}
	return NULL;
}

/* Completes f's pending reads, oldest first, while data is there. */
static void feed_reads(struct pipe_instance *p, struct file *f, struct list *done)
{
	struct io_request *req;

	while (inbound(p, f)->head && (req = first_req(f, REQ_READ))) {
		struct req_data *d = io_request_data(req);
		ULONG_PTR info = 0;
		NTSTATUS st = take_data(p, f, d->buf, d->len, &info);

		finish_req(f, req, st, info, done);
	}
}

/* Every pending request of f of kind ends with status. */
static void fail_reqs(struct file *f, int kind, NTSTATUS status, struct list *done)
{
	struct io_request *req;

	while ((req = first_req(f, kind)))
		finish_req(f, req, status, 0, done);
}

/* After the instance lock is dropped: the completions collected. */
static void run_completions(struct list *done)
{
	struct list *cur, *tmp;

	LIST_FOR_EACH_SAFE(cur, tmp, done) {
		struct io_request *req = LIST_ENTRY(cur, struct io_request, entry);
		struct req_data *d = io_request_data(req);

		list_remove(&req->entry);
		io_complete(&d->file->io, req->ov, d->status, d->info, false);
		file_release(d->file);
		io_request_free(req);
	}
}

static NTSTATUS add_pending(struct file *f, OVERLAPPED *ov, int kind, void *buf, DWORD len)
{
	struct io_request *req = io_request_add_locked(&f->io, ov, kind, 0, sizeof(struct req_data));
	struct req_data *d;

	if (!req)
		return STATUS_NO_MEMORY;
	d = io_request_data(req);
	d->buf = buf;
	d->len = len;
	return STATUS_PENDING;
}

/* ---- the operations, under the instance lock ------------------------- */

struct op_args {
	void *buf;
	DWORD len;
};

typedef NTSTATUS (*pipe_op)(struct pipe_instance *p, struct file *f, struct op_args *a,
			    OVERLAPPED *ov, ULONG_PTR *info, struct list *done);

static NTSTATUS op_read(struct pipe_instance *p, struct file *f, struct op_args *a, OVERLAPPED *ov,
			ULONG_PTR *info, struct list *done)
{
	struct file *peer = NULL;
	NTSTATUS st = end_state(p, f, &peer);

	if (st)
		return st;
	/* Earlier reads still waiting come first. */
	if (!first_req(f, REQ_READ)) {
		st = take_data(p, f, a->buf, a->len, info);
		if (st != STATUS_PENDING)
			return st;
	}
	if (!peer)
		return STATUS_PIPE_BROKEN;
	return add_pending(f, ov, REQ_READ, a->buf, a->len);
}

static NTSTATUS op_write(struct pipe_instance *p, struct file *f, struct op_args *a,
			 OVERLAPPED *ov, ULONG_PTR *info, struct list *done)
{
	struct file *peer = NULL;
	NTSTATUS st = end_state(p, f, &peer);
	struct pipe_queue *q;
	struct pipe_msg *m;

	if (st)
		return st;
	if (!peer)
		return STATUS_PIPE_CLOSING;
	*info = a->len;
	/* A zero-length write is a message only on a message pipe. */
	if (!a->len && !(p->pipe_mode & PIPE_TYPE_MESSAGE))
		return STATUS_SUCCESS;
	m = malloc(sizeof(*m) + a->len);
	if (!m) {
		*info = 0;
		return STATUS_NO_MEMORY;
	}
	m->next = NULL;
	m->len = a->len;
	m->off = 0;
	memcpy(m->data, a->buf, a->len);
	q = inbound(p, peer);
	if (q->tail)
		q->tail->next = m;
	else
		q->head = m;
	q->tail = m;
	q->bytes += a->len;
	feed_reads(p, peer, done);
	return STATUS_SUCCESS;
}

static NTSTATUS op_connect(struct pipe_instance *p, struct file *f, struct op_args *a,
			   OVERLAPPED *ov, ULONG_PTR *info, struct list *done)
{
	if (!f->pipe_server)
		return STATUS_INVALID_DEVICE_REQUEST;
	switch (p->state) {
	case CONNECTED:
		return STATUS_PIPE_CONNECTED;
	case CLOSING:
		return STATUS_PIPE_CLOSING;
	case DISCONNECTED:
		p->state = LISTENING;
		break;
	case LISTENING:
		break;
	}
	return add_pending(f, ov, REQ_CONNECT, NULL, 0);
}

/* The request shape every pipe call shares.  A handle without
 * FILE_FLAG_OVERLAPPED gets a private OVERLAPPED whose event has its low
 * bit set (no port packet) and waits for it. */
static BOOL issue(struct file *f, pipe_op op, struct op_args *a, DWORD *done_bytes,
		  OVERLAPPED *user_ov)
{
	struct pipe_instance *p = f->pipe;
	bool overlapped = (f->options & FILE_FLAG_OVERLAPPED) && user_ov;
	struct list done = LIST_INIT(done);
	OVERLAPPED local, *ov = user_ov;
	HANDLE ev = NULL;
	ULONG_PTR info = 0;
	NTSTATUS st;

	if (!overlapped) {
		struct object *obj = event_create(true, false);

		if (!obj || !(ev = handle_create(obj, EVENT_ALL_ACCESS, 0))) {
			if (obj)
				object_unref(obj);
			SetLastError(ERROR_NOT_ENOUGH_MEMORY);
			return FALSE;
		}
		object_unref(obj);
		memset(&local, 0, sizeof(local));
		local.hEvent = (HANDLE)((ULONG_PTR)ev | 1);
		ov = &local;
	}
	io_begin(&f->io, ov);
	klock(&p->lock);
	st = op(p, f, a, ov, &info, &done);
	kunlock(&p->lock);
	run_completions(&done);
	if (st != STATUS_PENDING)
		io_complete(&f->io, ov, st, info, true);
	if (!overlapped) {
		if (st == STATUS_PENDING) {
			syncio_begin_request(&f->io, ov);
			wait_for_handles(1, &ev, false, INFINITE, false);
			syncio_end();
		}
		st = (NTSTATUS)local.Internal;
		info = local.InternalHigh;
		handle_close(ev);
		if (user_ov) {
			user_ov->InternalHigh = info;
			user_ov->Internal = (ULONG)st;
		}
	}
	if (st == STATUS_PENDING) {
		SetLastError(ERROR_IO_PENDING);
		return FALSE;
	}
	if (done_bytes)
		*done_bytes = (DWORD)info;
	if (!NT_SUCCESS(st)) {
		set_last_error_from_status(st);
		return FALSE;
	}
	return TRUE;
}

BOOL pipe_read(struct file *f, void *buf, DWORD len, DWORD *done, OVERLAPPED *ov)
{
	struct op_args a = { buf, len };

	return issue(f, op_read, &a, done, ov);
}

BOOL pipe_write(struct file *f, const void *buf, DWORD len, DWORD *done, OVERLAPPED *ov)
{
	struct op_args a = { (void *)buf, len };

	return issue(f, op_write, &a, done, ov);
}

BOOL pipe_connect(struct file *f, OVERLAPPED *ov)
{
	struct op_args a = { NULL, 0 };

	return issue(f, op_connect, &a, NULL, ov);
}

BOOL pipe_disconnect(struct file *f)
{
	struct pipe_instance *p = f->pipe;
	struct list done = LIST_INIT(done);

	if (!f->pipe_server) {
		SetLastError(ERROR_INVALID_FUNCTION);
		return FALSE;
	}
	klock(&p->lock);
	if (p->client) {
		fail_reqs(p->client, REQ_READ, STATUS_PIPE_DISCONNECTED, &done);
		p->client = NULL;
	}
	fail_reqs(f, REQ_READ, STATUS_PIPE_DISCONNECTED, &done);
	fail_reqs(f, REQ_CONNECT, STATUS_PIPE_DISCONNECTED, &done);
	queue_flush(&p->to_server);
	queue_flush(&p->to_client);
	p->state = DISCONNECTED;
	kunlock(&p->lock);
	run_completions(&done);
	return TRUE;
}

BOOL pipe_peek(struct file *f, void *buf, DWORD size, DWORD *read, DWORD *avail, DWORD *left)
{
	struct pipe_instance *p = f->pipe;
	struct file *peer = NULL;
	struct pipe_queue *q;
	DWORD n = 0, msg_left = 0;
	NTSTATUS st;

	klock(&p->lock);
	st = end_state(p, f, &peer);
	q = inbound(p, f);
	if (!st && !q->head && !peer)
		st = STATUS_PIPE_BROKEN;
	if (!st) {
		struct pipe_msg *m;
		bool messages = reads_messages(p, f);

		for (m = q->head; m && n < size; m = messages ? NULL : m->next) {
			size_t k = m->len - m->off < size - n ? m->len - m->off : size - n;

			if (buf)
				memcpy((char *)buf + n, m->data + m->off, k);
			n += k;
		}
		if (messages && q->head)
			msg_left = (DWORD)(q->head->len - q->head->off) - n;
		if (avail)
			*avail = (DWORD)q->bytes;
	}
	kunlock(&p->lock);
	if (st) {
		set_last_error_from_status(st);
		return FALSE;
	}
	if (read)
		*read = n;
	if (left)
		*left = msg_left;
	return TRUE;
}

BOOL pipe_set_state(struct file *f, const DWORD *mode)
{
	struct pipe_instance *p = f->pipe;
	BOOL ok = TRUE;

	if (!mode)
		return TRUE;
	klock(&p->lock);
	if ((*mode & PIPE_READMODE_MESSAGE) && !(p->pipe_mode & PIPE_TYPE_MESSAGE)) {
		ok = FALSE;
	} else if (f->pipe_server) {
		p->pipe_mode = (p->pipe_mode & ~PIPE_READMODE_MESSAGE) | (*mode & PIPE_READMODE_MESSAGE);
	} else {
		p->client_reads_messages = (*mode & PIPE_READMODE_MESSAGE) != 0;
	}
	kunlock(&p->lock);
	if (!ok)
		SetLastError(ERROR_INVALID_PARAMETER);
	return ok;
}

void pipe_close_end(struct file *f)
{
	struct pipe_instance *p = f->pipe;
	struct list done = LIST_INIT(done);

	if (f->pipe_server) {
		klock(&instances_lock);
		list_remove(&p->entry);
		kunlock(&instances_lock);
	}
	klock(&p->lock);
	if (f->pipe_server) {
		p->server = NULL;
		if (p->client)
			fail_reqs(p->client, REQ_READ, STATUS_PIPE_BROKEN, &done);
	} else if (p->client == f) {
		p->client = NULL;
		p->state = CLOSING;
		if (p->server)
			fail_reqs(p->server, REQ_READ, STATUS_PIPE_BROKEN, &done);
	}
	kunlock(&p->lock);
	run_completions(&done);
}

/* ---- creation ---------------------------------------------------------- */

HANDLE pipe_create_server(const WCHAR *name, DWORD open_mode, DWORD pipe_mode, DWORD max_instances,
			  DWORD out_size, DWORD in_size)
{
	DWORD access = 0, same = 0, same_max = 0;
	struct pipe_instance *p;
	struct list *cur;
	struct file *f;
	HANDLE h;

	if (!pipe_is_name(name) || !name[PREFIX_LEN]) {
		SetLastError(ERROR_INVALID_NAME);
		return INVALID_HANDLE_VALUE;
	}
	if (!max_instances || max_instances > PIPE_UNLIMITED_INSTANCES ||
	    !(open_mode & (PIPE_ACCESS_INBOUND | PIPE_ACCESS_OUTBOUND)) ||
	    ((pipe_mode & PIPE_READMODE_MESSAGE) && !(pipe_mode & PIPE_TYPE_MESSAGE))) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return INVALID_HANDLE_VALUE;
	}
	if (open_mode & PIPE_ACCESS_INBOUND)
		access |= FILE_GENERIC_READ;
	if (open_mode & PIPE_ACCESS_OUTBOUND)
		access |= FILE_GENERIC_WRITE;
	p = calloc(1, sizeof(*p));
	if (!p || !(p->name = wstr_dup(name + PREFIX_LEN))) {
		free(p);
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return INVALID_HANDLE_VALUE;
	}
	pthread_mutex_init(&p->lock, NULL);
	atomic_init(&p->refs, 1);
	list_init(&p->entry);
	p->pipe_mode = pipe_mode;
	p->max_instances = max_instances;
	p->state = LISTENING;
	f = file_create_shared(-1, access, open_mode & FILE_FLAG_OVERLAPPED, false, &p->lock);
	if (!f) {
		pipe_release(p);
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return INVALID_HANDLE_VALUE;
	}
	f->pipe = p;
	f->pipe_server = true;
	p->server = f;

	klock(&instances_lock);
	LIST_FOR_EACH(cur, &all_instances) {
		struct pipe_instance *o = LIST_ENTRY(cur, struct pipe_instance, entry);

		if (!wstr_icmp(o->name, p->name)) {
			same++;
			same_max = o->max_instances;
		}
	}
	if (same && (open_mode & FILE_FLAG_FIRST_PIPE_INSTANCE)) {
		kunlock(&instances_lock);
		file_release(f);
		SetLastError(ERROR_ACCESS_DENIED);
		return INVALID_HANDLE_VALUE;
	}
	if (same && (same >= same_max || max_instances != same_max)) {
		kunlock(&instances_lock);
		file_release(f);
		SetLastError(same >= same_max ? ERROR_PIPE_BUSY : ERROR_ACCESS_DENIED);
		return INVALID_HANDLE_VALUE;
	}
	list_add_tail(&all_instances, &p->entry);
	kunlock(&instances_lock);

	h = handle_create(&f->obj, access, 0);
	if (!h) {
		pipe_close_end(f);
		file_release(f);
		return INVALID_HANDLE_VALUE;
	}
	file_release(f);
	TRACE(file, "pipe %s: server %p, mode %#x/%#x\n", debugstr_w(name), h, open_mode, pipe_mode);
	SetLastError(ERROR_SUCCESS);
	return h;
}

HANDLE pipe_open_client(const WCHAR *name, DWORD access, DWORD flags)
{
	struct list done = LIST_INIT(done), *cur;
	struct pipe_instance *p = NULL;
	bool found = false;
	struct file *f;
	HANDLE h;

	f = file_create_shared(-1, access, flags & FILE_FLAG_OVERLAPPED, false, NULL);
	if (!f) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return INVALID_HANDLE_VALUE;
	}
	klock(&instances_lock);
	LIST_FOR_EACH(cur, &all_instances) {
		struct pipe_instance *o = LIST_ENTRY(cur, struct pipe_instance, entry);

		if (wstr_icmp(o->name, name + PREFIX_LEN))
			continue;
		found = true;
		klock(&o->lock);
		if (o->state == LISTENING && o->server) {
			p = o;
			break;
		}
		kunlock(&o->lock);
	}
	if (!p) {
		kunlock(&instances_lock);
		file_release(f);
		SetLastError(found ? ERROR_PIPE_BUSY : ERROR_FILE_NOT_FOUND);
		return INVALID_HANDLE_VALUE;
	}
	/* The client end shares the instance lock from now on. */
	f->io.lock = &p->lock;
	f->pipe = p;
	atomic_fetch_add(&p->refs, 1);
	p->client = f;
	p->client_reads_messages = false;
	p->state = CONNECTED;
	fail_reqs(p->server, REQ_CONNECT, STATUS_SUCCESS, &done);
	kunlock(&p->lock);
	kunlock(&instances_lock);
	run_completions(&done);

	h = handle_create(&f->obj, f->access, 0);
	if (!h)
		pipe_close_end(f);
	file_release(f);
	TRACE(file, "pipe %s: client %p\n", debugstr_w(name), h);
	return h ? h : INVALID_HANDLE_VALUE;
}

WCHAR *pipe_server_name(struct file *f)
{
	WCHAR *full;
	size_t n;

	if (!f->pipe || !f->pipe_server)
		return NULL;
	n = wstr_len(f->pipe->name);
	full = malloc((PREFIX_LEN + n + 1) * sizeof(WCHAR));
	if (!full)
		return NULL;
	memcpy(full, pipe_prefix, PREFIX_LEN * sizeof(WCHAR));
	memcpy(full + PREFIX_LEN, f->pipe->name, (n + 1) * sizeof(WCHAR));
	return full;
}

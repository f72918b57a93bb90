/* ReadDirectoryChangesW (winbase.h) on inotify.
 *
 * The first call on a folder handle starts a watch that lives as long as
 * the handle's file object: one inotify instance, a watch per folder (the
 * whole tree below it with bWatchSubtree, new folders added as they
 * appear) and a thread that reads its events.  Changes are queued between
 * calls, as Windows queues them, and each call returns what is queued, or
 * waits for the next change:
 *
 *   synchronous (no OVERLAPPED)   the call blocks until there is one;
 *   OVERLAPPED                    the call returns TRUE at once and the
 *     request completes later like any overlapped I/O (event, completion
 *     port, GetOverlappedResult, CancelIoEx);
 *   OVERLAPPED + completion routine  the routine is queued as an APC to
 *     the issuing thread, which runs it when it waits alertably.
 *
 * Records are FILE_NOTIFY_INFORMATION, DWORD-aligned, names relative to
 * the watched folder with '\\' between components.  Actions: a name that
 * appears is FILE_ACTION_ADDED, one that goes FILE_ACTION_REMOVED, a
 * rename inside the tree FILE_ACTION_RENAMED_OLD_NAME then _NEW_NAME, a
 * write, size, attribute or access change FILE_ACTION_MODIFIED, each only
 * when the filter asks for that kind of change (FILE_NOTIFY_CHANGE_*).
 * When the queued records do not fit the caller's buffer the request
 * succeeds with 0 bytes, Windows' sign that changes were lost and the
 * folder should be read again. */
#include <errno.h>
#include <ftw.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#define WIN32_NO_STATUS
#include "core/codepage.h"
#include "core/debug.h"
#include "core/errors.h"
#include "core/file.h"
#include "core/overlapped.h"
#include "core/thread.h"
#include "core/wstr.h"
#include "kernel32/kernel32_private.h"
#include "core/pecall.h"
#undef WIN32_NO_STATUS
#include <ntstatus.h>

struct change {
	DWORD action;
	char *name; /* UTF-8, '/' separated, relative to the root */
};

/* The one request a watch serves at a time. */
struct dir_request {
	OVERLAPPED *ov;   /* NULL: a synchronous call waiting in the call */
	void *buf;
	DWORD len;
	LPOVERLAPPED_COMPLETION_ROUTINE routine;
	struct thread *thread; /* the issuer, for the routine's APC */
};

struct dir_watch {
	struct file *file;  /* not referenced: the watch dies with it */
	char *root;         /* the folder's Linux path */
	int ifd, wake;      /* inotify, an eventfd that stops the thread */
	pthread_t thread;
	pthread_mutex_t lock; /* everything below */
	pthread_cond_t changed;
	bool subtree, stop;
	DWORD filter;
	struct { int wd; char *rel; } *wds;
	size_t nr_wds;
	struct change *q;
	size_t nr_q, cap_q;
	bool have_request;
	struct dir_request req;
};

#define FOLDER_MASK (IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_MODIFY | IN_ATTRIB | IN_ACCESS | \
		     IN_DELETE_SELF | IN_ONLYDIR)

/* ---- the watches --------------------------------------------------------- */

static const char *rel_of(struct dir_watch *w, int wd)
{
	for (size_t i = 0; i < w->nr_wds; i++)
		if (w->wds[i].wd == wd)
			return w->wds[i].rel;
	return NULL;
}

/* Watch lock held (or no thread yet).  path: absolute; rel: relative name
 * of the folder ("" for the root). */
static void add_folder(struct dir_watch *w, const char *path, const char *rel)
{
	int wd = inotify_add_watch(w->ifd, path, FOLDER_MASK);
	void *p;

	if (wd < 0 || rel_of(w, wd))
		return;
	p = realloc(w->wds, (w->nr_wds + 1) * sizeof(*w->wds));
	if (!p)
		return;
	w->wds = p;
	w->wds[w->nr_wds].wd = wd;
	if (!(w->wds[w->nr_wds].rel = strdup(rel))) {
		inotify_rm_watch(w->ifd, wd);
		return;
	}
	w->nr_wds++;
}

static struct dir_watch *walking; /* nftw has no user argument; walks are serialized */
static size_t walk_root_len;
static pthread_mutex_t walk_lock = PTHREAD_MUTEX_INITIALIZER;

static int walk_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type == FTW_D)
		add_folder(walking, path, path[walk_root_len] ? path + walk_root_len + 1 : "");
	return 0;
}

static void add_tree(struct dir_watch *w, const char *path, size_t root_len)
{
	pthread_mutex_lock(&walk_lock);
	walking = w;
	walk_root_len = root_len;
	nftw(path, walk_one, 16, FTW_PHYS);
	pthread_mutex_unlock(&walk_lock);
}

/* ---- queued changes ------------------------------------------------------------ */

static void queue_change(struct dir_watch *w, DWORD action, const char *rel, const char *name)
{
	struct change *c;

	if (w->nr_q == w->cap_q) {
		size_t cap = w->cap_q ? 2 * w->cap_q : 32;
		void *p = realloc(w->q, cap * sizeof(*w->q));

		if (!p)
			return;
		w->q = p;
		w->cap_q = cap;
	}
	c = &w->q[w->nr_q];
	if (asprintf(&c->name, "%s%s%s", rel, *rel ? "/" : "", name) < 0)
		return;
	c->action = action;
	w->nr_q++;
}

static void clear_queue(struct dir_watch *w)
{
	for (size_t i = 0; i < w->nr_q; i++)
		free(w->q[i].name);
	w->nr_q = 0;
}

/* The queue as FILE_NOTIFY_INFORMATION records in buf; the bytes used, 0
 * when they do not all fit (changes lost: the caller must look again). */
static DWORD fill(struct dir_watch *w, void *buf, DWORD len)
{
	DWORD used = 0, prev = 0;

	for (size_t i = 0; i < w->nr_q; i++) {
		WCHAR *name = utf8_to_utf16_dup(w->q[i].name);
		size_t n = name ? wstr_len(name) : 0;
		DWORD at = (used + 3) & ~3u, size = (DWORD)(offsetof(FILE_NOTIFY_INFORMATION, FileName) + n * sizeof(WCHAR));
		FILE_NOTIFY_INFORMATION *r;

		if (!name || at + size > len) {
			free(name);
			clear_queue(w);
			return 0;
		}
		for (size_t k = 0; k < n; k++)
			if (name[k] == '/')
				name[k] = '\\';
		r = (FILE_NOTIFY_INFORMATION *)((BYTE *)buf + at);
		r->NextEntryOffset = 0;
		r->Action = w->q[i].action;
		r->FileNameLength = (DWORD)(n * sizeof(WCHAR));
		memcpy(r->FileName, name, n * sizeof(WCHAR));
		free(name);
		if (i)
			((FILE_NOTIFY_INFORMATION *)((BYTE *)buf + prev))->NextEntryOffset = at - prev;
		prev = at;
		used = at + size;
	}
	clear_queue(w);
	return used;
}

/* ---- completing a request -------------------------------------------------------- */

struct dir_apc {
	LPOVERLAPPED_COMPLETION_ROUTINE routine;
	DWORD error, bytes;
	OVERLAPPED *ov;
};

static void WINAPI dir_apc_run(ULONG_PTR data)
{
	struct dir_apc a = *(struct dir_apc *)data;

	free((void *)data);
	PE_CALL3(a.routine, a.error, a.bytes, a.ov);
}

static bool match_ov(struct io_request *req, void *ctx)
{
	return req->ov == ctx;
}

/* Watch lock held: finishes the overlapped request if it is still
 * pending (CancelIoEx may have ended it), filling its buffer first. */
static void complete_overlapped(struct dir_watch *w)
{
	struct io_target *t = &w->file->io;
	struct dir_request r = w->req;
	struct io_request *found = NULL;
	struct list *cur;
	DWORD bytes;

	w->have_request = false;
	pthread_mutex_lock(t->lock);
	LIST_FOR_EACH(cur, &t->pending) {
		struct io_request *req = LIST_ENTRY(cur, struct io_request, entry);

		if (match_ov(req, r.ov)) {
			found = req;
			io_request_remove_locked(req);
			break;
		}
	}
	pthread_mutex_unlock(t->lock);
	if (!found)
		return; /* cancelled: its buffer is the caller's again */
	bytes = fill(w, r.buf, r.len);
	if (r.routine) {
		struct dir_apc *a = malloc(sizeof(*a));

		io_publish(r.ov, STATUS_SUCCESS, bytes);
		if (a) {
			*a = (struct dir_apc){ r.routine, 0, bytes, r.ov };
			if (!apc_queue(r.thread, dir_apc_run, (ULONG_PTR)a))
				free(a);
		}
	} else {
		io_complete(t, r.ov, STATUS_SUCCESS, bytes, false);
	}
	io_request_free(found);
}

/* ---- the thread ----------------------------------------------------------------- */

static void handle_event(struct dir_watch *w, const struct inotify_event *ev, uint32_t *moved_cookie)
{
	const char *rel = rel_of(w, ev->wd);
	bool dir = ev->mask & IN_ISDIR;
	DWORD names = dir ? FILE_NOTIFY_CHANGE_DIR_NAME : FILE_NOTIFY_CHANGE_FILE_NAME;
	DWORD action = 0;

	if (!rel || !ev->len || (*rel && !w->subtree))
		return;
	if (ev->mask & IN_CREATE) {
		if (w->filter & (names | FILE_NOTIFY_CHANGE_CREATION))
			action = FILE_ACTION_ADDED;
	} else if (ev->mask & IN_DELETE) {
		if (w->filter & names)
			action = FILE_ACTION_REMOVED;
	} else if (ev->mask & IN_MOVED_FROM) {
		*moved_cookie = ev->cookie;
		if (w->filter & names)
			action = FILE_ACTION_RENAMED_OLD_NAME;
	} else if (ev->mask & IN_MOVED_TO) {
		if (w->filter & names)
			action = *moved_cookie == ev->cookie ? FILE_ACTION_RENAMED_NEW_NAME : FILE_ACTION_ADDED;
		*moved_cookie = 0;
	} else if (ev->mask & IN_MODIFY) {
		if (w->filter & (FILE_NOTIFY_CHANGE_SIZE | FILE_NOTIFY_CHANGE_LAST_WRITE))
			action = FILE_ACTION_MODIFIED;
	} else if (ev->mask & IN_ATTRIB) {
		if (w->filter & (FILE_NOTIFY_CHANGE_ATTRIBUTES | FILE_NOTIFY_CHANGE_SECURITY | FILE_NOTIFY_CHANGE_LAST_WRITE))
			action = FILE_ACTION_MODIFIED;
	} else if (ev->mask & IN_ACCESS) {
		if (w->filter & FILE_NOTIFY_CHANGE_LAST_ACCESS)
			action = FILE_ACTION_MODIFIED;
	}
	if (action)
		queue_change(w, action, rel, ev->name);
	/* A new folder in a watched tree is watched too. */
	if (w->subtree && dir && (ev->mask & (IN_CREATE | IN_MOVED_TO))) {
		char *path;

		if (asprintf(&path, "%s%s%s/%s", w->root, *rel ? "/" : "", rel, ev->name) >= 0) {
			add_tree(w, path, strlen(w->root));
			free(path);
		}
	}
}

static void *watch_thread(void *arg)
{
	struct dir_watch *w = arg;
	char buf[16384] __attribute__((aligned(__alignof__(struct inotify_event))));
	uint32_t moved = 0;

	for (;;) {
		struct pollfd p[2] = { { w->ifd, POLLIN, 0 }, { w->wake, POLLIN, 0 } };
		ssize_t n;

		if (poll(p, 2, -1) < 0 && errno != EINTR)
			break;
		if (p[1].revents)
			break;
		n = read(w->ifd, buf, sizeof(buf));
		if (n <= 0)
			continue;
		pthread_mutex_lock(&w->lock);
		for (char *c = buf; c < buf + n;) {
			const struct inotify_event *ev = (const struct inotify_event *)c;

			handle_event(w, ev, &moved);
			c += sizeof(*ev) + ev->len;
		}
		if (w->nr_q) {
			if (w->have_request && w->req.ov)
				complete_overlapped(w);
			pthread_cond_broadcast(&w->changed);
		}
		pthread_mutex_unlock(&w->lock);
	}
	return NULL;
}

static void watch_free(void *p)
{
	struct dir_watch *w = p;
	uint64_t one = 1;

	pthread_mutex_lock(&w->lock);
	w->stop = true;
	pthread_cond_broadcast(&w->changed);
	pthread_mutex_unlock(&w->lock);
	if (write(w->wake, &one, sizeof(one)) == sizeof(one))
		pthread_join(w->thread, NULL);
	close(w->ifd);
	close(w->wake);
	clear_queue(w);
	free(w->q);
	for (size_t i = 0; i < w->nr_wds; i++)
		free(w->wds[i].rel);
	free(w->wds);
	free(w->root);
	pthread_cond_destroy(&w->changed);
	pthread_mutex_destroy(&w->lock);
	free(w);
}

/* The folder's path, from its descriptor. */
static char *folder_path(int fd)
{
	char link[64], path[4096];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0)
		return NULL;
	path[n] = 0;
	return strdup(path);
}

static struct dir_watch *start_watch(struct file *f, bool subtree, DWORD filter)
{
	struct dir_watch *w = calloc(1, sizeof(*w));
	struct stat st;
	char *root;

	if (!w)
		return NULL;
	w->ifd = w->wake = -1;
	if (f->fd < 0 || fstat(f->fd, &st) || !S_ISDIR(st.st_mode) || !(root = folder_path(f->fd))) {
		free(w);
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	w->file = f;
	w->subtree = subtree;
	w->filter = filter;
	w->ifd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	w->wake = eventfd(0, EFD_CLOEXEC);
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->changed, NULL);
	if (w->ifd < 0 || w->wake < 0) {
		set_last_error_from_errno(errno);
		goto fail;
	}
	w->root = root;
	add_folder(w, root, "");
	if (subtree)
		add_tree(w, root, strlen(root));
	if (!w->nr_wds || pthread_create(&w->thread, NULL, watch_thread, w)) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		goto fail;
	}
	return w;
fail:
	if (w->ifd >= 0)
		close(w->ifd);
	if (w->wake >= 0)
		close(w->wake);
	for (size_t i = 0; i < w->nr_wds; i++)
		free(w->wds[i].rel);
	free(w->wds);
	free(w->root);
	pthread_cond_destroy(&w->changed);
	pthread_mutex_destroy(&w->lock);
	free(w);
	return NULL;
}

BOOL WINAPI ReadDirectoryChangesW(HANDLE h, LPVOID buf, DWORD len, BOOL subtree, DWORD filter, LPDWORD returned,
				  LPOVERLAPPED ov, LPOVERLAPPED_COMPLETION_ROUTINE routine)
{
	struct dir_watch *w;
	struct file *f;
	DWORD bytes;

	TRACE(file, "%p, %p, %lu, subtree %d, filter 0x%lx, ov %p, routine %p\n", h, buf, (unsigned long)len, subtree,
	      (unsigned long)filter, ov, (void *)routine);
	if (!filter || (filter & ~0x17f) || (routine && !ov)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!(f = file_get(h)))
		return FALSE;
	if (!(f->access & FILE_LIST_DIRECTORY)) {
		file_release(f);
		SetLastError(ERROR_ACCESS_DENIED);
		return FALSE;
	}
	pthread_mutex_lock(&f->lock);
	w = f->dir_watch;
	if (!w && (w = start_watch(f, subtree != FALSE, filter))) {
		f->dir_watch = w;
		f->dir_watch_free = watch_free;
	}
	pthread_mutex_unlock(&f->lock);
	if (!w) {
		file_release(f);
		return FALSE;
	}
	pthread_mutex_lock(&w->lock);
	w->filter = filter;
	if (w->have_request) {
		pthread_mutex_unlock(&w->lock);
		file_release(f);
		SetLastError(ERROR_INVALID_PARAMETER); /* one request at a time */
		return FALSE;
	}
	if (!ov) {
		while (!w->nr_q && !w->stop)
			pthread_cond_wait(&w->changed, &w->lock);
		bytes = fill(w, buf, len);
		pthread_mutex_unlock(&w->lock);
		file_release(f);
		if (returned)
			*returned = bytes;
		return TRUE;
	}
	/* Overlapped: pending until the thread (or, with changes queued, the
	 * call itself) completes it. */
	io_begin(&f->io, ov);
	pthread_mutex_lock(f->io.lock);
	if (!io_request_add_locked(&f->io, ov, 0, 0, 0)) {
		pthread_mutex_unlock(f->io.lock);
		pthread_mutex_unlock(&w->lock);
		file_release(f);
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	pthread_mutex_unlock(f->io.lock);
	w->req = (struct dir_request){ ov, buf, len, routine, thread_current() };
	w->have_request = true;
	if (w->nr_q)
		complete_overlapped(w);
	pthread_mutex_unlock(&w->lock);
	file_release(f);
	if (returned)
		*returned = 0;
	return TRUE;
}

/* Byte-range locks: Windows' rules over OFD locks (see filelock.h). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#define WIN32_NO_STATUS
#include "core/debug.h"
#include "core/errors.h"
#include "core/file.h"
#include "core/filelock.h"
#include "core/klock.h"
#include "core/list.h"
#undef WIN32_NO_STATUS
#include <ntstatus.h>

#define LINUX_END ((uint64_t)INT64_MAX)

struct range {
	struct list entry;
	uint64_t off, end;      /* end: off + len, cut at LINUX_END */
	uint64_t len;           /* as asked, to match unlocks */
	bool exclusive;
};

struct filelock_state {
	struct list held;       /* struct range; filelock_mutex */
};

/* One lock for every file's list: lock calls are rare, and waiters
 * sleep on the one condition any unlock signals. */
static pthread_mutex_t filelock_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t unlocked_cond;
static pthread_once_t cond_once = PTHREAD_ONCE_INIT;

static void cond_init(void)
{
	pthread_condattr_t attr;

	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&unlocked_cond, &attr);
	pthread_condattr_destroy(&attr);
}

static uint64_t range_end(uint64_t off, uint64_t len)
{
	if (off >= LINUX_END)
		return LINUX_END;
	return len > LINUX_END - off ? LINUX_END : off + len;
}

/* One OFD operation on [off, end); end LINUX_END is "to the end". */
static int ofd(int fd, short type, uint64_t off, uint64_t end)
{
	struct flock fl = { 0 };
	int r;

	if (off >= end)
		return 0; /* nothing Linux can represent */
	fl.l_type = type;
	fl.l_whence = SEEK_SET;
	fl.l_start = (off_t)off;
	fl.l_len = end >= LINUX_END ? 0 : (off_t)(end - off);
	do
		r = fcntl(fd, F_OFD_SETLK, &fl);
	while (r < 0 && errno == EINTR);
	return r < 0 ? errno : 0;
}

NTSTATUS filelock_try(struct file *f, uint64_t off, uint64_t len, bool exclusive)
{
	uint64_t end = range_end(off, len);
	struct range *r;
	struct list *cur;
	int err;

	if (f->fd < 0)
		return STATUS_INVALID_DEVICE_REQUEST;
	if (len && off > UINT64_MAX - (len - 1))
		return STATUS_INVALID_LOCK_RANGE;
	if (!(r = calloc(1, sizeof(*r))))
		return STATUS_NO_MEMORY;
	r->off = off;
	r->end = end;
	r->len = len;
	r->exclusive = exclusive;
	klock(&filelock_mutex);
	if (!f->locks) {
		if (!(f->locks = calloc(1, sizeof(*f->locks)))) {
			kunlock(&filelock_mutex);
			free(r);
			return STATUS_NO_MEMORY;
		}
		list_init(&f->locks->held);
	}
	if (len) {
		LIST_FOR_EACH(cur, &f->locks->held) {
			struct range *o = LIST_ENTRY(cur, struct range, entry);

			if (o->len && o->off < end && off < o->end && (o->exclusive || exclusive)) {
				kunlock(&filelock_mutex);
				free(r);
				return STATUS_LOCK_NOT_GRANTED;
			}
		}
		err = ofd(f->fd, exclusive ? F_WRLCK : F_RDLCK, off, end);
		if (err) {
			kunlock(&filelock_mutex);
			free(r);
			if (err == EAGAIN || err == EACCES)
				return STATUS_LOCK_NOT_GRANTED;
			/* A shared lock needs read access, an exclusive one
			 * write access, on Linux; Windows asks either. */
			if (err == EBADF)
				return STATUS_ACCESS_DENIED;
			return status_from_errno(err);
		}
	}
	list_add_tail(&f->locks->held, &r->entry);
	kunlock(&filelock_mutex);
	TRACE(file, "fd %d: %s %#llx+%#llx\n", f->fd, exclusive ? "exclusive" : "shared", (unsigned long long)off,
	      (unsigned long long)len);
	return STATUS_SUCCESS;
}

static int cmp_range(const void *a, const void *b)
{
	const struct range *x = *(struct range *const *)a, *y = *(struct range *const *)b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/* filelock_mutex held, gone already unlisted: unlocks on Linux the bytes
 * of gone that no other range of f covers (those are all shared: an
 * exclusive range overlaps none of its file's others). */
static void release_uncovered(struct file *f, const struct range *gone)
{
	struct range **cover = NULL;
	size_t n = 0, cap = 0;
	uint64_t pos = gone->off;
	struct list *cur;

	LIST_FOR_EACH(cur, &f->locks->held) {
		struct range *o = LIST_ENTRY(cur, struct range, entry);

		if (!o->len || o->end <= gone->off || o->off >= gone->end)
			continue;
		if (n == cap) {
			struct range **c = realloc(cover, (cap = cap ? 2 * cap : 8) * sizeof(*c));

			if (!c) {
				/* Keep the lock rather than drop another's. */
				free(cover);
				return;
			}
			cover = c;
		}
		cover[n++] = o;
	}
	if (n)
		qsort(cover, n, sizeof(*cover), cmp_range);
	for (size_t i = 0; i < n && pos < gone->end; i++) {
		if (cover[i]->off > pos)
			ofd(f->fd, F_UNLCK, pos, cover[i]->off);
		if (cover[i]->end > pos)
			pos = cover[i]->end;
	}
	if (pos < gone->end)
		ofd(f->fd, F_UNLCK, pos, gone->end);
	free(cover);
}

NTSTATUS filelock_unlock(struct file *f, uint64_t off, uint64_t len)
{
	struct range *gone = NULL;
	struct list *cur;

	pthread_once(&cond_once, cond_init);
	klock(&filelock_mutex);
	if (f->locks) {
		LIST_FOR_EACH(cur, &f->locks->held) {
			struct range *o = LIST_ENTRY(cur, struct range, entry);

			if (o->off == off && o->len == len) {
				gone = o;
				break;
			}
		}
	}
	if (!gone) {
		kunlock(&filelock_mutex);
		return STATUS_RANGE_NOT_LOCKED;
	}
	list_remove(&gone->entry);
	if (gone->len)
		release_uncovered(f, gone);
	pthread_cond_broadcast(&unlocked_cond);
	kunlock(&filelock_mutex);
	TRACE(file, "fd %d: unlocked %#llx+%#llx\n", f->fd, (unsigned long long)off, (unsigned long long)len);
	free(gone);
	return STATUS_SUCCESS;
}

void filelock_forget(struct file *f)
{
	struct list *cur, *next;
	bool any = false;

	if (!f->locks)
		return;
	pthread_once(&cond_once, cond_init);
	klock(&filelock_mutex);
	LIST_FOR_EACH_SAFE(cur, next, &f->locks->held) {
		list_remove(cur);
		free(LIST_ENTRY(cur, struct range, entry));
		any = true;
	}
	/* The description may live on in an inherited or duplicated fd. */
	if (any && f->fd >= 0)
		ofd(f->fd, F_UNLCK, 0, LINUX_END);
	free(f->locks);
	f->locks = NULL;
	pthread_cond_broadcast(&unlocked_cond);
	kunlock(&filelock_mutex);
}

void filelock_wait(unsigned int ms)
{
	struct timespec ts;

	pthread_once(&cond_once, cond_init);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += (long)(ms % 1000) * 1000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	klock(&filelock_mutex);
	pthread_cond_timedwait(&unlocked_cond, &filelock_mutex, &ts);
	kunlock(&filelock_mutex);
}

/* Console input buffers and waits (see core/conin.h). */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <termios.h>
#include <unistd.h>

#include "core/conin.h"
#include "core/debug.h"
#include "core/file.h"
#include "core/klock.h"
#include "core/syncio.h"
#include "core/wait.h"

/* One buffer per terminal (by device number): standard input and a
 * terminal handle opened by name share what was typed. */
#define MAX_TERMINALS 4

struct conin_buf {
	dev_t rdev;
	bool used;
	char *bytes;
	size_t len, cap;
	unsigned int skip; /* records of the first key already read */
};

static pthread_mutex_t conin_lock = PTHREAD_MUTEX_INITIALIZER;
static struct conin_buf terminals[MAX_TERMINALS];
/* Bytes buffered over all terminals: ReadFile looks here before it
 * takes the lock. */
static _Atomic size_t buffered;

bool conin_is_input(const struct file *f)
{
	return f->fd >= 0 && !(f->options & FILE_FLAG_OVERLAPPED) && !f->pipe &&
	       (f->console_input || f->fd == 0 || !(f->access & FILE_WRITE_DATA)) && isatty(f->fd);
}

/* /dev/tty (CONIN$) is the controlling terminal under another device
 * number: the kernel gives the real one as tty_nr in /proc/self/stat. */
static dev_t controlling_terminal(void)
{
	char buf[512], *p;
	unsigned int nr = 0;
	FILE *f = fopen("/proc/self/stat", "re");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

	if (f)
		fclose(f);
	buf[n] = 0;
	/* after "pid (comm) ": state ppid pgrp session tty_nr */
	if (!(p = strrchr(buf, ')')) || sscanf(p + 1, " %*c %*d %*d %*d %u", &nr) != 1)
		return 0;
	return makedev((nr >> 8) & 0xfff, (nr & 0xff) | ((nr >> 12) & 0xfff00));
}

/* conin_lock held: fd's buffer, made if make; NULL if fd is no terminal
 * (or there are too many). */
static struct conin_buf *find_locked(int fd, bool make)
{
	struct conin_buf *free_slot = NULL;
	struct stat st;

	if (fstat(fd, &st) || !S_ISCHR(st.st_mode))
		return NULL;
	if (st.st_rdev == makedev(5, 0) && !(st.st_rdev = controlling_terminal()))
		return NULL;
	for (int i = 0; i < MAX_TERMINALS; i++) {
		if (terminals[i].used && terminals[i].rdev == st.st_rdev)
			return &terminals[i];
		if (!terminals[i].used && !free_slot)
			free_slot = &terminals[i];
	}
	if (!make || !free_slot)
		return NULL;
	free_slot->used = true;
	free_slot->rdev = st.st_rdev;
	return free_slot;
}

static bool append_locked(struct conin_buf *b, const char *p, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = (b->len + n) * 2 + 64;
		char *nb = realloc(b->bytes, cap);

		if (!nb)
			return false;
		b->bytes = nb;
		b->cap = cap;
	}
	memcpy(b->bytes + b->len, p, n);
	b->len += n;
	atomic_fetch_add(&buffered, n);
	return true;
}

static void drop_locked(struct conin_buf *b, size_t n)
{
	memmove(b->bytes, b->bytes + n, b->len - n);
	b->len -= n;
	atomic_fetch_sub(&buffered, n);
}

static bool terminal_ready(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) > 0;
}

/* ---- waits ------------------------------------------------------------------ */

/* Objects whose waits sleep until their terminal has input, each with a
 * reference; the watcher thread polls their fds. */
struct watch {
	struct object *obj;
	int fd;
};

static pthread_mutex_t watch_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t watch_once = PTHREAD_ONCE_INIT;
static struct watch *watches;
static size_t n_watches, cap_watches;
static int watch_efd = -1;

/* Wakes the waiters of watched objects (they look again) and forgets
 * the objects: those whose fd polled ready, or all when ready is NULL. */
static void wake_watches(const struct pollfd *ready, size_t n_ready)
{
	struct object **objs = NULL;
	size_t n = 0;

	klock(&watch_lock);
	if (n_watches && (objs = malloc(n_watches * sizeof(*objs)))) {
		for (size_t i = 0; i < n_watches;) {
			bool hit = !ready;

			for (size_t j = 0; ready && j < n_ready && !hit; j++)
				hit = ready[j].fd == watches[i].fd && ready[j].revents;
			if (hit) {
				objs[n++] = watches[i].obj;
				watches[i] = watches[--n_watches];
			} else {
				i++;
			}
		}
	}
	kunlock(&watch_lock);
	if (!n) {
		free(objs);
		return;
	}
	wait_lock();
	for (size_t i = 0; i < n; i++)
		wait_wake_object(objs[i]);
	wait_unlock();
	for (size_t i = 0; i < n; i++)
		object_unref(objs[i]);
	free(objs);
}

static void *watch_thread(void *arg)
{
	(void)arg;
	for (;;) {
		struct pollfd *p;
		size_t n;
		uint64_t v;

		klock(&watch_lock);
		n = n_watches;
		p = calloc(n + 1, sizeof(*p));
		for (size_t i = 0; p && i < n; i++) {
			p[i + 1].fd = watches[i].fd;
			p[i + 1].events = POLLIN;
		}
		kunlock(&watch_lock);
		if (!p) {
			sleep(1);
			continue;
		}
		p[0].fd = watch_efd;
		p[0].events = POLLIN;
		if (poll(p, n + 1, -1) > 0) {
			if (p[0].revents && read(watch_efd, &v, sizeof(v)) < 0 && errno != EAGAIN)
				ndrun_error("console input: eventfd: %s\n", strerror(errno));
			wake_watches(p + 1, n);
		}
		free(p);
	}
	return NULL;
}

static void watch_init(void)
{
	pthread_t t;
	pthread_attr_t attr;
	sigset_t all, old;

	watch_efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	/* ndrun's own thread: no signal of the program's lands on it. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (watch_efd < 0 || pthread_create(&t, &attr, watch_thread, NULL))
		ndrun_error("console input: cannot start the watcher: waits on the console will not end\n");
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
}

/* The watcher takes no lock of the wait engine's before it has polled,
 * so it may be started with the wait lock held. */
static void watch_start(void)
{
	pthread_once(&watch_once, watch_init);
}

/* Wait lock held: f's waiters are to be woken when its terminal has
 * input (once; the wait looks again then). */
static void watch_add_locked(struct file *f)
{
	uint64_t one = 1;

	pthread_mutex_lock(&watch_lock);
	for (size_t i = 0; i < n_watches; i++) {
		if (watches[i].obj == &f->obj) {
			pthread_mutex_unlock(&watch_lock);
			return;
		}
	}
	if (n_watches == cap_watches) {
		size_t cap = cap_watches * 2 + 4;
		struct watch *w = realloc(watches, cap * sizeof(*w));

		if (!w) {
			pthread_mutex_unlock(&watch_lock);
			return;
		}
		watches = w;
		cap_watches = cap;
	}
	watches[n_watches].obj = object_ref(&f->obj);
	watches[n_watches++].fd = f->fd;
	pthread_mutex_unlock(&watch_lock);
	if (write(watch_efd, &one, sizeof(one)) < 0)
		return; /* full: the watcher is awake anyway */
}

void conin_unwatch(struct file *f)
{
	struct object *obj = NULL;

	klock(&watch_lock);
	for (size_t i = 0; i < n_watches; i++) {
		if (watches[i].obj == &f->obj) {
			obj = watches[i].obj;
			watches[i] = watches[--n_watches];
			break;
		}
	}
	kunlock(&watch_lock);
	if (obj)
		object_unref(obj);
}

bool conin_signaled_locked(struct file *f)
{
	struct conin_buf *b;
	bool ready;

	pthread_mutex_lock(&conin_lock);
	b = atomic_load(&buffered) ? find_locked(f->fd, false) : NULL;
	ready = b && b->len;
	pthread_mutex_unlock(&conin_lock);
	if (ready || terminal_ready(f->fd))
		return true;
	watch_start();
	if (watch_efd >= 0)
		watch_add_locked(f);
	return false;
}

/* ---- the buffer ------------------------------------------------------------- */

/* One read of the terminal into b (conin_lock held; dropped while a
 * blocking read waits). */
static ssize_t read_terminal_locked(int fd, bool block)
{
	char tmp[4096];
	struct conin_buf *b;
	ssize_t n;

	if (!block && !terminal_ready(fd))
		return 0;
	kunlock(&conin_lock);
	syncio_begin_fd();
	do {
		if (syncio_cancelled()) {
			n = -1;
			errno = ECANCELED;
			break;
		}
		n = read(fd, tmp, sizeof(tmp));
	} while (n < 0 && errno == EINTR);
	syncio_end();
	klock(&conin_lock);
	if (n <= 0)
		return n;
	if (!(b = find_locked(fd, true)) || !append_locked(b, tmp, (size_t)n)) {
		errno = ENOMEM;
		return -1;
	}
	return n;
}

ssize_t conin_fill(int fd, bool block)
{
	struct conin_buf *b;
	ssize_t n;

	watch_start();
	klock(&conin_lock);
	b = find_locked(fd, false);
	n = read_terminal_locked(fd, block && !(b && b->len));
	if (n >= 0) {
		b = find_locked(fd, false);
		n = b ? (ssize_t)b->len : 0;
	}
	kunlock(&conin_lock);
	return n;
}

size_t conin_peek(int fd, char *buf, size_t size, unsigned int *skip)
{
	struct conin_buf *b;
	size_t n = 0;

	klock(&conin_lock);
	if ((b = find_locked(fd, false))) {
		n = b->len < size ? b->len : size;
		memcpy(buf, b->bytes, n);
		*skip = b->skip;
	} else {
		*skip = 0;
	}
	kunlock(&conin_lock);
	return n;
}

void conin_consume(int fd, size_t n, unsigned int skip)
{
	struct conin_buf *b;

	klock(&conin_lock);
	if ((b = find_locked(fd, false))) {
		drop_locked(b, n < b->len ? n : b->len);
		b->skip = b->len ? skip : 0;
	}
	kunlock(&conin_lock);
}

void conin_flush(int fd)
{
	struct conin_buf *b;

	klock(&conin_lock);
	if ((b = find_locked(fd, false))) {
		drop_locked(b, b->len);
		b->skip = 0;
	}
	tcflush(fd, TCIFLUSH);
	kunlock(&conin_lock);
}

bool conin_append(int fd, const char *bytes, size_t n)
{
	struct conin_buf *b;
	bool ok;

	watch_start();
	klock(&conin_lock);
	ok = (b = find_locked(fd, true)) && append_locked(b, bytes, n);
	kunlock(&conin_lock);
	if (ok)
		wake_watches(NULL, 0);
	return ok;
}

bool conin_buffered(void)
{
	return atomic_load(&buffered) != 0;
}

ssize_t conin_read(int fd, char *buf, size_t size)
{
	struct conin_buf *b = NULL;
	ssize_t n = 0;

	klock(&conin_lock);
	if (atomic_load(&buffered))
		b = find_locked(fd, false);
	if (!b || !b->len) {
		n = read_terminal_locked(fd, true);
		b = n > 0 ? find_locked(fd, false) : NULL;
	}
	if (b && b->len) {
		n = (ssize_t)(b->len < size ? b->len : size);
		memcpy(buf, b->bytes, (size_t)n);
		drop_locked(b, (size_t)n);
		b->skip = 0;
	}
	kunlock(&conin_lock);
	return n;
}

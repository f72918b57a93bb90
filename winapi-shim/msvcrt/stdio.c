/* stdio streams over Linux file descriptors, with our own buffers.
 *
 * The standard streams are __iob_func()[0..2] (48-byte msvcrt FILEs, as
 * programs index them); fopen'ed streams are a struct whose first member
 * is the public FILE.  Text mode does not translate "\n" <-> "\r\n" (ndrun
 * follows the Linux convention), so text and binary streams are alike.
 * stdout is line-buffered on a tty and fully buffered otherwise, stderr
 * unbuffered; exit() and _cexit() flush everything. */
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msvcrt/stdio_private.h"
#include "core/debug.h"

struct crt_file crt__iob[CRT_IOB_ENTRIES];
static struct stream std_streams[3];

/* msvcrt.dll allocates a FILE and its lock together, and code that
 * mingw-w64 links into every program (_lock_file, used by its printf)
 * enters the CRITICAL_SECTION right after the FILE of any stream outside
 * _iob: the lock must be there and be the one the stream functions take. */
struct open_file {
	struct crt_file pub;
	CRITICAL_SECTION lock;
	struct stream st;
};
_Static_assert(offsetof(struct open_file, lock) == 48, "the lock follows the 48-byte FILE");

static CRITICAL_SECTION list_lock = { .LockCount = -1 };
static struct stream *open_list;
static pthread_once_t std_once = PTHREAD_ONCE_INIT;

static void sync_flags(struct stream *st)
{
	int f = st->pub->_flag & ~(CRT_IOEOF | CRT_IOERR);
	if (st->eof)
		f |= CRT_IOEOF;
	if (st->err)
		f |= CRT_IOERR;
	st->pub->_flag = f;
}

static void init_stream(struct stream *st, struct crt_file *pub, CRITICAL_SECTION *lock, int fd, int access)
{
	memset(st, 0, sizeof(*st));
	st->lock = lock;
	st->pub = pub;
	st->fd = fd;
	st->access = access;
	st->bufmode = CRT_IOFBF;
	memset(pub, 0, sizeof(*pub));
	pub->_file = fd;
	pub->_flag = access == (S_READ | S_WRITE) ? CRT_IORW : access == S_READ ? CRT_IOREAD : CRT_IOWRT;
}

static void init_std(void)
{
	for (int i = 0; i < 3; i++)
		init_stream(&std_streams[i], &crt__iob[i], crt_lock_section(CRT_STREAM_LOCKS + i), i,
			    i ? S_WRITE : S_READ);
	std_streams[1].line = isatty(1);
	std_streams[2].bufmode = CRT_IONBF;
	std_streams[0].next = &std_streams[1];
	std_streams[1].next = &std_streams[2];
	std_streams[2].next = NULL;
	open_list = &std_streams[0];
}

static struct stream *stream_of(struct crt_file *f)
{
	pthread_once(&std_once, init_std);
	if (!f)
		return NULL;
	if (f >= crt__iob && f < crt__iob + CRT_IOB_ENTRIES)
		return f < crt__iob + 3 ? &std_streams[f - crt__iob] : NULL;
	return &((struct open_file *)((char *)f - offsetof(struct open_file, pub)))->st;
}

struct crt_file *crt_stdout(void)
{
	pthread_once(&std_once, init_std);
	return &crt__iob[1];
}

struct crt_file *__cdecl crt___iob_func(void)
{
	pthread_once(&std_once, init_std);
	return crt__iob;
}

/* As msvcrt.dll and mingw's copy of _lock_file do it: _iob entries
 * (open or not) through the lock table, other streams through the lock
 * after their FILE. */
static CRITICAL_SECTION *file_lock(struct crt_file *f)
{
	if (f >= crt__iob && f < crt__iob + CRT_IOB_ENTRIES)
		return crt_lock_section(CRT_STREAM_LOCKS + (int)(f - crt__iob));
	return &((struct open_file *)f)->lock;
}

void __cdecl crt__lock_file(struct crt_file *f)
{
	EnterCriticalSection(file_lock(f));
}

void __cdecl crt__unlock_file(struct crt_file *f)
{
	LeaveCriticalSection(file_lock(f));
}

/* ---- buffer handling: the caller holds st->lock ------------------------------ */

static int write_all(struct stream *st, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(st->fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			crt_set_errno_host(errno);
			st->err = 1;
			sync_flags(st);
			return -1;
		}
		p += w;
		n -= w;
	}
	return 0;
}

static int flush_locked(struct stream *st)
{
	int r = 0;
	if (st->writing && st->pos)
		r = write_all(st, st->buf, st->pos);
	if (st->writing) {
		st->pos = 0;
		st->writing = 0;
	}
	return r;
}

/* Leave read mode: give unread input back to the file position. */
static void drop_read_buffer(struct stream *st)
{
	if (!st->writing && (st->end > st->pos || st->nungot))
		lseek(st->fd, -(off_t)(st->end - st->pos) - st->nungot, SEEK_CUR);
	if (!st->writing)
		st->pos = st->end = 0;
	st->nungot = 0;
}

static int ensure_buffer(struct stream *st)
{
	if (st->buf || st->bufmode == CRT_IONBF)
		return 0;
	st->buf = malloc(CRT_BUFSIZ);
	if (!st->buf)
		return -1;
	st->size = CRT_BUFSIZ;
	st->own_buf = 1;
	st->pub->_base = st->buf;
	st->pub->_bufsiz = CRT_BUFSIZ;
	return 0;
}

static size_t write_locked(struct stream *st, const char *p, size_t n)
{
	if (!(st->access & S_WRITE)) {
		st->err = 1;
		sync_flags(st);
		crt_set_errno(EBADF);
		return 0;
	}
	if (!st->writing)
		drop_read_buffer(st);
	ensure_buffer(st);
	if (!st->buf || st->bufmode == CRT_IONBF) {
		return write_all(st, p, n) ? 0 : n;
	}
	st->writing = 1;
	if (n >= st->size) {
		if (flush_locked(st) || write_all(st, p, n))
			return 0;
		return n;
	}
	if (st->pos + n > st->size && flush_locked(st))
		return 0;
	st->writing = 1;
	memcpy(st->buf + st->pos, p, n);
	st->pos += n;
	if (st->line && memchr(p, '\n', n) && flush_locked(st))
		return 0;
	return n;
}

/* Fills the read buffer; returns 0 at end of file or on error. */
static int fill_locked(struct stream *st)
{
	if (!(st->access & S_READ)) {
		st->err = 1;
		sync_flags(st);
		crt_set_errno(EBADF);
		return 0;
	}
	if (st->writing && flush_locked(st))
		return 0;
	if (st == &std_streams[0] && std_streams[1].line)
		crt_fflush(&crt__iob[1]);
	if (ensure_buffer(st) || !st->buf)
		return 0;
	ssize_t r;
	do
		r = read(st->fd, st->buf, st->size);
	while (r < 0 && errno == EINTR);
	if (r <= 0) {
		if (r < 0) {
			crt_set_errno_host(errno);
			st->err = 1;
		} else {
			st->eof = 1;
		}
		sync_flags(st);
		return 0;
	}
	st->pos = 0;
	st->end = r;
	return 1;
}

static int getc_locked(struct stream *st)
{
	if (st->nungot)
		return st->ungot[--st->nungot];
	if (st->writing || st->pos >= st->end) {
		if (st->bufmode == CRT_IONBF && (st->access & S_READ) && !st->writing) {
			unsigned char c;
			ssize_t r;
			do
				r = read(st->fd, &c, 1);
			while (r < 0 && errno == EINTR);
			if (r == 1)
				return c;
			if (r < 0)
				st->err = 1;
			else
				st->eof = 1;
			sync_flags(st);
			return -1;
		}
		if (!fill_locked(st))
			return -1;
	}
	return (unsigned char)st->buf[st->pos++];
}

static size_t read_locked(struct stream *st, char *p, size_t n)
{
	size_t got = 0;
	while (got < n && st->nungot)
		p[got++] = st->ungot[--st->nungot];
	while (got < n) {
		if (!st->writing && st->pos < st->end) {
			size_t k = st->end - st->pos;
			if (k > n - got)
				k = n - got;
			memcpy(p + got, st->buf + st->pos, k);
			st->pos += k;
			got += k;
			continue;
		}
		int c = getc_locked(st);
		if (c < 0)
			break;
		p[got++] = c;
	}
	return got;
}

/* ---- opening and closing ------------------------------------------------------ */

/* Parses an fopen mode; returns open(2) flags, or -1. */
static int parse_mode(const char *mode, int *access)
{
	int flags;
	switch (*mode++) {
	case 'r':
		flags = O_RDONLY;
		*access = S_READ;
		break;
	case 'w':
		flags = O_WRONLY | O_CREAT | O_TRUNC;
		*access = S_WRITE;
		break;
	case 'a':
		flags = O_WRONLY | O_CREAT | O_APPEND;
		*access = S_WRITE;
		break;
	default:
		return -1;
	}
	for (; *mode; mode++) {
		if (*mode == '+') {
			flags = (flags & ~(O_RDONLY | O_WRONLY)) | O_RDWR;
			*access = S_READ | S_WRITE;
		} else if (*mode == ',') {
			break; /* ",ccs=UTF-8" and the like: no encodings here */
		} else if (*mode == 'x') {
			flags |= O_EXCL;
		}
		/* b t c n N S R T D: binary/text, commit, hints: nothing to do */
	}
	return flags | O_CLOEXEC;
}

static struct crt_file *new_stream(int fd, int access)
{
	pthread_once(&std_once, init_std);
	struct open_file *of = calloc(1, sizeof(*of));
	if (!of) {
		crt_set_errno(ENOMEM);
		return NULL;
	}
	InitializeCriticalSection(&of->lock);
	init_stream(&of->st, &of->pub, &of->lock, fd, access);
	EnterCriticalSection(&list_lock);
	of->st.next = open_list;
	open_list = &of->st;
	LeaveCriticalSection(&list_lock);
	return &of->pub;
}

struct crt_file *__cdecl crt_fopen(const char *path, const char *mode)
{
	int access;
	int flags = parse_mode(mode, &access);
	if (!path || flags < 0) {
		crt_set_errno(EINVAL);
		return NULL;
	}
	char *upath = crt_unix_path(path);
	if (!upath)
		return NULL;
	int fd = open(upath, flags, 0666);
	TRACE(msvcrt, "%s %s -> fd %d\n", upath, mode, fd);
	free(upath);
	if (fd < 0) {
		crt_set_errno_host(errno);
		return NULL;
	}
	struct crt_file *f = new_stream(fd, access);
	if (!f)
		close(fd);
	return f;
}

struct crt_file *__cdecl crt__wfopen(const WCHAR *path, const WCHAR *mode)
{
	if (!path || !mode) {
		crt_set_errno(EINVAL);
		return NULL;
	}
	char *p = crt_wide_to_utf8_alloc(path), *m = crt_wide_to_utf8_alloc(mode);
	struct crt_file *f = p && m ? crt_fopen(p, m) : NULL;
	free(p);
	free(m);
	return f;
}

struct crt_file *__cdecl crt__fdopen(int fd, const char *mode)
{
	int access;
	if (parse_mode(mode, &access) < 0 || fcntl(fd, F_GETFD) < 0) {
		crt_set_errno(fcntl(fd, F_GETFD) < 0 ? EBADF : EINVAL);
		return NULL;
	}
	return new_stream(fd, access);
}

int __cdecl crt_fclose(struct crt_file *f)
{
	struct stream *st = stream_of(f);
	if (!st) {
		crt_set_errno(EINVAL);
		return -1;
	}
	EnterCriticalSection(st->lock);
	int r = flush_locked(st);
	crt_osf_closed(st->fd);
	if (close(st->fd) < 0) {
		crt_set_errno_host(errno);
		r = -1;
	}
	if (st->own_buf)
		free(st->buf);
	st->buf = NULL;
	st->fd = -1;
	LeaveCriticalSection(st->lock);
	if (f >= crt__iob && f < crt__iob + CRT_IOB_ENTRIES)
		return r;
	EnterCriticalSection(&list_lock);
	for (struct stream **pp = &open_list; *pp; pp = &(*pp)->next) {
		if (*pp == st) {
			*pp = st->next;
			break;
		}
	}
	LeaveCriticalSection(&list_lock);
	DeleteCriticalSection(st->lock);
	free((char *)f - offsetof(struct open_file, pub));
	return r;
}

/* The stream keeps its FILE (programs hold the pointer).  A standard
 * stream also keeps its descriptor number: msvcrt closes the old
 * descriptor and opens the new file at the lowest free one, so
 * freopen(..., stdout) redirects descriptor 1 (and what Win32 writes to
 * the standard output) as well.  When the new file cannot be opened the
 * stream ends up closed, as msvcrt leaves it. */
static struct crt_file *reopen(const char *path, const char *mode, struct crt_file *f)
{
	struct stream *st = stream_of(f);
	int access, flags, fd;
	char *upath;

	if (!st || !path || !mode || (flags = parse_mode(mode, &access)) < 0) {
		crt_set_errno(EINVAL);
		return NULL;
	}
	upath = crt_unix_path(path);
	if (!upath)
		return NULL;
	EnterCriticalSection(st->lock);
	if (st->fd >= 0)
		flush_locked(st);
	fd = open(upath, flags, 0666);
	TRACE(msvcrt, "%s %s -> fd %d (was %d)\n", upath, mode, fd, st->fd);
	free(upath);
	if (fd < 0)
		crt_set_errno_host(errno);
	if (fd >= 0 && st->fd >= 0 && st->fd <= 2) {
		if (dup2(fd, st->fd) < 0) {
			crt_set_errno_host(errno);
			close(fd);
			LeaveCriticalSection(st->lock);
			return NULL;
		}
		close(fd);
		fd = st->fd;
	} else if (st->fd >= 0) {
		close(st->fd);
	}
	if (st->own_buf)
		free(st->buf);
	st->buf = NULL;
	st->size = st->pos = st->end = 0;
	st->own_buf = st->writing = st->eof = st->err = st->nungot = 0;
	st->wpending = 0;
	st->fd = fd;
	st->access = access;
	st->bufmode = f == &crt__iob[2] ? CRT_IONBF : CRT_IOFBF;
	st->line = f == &crt__iob[1] && fd >= 0 && isatty(fd);
	f->_ptr = f->_base = NULL;
	f->_cnt = f->_bufsiz = 0;
	f->_file = fd;
	f->_flag = fd < 0 ? 0 : access == (S_READ | S_WRITE) ? CRT_IORW : access == S_READ ? CRT_IOREAD : CRT_IOWRT;
	LeaveCriticalSection(st->lock);
	return fd < 0 ? NULL : f;
}

struct crt_file *__cdecl crt_freopen(const char *path, const char *mode, struct crt_file *f)
{
	return reopen(path, mode, f);
}

struct crt_file *__cdecl crt__wfreopen(const WCHAR *path, const WCHAR *mode, struct crt_file *f)
{
	char *p, *m;
	struct crt_file *r;

	if (!path || !mode) {
		crt_set_errno(EINVAL);
		return NULL;
	}
	p = crt_wide_to_utf8_alloc(path);
	m = crt_wide_to_utf8_alloc(mode);
	r = p && m ? reopen(p, m, f) : NULL;
	if (!p || !m)
		crt_set_errno(ENOMEM);
	free(p);
	free(m);
	return r;
}

/* Closes every stream but stdin, stdout and stderr; the count closed. */
int __cdecl crt__fcloseall(void)
{
	int n = 0;

	pthread_once(&std_once, init_std);
	for (;;) {
		struct stream *victim = NULL;

		EnterCriticalSection(&list_lock);
		for (struct stream *st = open_list; st && !victim; st = st->next)
			if (!(st->pub >= crt__iob && st->pub < crt__iob + CRT_IOB_ENTRIES))
				victim = st;
		LeaveCriticalSection(&list_lock);
		if (!victim)
			return n;
		crt_fclose(victim->pub);
		n++;
	}
}

/* ---- the exported stream functions ------------------------------------------- */

#define LOCKED(f, fail, ...)                                                 \
	struct stream *st = stream_of(f);                                     \
	if (!st) {                                                            \
		crt_set_errno(EINVAL);                                        \
		return fail;                                                  \
	}                                                                     \
	EnterCriticalSection(st->lock);                                        \
	__VA_ARGS__;                                                          \
	LeaveCriticalSection(st->lock)

int __cdecl crt_fflush(struct crt_file *f)
{
	if (!f) {
		crt_flush_all_streams();
		return 0;
	}
	int r;
	LOCKED(f, -1, r = st->writing ? flush_locked(st) : 0);
	return r;
}

/* A lock held by another thread is released soon; one held by the
 * stopping thread itself never is: wait a little, then give up. */
static bool trylock_briefly(CRITICAL_SECTION *cs)
{
	for (int i = 0; i < 100; i++) {
		if (TryEnterCriticalSection(cs))
			return true;
		usleep(1000);
	}
	return false;
}

static bool lock_waiting(CRITICAL_SECTION *cs)
{
	EnterCriticalSection(cs);
	return true;
}

/* Every open stream's buffer written out, each lock taken through lock
 * (a stream whose lock it does not get is skipped; without the list's,
 * none is flushed). */
static void flush_streams(bool (*lock)(CRITICAL_SECTION *))
{
	pthread_once(&std_once, init_std);
	if (!lock(&list_lock))
		return;
	for (struct stream *st = open_list; st; st = st->next) {
		if (!lock(st->lock))
			continue;
		if (st->fd >= 0)
			flush_locked(st);
		LeaveCriticalSection(st->lock);
	}
	LeaveCriticalSection(&list_lock);
}

void crt_flush_at_stop(void)
{
	flush_streams(trylock_briefly);
}

void crt_flush_all_streams(void)
{
	flush_streams(lock_waiting);
}

size_t __cdecl crt_fwrite(const void *p, size_t size, size_t count, struct crt_file *f)
{
	if (!size || !count)
		return 0;
	size_t r;
	LOCKED(f, 0, r = write_locked(st, p, size * count));
	return r / size;
}

size_t __cdecl crt_fread(void *p, size_t size, size_t count, struct crt_file *f)
{
	if (!size || !count)
		return 0;
	size_t r;
	LOCKED(f, 0, r = read_locked(st, p, size * count));
	return r / size;
}

int __cdecl crt_fputc(int c, struct crt_file *f)
{
	unsigned char b = c;
	size_t r;
	LOCKED(f, -1, r = write_locked(st, (char *)&b, 1));
	return r == 1 ? b : -1;
}

int __cdecl crt_putc(int c, struct crt_file *f)
{
	return crt_fputc(c, f);
}

int __cdecl crt_putchar(int c)
{
	return crt_fputc(c, crt_stdout());
}

int __cdecl crt_fputs(const char *s, struct crt_file *f)
{
	size_t n = strlen(s), r;
	LOCKED(f, -1, r = write_locked(st, s, n));
	return r == n ? 0 : -1;
}

int __cdecl crt_puts(const char *s)
{
	size_t n = strlen(s), r1, r2;
	LOCKED(crt_stdout(), -1, r1 = write_locked(st, s, n); r2 = write_locked(st, "\n", 1));
	return r1 == n && r2 == 1 ? 0 : -1;
}

int __cdecl crt_fgetc(struct crt_file *f)
{
	int c;
	LOCKED(f, -1, c = getc_locked(st));
	return c;
}

int __cdecl crt_getc(struct crt_file *f)
{
	return crt_fgetc(f);
}

int __cdecl crt_getchar(void)
{
	return crt_fgetc(&crt__iob[0]);
}

char *__cdecl crt_fgets(char *buf, int n, struct crt_file *f)
{
	int i = 0, c = 0;
	if (n <= 0)
		return NULL;
	LOCKED(f, NULL, while (i < n - 1 && (c = getc_locked(st)) >= 0) {
		buf[i++] = c;
		if (c == '\n')
			break;
	});
	if (!i)
		return NULL;
	buf[i] = 0;
	return buf;
}

int __cdecl crt_ungetc(int c, struct crt_file *f)
{
	if (c < 0)
		return -1;
	int r = -1;
	LOCKED(f, -1, if (st->nungot < (int)sizeof(st->ungot)) {
		if (st->writing)
			flush_locked(st);
		st->ungot[st->nungot++] = c;
		st->eof = 0;
		sync_flags(st);
		r = (unsigned char)c;
	});
	return r;
}

/* Wide characters are UTF-16 code units, written and read as UTF-8 in
 * every mode (msvcrt would write raw UTF-16 to a binary stream). */
WCHAR __cdecl crt_fputwc(WCHAR c, struct crt_file *f)
{
	char tmp[4];
	size_t n, r = 0;
	LOCKED(f, 0xffff, {
		unsigned int cp = c;
		if (c >= 0xd800 && c < 0xdc00) {
			st->wpending = c; /* wait for the low half */
			n = 0;
		} else {
			if (c >= 0xdc00 && c < 0xe000)
				cp = st->wpending ? 0x10000 + ((st->wpending - 0xd800) << 10) + (c - 0xdc00) : 0xfffd;
			st->wpending = 0;
			n = crt_encode_wchar(cp, tmp);
			r = write_locked(st, tmp, n);
		}
	});
	return r == n ? c : 0xffff;
}

WCHAR __cdecl crt_putwc(WCHAR c, struct crt_file *f)
{
	return crt_fputwc(c, f);
}

WCHAR __cdecl crt_fgetwc(struct crt_file *f)
{
	WCHAR result = 0xffff;
	LOCKED(f, 0xffff, {
		if (st->wpending) {
			result = st->wpending;
			st->wpending = 0;
		} else {
			char b[4];
			int c = getc_locked(st), n = 1, need;
			if (c >= 0) {
				b[0] = c;
				need = c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
				while (n < need && (c = getc_locked(st)) >= 0) {
					if ((c & 0xc0) != 0x80) {
						st->ungot[st->nungot++] = c;
						break;
					}
					b[n++] = c;
				}
				WCHAR w[2];
				size_t k = crt_utf8_to_wide(b, n, w, 2);
				result = w[0];
				if (k == 2)
					st->wpending = w[1];
			}
		}
	});
	return result;
}

WCHAR __cdecl crt_getwc(struct crt_file *f)
{
	return crt_fgetwc(f);
}

WCHAR __cdecl crt_ungetwc(WCHAR c, struct crt_file *f)
{
	char tmp[4];
	if (c == 0xffff)
		return 0xffff;
	size_t n = crt_encode_wchar(c, tmp);
	int ok = 0;
	LOCKED(f, 0xffff, if (st->nungot + (int)n <= (int)sizeof(st->ungot)) {
		while (n)
			st->ungot[st->nungot++] = (unsigned char)tmp[--n];
		st->eof = 0;
		sync_flags(st);
		ok = 1;
	});
	return ok ? c : 0xffff;
}

int __cdecl crt_setvbuf(struct crt_file *f, char *buf, int mode, size_t size)
{
	if (mode != CRT_IOFBF && mode != CRT_IOLBF && mode != CRT_IONBF) {
		crt_set_errno(EINVAL);
		return -1;
	}
	if (mode != CRT_IONBF && (size < 2 || size > INT32_MAX)) {
		crt_set_errno(EINVAL);
		return -1;
	}
	LOCKED(f, -1, {
		flush_locked(st);
		drop_read_buffer(st);
		if (st->own_buf)
			free(st->buf);
		st->buf = NULL;
		st->own_buf = 0;
		st->size = 0;
		st->line = 0;
		/* _IOLBF is _IOFBF on Windows (documented) */
		st->bufmode = mode == CRT_IONBF ? CRT_IONBF : CRT_IOFBF;
		if (mode != CRT_IONBF) {
			if (buf) {
				st->buf = buf;
				st->size = size & ~(size_t)1;
			} else {
				st->buf = malloc(size);
				st->size = size;
				st->own_buf = 1;
				if (!st->buf)
					st->bufmode = CRT_IONBF;
			}
		}
		st->pub->_base = st->buf;
		st->pub->_bufsiz = st->size;
	});
	return 0;
}

void __cdecl crt_setbuf(struct crt_file *f, char *buf)
{
	crt_setvbuf(f, buf, buf ? CRT_IOFBF : CRT_IONBF, CRT_BUFSIZ);
}

int __cdecl crt__fseeki64(struct crt_file *f, int64_t off, int whence)
{
	int r = 0;
	if (whence < 0 || whence > 2) {
		crt_set_errno(EINVAL);
		return -1;
	}
	LOCKED(f, -1, {
		if (st->writing && flush_locked(st))
			r = -1;
		if (whence == SEEK_CUR && !st->writing)
			off -= (int64_t)(st->end - st->pos) + st->nungot;
		st->pos = st->end = 0;
		st->nungot = 0;
		st->wpending = 0;
		if (!r && lseek(st->fd, off, whence) < 0) {
			crt_set_errno_host(errno);
			r = -1;
		}
		if (!r)
			st->eof = 0;
		sync_flags(st);
	});
	return r;
}

int __cdecl crt_fseek(struct crt_file *f, int off, int whence)
{
	return crt__fseeki64(f, off, whence);
}

int64_t __cdecl crt__ftelli64(struct crt_file *f)
{
	int64_t pos;
	LOCKED(f, -1, {
		pos = lseek(st->fd, 0, SEEK_CUR);
		if (pos < 0) {
			crt_set_errno_host(errno);
		} else if (st->writing) {
			pos += st->pos;
		} else {
			pos -= (int64_t)(st->end - st->pos) + st->nungot;
		}
	});
	return pos < 0 ? -1 : pos;
}

int __cdecl crt_ftell(struct crt_file *f)
{
	int64_t pos = crt__ftelli64(f);
	if (pos > INT32_MAX) {
		crt_set_errno(EINVAL);
		return -1;
	}
	return (int)pos;
}

void __cdecl crt_rewind(struct crt_file *f)
{
	crt__fseeki64(f, 0, SEEK_SET);
	crt_clearerr(f);
}

int __cdecl crt_fgetpos(struct crt_file *f, crt_fpos_t *pos)
{
	int64_t p = crt__ftelli64(f);
	if (p < 0)
		return -1;
	pos->pos = p;
	return 0;
}

int __cdecl crt_fsetpos(struct crt_file *f, const crt_fpos_t *pos)
{
	return crt__fseeki64(f, pos->pos, SEEK_SET);
}

int __cdecl crt_feof(struct crt_file *f)
{
	int r;
	LOCKED(f, 0, r = st->eof ? CRT_IOEOF : 0);
	return r;
}

int __cdecl crt_ferror(struct crt_file *f)
{
	int r;
	LOCKED(f, 0, r = st->err ? CRT_IOERR : 0);
	return r;
}

void __cdecl crt_clearerr(struct crt_file *f)
{
	LOCKED(f, , st->eof = st->err = 0; sync_flags(st));
}

int __cdecl crt__fileno(struct crt_file *f)
{
	int fd;
	LOCKED(f, -1, fd = st->fd);
	return fd;
}

/* LockFile, LockFileEx, UnlockFile, UnlockFileEx (fileapi.h), over
 * core/filelock.h (Windows' rules on Linux's OFD locks; advisory for
 * ReadFile/WriteFile).
 *
 * A request that must wait tries again whenever this process unlocks a
 * range, and at least every 50 ms for other processes' unlocks (Linux
 * does not say when they happen).  On a synchronous handle the caller
 * waits; on an overlapped handle LockFileEx returns ERROR_IO_PENDING and
 * a helper thread keeps trying until the lock is granted (completing the
 * request through the one completion path: event, port, handle state) or
 * the request is cancelled (CancelIo(Ex), closing the handle). */
#include <pthread.h>
#include <stdlib.h>

#define WIN32_NO_STATUS
#include "core/debug.h"
#include "core/errors.h"
#include "core/file.h"
#include "core/filelock.h"
#include "core/klock.h"
#include "kernel32/kernel32_private.h"
#undef WIN32_NO_STATUS
#include <ntstatus.h>

#define MAX_POLL_MS 50

struct lock_request {
	struct file *f;      /* referenced */
	OVERLAPPED *ov;
	struct io_request *req;
	uint64_t off, len;
	bool exclusive;
};

static uint64_t u64(DWORD lo, DWORD hi)
{
	return (uint64_t)hi << 32 | lo;
}

/* The file behind h, if it can hold locks; NULL with the last error. */
static struct file *lockable(HANDLE h)
{
	struct file *f = file_get(h);

	if (!f)
		return NULL;
	if (f->fd < 0 || f->pipe) {
		file_release(f);
		SetLastError(ERROR_INVALID_FUNCTION);
		return NULL;
	}
	/* Windows asks for read or write access to lock. */
	if (!(f->access & (FILE_READ_DATA | FILE_WRITE_DATA | FILE_APPEND_DATA))) {
		file_release(f);
		SetLastError(ERROR_ACCESS_DENIED);
		return NULL;
	}
	return f;
}

/* Tries until granted or a failure other than a conflict. */
static NTSTATUS lock_wait(struct file *f, uint64_t off, uint64_t len, bool exclusive)
{
	unsigned int ms = 1;
	NTSTATUS st;

	while ((st = filelock_try(f, off, len, exclusive)) == STATUS_LOCK_NOT_GRANTED) {
		filelock_wait(ms);
		if (ms < MAX_POLL_MS)
			ms *= 2;
	}
	return st;
}

/* Target lock held: is req still pending on t (not cancelled)? */
static bool still_pending(struct io_target *t, struct io_request *req)
{
	struct list *cur;

	LIST_FOR_EACH(cur, &t->pending)
		if (cur == &req->entry)
			return true;
	return false;
}

static void *lock_poller(void *arg)
{
	struct lock_request *lr = arg;
	struct io_target *t = &lr->f->io;
	unsigned int ms = 1;

	for (;;) {
		NTSTATUS st;

		klock(t->lock);
		if (!still_pending(t, lr->req)) {
			kunlock(t->lock);
			break; /* cancelled: completed by the canceller */
		}
		st = filelock_try(lr->f, lr->off, lr->len, lr->exclusive);
		if (st != STATUS_LOCK_NOT_GRANTED) {
			io_request_remove_locked(lr->req);
			kunlock(t->lock);
			io_complete(t, lr->ov, st, 0, false);
			io_request_free(lr->req);
			break;
		}
		kunlock(t->lock);
		filelock_wait(ms);
		if (ms < MAX_POLL_MS)
			ms *= 2;
	}
	file_release(lr->f);
	free(lr);
	return NULL;
}

/* Overlapped handle, lock not granted at once: ERROR_IO_PENDING and a
 * poller.  Consumes the reference on f. */
static BOOL lock_pending(struct file *f, OVERLAPPED *ov, uint64_t off, uint64_t len, bool exclusive)
{
	struct lock_request *lr = calloc(1, sizeof(*lr));
	pthread_attr_t attr;
	pthread_t thread;
	int err;

	if (!lr)
		goto nomem;
	lr->f = f;
	lr->ov = ov;
	lr->off = off;
	lr->len = len;
	lr->exclusive = exclusive;
	klock(f->io.lock);
	lr->req = io_request_add_locked(&f->io, ov, 0, 0, 0);
	kunlock(f->io.lock);
	if (!lr->req)
		goto nomem;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	err = pthread_create(&thread, &attr, lock_poller, lr);
	pthread_attr_destroy(&attr);
	if (err) {
		/* Nobody else completes it: unlist and fail it (or find it
		 * cancelled meanwhile). */
		bool mine;

		klock(f->io.lock);
		if ((mine = still_pending(&f->io, lr->req)))
			io_request_remove_locked(lr->req);
		kunlock(f->io.lock);
		if (mine) {
			io_complete(&f->io, ov, STATUS_INSUFFICIENT_RESOURCES, 0, true);
			io_request_free(lr->req);
		}
		file_release(f);
		free(lr);
		SetLastError(ERROR_NO_SYSTEM_RESOURCES);
		return FALSE;
	}
	SetLastError(ERROR_IO_PENDING);
	return FALSE;
nomem:
	io_complete(&f->io, ov, STATUS_NO_MEMORY, 0, true);
	file_release(f);
	free(lr);
	SetLastError(ERROR_NOT_ENOUGH_MEMORY);
	return FALSE;
}

BOOL WINAPI LockFileEx(HANDLE h, DWORD flags, DWORD reserved, DWORD len_lo, DWORD len_hi, LPOVERLAPPED ov)
{
	bool exclusive = flags & LOCKFILE_EXCLUSIVE_LOCK, now = flags & LOCKFILE_FAIL_IMMEDIATELY;
	uint64_t off, len = u64(len_lo, len_hi);
	struct file *f;
	NTSTATUS st;

	TRACE(file, "%p, flags %#x, len %#llx, ov %p\n", h, (unsigned)flags, (unsigned long long)len, ov);
	if (reserved || !ov || (flags & ~(LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY))) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!(f = lockable(h)))
		return FALSE;
	off = u64(ov->Offset, ov->OffsetHigh);
	io_begin(&f->io, ov);
	st = filelock_try(f, off, len, exclusive);
	if (st == STATUS_LOCK_NOT_GRANTED && !now) {
		if (f->options & FILE_FLAG_OVERLAPPED)
			return lock_pending(f, ov, off, len, exclusive);
		st = lock_wait(f, off, len, exclusive);
	}
	io_complete(&f->io, ov, st, 0, true);
	file_release(f);
	if (!NT_SUCCESS(st)) {
		set_last_error_from_status(st);
		return FALSE;
	}
	return TRUE;
}

BOOL WINAPI LockFile(HANDLE h, DWORD off_lo, DWORD off_hi, DWORD len_lo, DWORD len_hi)
{
	struct file *f;
	NTSTATUS st;

	TRACE(file, "%p, %#llx+%#llx\n", h, (unsigned long long)u64(off_lo, off_hi),
	      (unsigned long long)u64(len_lo, len_hi));
	if (!(f = lockable(h)))
		return FALSE;
	/* Exclusive, and never waits. */
	st = filelock_try(f, u64(off_lo, off_hi), u64(len_lo, len_hi), true);
	file_release(f);
	if (!NT_SUCCESS(st)) {
		set_last_error_from_status(st);
		return FALSE;
	}
	return TRUE;
}

BOOL WINAPI UnlockFile(HANDLE h, DWORD off_lo, DWORD off_hi, DWORD len_lo, DWORD len_hi)
{
	struct file *f;
	NTSTATUS st;

	if (!(f = lockable(h)))
		return FALSE;
	st = filelock_unlock(f, u64(off_lo, off_hi), u64(len_lo, len_hi));
	file_release(f);
	if (!NT_SUCCESS(st)) {
		set_last_error_from_status(st);
		return FALSE;
	}
	return TRUE;
}

/* Unlocking never pends: the OVERLAPPED only carries the offset. */
BOOL WINAPI UnlockFileEx(HANDLE h, DWORD reserved, DWORD len_lo, DWORD len_hi, LPOVERLAPPED ov)
{
	if (reserved || !ov) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	return UnlockFile(h, ov->Offset, ov->OffsetHigh, len_lo, len_hi);
}

/* Byte-range locks of files (LockFile/LockFileEx), on Linux's open file
 * description locks (F_OFD_SETLK), which conflict between two handles of
 * one file whether they are in one process or two, as Windows' do.
 *
 * Windows' locks do not merge: a handle's exclusive lock conflicts even
 * with that handle's own later requests, a range locked shared twice is
 * unlocked twice, and an unlock must name a locked range exactly.  OFD
 * locks of one description merge, so each file keeps the list of ranges
 * its handles hold, decides conflicts among them itself, and unlocks on
 * Linux only the bytes no other range of its own still covers.
 *
 * Zero-length ranges are recorded and conflict with nothing.  Ranges are
 * cut at the largest Linux offset (2^63 - 1).
 *
 * Locks are advisory for I/O: ReadFile and WriteFile do not look at them
 * (Linux has no mandatory locks, and a check per transfer would cost
 * every program a system call). */
#ifndef NDSHIM_FILELOCK_H
#define NDSHIM_FILELOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <windef.h>
#include <winternl.h>

struct file;

/* [off, off + len) for f, at once: STATUS_SUCCESS, STATUS_LOCK_NOT_GRANTED
 * when another handle's range (or one of f's own) is in the way, or what
 * else Linux said. */
NTSTATUS filelock_try(struct file *f, uint64_t off, uint64_t len, bool exclusive);

/* Releases the range f holds at exactly [off, off + len):
 * STATUS_RANGE_NOT_LOCKED when it holds none. */
NTSTATUS filelock_unlock(struct file *f, uint64_t off, uint64_t len);

/* Everything f holds goes (its last handle is closing). */
void filelock_forget(struct file *f);

/* Sleeps until a range of this process is unlocked, or ms pass: what a
 * request that must wait does between tries (Linux does not tell when
 * another process unlocks; OFD's blocking form would hold up the unlocks
 * of one's own other threads). */
void filelock_wait(unsigned int ms);

#endif

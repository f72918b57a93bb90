/* Synchronous I/O in progress, per thread, for CancelSynchronousIo.
 *
 * A thread that may block in a synchronous request brackets the wait:
 *   - on a file descriptor (anonymous pipes, FIFOs, terminals, sockets):
 *       syncio_begin_fd(); loop { if (syncio_cancelled()) abort;
 *       read/write/poll; retry on EINTR } syncio_end();
 *     A cancel interrupts the system call with a signal (no SA_RESTART).
 *     A call that transferred data returns its count, never EINTR, so a
 *     cancel can only end a call that took nothing: no data is lost.
 *   - on an io target's pending request (named pipes):
 *       syncio_begin_request(t, ov); wait for ov; syncio_end();
 *     A cancel completes the still-pending request with STATUS_CANCELLED
 *     under the target's lock, where the producer also completes it: the
 *     request either got its data or is cancelled, never both.
 * Brackets do not nest; they cost one lock and unlock. */
#ifndef NDSHIM_SYNCIO_H
#define NDSHIM_SYNCIO_H

#include <stdbool.h>
#include <windef.h>
#include <winbase.h>

struct io_target;

void syncio_begin_fd(void);
void syncio_begin_request(struct io_target *t, OVERLAPPED *ov);
/* Inside an fd bracket: a cancel came; the caller fails the call with
 * ERROR_OPERATION_ABORTED without (or instead of retrying) the call. */
bool syncio_cancelled(void);
void syncio_end(void);

/* CancelSynchronousIo on the thread with id tid: true when it was inside
 * a bracket (its call then ends, unless it completes first). */
bool syncio_cancel_thread(DWORD tid);

#endif

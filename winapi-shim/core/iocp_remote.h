/* Completion ports seen from another process: what DuplicateHandle
 * gives a process for a port that lives in another one (MS-MPI's
 * shared-memory channel duplicates each peer's port and posts to it to
 * wake that peer).
 *
 * A port's packets, waiters and concurrency stay in the process that
 * made it (core/iocp.c): Microsoft documents a port as "associated with
 * the process that created it and not sharable between processes".
 * What travels is a way to post to it: the write end of a
 * SOCK_SEQPACKET socket pair whose read end a plain pthread of the
 * owner reads, posting each message to the port.  A port gets that
 * channel the first time it leaves its process, never before: a port
 * that stays home pays nothing, and its fast paths (core/iocp_fast.h)
 * never look at it.
 *
 * In the other process, the handle names a "remote port" object
 * holding that write end.  PostQueuedCompletionStatus on it sends one
 * message (key, OVERLAPPED pointer value, byte count, exactly), in the
 * order of the calls; the owner's reader posts them in that order, so
 * they reach the owner's GetQueuedCompletionStatus(Ex) waiters as a
 * local post would.  Removing packets from it, or associating a file
 * with it, is not supported (ERROR_NOT_SUPPORTED): the port is not
 * this process's. */
#ifndef NDSHIM_IOCP_REMOTE_H
#define NDSHIM_IOCP_REMOTE_H

#include <stdbool.h>
#include <windef.h>
#include <winbase.h>

#include "core/object.h"

extern const struct object_ops iocp_remote_ops;

/* The owner's port (iocp_ops) or a remote port: a new descriptor to
 * post through, for another process (the caller closes it once sent).
 * The owner's channel is made on the first call.  -1 with the last
 * error set (ERROR_INVALID_HANDLE for a port whose last handle is
 * closed). */
int iocp_remote_export(struct object *port);

/* A remote port object posting through fd (consumed), one reference;
 * NULL with the last error set. */
struct object *iocp_remote_import(int fd);

/* PostQueuedCompletionStatus on a remote port.  FALSE with the last
 * error set. */
BOOL iocp_remote_post(struct object *remote, ULONG_PTR key, OVERLAPPED *ov, DWORD bytes);

/* For ioapiset's slow paths, after iocp_get failed on h: if h names a
 * remote port, says why the call cannot be made on it (trace and
 * ERROR_NOT_SUPPORTED) and returns true; false otherwise, the last
 * error untouched. */
bool iocp_remote_refuse(HANDLE h, const char *call);

/* iocp.c, when the port's last handle closes: its channel stops (the
 * reader leaves, dropping its reference on the port). */
struct iocp_channel;
void iocp_channel_stop(struct iocp_channel *ch);
/* iocp.c, when the port is destroyed (after the reader left). */
void iocp_channel_free(struct iocp_channel *ch);

#endif

/* CancelSynchronousIo (ioapiset.h): ends the synchronous I/O another
 * thread is blocked in (ReadFile, WriteFile, ConnectNamedPipe on handles
 * without FILE_FLAG_OVERLAPPED); that call fails with
 * ERROR_OPERATION_ABORTED.  How, and why no data is lost: core/syncio.h.
 * Apart from ioapiset.c, which holds the overlapped side (CancelIo,
 * completion ports). */
#include "core/debug.h"
#include "core/handle.h"
#include "core/syncio.h"
#include "core/thread.h"
#include "kernel32/kernel32_private.h"

BOOL WINAPI CancelSynchronousIo(HANDLE h)
{
	struct object *obj = handle_get_access(h, &thread_ops, THREAD_TERMINATE);
	DWORD tid;

	if (!obj)
		return FALSE;
	tid = to_thread(obj)->tid;
	object_unref(obj);
	TRACE(file, "thread %04x\n", (unsigned)tid);
	if (!syncio_cancel_thread(tid)) {
		SetLastError(ERROR_NOT_FOUND);
		return FALSE;
	}
	return TRUE;
}

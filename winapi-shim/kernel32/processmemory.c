/* ReadProcessMemory / WriteProcessMemory (memoryapi.h) on a process
 * handle with PROCESS_VM_READ / PROCESS_VM_WRITE: process_vm_readv and
 * process_vm_writev, which copy without stopping the target and fail
 * cleanly at an unmapped page, as Windows does (ERROR_PARTIAL_COPY with
 * the bytes that were copied, ERROR_NOACCESS when there were none).  The current process goes the same way,
 * so a bad address in it is an error too, never a fault. */
#include <errno.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "core/debug.h"
#include "core/errors.h"
#include "core/handle.h"
#include "core/process.h"
#include "kernel32/kernel32_private.h"

static BOOL copy(HANDLE h, DWORD need, void *local, void *remote, SIZE_T size, SIZE_T *done,
		 bool write)
{
	struct object *obj = handle_get(h, &process_ops);
	struct iovec l = { local, size }, r = { remote, size };
	DWORD access = PROCESS_ALL_ACCESS;
	SIZE_T total = 0;
	pid_t pid;
	ssize_t n;

	if (done)
		*done = 0;
	if (!obj)
		return FALSE;
	if (h != GetCurrentProcess())
		handle_get_info(h, &access, NULL);
	pid = to_process(obj)->pidfd < 0 ? getpid() : to_process(obj)->pid;
	object_unref(obj);
	if (!(access & need)) {
		SetLastError(ERROR_ACCESS_DENIED);
		return FALSE;
	}
	if (!size)
		return TRUE;
	/* The kernel may stop short (at a page it cannot reach, or past
	 * what one call moves): go on until done or refused. */
	while (total < size) {
		l.iov_base = (char *)local + total;
		r.iov_base = (char *)remote + total;
		l.iov_len = r.iov_len = size - total;
		n = write ? process_vm_writev(pid, &l, 1, &r, 1, 0) : process_vm_readv(pid, &l, 1, &r, 1, 0);
		if (n <= 0)
			break;
		total += (SIZE_T)n;
	}
	if (done)
		*done = total;
	if (total == size)
		return TRUE;
	TRACE(process, "%d: %s %p+%#zx: %s after %#zx\n", (int)pid, write ? "write" : "read", remote,
	      (size_t)size, strerror(errno), (size_t)total);
	if (n < 0 && errno == ESRCH)
		SetLastError(ERROR_ACCESS_DENIED); /* it has ended */
	else if (n < 0 && errno == EPERM)
		SetLastError(ERROR_ACCESS_DENIED);
	else
		/* Nothing reachable at all is an access violation (as Wine
		 * reports it); part of it, a partial copy. */
		SetLastError(total ? ERROR_PARTIAL_COPY : ERROR_NOACCESS);
	return FALSE;
}

BOOL WINAPI ReadProcessMemory(HANDLE h, LPCVOID addr, LPVOID buf, SIZE_T size, SIZE_T *done)
{
	return copy(h, PROCESS_VM_READ, buf, (void *)addr, size, done, false);
}

BOOL WINAPI WriteProcessMemory(HANDLE h, LPVOID addr, LPCVOID buf, SIZE_T size, SIZE_T *done)
{
	return copy(h, PROCESS_VM_WRITE, (void *)buf, addr, size, done, true);
}

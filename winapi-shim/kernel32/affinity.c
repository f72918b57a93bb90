/* Processor affinity: real sched_setaffinity on the threads' tids.
 * Linux has only per-thread masks; the process mask is ours, applied to
 * every live thread when set and used to validate thread masks. */
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include "core/debug.h"
#include "core/handle.h"
#include "core/process.h"
#include "core/thread.h"
#include "kernel32/kernel32_private.h"

static pthread_once_t masks_once = PTHREAD_ONCE_INIT;
static DWORD_PTR system_mask, process_mask; /* process_mask: thread list lock */

static DWORD_PTR mask_from_set(const cpu_set_t *set)
{
	DWORD_PTR mask = 0;

	for (int i = 0; i < 64; i++)
		if (CPU_ISSET(i, set))
			mask |= (DWORD_PTR)1 << i;
	return mask;
}

static void set_from_mask(cpu_set_t *set, DWORD_PTR mask)
{
	CPU_ZERO(set);
	for (int i = 0; i < 64; i++)
		if (mask & ((DWORD_PTR)1 << i))
			CPU_SET(i, set);
}

static void init_masks(void)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	cpu_set_t set;

	system_mask = n >= 64 ? ~(DWORD_PTR)0 : (((DWORD_PTR)1 << n) - 1);
	process_mask = system_mask;
	if (!sched_getaffinity(0, sizeof(set), &set))
		process_mask = mask_from_set(&set) & system_mask;
}

static bool is_current_process(HANDLE h)
{
	struct object *obj = handle_get(h, &process_ops);
	bool self;

	if (!obj)
		return false;
	/* Other processes' affinity is theirs to set. */
	self = to_process(obj)->pidfd < 0;
	object_unref(obj);
	if (!self)
		SetLastError(ERROR_ACCESS_DENIED);
	return self;
}

BOOL WINAPI GetProcessAffinityMask(HANDLE process, PDWORD_PTR proc_mask, PDWORD_PTR sys_mask)
{
	if (!is_current_process(process))
		return FALSE;
	pthread_once(&masks_once, init_masks);
	thread_list_lock();
	if (proc_mask)
		*proc_mask = process_mask;
	thread_list_unlock();
	if (sys_mask)
		*sys_mask = system_mask;
	return TRUE;
}

static void apply_to_thread(TEB *teb, void *ctx)
{
	cpu_set_t *set = ctx;

	sched_setaffinity((pid_t)(ULONG_PTR)teb->ClientId.UniqueThread, sizeof(*set), set);
}

BOOL WINAPI SetProcessAffinityMask(HANDLE process, DWORD_PTR mask)
{
	cpu_set_t set;

	TRACE(thread, "%p, %#lx\n", process, (unsigned long)mask);
	if (!is_current_process(process))
		return FALSE;
	pthread_once(&masks_once, init_masks);
	if (!mask || (mask & ~system_mask)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	set_from_mask(&set, mask);
	thread_list_lock();
	process_mask = mask;
	thread_for_each_teb(apply_to_thread, &set);
	thread_list_unlock();
	return TRUE;
}

DWORD_PTR WINAPI SetThreadAffinityMask(HANDLE h, DWORD_PTR mask)
{
	struct object *obj = handle_get(h, &thread_ops);
	DWORD_PTR prev = 0;
	cpu_set_t set;
	pid_t tid;

	TRACE(thread, "%p, %#lx\n", h, (unsigned long)mask);
	if (!obj)
		return 0;
	tid = (pid_t)to_thread(obj)->tid;
	object_unref(obj);
	pthread_once(&masks_once, init_masks);
	thread_list_lock();
	if (!mask || (mask & ~process_mask)) {
		thread_list_unlock();
		SetLastError(ERROR_INVALID_PARAMETER);
		return 0;
	}
	thread_list_unlock();
	if (sched_getaffinity(tid, sizeof(set), &set)) {
		SetLastError(ERROR_INVALID_HANDLE); /* the thread has ended */
		return 0;
	}
	prev = mask_from_set(&set);
	set_from_mask(&set, mask);
	if (sched_setaffinity(tid, sizeof(set), &set)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return 0;
	}
	return prev;
}

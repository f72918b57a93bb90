/* Processor affinity: real sched_setaffinity on the threads' tids, with
 * Windows processor numbers translated through core/topology.h.
 *
 * Linux has only per-thread masks; the process mask is ours (a Linux CPU
 * set), taken from the affinity ndrun started with, applied to every live
 * thread when set and used to validate thread masks.  A Windows thread
 * runs in one group; a Linux thread's set may span several (as it does
 * on a machine of more than 64 CPUs before anyone sets it), and Windows
 * is told the lowest group it holds. */
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "core/debug.h"
#include "core/handle.h"
#include "core/process.h"
#include "core/thread.h"
#include "core/topology.h"
#include "kernel32/kernel32_private.h"

static pthread_once_t masks_once = PTHREAD_ONCE_INIT;
static cpu_set_t process_set; /* thread list lock */

static void init_masks(void)
{
	const struct topology *t = topology_get();

	if (sched_getaffinity(0, sizeof(process_set), &process_set))
		topology_cpuset_from_mask(t, 0, t->group_mask[0], &process_set);
}

/* The lowest group holding a CPU of set (0 when none does). */
static unsigned int group_of(const struct topology *t, const cpu_set_t *set)
{
	for (unsigned int g = 0; g < t->ngroups; g++)
		if (topology_mask_from_cpuset(t, g, set))
			return g;
	return 0;
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
	const struct topology *t = topology_get();
	unsigned int group;

	if (!is_current_process(process))
		return FALSE;
	pthread_once(&masks_once, init_masks);
	thread_list_lock();
	group = group_of(t, &process_set);
	if (proc_mask)
		*proc_mask = topology_mask_from_cpuset(t, group, &process_set);
	thread_list_unlock();
	if (sys_mask)
		*sys_mask = t->group_mask[group];
	return TRUE;
}

static void apply_to_thread(TEB *teb, void *ctx)
{
	cpu_set_t *set = ctx;

	sched_setaffinity((pid_t)(ULONG_PTR)teb->ClientId.UniqueThread, sizeof(*set), set);
}

BOOL WINAPI SetProcessAffinityMask(HANDLE process, DWORD_PTR mask)
{
	const struct topology *t = topology_get();
	unsigned int group;
	cpu_set_t set;

	TRACE(thread, "%p, %#lx\n", process, (unsigned long)mask);
	if (!is_current_process(process))
		return FALSE;
	pthread_once(&masks_once, init_masks);
	thread_list_lock();
	group = group_of(t, &process_set);
	if (!mask || (mask & ~t->group_mask[group])) {
		thread_list_unlock();
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	topology_cpuset_from_mask(t, group, mask, &set);
	process_set = set;
	thread_for_each_teb(apply_to_thread, &set);
	thread_list_unlock();
	return TRUE;
}

/* The Linux tid of thread handle h; 0 with the last error set. */
static pid_t thread_tid(HANDLE h)
{
	struct object *obj = handle_get(h, &thread_ops);
	pid_t tid;

	if (!obj)
		return 0;
	tid = (pid_t)to_thread(obj)->tid;
	object_unref(obj);
	return tid;
}

static bool get_group_affinity(pid_t tid, GROUP_AFFINITY *ga)
{
	const struct topology *t = topology_get();
	cpu_set_t set;

	if (sched_getaffinity(tid, sizeof(set), &set)) {
		SetLastError(ERROR_INVALID_HANDLE); /* the thread has ended */
		return false;
	}
	memset(ga, 0, sizeof(*ga));
	ga->Group = (WORD)group_of(t, &set);
	ga->Mask = topology_mask_from_cpuset(t, ga->Group, &set);
	return true;
}

/* Thread tid onto mask of group, which must be processors the process
 * may use; its previous affinity into *prev. */
static bool set_group_affinity(pid_t tid, unsigned int group, DWORD_PTR mask, GROUP_AFFINITY *prev)
{
	const struct topology *t = topology_get();
	GROUP_AFFINITY old;
	uint64_t allowed;
	cpu_set_t set;

	pthread_once(&masks_once, init_masks);
	if (!get_group_affinity(tid, &old))
		return false;
	if (group >= t->ngroups || !mask || (mask & ~t->group_mask[group])) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return false;
	}
	topology_cpuset_from_mask(t, group, mask, &set);
	thread_list_lock();
	allowed = topology_mask_from_cpuset(t, group, &process_set);
	thread_list_unlock();
	if (mask & ~allowed) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return false;
	}
	if (sched_setaffinity(tid, sizeof(set), &set)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return false;
	}
	if (prev)
		*prev = old;
	return true;
}

DWORD_PTR WINAPI SetThreadAffinityMask(HANDLE h, DWORD_PTR mask)
{
	GROUP_AFFINITY prev;
	pid_t tid;

	TRACE(thread, "%p, %#lx\n", h, (unsigned long)mask);
	if (!(tid = thread_tid(h)) || !get_group_affinity(tid, &prev))
		return 0;
	/* The mask is in the thread's group. */
	if (!set_group_affinity(tid, prev.Group, mask, &prev))
		return 0;
	return prev.Mask;
}

BOOL WINAPI GetThreadGroupAffinity(HANDLE h, GROUP_AFFINITY *affinity)
{
	pid_t tid;

	if (!affinity) {
		SetLastError(ERROR_NOACCESS);
		return FALSE;
	}
	if (!(tid = thread_tid(h)))
		return FALSE;
	return get_group_affinity(tid, affinity);
}

BOOL WINAPI SetThreadGroupAffinity(HANDLE h, const GROUP_AFFINITY *affinity, GROUP_AFFINITY *prev)
{
	pid_t tid;

	if (!affinity) {
		SetLastError(ERROR_NOACCESS);
		return FALSE;
	}
	TRACE(thread, "%p, group %u mask %#lx\n", h, affinity->Group, (unsigned long)affinity->Mask);
	if (affinity->Reserved[0] || affinity->Reserved[1] || affinity->Reserved[2]) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!(tid = thread_tid(h)))
		return FALSE;
	return set_group_affinity(tid, affinity->Group, affinity->Mask, prev);
}

/* The groups the process's affinity reaches (the current process only,
 * as GetProcessAffinityMask). */
BOOL WINAPI GetProcessGroupAffinity(HANDLE process, PUSHORT count, PUSHORT groups)
{
	const struct topology *t = topology_get();
	USHORT list[TOPO_MAX_GROUPS], n = 0;

	if (!count) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!is_current_process(process))
		return FALSE;
	pthread_once(&masks_once, init_masks);
	thread_list_lock();
	for (unsigned int g = 0; g < t->ngroups; g++)
		if (topology_mask_from_cpuset(t, g, &process_set))
			list[n++] = (USHORT)g;
	thread_list_unlock();
	if (!n)
		list[n++] = 0;
	if (*count < n || !groups) {
		*count = n;
		SetLastError(ERROR_INSUFFICIENT_BUFFER);
		return FALSE;
	}
	memcpy(groups, list, n * sizeof(*list));
	*count = n;
	return TRUE;
}

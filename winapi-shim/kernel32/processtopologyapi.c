/* Processor groups and processor numbers (winbase.h /
 * processtopologyapi.h), from the machine's topology (core/topology.h).
 *
 * The ideal processor is a scheduling hint Linux has no counterpart for:
 * it is kept per thread and reported back, and does not move the thread
 * (its affinity does). */
#include <sched.h>
#include <stdatomic.h>

#include "core/debug.h"
#include "core/handle.h"
#include "core/thread.h"
#include "core/topology.h"
#include "kernel32/kernel32_private.h"

DWORD WINAPI GetActiveProcessorCount(WORD group)
{
	const struct topology *t = topology_get();

	if (group == ALL_PROCESSOR_GROUPS)
		return t->ncpus;
	if (group >= t->ngroups) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return 0;
	}
	return t->group_count[group];
}

/* Hot-added processors are not foreseen: the maximum is what is online. */
DWORD WINAPI GetMaximumProcessorCount(WORD group)
{
	return GetActiveProcessorCount(group);
}

WORD WINAPI GetActiveProcessorGroupCount(void)
{
	return (WORD)topology_get()->ngroups;
}

WORD WINAPI GetMaximumProcessorGroupCount(void)
{
	return GetActiveProcessorGroupCount();
}

VOID WINAPI GetCurrentProcessorNumberEx(PPROCESSOR_NUMBER number)
{
	const struct topo_cpu *cpu = topology_cpu_from_linux(topology_get(), sched_getcpu());

	/* A CPU brought online after start-up is no processor; say 0. */
	number->Group = cpu ? (WORD)cpu->group : 0;
	number->Number = cpu ? (BYTE)cpu->number : 0;
	number->Reserved = 0;
}

DWORD WINAPI GetCurrentProcessorNumber(void)
{
	PROCESSOR_NUMBER pn;

	GetCurrentProcessorNumberEx(&pn);
	return pn.Number;
}

static bool valid_processor(const PROCESSOR_NUMBER *pn)
{
	return !pn->Reserved && topology_cpu(topology_get(), pn->Group, pn->Number);
}

BOOL WINAPI GetThreadIdealProcessorEx(HANDLE h, PPROCESSOR_NUMBER ideal)
{
	struct object *obj = handle_get(h, &thread_ops);
	unsigned int v;

	if (!obj)
		return FALSE;
	v = atomic_load(&to_thread(obj)->ideal_processor);
	object_unref(obj);
	if (!ideal) {
		SetLastError(ERROR_NOACCESS);
		return FALSE;
	}
	ideal->Group = (WORD)(v >> 8);
	ideal->Number = (BYTE)v;
	ideal->Reserved = 0;
	return TRUE;
}

BOOL WINAPI SetThreadIdealProcessorEx(HANDLE h, PPROCESSOR_NUMBER ideal, PPROCESSOR_NUMBER prev)
{
	struct object *obj = handle_get(h, &thread_ops);
	unsigned int old;

	if (!obj)
		return FALSE;
	if (!ideal || !valid_processor(ideal)) {
		object_unref(obj);
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	TRACE(thread, "%p, %u:%u\n", h, ideal->Group, ideal->Number);
	old = atomic_exchange(&to_thread(obj)->ideal_processor, (unsigned int)ideal->Group << 8 | ideal->Number);
	object_unref(obj);
	if (prev) {
		prev->Group = (WORD)(old >> 8);
		prev->Number = (BYTE)old;
		prev->Reserved = 0;
	}
	return TRUE;
}

/* MAXIMUM_PROCESSORS asks for the ideal processor without changing it. */
DWORD WINAPI SetThreadIdealProcessor(HANDLE h, DWORD number)
{
	PROCESSOR_NUMBER pn, prev;

	if (!GetThreadIdealProcessorEx(h, &pn))
		return (DWORD)-1;
	if (number == MAXIMUM_PROCESSORS)
		return pn.Number;
	if (number > 0xff) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return (DWORD)-1;
	}
	/* The number is in the group of the thread's ideal processor. */
	pn.Number = (BYTE)number;
	if (!SetThreadIdealProcessorEx(h, &pn, &prev))
		return (DWORD)-1;
	return prev.Number;
}

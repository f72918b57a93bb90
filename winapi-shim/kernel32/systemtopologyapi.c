/* NUMA queries (systemtopologyapi.h, winbase.h), from the machine's
 * topology (core/topology.h).  Node numbers are Linux's; a node may
 * hold memory and no processors (its mask is 0). */
#include <sched.h>
#include <string.h>

#include "core/debug.h"
#include "core/topology.h"
#include "kernel32/kernel32_private.h"

/* The group of the processor the calling thread runs on, which the
 * one-group (non-Ex) functions answer for. */
static unsigned int current_group(const struct topology *t)
{
	const struct topo_cpu *cpu = topology_cpu_from_linux(t, sched_getcpu());

	return cpu ? cpu->group : 0;
}

BOOL WINAPI GetNumaHighestNodeNumber(PULONG highest)
{
	if (!highest) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	*highest = topology_get()->highest_node;
	return TRUE;
}

BOOL WINAPI GetNumaNodeProcessorMaskEx(USHORT node, PGROUP_AFFINITY mask)
{
	const struct topo_node *n = topology_node(topology_get(), node);

	if (!n || !mask) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	memset(mask, 0, sizeof(*mask));
	mask->Group = (WORD)n->set.group;
	mask->Mask = n->set.mask;
	return TRUE;
}

BOOL WINAPI GetNumaNodeProcessorMask(UCHAR node, PULONGLONG mask)
{
	const struct topology *t = topology_get();
	const struct topo_node *n = topology_node(t, node);

	if (!n || !mask) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	*mask = n->set.group == current_group(t) ? n->set.mask : 0;
	return TRUE;
}

BOOL WINAPI GetNumaProcessorNodeEx(PPROCESSOR_NUMBER processor, PUSHORT node)
{
	const struct topo_cpu *cpu;

	if (!processor || !node) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	cpu = topology_cpu(topology_get(), processor->Group, processor->Number);
	if (!cpu || processor->Reserved) {
		*node = 0xffff;
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	*node = (USHORT)cpu->node;
	return TRUE;
}

BOOL WINAPI GetNumaProcessorNode(UCHAR processor, PUCHAR node)
{
	const struct topology *t = topology_get();
	const struct topo_cpu *cpu;

	if (!node) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	cpu = topology_cpu(t, current_group(t), processor);
	/* A node above 0xfe has no UCHAR number: the Ex form reports it. */
	if (!cpu || cpu->node > 0xfe) {
		*node = 0xff;
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	*node = (UCHAR)cpu->node;
	return TRUE;
}

BOOL WINAPI GetNumaAvailableMemoryNodeEx(USHORT node, PULONGLONG bytes)
{
	uint64_t free_bytes;

	if (!bytes || !topology_node(topology_get(), node)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!topology_node_free_memory(topology_get(), node, &free_bytes)) {
		SetLastError(ERROR_GEN_FAILURE);
		return FALSE;
	}
	*bytes = free_bytes;
	return TRUE;
}

BOOL WINAPI GetNumaAvailableMemoryNode(UCHAR node, PULONGLONG bytes)
{
	return GetNumaAvailableMemoryNodeEx(node, bytes);
}

/* GetLogicalProcessorInformation(Ex) (sysinfoapi.h): the topology of
 * core/topology.h as Windows' records, with the documented size
 * protocol (ERROR_INSUFFICIENT_BUFFER and the length needed).
 *
 * Records are written in one pass that only counts when there is no
 * room, so the length asked for and the records written cannot
 * disagree.  Order: cores, packages, NUMA nodes, caches, groups. */
#include <sched.h>
#include <stddef.h>
#include <string.h>

#include "core/debug.h"
#include "core/topology.h"
#include "kernel32/kernel32_private.h"

/* The records' builder: bytes needed so far; a record is written only
 * while all of them fit. */
struct out {
	BYTE *buf;
	DWORD size, used;
};

static void *reserve(struct out *o, DWORD len)
{
	void *p = NULL;

	if (o->buf && o->used + len <= o->size) {
		p = o->buf + o->used;
		memset(p, 0, len);
	}
	o->used += len;
	return p;
}

static PROCESSOR_CACHE_TYPE cache_type(enum topo_cache_type type)
{
	switch (type) {
	case TOPO_CACHE_DATA:
		return CacheData;
	case TOPO_CACHE_INSTRUCTION:
		return CacheInstruction;
	default:
		return CacheUnified;
	}
}

static void group_affinity(GROUP_AFFINITY *ga, const struct topo_set *set)
{
	ga->Group = (WORD)set->group;
	ga->Mask = set->mask;
}

/* NUMA_NODE_RELATIONSHIP and CACHE_RELATIONSHIP gained a GroupCount in
 * their last two reserved bytes (Windows 11 SDK); one group each here. */
static void set_group_count(BYTE reserved[20])
{
	reserved[18] = 1;
	reserved[19] = 0;
}

#define EX_HEADER offsetof(SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX, Processor)

static void ex_processor(struct out *o, LOGICAL_PROCESSOR_RELATIONSHIP rel, BYTE flags, const struct topo_set *sets,
			 unsigned int nsets)
{
	DWORD len = EX_HEADER + offsetof(PROCESSOR_RELATIONSHIP, GroupMask) + nsets * sizeof(GROUP_AFFINITY);
	SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX *r = reserve(o, len);

	if (!r)
		return;
	r->Relationship = rel;
	r->Size = len;
	r->Processor.Flags = flags;
	r->Processor.GroupCount = (WORD)nsets;
	for (unsigned int i = 0; i < nsets; i++)
		group_affinity(&r->Processor.GroupMask[i], &sets[i]);
}

static void ex_records(struct out *o, const struct topology *t, LOGICAL_PROCESSOR_RELATIONSHIP rel)
{
	bool all = rel == RelationAll;

	if (all || rel == RelationProcessorCore)
		for (unsigned int i = 0; i < t->ncores; i++)
			ex_processor(o, RelationProcessorCore, t->cores[i].threads > 1 ? LTP_PC_SMT : 0,
				     &t->cores[i].set, 1);
	if (all || rel == RelationProcessorPackage)
		for (unsigned int i = 0; i < t->npackages; i++)
			ex_processor(o, RelationProcessorPackage, 0, t->packages[i].sets, t->packages[i].nsets);
	if (all || rel == RelationNumaNode || rel == RelationNumaNodeEx)
		for (unsigned int i = 0; i < t->nnodes; i++) {
			DWORD len = EX_HEADER + sizeof(NUMA_NODE_RELATIONSHIP);
			SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX *r = reserve(o, len);

			if (!r)
				continue;
			r->Relationship = RelationNumaNode;
			r->Size = len;
			r->NumaNode.NodeNumber = t->nodes[i].id;
			set_group_count(r->NumaNode.Reserved);
			group_affinity(&r->NumaNode.GroupMask, &t->nodes[i].set);
		}
	if (all || rel == RelationCache)
		for (unsigned int i = 0; i < t->ncaches; i++) {
			const struct topo_cache *c = &t->caches[i];
			DWORD len = EX_HEADER + sizeof(CACHE_RELATIONSHIP);
			SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX *r = reserve(o, len);

			if (!r)
				continue;
			r->Relationship = RelationCache;
			r->Size = len;
			r->Cache.Level = (BYTE)c->level;
			r->Cache.Associativity = (BYTE)c->ways;
			r->Cache.LineSize = (WORD)c->line;
			r->Cache.CacheSize = c->size;
			r->Cache.Type = cache_type(c->type);
			set_group_count(r->Cache.Reserved);
			group_affinity(&r->Cache.GroupMask, &c->set);
		}
	if (all || rel == RelationGroup) {
		DWORD len = EX_HEADER + offsetof(GROUP_RELATIONSHIP, GroupInfo) + t->ngroups * sizeof(PROCESSOR_GROUP_INFO);
		SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX *r = reserve(o, len);

		if (r) {
			r->Relationship = RelationGroup;
			r->Size = len;
			r->Group.MaximumGroupCount = r->Group.ActiveGroupCount = (WORD)t->ngroups;
			for (unsigned int g = 0; g < t->ngroups; g++) {
				PROCESSOR_GROUP_INFO *gi = &r->Group.GroupInfo[g];

				gi->MaximumProcessorCount = gi->ActiveProcessorCount = (BYTE)t->group_count[g];
				gi->ActiveProcessorMask = t->group_mask[g];
			}
		}
	}
}

/* The size protocol both functions share. */
static BOOL finish(struct out *o, PDWORD len)
{
	if (o->used > o->size) {
		*len = o->used;
		SetLastError(ERROR_INSUFFICIENT_BUFFER);
		return FALSE;
	}
	*len = o->used;
	return TRUE;
}

BOOL WINAPI GetLogicalProcessorInformationEx(LOGICAL_PROCESSOR_RELATIONSHIP rel,
					     PSYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX buf, PDWORD len)
{
	struct out o = { (BYTE *)buf, 0, 0 };

	TRACE(misc, "%d, %p, %lu\n", rel, buf, len ? (unsigned long)*len : 0ul);
	if (!len) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	switch (rel) {
	case RelationProcessorCore:
	case RelationNumaNode:
	case RelationCache:
	case RelationProcessorPackage:
	case RelationGroup:
	case RelationNumaNodeEx:
	case RelationAll:
		break;
	default:
		/* Dies and modules are not read from sysfs (yet): refused,
		 * not answered empty. */
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	o.size = *len;
	if (!buf && o.size) {
		SetLastError(ERROR_NOACCESS);
		return FALSE;
	}
	ex_records(&o, topology_get_full(), rel);
	return finish(&o, len);
}

static SYSTEM_LOGICAL_PROCESSOR_INFORMATION *record(struct out *o, ULONG_PTR mask,
						    LOGICAL_PROCESSOR_RELATIONSHIP rel)
{
	SYSTEM_LOGICAL_PROCESSOR_INFORMATION *r = reserve(o, sizeof(*r));

	if (r) {
		r->ProcessorMask = mask;
		r->Relationship = rel;
	}
	return r;
}

/* Only the calling thread's group, as Windows answers. */
BOOL WINAPI GetLogicalProcessorInformation(PSYSTEM_LOGICAL_PROCESSOR_INFORMATION buf, PDWORD len)
{
	const struct topology *t = topology_get_full();
	const struct topo_cpu *cpu = topology_cpu_from_linux(t, sched_getcpu());
	unsigned int group = cpu ? cpu->group : 0;
	struct out o = { (BYTE *)buf, 0, 0 };
	SYSTEM_LOGICAL_PROCESSOR_INFORMATION *r;

	if (!len) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	o.size = *len;
	if (!buf && o.size) {
		SetLastError(ERROR_NOACCESS);
		return FALSE;
	}
	for (unsigned int i = 0; i < t->ncores; i++)
		if (t->cores[i].set.group == group && (r = record(&o, t->cores[i].set.mask, RelationProcessorCore)))
			r->ProcessorCore.Flags = t->cores[i].threads > 1 ? LTP_PC_SMT : 0;
	for (unsigned int i = 0; i < t->npackages; i++)
		for (unsigned int s = 0; s < t->packages[i].nsets; s++)
			if (t->packages[i].sets[s].group == group)
				record(&o, t->packages[i].sets[s].mask, RelationProcessorPackage);
	for (unsigned int i = 0; i < t->nnodes; i++)
		if (t->nodes[i].set.group == group && t->nodes[i].set.mask &&
		    (r = record(&o, t->nodes[i].set.mask, RelationNumaNode)))
			r->NumaNode.NodeNumber = t->nodes[i].id;
	for (unsigned int i = 0; i < t->ncaches; i++) {
		const struct topo_cache *c = &t->caches[i];

		if (c->set.group != group || !(r = record(&o, c->set.mask, RelationCache)))
			continue;
		r->Cache.Level = (BYTE)c->level;
		r->Cache.Associativity = (BYTE)c->ways;
		r->Cache.LineSize = (WORD)c->line;
		r->Cache.Size = c->size;
		r->Cache.Type = cache_type(c->type);
	}
	return finish(&o, len);
}

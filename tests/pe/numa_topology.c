/* NUMA nodes, processor groups and logical processor information agree
 * with each other (node masks partition each group's active processors,
 * every processor's node holds it, the records of
 * GetLogicalProcessorInformation(Ex) cover the processors once per kind),
 * the ERROR_INSUFFICIENT_BUFFER size protocol, and thread affinity that
 * is applied (a thread bound to one processor runs there).
 *
 * Wine (9.x/10.x) answers the NUMA queries from a stub: the node
 * functions other than GetNumaHighestNodeNumber fail (or report no
 * processors), unknown relationships are accepted, and the Ex ideal
 * processor functions are not implemented; those checks are todo_wine. */
#include <windows.h>

#include "test.h"

static int popcount(ULONG_PTR m)
{
	return __builtin_popcountll(m);
}

static WORD ngroups;
static KAFFINITY group_mask[64];

static void test_groups(void)
{
	DWORD total = 0;

	ngroups = GetActiveProcessorGroupCount();
	ok(ngroups >= 1 && ngroups <= 64, "groups %u\n", ngroups);
	ok(GetMaximumProcessorGroupCount() >= ngroups, "maximum groups %u\n", GetMaximumProcessorGroupCount());
	for (WORD g = 0; g < ngroups; g++) {
		DWORD n = GetActiveProcessorCount(g);

		ok(n >= 1 && n <= 64, "group %u: %lu processors\n", g, n);
		ok(GetMaximumProcessorCount(g) >= n, "group %u: maximum %lu\n", g, GetMaximumProcessorCount(g));
		total += n;
	}
	ok(GetActiveProcessorCount(ALL_PROCESSOR_GROUPS) == total, "all groups %lu, sum %lu\n",
	   GetActiveProcessorCount(ALL_PROCESSOR_GROUPS), total);
}

/* A buffer filled by the size protocol: NULL and 0 first, then one
 * byte short, then the size asked for. */
static void *query_ex(LOGICAL_PROCESSOR_RELATIONSHIP rel, DWORD *len)
{
	void *buf;
	DWORD need = 0, n;
	BOOL r;

	SetLastError(0xdeadbeef);
	r = GetLogicalProcessorInformationEx(rel, NULL, &need);
	ok(!r && GetLastError() == ERROR_INSUFFICIENT_BUFFER, "rel %d: NULL buffer: %d, error %lu\n", rel, r,
	   GetLastError());
	ok(need > 0, "rel %d: needs %lu bytes\n", rel, need);
	buf = HeapAlloc(GetProcessHeap(), 0, need + 64);
	n = need - 1;
	SetLastError(0xdeadbeef);
	r = GetLogicalProcessorInformationEx(rel, buf, &n);
	ok(!r && GetLastError() == ERROR_INSUFFICIENT_BUFFER, "rel %d: short buffer: %d, error %lu\n", rel, r,
	   GetLastError());
	ok(n == need, "rel %d: short buffer: asked %lu, then %lu\n", rel, need, n);
	n = need + 64;
	SetLastError(0xdeadbeef);
	r = GetLogicalProcessorInformationEx(rel, buf, &n);
	ok(r, "rel %d: error %lu\n", rel, GetLastError());
	ok(n == need, "rel %d: returned %lu of %lu\n", rel, n, need);
	*len = n;
	return buf;
}

#define FOR_EACH_EX(p, buf, len)                                                                         \
	for (SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX *p = (buf);                                       \
	     (BYTE *)p < (BYTE *)(buf) + (len) && p->Size;                                              \
	     p = (SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX *)((BYTE *)p + p->Size))

static void test_group_record(void)
{
	DWORD len, walked = 0, records = 0;
	SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX *buf = query_ex(RelationGroup, &len);

	FOR_EACH_EX(p, buf, len) {
		walked += p->Size;
		records++;
		ok(p->Relationship == RelationGroup, "relationship %d\n", p->Relationship);
		ok(p->Group.ActiveGroupCount == ngroups, "active groups %u, expected %u\n", p->Group.ActiveGroupCount,
		   ngroups);
		ok(p->Group.MaximumGroupCount >= p->Group.ActiveGroupCount, "maximum groups %u\n",
		   p->Group.MaximumGroupCount);
		for (WORD g = 0; g < p->Group.ActiveGroupCount && g < 64; g++) {
			PROCESSOR_GROUP_INFO *gi = &p->Group.GroupInfo[g];

			group_mask[g] = gi->ActiveProcessorMask;
			ok(gi->ActiveProcessorCount == GetActiveProcessorCount(g), "group %u: %u processors, %lu\n", g,
			   gi->ActiveProcessorCount, GetActiveProcessorCount(g));
			ok(popcount(gi->ActiveProcessorMask) == gi->ActiveProcessorCount, "group %u: mask %#llx\n", g,
			   (unsigned long long)gi->ActiveProcessorMask);
		}
	}
	ok(records == 1, "%lu group records\n", records);
	ok(walked == len, "records cover %lu of %lu bytes\n", walked, len);
	HeapFree(GetProcessHeap(), 0, buf);
}

/* Records of one kind whose group masks partition the active processors
 * (cores, packages, nodes). */
static void check_partition(LOGICAL_PROCESSOR_RELATIONSHIP rel)
{
	KAFFINITY seen[64] = { 0 };
	DWORD len, walked = 0;
	SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX *buf = query_ex(rel, &len);

	FOR_EACH_EX(p, buf, len) {
		const GROUP_AFFINITY *masks;
		WORD n;

		walked += p->Size;
		ok(p->Relationship == rel, "rel %d: relationship %d\n", rel, p->Relationship);
		if (rel == RelationNumaNode) {
			GROUP_AFFINITY ga;

			masks = &p->NumaNode.GroupMask;
			n = 1;
			ok_todo_wine(GetNumaNodeProcessorMaskEx((USHORT)p->NumaNode.NodeNumber, &ga), "node %lu: error %lu\n",
			   p->NumaNode.NodeNumber, GetLastError());
			ok_todo_wine(ga.Mask == masks->Mask && (!ga.Mask || ga.Group == masks->Group),
			   "node %lu: %u:%#llx, record %u:%#llx\n", p->NumaNode.NodeNumber, ga.Group,
			   (unsigned long long)ga.Mask, masks->Group, (unsigned long long)masks->Mask);
		} else {
			masks = p->Processor.GroupMask;
			n = p->Processor.GroupCount;
			ok(n >= 1, "rel %d: no group\n", rel);
			ok(p->Size >= FIELD_OFFSET(SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX, Processor.GroupMask) +
					       n * sizeof(GROUP_AFFINITY),
			   "rel %d: size %lu for %u groups\n", rel, p->Size, n);
			if (rel == RelationProcessorCore) {
				ok(n == 1, "a core in %u groups\n", n);
				ok(!!(p->Processor.Flags & LTP_PC_SMT) == (popcount(masks->Mask) > 1),
				   "core %#llx: flags %#x\n", (unsigned long long)masks->Mask, p->Processor.Flags);
			}
		}
		for (WORD i = 0; i < n; i++) {
			WORD g = masks[i].Group;

			ok(g < ngroups, "rel %d: group %u\n", rel, g);
			if (g >= ngroups)
				continue;
			ok(!(seen[g] & masks[i].Mask), "rel %d: processors %#llx of group %u twice\n", rel,
			   (unsigned long long)(seen[g] & masks[i].Mask), g);
			ok(!(masks[i].Mask & ~group_mask[g]), "rel %d: %#llx is not active in group %u\n", rel,
			   (unsigned long long)masks[i].Mask, g);
			seen[g] |= masks[i].Mask;
		}
	}
	ok(walked == len, "rel %d: records cover %lu of %lu bytes\n", rel, walked, len);
	for (WORD g = 0; g < ngroups; g++)
		ok(seen[g] == group_mask[g], "rel %d: group %u covered %#llx of %#llx\n", rel, g,
		   (unsigned long long)seen[g], (unsigned long long)group_mask[g]);
	HeapFree(GetProcessHeap(), 0, buf);
}

static void test_caches(void)
{
	DWORD len, count = 0, l1 = 0;
	SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX *buf = query_ex(RelationCache, &len);

	FOR_EACH_EX(p, buf, len) {
		CACHE_RELATIONSHIP *c = &p->Cache;

		count++;
		ok(p->Relationship == RelationCache, "relationship %d\n", p->Relationship);
		ok(c->Level >= 1 && c->Level <= 4, "level %u\n", c->Level);
		ok(c->CacheSize > 0 && c->LineSize > 0, "L%u: size %lu, line %u\n", c->Level, c->CacheSize,
		   c->LineSize);
		ok(c->Type <= CacheTrace, "type %d\n", c->Type);
		ok(c->GroupMask.Group < ngroups && c->GroupMask.Mask &&
			   !(c->GroupMask.Mask & ~group_mask[c->GroupMask.Group]),
		   "L%u: %u:%#llx\n", c->Level, c->GroupMask.Group, (unsigned long long)c->GroupMask.Mask);
		if (c->Level == 1)
			l1++;
	}
	/* A VM may hide its caches; when any is there, so is level 1. */
	ok(!count || l1, "%lu caches, no level 1\n", count);
	if (!count)
		printf("numa_topology: this machine reports no caches\n");
	HeapFree(GetProcessHeap(), 0, buf);
}

static void test_all_and_errors(void)
{
	DWORD len, kinds = 0, n;
	SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX *buf = query_ex(RelationAll, &len);
	BOOL r;

	FOR_EACH_EX(p, buf, len)
		if (p->Relationship <= RelationGroup)
			kinds |= 1u << p->Relationship;
	ok((kinds & 0x1b) == 0x1b, "RelationAll kinds %#lx\n", kinds);
	HeapFree(GetProcessHeap(), 0, buf);

	n = 0;
	SetLastError(0xdeadbeef);
	r = GetLogicalProcessorInformationEx((LOGICAL_PROCESSOR_RELATIONSHIP)99, NULL, &n);
	ok_todo_wine(!r && GetLastError() == ERROR_INVALID_PARAMETER, "relation 99: %d, error %lu\n", r, GetLastError());
}

static void test_old_info(void)
{
	SYSTEM_LOGICAL_PROCESSOR_INFORMATION *buf;
	KAFFINITY cores = 0, nodes = 0;
	PROCESSOR_NUMBER pn;
	DWORD need = 0, n;
	BOOL r;

	SetLastError(0xdeadbeef);
	r = GetLogicalProcessorInformation(NULL, &need);
	ok(!r && GetLastError() == ERROR_INSUFFICIENT_BUFFER, "NULL buffer: %d, error %lu\n", r, GetLastError());
	ok(need && need % sizeof(*buf) == 0, "needs %lu bytes\n", need);
	buf = HeapAlloc(GetProcessHeap(), 0, need);
	n = need - sizeof(*buf);
	SetLastError(0xdeadbeef);
	r = GetLogicalProcessorInformation(buf, &n);
	ok(!r && GetLastError() == ERROR_INSUFFICIENT_BUFFER && n == need, "short buffer: %d, error %lu, %lu\n", r,
	   GetLastError(), n);
	n = need;
	ok(GetLogicalProcessorInformation(buf, &n), "error %lu\n", GetLastError());
	ok(n == need, "returned %lu of %lu\n", n, need);
	for (DWORD i = 0; i < n / sizeof(*buf); i++) {
		if (buf[i].Relationship == RelationProcessorCore) {
			ok(!(cores & buf[i].ProcessorMask), "core %#llx twice\n", (unsigned long long)buf[i].ProcessorMask);
			cores |= buf[i].ProcessorMask;
		} else if (buf[i].Relationship == RelationNumaNode) {
			ULONGLONG m = 0;

			ok_todo_wine(GetNumaNodeProcessorMask((UCHAR)buf[i].NumaNode.NodeNumber, &m) && m == buf[i].ProcessorMask,
			   "node %lu: %#llx, record %#llx\n", buf[i].NumaNode.NodeNumber, m,
			   (unsigned long long)buf[i].ProcessorMask);
			nodes |= buf[i].ProcessorMask;
		}
	}
	/* The calling thread's group only. */
	GetCurrentProcessorNumberEx(&pn);
	ok(cores == group_mask[pn.Group], "cores %#llx, group %u %#llx\n", (unsigned long long)cores, pn.Group,
	   (unsigned long long)group_mask[pn.Group]);
	ok(nodes == group_mask[pn.Group], "nodes %#llx\n", (unsigned long long)nodes);
	HeapFree(GetProcessHeap(), 0, buf);
}

static void test_nodes(void)
{
	ULONG highest = 0xdeadbeef;
	ULONGLONG bytes = 0;
	MEMORYSTATUSEX ms;
	GROUP_AFFINITY ga;
	USHORT node;
	UCHAR node8;
	DWORD err;
	BOOL r;

	ok(GetNumaHighestNodeNumber(&highest), "error %lu\n", GetLastError());
	ok(highest < 1024, "highest node %lu\n", highest);
	SetLastError(0xdeadbeef);
	r = GetNumaNodeProcessorMaskEx((USHORT)(highest + 1), &ga);
	ok_todo_wine(!r && GetLastError() == ERROR_INVALID_PARAMETER, "node %lu: %d, error %lu\n", highest + 1, r,
	   GetLastError());

	/* Each processor's node holds it. */
	for (WORD g = 0; g < ngroups; g++)
		for (BYTE i = 0; i < 64; i++) {
			PROCESSOR_NUMBER pn = { g, i, 0 };

			if (!(group_mask[g] & (1ull << i)))
				continue;
			node = 0xdead;
			ok_todo_wine(GetNumaProcessorNodeEx(&pn, &node), "%u:%u: error %lu\n", g, i, GetLastError());
			ok_todo_wine(node <= highest, "%u:%u: node %u\n", g, i, node);
			ok_todo_wine(GetNumaNodeProcessorMaskEx(node, &ga) && ga.Group == g && (ga.Mask & (1ull << i)),
			   "%u:%u is not in node %u (%u:%#llx)\n", g, i, node, ga.Group, (unsigned long long)ga.Mask);
			if (g == 0) {
				ok_todo_wine(GetNumaProcessorNode(i, &node8) && node8 == node, "%u: node %u\n", i, node8);
			}
		}
	{
		PROCESSOR_NUMBER bad = { 0, (BYTE)GetActiveProcessorCount(0), 0 };

		node = 0;
		SetLastError(0xdeadbeef);
		r = GetNumaProcessorNodeEx(&bad, &node);
		err = GetLastError(); /* ok_todo_wine's own calls change it */
		ok_todo_wine(!r && node == 0xffff, "processor %u: %d, node %#x\n", bad.Number, r, node);
		ok_todo_wine(err == ERROR_INVALID_PARAMETER, "error %lu\n", err);
		node8 = 0;
		r = GetNumaProcessorNode(0xff, &node8);
		ok(!r && node8 == 0xff, "processor 255: %d, node %#x\n", r, node8);
	}
	ok_todo_wine(GetNumaAvailableMemoryNodeEx(0, &bytes), "error %lu\n", GetLastError());
	ms.dwLength = sizeof(ms);
	ok(GlobalMemoryStatusEx(&ms), "error %lu\n", GetLastError());
	ok_todo_wine(bytes > 0 && bytes <= ms.ullTotalPhys, "node 0: %llu bytes free of %llu\n", bytes, ms.ullTotalPhys);
	ok_todo_wine(GetNumaAvailableMemoryNode(0, &bytes) && bytes > 0, "error %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	r = GetNumaAvailableMemoryNodeEx((USHORT)(highest + 1), &bytes);
	ok_todo_wine(!r && GetLastError() == ERROR_INVALID_PARAMETER, "node %lu: %d, error %lu\n", highest + 1, r,
	   GetLastError());
}

static DWORD WINAPI report_processor(void *arg)
{
	PROCESSOR_NUMBER *pn = arg;

	Sleep(20); /* the scheduler moves it if it started elsewhere */
	GetCurrentProcessorNumberEx(pn);
	return 0;
}

static void test_affinity(void)
{
	DWORD_PTR proc = 0, sys = 0;
	GROUP_AFFINITY ga, prev, bad;
	PROCESSOR_NUMBER pn;
	HANDLE t;
	BOOL r;

	ok(GetProcessAffinityMask(GetCurrentProcess(), &proc, &sys), "error %lu\n", GetLastError());
	ok(proc && !(proc & ~sys), "process %#llx, system %#llx\n", (unsigned long long)proc,
	   (unsigned long long)sys);
	ok(GetThreadGroupAffinity(GetCurrentThread(), &ga), "error %lu\n", GetLastError());
	ok(ga.Group < ngroups && ga.Mask && !(ga.Mask & ~group_mask[ga.Group]), "thread %u:%#llx\n", ga.Group,
	   (unsigned long long)ga.Mask);

	/* Bound to each processor in turn, the thread runs there. */
	for (BYTE i = 0; i < 64; i++) {
		GROUP_AFFINITY one = { 1ull << i, ga.Group, { 0 } };

		if (!(proc & (1ull << i)))
			continue;
		ok(SetThreadGroupAffinity(GetCurrentThread(), &one, &prev), "processor %u: error %lu\n", i,
		   GetLastError());
		Sleep(1);
		GetCurrentProcessorNumberEx(&pn);
		ok(pn.Group == ga.Group && pn.Number == i, "bound to %u, runs on %u:%u\n", i, pn.Group, pn.Number);
		ok(GetCurrentProcessorNumber() == i, "GetCurrentProcessorNumber %lu\n", GetCurrentProcessorNumber());
	}
	ok(SetThreadGroupAffinity(GetCurrentThread(), &ga, &prev), "error %lu\n", GetLastError());

	bad = ga;
	bad.Group = ngroups;
	SetLastError(0xdeadbeef);
	r = SetThreadGroupAffinity(GetCurrentThread(), &bad, NULL);
	ok(!r && GetLastError() == ERROR_INVALID_PARAMETER, "group %u: %d, error %lu\n", bad.Group, r, GetLastError());
	bad = ga;
	bad.Mask = 0;
	SetLastError(0xdeadbeef);
	r = SetThreadGroupAffinity(GetCurrentThread(), &bad, NULL);
	ok(!r && GetLastError() == ERROR_INVALID_PARAMETER, "mask 0: %d, error %lu\n", r, GetLastError());
	bad = ga;
	bad.Reserved[1] = 1;
	SetLastError(0xdeadbeef);
	r = SetThreadGroupAffinity(GetCurrentThread(), &bad, NULL);
	ok(!r && GetLastError() == ERROR_INVALID_PARAMETER, "reserved: %d, error %lu\n", r, GetLastError());
	if (~group_mask[ga.Group]) {
		bad = ga;
		bad.Mask = ~group_mask[ga.Group];
		SetLastError(0xdeadbeef);
		r = SetThreadGroupAffinity(GetCurrentThread(), &bad, NULL);
		ok(!r && GetLastError() == ERROR_INVALID_PARAMETER, "inactive %#llx: %d, error %lu\n",
		   (unsigned long long)bad.Mask, r, GetLastError());
	}

	/* Another thread's affinity, set before it runs. */
	pn.Group = pn.Number = 0xff;
	t = CreateThread(NULL, 0, report_processor, &pn, CREATE_SUSPENDED, NULL);
	{
		DWORD_PTR highest = 1ull << (63 - __builtin_clzll(proc));

		ok(SetThreadAffinityMask(t, highest) != 0, "error %lu\n", GetLastError());
		ResumeThread(t);
		WaitForSingleObject(t, 5000);
		ok(((DWORD_PTR)1 << pn.Number) == highest, "thread bound to %#llx ran on %u\n",
		   (unsigned long long)highest, pn.Number);
	}
	CloseHandle(t);

	ok(SetProcessAffinityMask(GetCurrentProcess(), proc), "error %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	r = SetProcessAffinityMask(GetCurrentProcess(), 0);
	ok(!r && GetLastError() == ERROR_INVALID_PARAMETER, "mask 0: %d, error %lu\n", r, GetLastError());
}

static void test_ideal_processor(void)
{
	PROCESSOR_NUMBER ideal, prev, bad;
	DWORD cur, r;

	cur = SetThreadIdealProcessor(GetCurrentThread(), MAXIMUM_PROCESSORS);
	ok(cur < GetActiveProcessorCount(ALL_PROCESSOR_GROUPS), "ideal %lu\n", cur);
	r = SetThreadIdealProcessor(GetCurrentThread(), 0);
	ok(r == cur, "previous %lu, expected %lu\n", r, cur);
	ok(SetThreadIdealProcessor(GetCurrentThread(), MAXIMUM_PROCESSORS) == 0, "not set\n");
	if (GetActiveProcessorCount(0) < MAXIMUM_PROCESSORS) {
		DWORD n = GetActiveProcessorCount(0);

		SetLastError(0xdeadbeef);
		r = SetThreadIdealProcessor(GetCurrentThread(), n);
		/* Wine takes any number. */
		ok_todo_wine(r == (DWORD)-1 && GetLastError() == ERROR_INVALID_PARAMETER, "%lu: %lu, error %lu\n", n,
			     r, GetLastError());
	}

	ok_todo_wine(GetThreadIdealProcessorEx(GetCurrentThread(), &ideal), "error %lu\n", GetLastError());
	ok(ideal.Number == 0, "ideal %u:%u\n", ideal.Group, ideal.Number);
	ideal.Number = (BYTE)(GetActiveProcessorCount(ideal.Group) - 1);
	ok_todo_wine(SetThreadIdealProcessorEx(GetCurrentThread(), &ideal, &prev), "error %lu\n", GetLastError());
	ok(prev.Number == 0, "previous %u:%u\n", prev.Group, prev.Number);
	ok_todo_wine(GetThreadIdealProcessorEx(GetCurrentThread(), &prev) && prev.Number == ideal.Number, "ideal %u\n",
	   prev.Number);
	bad = ideal;
	bad.Number = (BYTE)GetActiveProcessorCount(ideal.Group);
	SetLastError(0xdeadbeef);
	ok_todo_wine(!SetThreadIdealProcessorEx(GetCurrentThread(), &bad, NULL) && GetLastError() == ERROR_INVALID_PARAMETER,
	   "processor %u: error %lu\n", bad.Number, GetLastError());
}

int main(void)
{
	test_groups();
	test_group_record();
	check_partition(RelationProcessorCore);
	check_partition(RelationProcessorPackage);
	check_partition(RelationNumaNode);
	test_caches();
	test_all_and_errors();
	test_old_info();
	test_nodes();
	test_affinity();
	test_ideal_processor();
	return test_summary();
}

/* core/topology: Linux's sysfs as Windows' processor groups, nodes, cores,
 * packages and caches, read from fake sysfs trees (interleaved nodes with
 * SMT and an offline CPU, a memory-only node, a kernel without NUMA, and
 * machines of more than 64 CPUs that need two groups). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/topology.h"

static char root[256];

static void put(const char *content, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(const char *content, const char *fmt, ...)
{
	char path[512], *p;
	va_list ap;
	FILE *f;
	int n;

	n = snprintf(path, sizeof(path), "%s/", root);
	va_start(ap, fmt);
	vsnprintf(path + n, sizeof(path) - n, fmt, ap);
	va_end(ap);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = 0;
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

static void make_root(void)
{
	snprintf(root, sizeof(root), "/tmp/ndshim-topology-%d-XXXXXX", (int)getpid());
	assert_non_null(mkdtemp(root));
}

static void remove_root(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

static void cache(int cpu, int index, int level, const char *type, const char *size, int ways, const char *shared)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%d\n", level);
	put(buf, "cpu/cpu%d/cache/index%d/level", cpu, index);
	put(type, "cpu/cpu%d/cache/index%d/type", cpu, index);
	put(size, "cpu/cpu%d/cache/index%d/size", cpu, index);
	put("64\n", "cpu/cpu%d/cache/index%d/coherency_line_size", cpu, index);
	snprintf(buf, sizeof(buf), "%d\n", ways);
	put(buf, "cpu/cpu%d/cache/index%d/ways_of_associativity", cpu, index);
	put(shared, "cpu/cpu%d/cache/index%d/shared_cpu_list", cpu, index);
}

/* Two sockets, one node each, CPUs interleaved between them (node 0:
 * 0,2,4,6; node 1: 1,3,5,7), SMT pairs {0,2} {4,6} {1,3} {5,7}, CPU 7
 * offline, and node 2 with memory only. */
static void make_interleaved(void)
{
	static const char *core_of[8] = { "0,2", "1,3", "0,2", "1,3", "4,6", "5,7", "4,6", "5,7" };

	make_root();
	put("0-6\n", "cpu/online");
	put("0-2\n", "node/online");
	put("0,2,4,6\n", "node/node0/cpulist");
	put("1,3,5,7\n", "node/node1/cpulist");
	put("\n", "node/node2/cpulist");
	put("Node 1 MemTotal:  8388608 kB\nNode 1 MemFree:   4194304 kB\n", "node/node1/meminfo");
	for (int c = 0; c < 8; c++) {
		const char *pkg = c % 2 ? "1,3,5,7\n" : "0,2,4,6\n";

		put(core_of[c], "cpu/cpu%d/topology/core_cpus_list", c);
		put(pkg, "cpu/cpu%d/topology/package_cpus_list", c);
		cache(c, 0, 1, "Data\n", "48K\n", 12, core_of[c]);
		cache(c, 1, 1, "Instruction\n", "32K\n", 8, core_of[c]);
		cache(c, 2, 2, "Unified\n", "1024K\n", 16, core_of[c]);
		cache(c, 3, 3, "Unified\n", "32M\n", 0, pkg);
	}
}

static void test_cpulist(void **state)
{
	cpu_set_t set;

	assert_true(topology_parse_cpulist("0-3,8,10-11\n", &set));
	assert_int_equal(CPU_COUNT(&set), 7);
	assert_true(CPU_ISSET(3, &set) && CPU_ISSET(8, &set) && CPU_ISSET(11, &set) && !CPU_ISSET(9, &set));
	assert_true(topology_parse_cpulist("\n", &set));
	assert_int_equal(CPU_COUNT(&set), 0);
	assert_false(topology_parse_cpulist("3-1", &set));
	assert_false(topology_parse_cpulist("a", &set));
	assert_false(topology_parse_cpulist("1,,2", &set));
	assert_false(topology_parse_cpulist("2-", &set));
	assert_false(topology_parse_cpulist("5000", &set));
}

static const struct topo_cache *find_cache(const struct topology *t, unsigned int level, enum topo_cache_type type,
					   uint64_t mask)
{
	for (unsigned int i = 0; i < t->ncaches; i++)
		if (t->caches[i].level == level && t->caches[i].type == type && t->caches[i].set.mask == mask)
			return &t->caches[i];
	return NULL;
}

static void test_interleaved_smt(void **state)
{
	struct topology *t;
	const struct topo_cache *c;
	uint64_t all = 0, bytes = 0;
	cpu_set_t set;

	make_interleaved();
	t = topology_load(root);
	assert_non_null(t);
	assert_int_equal(t->ngroups, 1);
	assert_int_equal(t->ncpus, 7); /* CPU 7 is offline */
	assert_int_equal(t->group_count[0], 7);
	assert_int_equal(t->group_mask[0], 0x7f);
	/* Node 0's CPUs come first: Linux 0,2,4,6 are processors 0-3. */
	assert_int_equal(topology_cpu_from_linux(t, 4)->number, 2);
	assert_int_equal(topology_cpu_from_linux(t, 1)->number, 4);
	assert_int_equal(topology_cpu_from_linux(t, 5)->number, 6);
	assert_null(topology_cpu_from_linux(t, 7));
	assert_int_equal(topology_cpu(t, 0, 5)->linux_id, 3);
	assert_int_equal(topology_cpu(t, 0, 5)->node, 1);
	assert_null(topology_cpu(t, 0, 7));
	assert_null(topology_cpu(t, 1, 0));

	assert_int_equal(t->nnodes, 3);
	assert_int_equal(t->highest_node, 2);
	assert_int_equal(topology_node(t, 0)->set.mask, 0x0f);
	assert_int_equal(topology_node(t, 1)->set.mask, 0x70);
	assert_int_equal(topology_node(t, 2)->set.mask, 0); /* memory only */
	assert_null(topology_node(t, 3));
	for (unsigned int i = 0; i < t->nnodes; i++) {
		assert_int_equal(all & t->nodes[i].set.mask, 0);
		all |= t->nodes[i].set.mask;
	}
	assert_int_equal(all, t->group_mask[0]);

	/* Cores: three SMT pairs and CPU 5, whose sibling is offline. */
	assert_int_equal(t->ncores, 4);
	assert_int_equal(t->cores[topology_cpu_from_linux(t, 0)->core].set.mask, 0x03);
	assert_int_equal(t->cores[topology_cpu_from_linux(t, 0)->core].threads, 2);
	assert_int_equal(t->cores[topology_cpu_from_linux(t, 3)->core].set.mask, 0x30);
	assert_int_equal(t->cores[topology_cpu_from_linux(t, 5)->core].set.mask, 0x40);
	assert_int_equal(t->cores[topology_cpu_from_linux(t, 5)->core].threads, 1);
	assert_int_equal(t->npackages, 2);
	assert_int_equal(t->packages[topology_cpu_from_linux(t, 6)->package].nsets, 1);
	assert_int_equal(t->packages[topology_cpu_from_linux(t, 6)->package].sets[0].mask, 0x0f);
	assert_int_equal(t->packages[topology_cpu_from_linux(t, 1)->package].sets[0].mask, 0x70);

	/* Caches: L1d, L1i and L2 per core, L3 per package, each once. */
	assert_int_equal(t->ncaches, 4 * 3 + 2);
	c = find_cache(t, 1, TOPO_CACHE_DATA, 0x0c);
	assert_non_null(c);
	assert_int_equal(c->size, 48 * 1024);
	assert_int_equal(c->ways, 12);
	assert_int_equal(c->line, 64);
	assert_non_null(find_cache(t, 1, TOPO_CACHE_INSTRUCTION, 0x40));
	assert_non_null(find_cache(t, 2, TOPO_CACHE_UNIFIED, 0x30));
	c = find_cache(t, 3, TOPO_CACHE_UNIFIED, 0x70);
	assert_non_null(c);
	assert_int_equal(c->size, 32u << 20);
	assert_int_equal(c->ways, 0xff); /* Linux's 0: fully associative */

	/* Affinity in both directions. */
	topology_cpuset_from_mask(t, 0, 0x14, &set);
	assert_int_equal(CPU_COUNT(&set), 2);
	assert_true(CPU_ISSET(4, &set) && CPU_ISSET(1, &set));
	CPU_SET(7, &set); /* offline: no processor */
	assert_int_equal(topology_mask_from_cpuset(t, 0, &set), 0x14);

	assert_true(topology_node_free_memory(t, 1, &bytes));
	assert_int_equal(bytes, 4194304ull * 1024);
	assert_false(topology_node_free_memory(t, 0, &bytes)); /* no meminfo */
	assert_false(topology_node_free_memory(t, 5, &bytes));
	topology_free(t);
	remove_root();
}

/* A kernel without NUMA has no node/: one node 0 of every online CPU;
 * no topology/ or cache/ either: a core per CPU, no caches. */
static void test_no_numa(void **state)
{
	struct topology *t;

	make_root();
	put("0-3\n", "cpu/online");
	t = topology_load(root);
	assert_non_null(t);
	assert_int_equal(t->nnodes, 1);
	assert_int_equal(t->highest_node, 0);
	assert_int_equal(topology_node(t, 0)->set.mask, 0x0f);
	assert_int_equal(t->ncores, 4);
	assert_int_equal(t->cores[2].threads, 1);
	assert_int_equal(t->npackages, 4);
	assert_int_equal(t->ncaches, 0);
	topology_free(t);
	remove_root();
}

/* Two nodes of 40 CPUs: a group holds whole nodes, so node 1 starts
 * group 1.  One node of 80 CPUs is cut at 64. */
static void test_groups(void **state)
{
	struct topology *t;

	make_root();
	put("0-79\n", "cpu/online");
	put("0-1\n", "node/online");
	put("0-39\n", "node/node0/cpulist");
	put("40-79\n", "node/node1/cpulist");
	for (int c = 0; c < 80; c++)
		put("0-79\n", "cpu/cpu%d/topology/package_cpus_list", c);
	t = topology_load(root);
	assert_non_null(t);
	assert_int_equal(t->ngroups, 2);
	assert_int_equal(t->group_count[0], 40);
	assert_int_equal(t->group_count[1], 40);
	assert_int_equal(t->group_mask[1], (1ull << 40) - 1);
	assert_int_equal(topology_node(t, 1)->set.group, 1);
	assert_int_equal(topology_node(t, 1)->set.mask, (1ull << 40) - 1);
	assert_int_equal(topology_cpu_from_linux(t, 41)->group, 1);
	assert_int_equal(topology_cpu_from_linux(t, 41)->number, 1);
	/* The package spans both groups. */
	assert_int_equal(t->npackages, 1);
	assert_int_equal(t->packages[0].nsets, 2);
	topology_free(t);
	remove_root();

	make_root();
	put("0-79\n", "cpu/online");
	t = topology_load(root);
	assert_non_null(t);
	assert_int_equal(t->ngroups, 2);
	assert_int_equal(t->group_count[0], 64);
	assert_int_equal(t->group_mask[0], ~0ull);
	assert_int_equal(t->group_count[1], 16);
	assert_int_equal(topology_cpu(t, 1, 15)->linux_id, 79);
	assert_int_equal(topology_node(t, 0)->set.group, 0);
	assert_int_equal(topology_node(t, 0)->set.mask, ~0ull);
	topology_free(t);
	remove_root();
}

/* What cannot be read is an error, not a guess. */
static void test_unreadable(void **state)
{
	make_root();
	errno = 0;
	assert_null(topology_load(root)); /* no cpu/online */
	assert_int_equal(errno, ENOENT);
	put("0-3\n", "cpu/online");
	put("0-1\n", "node/online");
	put("0-1\n", "node/node0/cpulist");
	/* node 1's cpulist is missing on a NUMA kernel */
	assert_null(topology_load(root));
	remove_root();
}

/* This machine's, for the record: the processors are the online CPUs;
 * the basic one (start-up) has no cores or caches, the full one the same
 * processors and groups with them. */
static void test_this_machine(void **state)
{
	const struct topology *t = topology_get(), *full = topology_get_full();
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	assert_non_null(t);
	assert_int_equal(t->ncpus, online < CPU_SETSIZE ? online : t->ncpus);
	assert_true(t->nnodes >= 1);
	assert_int_equal(t->ncores, 0);
	assert_int_equal(t->ncaches, 0);
	assert_non_null(full);
	assert_int_equal(full->ncpus, t->ncpus);
	assert_int_equal(full->ngroups, t->ngroups);
	assert_int_equal(full->group_mask[0], t->group_mask[0]);
	assert_true(full->ncores >= 1 && full->ncores <= full->ncpus);
	assert_true(full->npackages >= 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpulist),
		cmocka_unit_test(test_interleaved_smt),
		cmocka_unit_test(test_no_numa),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_unreadable),
		cmocka_unit_test(test_this_machine),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

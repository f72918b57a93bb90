/* Reading the processor topology from sysfs (see topology.h for how
 * Linux CPUs become Windows processors). */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/debug.h"
#include "core/topology.h"

bool topology_parse_cpulist(const char *s, cpu_set_t *set)
{
	CPU_ZERO(set);
	while (*s && *s != '\n') {
		char *end;
		unsigned long lo, hi;

		if (!isdigit((unsigned char)*s))
			return false;
		lo = hi = strtoul(s, &end, 10);
		s = end;
		if (*s == '-') {
			if (!isdigit((unsigned char)s[1]))
				return false;
			hi = strtoul(s + 1, &end, 10);
			s = end;
		}
		if (hi < lo || hi >= CPU_SETSIZE)
			return false;
		for (unsigned long i = lo; i <= hi; i++)
			CPU_SET(i, set);
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return false;
	}
	return true;
}

/* The first line of root/fmt into buf; false when unreadable. */
static bool vread_line(char *buf, size_t size, const char *root, const char *fmt, va_list ap)
{
	char path[PATH_MAX];
	FILE *f;
	int n;

	n = snprintf(path, sizeof(path), "%s/", root);
	vsnprintf(path + n, sizeof(path) - n, fmt, ap);
	if (!(f = fopen(path, "re")))
		return false;
	if (!fgets(buf, size, f)) {
		fclose(f);
		return false;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return true;
}

static bool read_line(char *buf, size_t size, const char *root, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static bool read_line(char *buf, size_t size, const char *root, const char *fmt, ...)
{
	va_list ap;
	bool ok;

	va_start(ap, fmt);
	ok = vread_line(buf, size, root, fmt, ap);
	va_end(ap);
	return ok;
}

static bool read_cpulist(cpu_set_t *set, const char *root, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static bool read_cpulist(cpu_set_t *set, const char *root, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	bool ok;

	va_start(ap, fmt);
	ok = vread_line(buf, sizeof(buf), root, fmt, ap);
	va_end(ap);
	return ok && topology_parse_cpulist(buf, set);
}

/* A number, with sysfs' K/M/G size suffixes. */
static bool read_uint(unsigned long *v, const char *root, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static bool read_uint(unsigned long *v, const char *root, const char *fmt, ...)
{
	char buf[64], *end;
	va_list ap;
	bool ok;

	va_start(ap, fmt);
	ok = vread_line(buf, sizeof(buf), root, fmt, ap);
	va_end(ap);
	if (!ok || !isdigit((unsigned char)buf[0]))
		return false;
	*v = strtoul(buf, &end, 10);
	switch (*end) {
	case 'K':
		*v <<= 10;
		break;
	case 'M':
		*v <<= 20;
		break;
	case 'G':
		*v <<= 30;
		break;
	}
	return true;
}

const struct topo_cpu *topology_cpu_from_linux(const struct topology *t, int linux_id)
{
	for (unsigned int i = 0; i < t->ncpus; i++)
		if (t->cpus[i].linux_id == linux_id)
			return &t->cpus[i];
	return NULL;
}

const struct topo_cpu *topology_cpu(const struct topology *t, unsigned int group, unsigned int number)
{
	for (unsigned int i = 0; i < t->ncpus; i++)
		if (t->cpus[i].group == group && t->cpus[i].number == number)
			return &t->cpus[i];
	return NULL;
}

const struct topo_node *topology_node(const struct topology *t, unsigned int id)
{
	for (unsigned int i = 0; i < t->nnodes; i++)
		if (t->nodes[i].id == id)
			return &t->nodes[i];
	return NULL;
}

uint64_t topology_mask_from_cpuset(const struct topology *t, unsigned int group, const cpu_set_t *set)
{
	uint64_t mask = 0;

	for (unsigned int i = 0; i < t->ncpus; i++)
		if (t->cpus[i].group == group && CPU_ISSET(t->cpus[i].linux_id, set))
			mask |= 1ull << t->cpus[i].number;
	return mask;
}

void topology_cpuset_from_mask(const struct topology *t, unsigned int group, uint64_t mask, cpu_set_t *set)
{
	CPU_ZERO(set);
	for (unsigned int i = 0; i < t->ncpus; i++)
		if (t->cpus[i].group == group && (mask & (1ull << t->cpus[i].number)))
			CPU_SET(t->cpus[i].linux_id, set);
}

/* The processors of the Linux CPUs in set, in one group (false when
 * they span groups: the caller splits). */
static bool set_of(const struct topology *t, const cpu_set_t *set, unsigned int group, struct topo_set *out)
{
	out->group = group;
	out->mask = topology_mask_from_cpuset(t, group, set);
	return out->mask != 0;
}

static int cmp_cpu(const void *a, const void *b)
{
	const struct topo_cpu *x = a, *y = b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return x->number < y->number ? -1 : x->number > y->number;
}

/* Groups and numbers, node by node. */
static bool assign_groups(struct topology *t, const cpu_set_t *online, cpu_set_t *node_cpus, unsigned int *node_ids)
{
	unsigned int group = 0, used = 0;

	t->ncpus = 0;
	for (unsigned int n = 0; n < t->nnodes; n++) {
		unsigned int count = (unsigned int)CPU_COUNT(&node_cpus[n]);

		if (used && used + count > TOPO_GROUP_SIZE) {
			group++;
			used = 0;
		}
		for (int c = 0; c < CPU_SETSIZE; c++) {
			struct topo_cpu *cpu;

			if (!CPU_ISSET(c, &node_cpus[n]) || !CPU_ISSET(c, online))
				continue;
			if (used == TOPO_GROUP_SIZE) {
				group++;
				used = 0;
			}
			if (group >= TOPO_MAX_GROUPS)
				return false;
			cpu = &t->cpus[t->ncpus++];
			cpu->linux_id = c;
			cpu->node = node_ids[n];
			cpu->group = group;
			cpu->number = used++;
			t->group_mask[group] |= 1ull << cpu->number;
			t->group_count[group]++;
		}
	}
	t->ngroups = t->ncpus ? t->cpus[t->ncpus - 1].group + 1 : 0;
	return true;
}

/* The nodes and the CPUs of each: node/online and node<N>/cpulist, or
 * one node 0 holding every online CPU. */
static bool read_nodes(const char *root, const cpu_set_t *online, cpu_set_t **cpus, unsigned int **ids,
		       unsigned int *count)
{
	cpu_set_t nodes, seen;
	unsigned int n = 0;

	if (!read_cpulist(&nodes, root, "node/online")) {
		CPU_ZERO(&nodes);
		CPU_SET(0, &nodes);
	}
	*cpus = calloc(CPU_COUNT(&nodes), sizeof(**cpus));
	*ids = calloc(CPU_COUNT(&nodes), sizeof(**ids));
	if (!*cpus || !*ids)
		return false;
	CPU_ZERO(&seen);
	for (int id = 0; id < CPU_SETSIZE; id++) {
		if (!CPU_ISSET(id, &nodes))
			continue;
		if (!read_cpulist(&(*cpus)[n], root, "node/node%d/cpulist", id)) {
			if (CPU_COUNT(&nodes) > 1) {
				errno = EINVAL;
				return false;
			}
			(*cpus)[n] = *online; /* no NUMA in this kernel */
		}
		CPU_AND(&(*cpus)[n], &(*cpus)[n], online);
		CPU_OR(&seen, &seen, &(*cpus)[n]);
		(*ids)[n++] = (unsigned int)id;
	}
	/* An online CPU no node claims would have no processor number. */
	if (n && !CPU_EQUAL(&seen, online)) {
		cpu_set_t extra;

		CPU_XOR(&extra, online, &seen);
		CPU_OR(&(*cpus)[0], &(*cpus)[0], &extra);
	}
	*count = n;
	return n > 0;
}

/* Cores and packages: CPUs sharing core_cpus_list (thread_siblings_list
 * on kernels before 5.x) are one core, package_cpus_list (core_siblings)
 * one package. */
static bool read_cores(struct topology *t)
{
	cpu_set_t *core_sets = calloc(t->ncpus, sizeof(*core_sets));
	cpu_set_t *pkg_sets = calloc(t->ncpus, sizeof(*pkg_sets));
	bool ok = false;

	t->cores = calloc(t->ncpus, sizeof(*t->cores));
	t->packages = calloc(t->ncpus, sizeof(*t->packages));
	if (!core_sets || !pkg_sets || !t->cores || !t->packages)
		goto out;
	for (unsigned int i = 0; i < t->ncpus; i++) {
		struct topo_cpu *cpu = &t->cpus[i];
		cpu_set_t core, pkg;
		unsigned int j;

		if (!read_cpulist(&core, t->root, "cpu/cpu%d/topology/core_cpus_list", cpu->linux_id) &&
		    !read_cpulist(&core, t->root, "cpu/cpu%d/topology/thread_siblings_list", cpu->linux_id)) {
			CPU_ZERO(&core);
			CPU_SET(cpu->linux_id, &core);
		}
		if (!read_cpulist(&pkg, t->root, "cpu/cpu%d/topology/package_cpus_list", cpu->linux_id) &&
		    !read_cpulist(&pkg, t->root, "cpu/cpu%d/topology/core_siblings_list", cpu->linux_id))
			pkg = core;
		CPU_SET(cpu->linux_id, &core);
		CPU_SET(cpu->linux_id, &pkg);
		for (j = 0; j < t->ncores && !CPU_EQUAL(&core_sets[j], &core); j++)
			;
		if (j == t->ncores) {
			core_sets[t->ncores++] = core;
			/* A core's threads share a node, so one group. */
			set_of(t, &core, cpu->group, &t->cores[j].set);
			t->cores[j].threads = (unsigned int)__builtin_popcountll(t->cores[j].set.mask);
		}
		cpu->core = j;
		for (j = 0; j < t->npackages && !CPU_EQUAL(&pkg_sets[j], &pkg); j++)
			;
		if (j == t->npackages) {
			struct topo_package *p = &t->packages[t->npackages++];

			pkg_sets[j] = pkg;
			for (unsigned int g = 0; g < t->ngroups; g++)
				if (set_of(t, &pkg, g, &p->sets[p->nsets]))
					p->nsets++;
		}
		cpu->package = j;
	}
	ok = true;
out:
	free(core_sets);
	free(pkg_sets);
	return ok;
}

/* The caches: every cpu<N>/cache/index<K>, one entry per distinct
 * (level, type, shared CPUs), split per group. */
static bool read_caches(struct topology *t)
{
	size_t cap = 16;

	t->caches = calloc(cap, sizeof(*t->caches));
	if (!t->caches)
		return false;
	for (unsigned int i = 0; i < t->ncpus; i++) {
		int id = t->cpus[i].linux_id;

		for (int k = 0;; k++) {
			struct topo_cache c = { 0 };
			unsigned long level, size, line = 64, ways = 0;
			char type[32];
			cpu_set_t shared;

			if (!read_uint(&level, t->root, "cpu/cpu%d/cache/index%d/level", id, k))
				break;
			if (!read_line(type, sizeof(type), t->root, "cpu/cpu%d/cache/index%d/type", id, k) ||
			    !read_uint(&size, t->root, "cpu/cpu%d/cache/index%d/size", id, k) ||
			    !read_cpulist(&shared, t->root, "cpu/cpu%d/cache/index%d/shared_cpu_list", id, k))
				continue;
			read_uint(&line, t->root, "cpu/cpu%d/cache/index%d/coherency_line_size", id, k);
			read_uint(&ways, t->root, "cpu/cpu%d/cache/index%d/ways_of_associativity", id, k);
			c.level = (unsigned int)level;
			if (!strcmp(type, "Data"))
				c.type = TOPO_CACHE_DATA;
			else if (!strcmp(type, "Instruction"))
				c.type = TOPO_CACHE_INSTRUCTION;
			else
				c.type = TOPO_CACHE_UNIFIED;
			c.size = size > UINT32_MAX ? UINT32_MAX : (uint32_t)size;
			c.line = (unsigned int)line;
			/* Linux says 0 for fully associative, Windows 0xff. */
			c.ways = ways == 0 || ways > 0xff ? 0xff : (unsigned int)ways;
			for (unsigned int g = 0; g < t->ngroups; g++) {
				unsigned int j;

				if (!set_of(t, &shared, g, &c.set))
					continue;
				for (j = 0; j < t->ncaches; j++) {
					const struct topo_cache *o = &t->caches[j];

					if (o->level == c.level && o->type == c.type && o->set.group == c.set.group &&
					    o->set.mask == c.set.mask)
						break;
				}
				if (j < t->ncaches)
					continue;
				if (t->ncaches == cap) {
					struct topo_cache *n = realloc(t->caches, 2 * cap * sizeof(*n));

					if (!n)
						return false;
					t->caches = n;
					cap *= 2;
				}
				t->caches[t->ncaches++] = c;
			}
		}
	}
	return true;
}

void topology_free(struct topology *t)
{
	if (!t)
		return;
	free(t->root);
	free(t->cpus);
	free(t->nodes);
	free(t->cores);
	free(t->packages);
	free(t->caches);
	free(t);
}

/* full: cores, packages and caches too (a file or more per CPU, and six
 * per cache: what only GetLogicalProcessorInformation needs). */
static struct topology *load(const char *root, bool full)
{
	struct topology *t = calloc(1, sizeof(*t));
	cpu_set_t online, *node_cpus = NULL;
	unsigned int *node_ids = NULL;
	int err = ENOMEM;

	if (!t || !(t->root = strdup(root)))
		goto fail;
	err = ENOENT;
	if (!read_cpulist(&online, root, "cpu/online") || !CPU_COUNT(&online))
		goto fail;
	err = EINVAL;
	if (!read_nodes(root, &online, &node_cpus, &node_ids, &t->nnodes))
		goto fail;
	t->cpus = calloc(CPU_COUNT(&online), sizeof(*t->cpus));
	t->nodes = calloc(t->nnodes, sizeof(*t->nodes));
	if (!t->cpus || !t->nodes)
		goto fail;
	err = E2BIG;
	if (!assign_groups(t, &online, node_cpus, node_ids))
		goto fail;
	qsort(t->cpus, t->ncpus, sizeof(*t->cpus), cmp_cpu);
	for (unsigned int n = 0; n < t->nnodes; n++) {
		const struct topo_cpu *first = NULL;

		for (unsigned int i = 0; i < t->ncpus && !first; i++)
			if (t->cpus[i].node == node_ids[n])
				first = &t->cpus[i];
		t->nodes[n].id = node_ids[n];
		/* A node with memory only (no CPUs) has an empty mask. */
		if (first)
			set_of(t, &node_cpus[n], first->group, &t->nodes[n].set);
		if (node_ids[n] > t->highest_node)
			t->highest_node = node_ids[n];
	}
	err = ENOMEM;
	if (full && (!read_cores(t) || !read_caches(t)))
		goto fail;
	free(node_cpus);
	free(node_ids);
	return t;
fail:
	free(node_cpus);
	free(node_ids);
	topology_free(t);
	errno = err;
	return NULL;
}

bool topology_node_free_memory(const struct topology *t, unsigned int id, uint64_t *bytes)
{
	char path[PATH_MAX], line[256];
	bool found = false;
	FILE *f;

	if (!topology_node(t, id))
		return false;
	snprintf(path, sizeof(path), "%s/node/node%u/meminfo", t->root, id);
	if (!(f = fopen(path, "re"))) {
		/* No NUMA in this kernel: the machine's free memory. */
		if (t->nnodes != 1)
			return false;
		snprintf(path, sizeof(path), "/proc/meminfo");
		if (!(f = fopen(path, "re")))
			return false;
	}
	while (!found && fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "MemFree:");
		unsigned long long kb;

		if (p && sscanf(p + 8, "%llu", &kb) == 1) {
			*bytes = kb * 1024;
			found = true;
		}
	}
	fclose(f);
	return found;
}

struct topology *topology_load(const char *root)
{
	return load(root, true);
}

static const char system_root[] = "/sys/devices/system";
static pthread_once_t system_once = PTHREAD_ONCE_INIT, full_once = PTHREAD_ONCE_INIT;
static struct topology *system_topology, *full_topology;

/* One node, one group: what a machine without a readable sysfs is. */
static struct topology *fallback(void)
{
	static struct topo_cpu cpus[TOPO_GROUP_SIZE];
	static struct topo_core cores[TOPO_GROUP_SIZE];
	static struct topo_node node;
	static struct topo_package pkg;
	static struct topology t;
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (t.ncpus)
		return &t;
	if (n < 1)
		n = 1;
	if (n > TOPO_GROUP_SIZE)
		n = TOPO_GROUP_SIZE;
	t.root = (char *)system_root;
	t.ncpus = t.ncores = (unsigned int)n;
	t.nnodes = t.npackages = t.ngroups = 1;
	t.cpus = cpus;
	t.cores = cores;
	t.nodes = &node;
	t.packages = &pkg;
	t.group_count[0] = (unsigned int)n;
	t.group_mask[0] = n == 64 ? ~0ull : (1ull << n) - 1;
	for (unsigned int i = 0; i < n; i++) {
		cpus[i] = (struct topo_cpu){ .linux_id = (int)i, .number = i, .core = i };
		cores[i] = (struct topo_core){ .set = { 0, 1ull << i }, .threads = 1 };
	}
	node.set.mask = pkg.sets[0].mask = t.group_mask[0];
	pkg.nsets = 1;
	return &t;
}

static void load_system(void)
{
	if (!(system_topology = load(system_root, false))) {
		ndrun_error("cannot read the processor topology under %s (%s): one node, one group", system_root,
			    strerror(errno));
		system_topology = fallback();
	}
}

static void load_full(void)
{
	/* Read again, with the per-CPU files: the groups must be those the
	 * basic one has, and they are unless CPUs came or went meanwhile. */
	if (!(full_topology = load(system_root, true)))
		full_topology = fallback();
}

const struct topology *topology_get(void)
{
	pthread_once(&system_once, load_system);
	return system_topology;
}

const struct topology *topology_get_full(void)
{
	pthread_once(&full_once, load_full);
	return full_topology;
}

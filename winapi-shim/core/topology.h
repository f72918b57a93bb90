/* The machine's processor topology as Windows describes it: processor
 * groups of at most 64 logical processors, NUMA nodes, cores, packages
 * and caches, read from Linux's sysfs (devices/system/cpu and
 * devices/system/node).
 *
 * Windows numbers processors per group; Linux numbers CPUs once.  Groups
 * are filled with whole nodes in node order, as Windows forms them: a
 * node that would overflow the current group starts the next one, and a
 * node larger than a group is cut into 64-processor pieces (the node is
 * then reported by its first piece).  Within a group, processors follow
 * the Linux numbering of their node's CPUs.  On a machine with one node
 * and at most 64 CPUs, processor n of group 0 is Linux CPU n.
 * Only online CPUs are processors. */
#ifndef NDSHIM_TOPOLOGY_H
#define NDSHIM_TOPOLOGY_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

#define TOPO_GROUP_SIZE 64
#define TOPO_MAX_GROUPS 64

enum topo_cache_type { TOPO_CACHE_UNIFIED, TOPO_CACHE_INSTRUCTION, TOPO_CACHE_DATA };

/* Processors of one group. */
struct topo_set {
	unsigned int group;
	uint64_t mask;
};

struct topo_cpu {
	int linux_id;
	unsigned int node;
	unsigned int group, number;
	unsigned int core;    /* index in cores */
	unsigned int package; /* index in packages */
};

struct topo_node {
	unsigned int id;      /* the Linux node number, which Windows reports */
	struct topo_set set;
};

struct topo_core {
	struct topo_set set;
	unsigned int threads; /* more than one: SMT */
};

struct topo_package {
	unsigned int nsets;   /* one per group it has processors in */
	struct topo_set sets[TOPO_MAX_GROUPS];
};

struct topo_cache {
	unsigned int level;
	enum topo_cache_type type;
	uint32_t size;        /* bytes */
	unsigned int line;    /* bytes */
	unsigned int ways;    /* 0xff: fully associative (Windows' value) */
	struct topo_set set;
};

struct topology {
	char *root;           /* the sysfs folder read (for node memory) */
	unsigned int ncpus, nnodes, ncores, npackages, ncaches, ngroups;
	struct topo_cpu *cpus;      /* by group, then number */
	struct topo_node *nodes;    /* by id */
	struct topo_core *cores;
	struct topo_package *packages;
	struct topo_cache *caches;
	unsigned int group_count[TOPO_MAX_GROUPS];
	uint64_t group_mask[TOPO_MAX_GROUPS];
	unsigned int highest_node;
};

/* The topology described under root (".../devices/system"); NULL with
 * errno when it cannot be read.  A tree without node/ is one node 0. */
struct topology *topology_load(const char *root);
void topology_free(struct topology *t);

/* This machine's, read once (never NULL: a machine whose sysfs cannot
 * be read is one node, one group of the CPUs sysconf counts).  Without
 * cores, packages and caches (ncores etc. 0), which cost a few files per
 * CPU: programs ask GetSystemInfo at start-up, few ask for caches. */
const struct topology *topology_get(void);
/* The same with cores, packages and caches, read on first use. */
const struct topology *topology_get_full(void);

/* The processor that Linux CPU id is; NULL when it is not one. */
const struct topo_cpu *topology_cpu_from_linux(const struct topology *t, int linux_id);
/* Processor number of group; NULL when there is none. */
const struct topo_cpu *topology_cpu(const struct topology *t, unsigned int group, unsigned int number);
/* Node id; NULL when no such node has processors or memory. */
const struct topo_node *topology_node(const struct topology *t, unsigned int id);

/* Converting affinity: the processors of group in a Linux CPU set, and
 * back (a set holding exactly the mask's processors). */
uint64_t topology_mask_from_cpuset(const struct topology *t, unsigned int group, const cpu_set_t *set);
void topology_cpuset_from_mask(const struct topology *t, unsigned int group, uint64_t mask, cpu_set_t *set);

/* Node id's free memory now (its meminfo's MemFree), in bytes. */
bool topology_node_free_memory(const struct topology *t, unsigned int id, uint64_t *bytes);

/* A sysfs CPU list ("0-3,8,10-11\n") into set; false when malformed. */
bool topology_parse_cpulist(const char *s, cpu_set_t *set);

#endif

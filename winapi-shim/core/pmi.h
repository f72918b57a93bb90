/* A client of the PMI wire protocol, as the process managers of Linux
 * clusters serve it to the ranks they start: PMI-1 (MPICH's hydra) and
 * PMI-2 (hydra, and Slurm's srun --mpi=pmi2).  Plain Linux C, no Win32:
 * rpcrt4's SmpdMgrRpc server (MS-MPI's process-manager calls) and ndrun's
 * start-up (core/pmi_bridge.c) use it.  See docs/MSMPI.md for the wire
 * facts relied on.
 *
 * Values are sent escaped (pmi_put): PMI-1 separates fields with spaces
 * and PMI-2 with ';', and MS-MPI's business cards hold both; every rank
 * reads them back through this client. */
#ifndef NDSHIM_PMI_H
#define NDSHIM_PMI_H

#include <stdbool.h>
#include <stddef.h>

#define PMI_MAX_KVSNAME 256
#define PMI_MAX_VALUE 1024

struct pmi {
	int fd;
	int version; /* 1 or 2 */
	int rank, size, appnum;
	char kvsname[PMI_MAX_KVSNAME]; /* PMI-1 kvsname, PMI-2 job id */
	int vallen_max;
	unsigned int epoch; /* PMI-2 fences so far */
};

/* Handshake on an open connection: version 2 or 1 as asked; 0: 2, or 1
 * when the server does not speak 2; -1: 1, or 2 when it does not speak 1.  rank and size are those the
 * environment gave (PMI-1 learns them only so; -1 when unknown), which
 * PMI-2's answer replaces; jobid is the job id the environment gave
 * (PMI_JOBID; NULL when none), which PMI-2's fullinit carries.  0, or -1
 * with errno (EPROTO: the server said something unexpected). */
int pmi_init(struct pmi *p, int fd, int version, int rank, int size, const char *jobid);

/* Stores key=value in the job's key-value space (visible to others after
 * the next fence). */
int pmi_put(struct pmi *p, const char *key, const char *value);
/* Reads key into value (len bytes): 0, or -1 with ENOENT when no rank put it. */
int pmi_get(struct pmi *p, const char *key, char *value, size_t len);
/* A barrier: every rank's puts become visible, and it returns when all
 * ranks have entered. */
int pmi_fence(struct pmi *p);
/* The process manager's node map (PMI_process_mapping), as it gave it. */
int pmi_process_mapping(struct pmi *p, char *value, size_t len);
/* The rank leaves the job. */
int pmi_finalize(struct pmi *p);
/* Asks the process manager to end the whole job with exit code code. */
int pmi_abort(struct pmi *p, int code, const char *msg);

/* The node of each of size ranks from a PMI_process_mapping value,
 * "(vector,(start,nodes,ranks_per_node),...)", whose blocks are applied
 * in turn until every rank has a node: false if it is malformed. */
bool pmi_parse_mapping(const char *map, int size, unsigned short *node_of_rank);

/* Escaping of values: only [A-Za-z0-9] and ._:/,+- pass, the rest become %XX. */
size_t pmi_escape(const char *in, char *out, size_t len);
size_t pmi_unescape(const char *in, char *out, size_t len);

#endif

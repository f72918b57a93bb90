/* A rank started by a Linux process manager, seen as MS-MPI expects one
 * started by its smpd.  At start-up (pe-loader/main.c), before the
 * program runs, pmi_env_init turns the Linux PMI environment (PMI_FD, or
 * PMI_PORT=host:port; PMI_RANK, PMI_SIZE, PMI_JOBID...) into MS-MPI's:
 *
 *   PMI_RANK, PMI_SIZE, PMI_APPNUM   from the PMI handshake
 *   PMI_KVS       a GUID made from the job's KVS name, the same on every rank
 *   PMI_PORT      the ncalrpc endpoint of ndrun's SmpdMgrRpc server
 *   PMI_SMPD_KEY  0 (ndrun's server keeps no per-rank contexts apart)
 *   PMI_NODE_IDS  the name of a file mapping with each rank's node number,
 *                 from the process manager's node map: each rank of a
 *                 node creates it or opens it, and writes the whole map
 *
 * Without PMI_FD or a host:port PMI_PORT (or with PMI_KVS already set)
 * nothing changes: MS-MPI runs as a singleton, or with its own smpd. */
#ifndef NDSHIM_PMI_ENV_H
#define NDSHIM_PMI_ENV_H

#include <stdbool.h>

#include "core/pmi.h"

/* The endpoint PMI_PORT names. */
#define PMI_ENV_ENDPOINT u"ndshim-pmi"

/* false (after saying why on stderr) when the environment names a
 * process manager that cannot be reached or talked to. */
bool pmi_env_init(void);

/* The connection to the process manager, or NULL (singleton). */
struct pmi *pmi_env_client(void);

/* The program took the connection (MS-MPI's CreateSmpdMgrContext): it
 * finalizes it itself.  Until then ndrun does, whichever way the process
 * ends (a program that never used PMI must not look to the process
 * manager like a rank that died before its finalize). */
void pmi_env_claim(void);

#endif

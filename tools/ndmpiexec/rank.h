/* ndmpiexec's rank mode (rank.c) and the line it reports a rank's end
 * with, which the front end (main.c) takes out of the job's stderr. */
#ifndef NDSHIM_NDMPIEXEC_RANK_H
#define NDSHIM_NDMPIEXEC_RANK_H

/* "<RS>ndmpiexec-rank-end RANK exit CODE HOST" or "... signal SIG HOST":
 * the record separator character keeps it apart from a program's text. */
#define RANK_REPORT "\036ndmpiexec-rank-end "

/* The rank the launcher gave this process (PMI_RANK, else SLURM_PROCID),
 * or "?". */
const char *mpx_rank_of_env(void);

/* argv: ndmpiexec --rank [--lines] -- NDRUN PROGRAM [ARG...] */
int mpx_rank_main(int argc, char **argv);

#endif

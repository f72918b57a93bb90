/* ndmpiexec's view of one job: MS-MPI's mpiexec command line, parsed
 * (job.c), and its translation onto a Linux process manager's command
 * line (translate.c).  Both are pure (no process is started) so the unit
 * tests (tests/unit/test_ndmpiexec.c) can drive them; main.c runs the
 * result. */
#ifndef NDSHIM_NDMPIEXEC_JOB_H
#define NDSHIM_NDMPIEXEC_JOB_H

#include <stdbool.h>
#include <stddef.h>

struct mpx_host {
	char *name;
	int count; /* ranks on this host */
};

struct mpx_env {
	char *name;
	char *value;
};

struct mpx_job {
	int nprocs; /* -n N; 0 when absent or "-n *" */
	struct mpx_host *hosts; /* -hosts, -host, -machinefile: in order */
	int nhosts;
	bool hosts_fixed; /* -hosts: the counts are the layout, not slots */
	struct mpx_env *env; /* -env and -genv, in order */
	int nenv;
	char *wdir; /* -wdir, -dir, -gwdir, -gdir */
	bool lines; /* -l, -lines */
	bool exitcodes; /* -exitcodes */
	bool affinity; /* -a, -affinity */
	int timeout; /* -timeout SECONDS (or MPIEXEC_TIMEOUT); 0: none */
	bool dry_run; /* --dry-run: print the command, run nothing */
	char **prog; /* the program and its arguments (points into argv) */
	int nprog;
};

/* Parses argv[1..argc-1] into JOB (zeroed first).  Options are MS-MPI's,
 * written -opt or /opt in any letter case; the first word that is not
 * one is the program.  MPIEXEC_TIMEOUT (from the environment, passed as
 * TIMEOUT_ENV, may be NULL) gives the timeout when -timeout does not.
 * Returns 0, or -1 with a one-line reason in ERR. */
int mpx_parse(int argc, char **argv, const char *timeout_env, struct mpx_job *job, char *err, size_t errlen);
void mpx_job_free(struct mpx_job *job);

/* Total ranks of the job (LOCAL_CPUS: what "-n *" means without hosts). */
int mpx_total_ranks(const struct mpx_job *job, int local_cpus);

enum mpx_launcher { MPX_SRUN, MPX_HYDRA };

struct mpx_cmd {
	char **argv; /* NULL-terminated, malloc'ed strings */
	int argc;
	char *hostfile; /* srun: SLURM_HOSTFILE's contents (one host per rank), or NULL */
};

/* The launcher's command line for JOB: LAUNCHER_PATH (srun or
 * mpiexec.hydra) with its options, then WRAPPER (ndmpiexec's rank mode,
 * main.c) with -l's flag, then NDRUN, the program and its arguments.
 * Returns 0, or -1 with the reason in ERR. */
int mpx_translate(const struct mpx_job *job, enum mpx_launcher launcher, const char *launcher_path,
		  const char *wrapper, const char *ndrun, int local_cpus, struct mpx_cmd *cmd, char *err,
		  size_t errlen);
void mpx_cmd_free(struct mpx_cmd *cmd);

/* The command as one line of shell words (quoted where needed), with
 * SLURM_HOSTFILE=... first when there is a host file at HOSTFILE_PATH;
 * malloc'ed. */
char *mpx_cmd_string(const struct mpx_cmd *cmd, const char *hostfile_path);

#endif

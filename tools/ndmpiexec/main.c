/* ndmpiexec: MS-MPI's mpiexec command line for Linux clusters.  A front
 * end, not a process manager: it translates the options MS-MPI users type
 * (job.c, translate.c) onto srun inside a Slurm allocation (SLURM_JOB_ID
 * set) and onto MPICH's mpiexec.hydra elsewhere, each rank being
 * `ndmpiexec --rank -- ndrun PROGRAM ARGS` (rank.c), then runs the
 * launcher and stays beside it only to
 *   - end the job when a rank fails (hydra would let the others run on),
 *     when -timeout expires, or on SIGINT/SIGTERM/SIGHUP (passed on);
 *   - take the ranks' end reports out of the job's stderr, for -exitcodes
 *     and for the exit status;
 *   - exit with the job's status: 0 when every rank exited 0; else the
 *     first failed rank's exit code (128+N for a rank killed by signal
 *     N); 128+N when ndmpiexec itself got signal N; 254 on timeout
 *     (MS-MPI's mpiexec returns -2); 2 for a bad command line; 127 when
 *     the launcher cannot be run.
 * C rather than shell: the signal, pipe and timer handling around the
 * launcher has to be exact, and the option translation is unit-tested
 * (tests/unit/test_ndmpiexec.c). */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/selfpath.h"
#include "tools/ndmpiexec/job.h"
#include "tools/ndmpiexec/rank.h"

/* After the job was asked to end, how long the launcher gets to clean up
 * its nodes before it is killed. */
#define END_GRACE_S 60
/* ... and after how long it is asked once more. */
#define END_AGAIN_S 10

static const char usage_text[] =
	"usage: ndmpiexec [options] PROGRAM [ARG...]\n"
	"Runs PROGRAM (a Windows MPI program) under ndrun as an MPI job, with srun\n"
	"inside a Slurm allocation and with mpiexec.hydra elsewhere.\n"
	"\n"
	"Options (MS-MPI's mpiexec; -opt or /opt, any letter case):\n"
	"  -n N, -np N            N ranks (-n * or none: one per slot of the hosts,\n"
	"                         or the allocation's tasks, or this machine's CPUs)\n"
	"  -hosts N H1 [N1] ...   N hosts, N1 ranks on H1 (default 1), ...\n"
	"  -host H                every rank on H\n"
	"  -machinefile FILE      hosts from FILE, one per line: HOST [SLOTS]\n"
	"  -env K V, -genv K V    set K=V for the ranks\n"
	"  -wdir D, -dir D        the ranks' working folder\n"
	"  -l, -lines             prefix each line of output with [RANK]\n"
	"  -timeout S             end the job after S seconds (exit status 254)\n"
	"  -exitcodes             list every rank's exit code at the end\n"
	"  -a, -affinity          bind each rank to a core\n"
	"  -ghost, -gmachinefile, -gwdir, -gdir: as without the g (one section)\n"
	"  --dry-run              print the launcher's command and run nothing\n"
	"  -?, -help, --help      this text\n"
	"\n"
	"Environment: MPIEXEC_TIMEOUT (the default of -timeout), NDMPIEXEC_LAUNCHER\n"
	"(srun or hydra: which launcher, whatever SLURM_JOB_ID says), NDMPIEXEC_SRUN\n"
	"and NDMPIEXEC_HYDRA (the launchers' paths), NDMPIEXEC_NDRUN (the ndrun the\n"
	"ranks run). See ndmpiexec(1) and docs/MPI-JOBS.md.\n";

static volatile sig_atomic_t got_signal, timed_out;

static void on_signal(int sig)
{
	got_signal = sig;
}

static void on_alarm(int sig)
{
	(void)sig;
	timed_out = 1;
}

struct rank_end {
	int status; /* -1: no report */
	bool signaled;
	char host[128];
};

struct run {
	pid_t launcher;
	struct rank_end *ranks;
	int nranks;
	int first_failed; /* rank, or -1 */
	bool ending; /* the job was asked to end */
	bool asked_twice; /* ... and asked again (END_AGAIN_S) */
	time_t end_asked;
	int launcher_status;
	bool launcher_done;
};

static void end_job(struct run *r)
{
	if (!r->ending) {
		r->ending = true;
		r->end_asked = time(NULL);
	}
	/* Both launchers end the whole job on SIGINT (srun: --quit-on-interrupt). */
	kill(r->launcher, SIGINT);
}

/* One line of the job's stderr: a rank's end report (RANK_REPORT) is
 * recorded and taken out; the rest goes on to stderr. */
static void take_line(struct run *r, char *line, size_t len)
{
	char *rep = memmem(line, len, RANK_REPORT, strlen(RANK_REPORT));
	char kind[16], host[128] = "?";
	int rank, value;

	if (!rep) {
		fwrite(line, 1, len, stderr);
		return;
	}
	if (rep > line) {
		fwrite(line, 1, rep - line, stderr);
		fputc('\n', stderr);
	}
	line[len - (line[len - 1] == '\n')] = 0;
	if (sscanf(rep + strlen(RANK_REPORT), "%d %15s %d %127s", &rank, kind, &value, host) < 3 || rank < 0 ||
	    rank >= 1000000)
		return;
	if (rank >= r->nranks) { /* more ranks than ndmpiexec knew of (srun without -n) */
		struct rank_end *more = realloc(r->ranks, (rank + 1) * sizeof(*more));

		if (!more)
			return;
		for (int i = r->nranks; i <= rank; i++)
			more[i].status = -1;
		r->ranks = more;
		r->nranks = rank + 1;
	}
	r->ranks[rank].status = value;
	r->ranks[rank].signaled = !strcmp(kind, "signal");
	snprintf(r->ranks[rank].host, sizeof(r->ranks[rank].host), "%s", host);
	if (value && r->first_failed < 0 && !r->ending && !got_signal && !timed_out) {
		r->first_failed = rank;
		fprintf(stderr, "ndmpiexec: rank %d on %s %s %d: ending the job\n", rank, host,
			r->ranks[rank].signaled ? "was killed by signal" : "exited with code", value);
		end_job(r);
	}
}

/* Reads what the job wrote to stderr, line by line. false at end of file. */
static bool pump(struct run *r, int fd, char *buf, size_t *have, size_t cap)
{
	ssize_t n = read(fd, buf + *have, cap - *have);
	size_t start = 0;

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (n <= 0) {
		if (*have)
			take_line(r, buf, *have);
		*have = 0;
		fflush(stderr);
		return false;
	}
	*have += (size_t)n;
	for (size_t i = 0; i < *have; i++) {
		if (buf[i] == '\n') {
			take_line(r, buf + start, i + 1 - start);
			start = i + 1;
		}
	}
	memmove(buf, buf + start, *have - start);
	*have -= start;
	/* A line longer than the buffer goes out in pieces. */
	if (*have == cap) {
		fwrite(buf, 1, *have, stderr);
		*have = 0;
	}
	fflush(stderr);
	return true;
}

static void print_exit_codes(const struct run *r)
{
	printf("\n---- exit code ----\n\n");
	for (int i = 0; i < r->nranks; i++) {
		const struct rank_end *e = &r->ranks[i];

		if (e->status < 0)
			printf("[%d] on ?: no report (ended by the launcher, or never started)\n", i);
		else if (e->signaled)
			printf("[%d] on %s: killed by signal %d\n", i, e->host, e->status);
		else
			printf("[%d] on %s: %d\n", i, e->host, e->status);
	}
	printf("\n---- exit code ----\n");
	fflush(stdout);
}

static int run_job(const struct mpx_job *job, struct mpx_cmd *cmd, int nranks)
{
	struct run r = { .first_failed = -1, .nranks = nranks };
	struct sigaction sa = { .sa_handler = on_signal }, al = { .sa_handler = on_alarm };
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	static char buf[65536];
	size_t have = 0;
	int errp[2], forwarded = 0;
	bool open_pipe = true;
	time_t drained_from = 0;

	r.ranks = calloc(nranks, sizeof(*r.ranks));
	if (!r.ranks || pipe(errp)) {
		perror("ndmpiexec");
		return 125;
	}
	for (int i = 0; i < nranks; i++)
		r.ranks[i].status = -1;
	sigemptyset(&sa.sa_mask);
	for (size_t s = 0; s < sizeof(sigs) / sizeof(sigs[0]); s++)
		sigaction(sigs[s], &sa, NULL);
	sigemptyset(&al.sa_mask);
	sigaction(SIGALRM, &al, NULL);

	fflush(NULL);
	r.launcher = fork();
	if (r.launcher < 0) {
		perror("ndmpiexec: fork");
		return 125;
	}
	if (!r.launcher) {
		struct sigaction dfl = { .sa_handler = SIG_DFL };

		for (size_t s = 0; s < sizeof(sigs) / sizeof(sigs[0]); s++)
			sigaction(sigs[s], &dfl, NULL);
		dup2(errp[1], 2);
		close(errp[0]);
		close(errp[1]);
		execvp(cmd->argv[0], cmd->argv);
		fprintf(stderr, "ndmpiexec: cannot run %s: %s\n", cmd->argv[0], strerror(errno));
		_exit(127);
	}
	close(errp[1]);
	if (job->timeout)
		alarm((unsigned)job->timeout);

	while (!r.launcher_done || open_pipe) {
		struct pollfd p = { .fd = errp[0], .events = POLLIN };
		int status;

		if (got_signal && got_signal != forwarded) {
			/* Passed on as is: both launchers end the job on SIGINT,
			 * SIGTERM and SIGHUP. */
			forwarded = got_signal;
			if (!r.ending) {
				r.ending = true;
				r.end_asked = time(NULL);
			}
			kill(r.launcher, got_signal);
		}
		if (timed_out == 1) {
			timed_out = 2;
			fprintf(stderr, "\nTimeout after %d seconds. Terminating job...\n", job->timeout);
			end_job(&r);
		}
		/* hydra's first SIGINT passes a Ctrl-C to the ranks, which a
		 * program may handle and live on; its second one kills them. */
		if (r.ending && !r.launcher_done && !r.asked_twice && time(NULL) - r.end_asked > END_AGAIN_S) {
			r.asked_twice = true;
			kill(r.launcher, SIGINT);
		}
		if (r.ending && !r.launcher_done && time(NULL) - r.end_asked > END_GRACE_S) {
			fprintf(stderr, "ndmpiexec: %s did not end the job within %d s: killing it\n", cmd->argv[0],
				END_GRACE_S);
			kill(r.launcher, SIGKILL);
			r.end_asked = time(NULL);
		}
		if (!r.launcher_done && waitpid(r.launcher, &status, WNOHANG) == r.launcher) {
			r.launcher_done = true;
			r.launcher_status = status;
			drained_from = time(NULL);
		}
		/* Something the launcher started may hold the pipe open after it
		 * ended: read what comes for a few seconds more, no longer. */
		if (r.launcher_done && open_pipe && time(NULL) - drained_from > 3)
			break;
		if (open_pipe && poll(&p, 1, 200) > 0)
			open_pipe = pump(&r, errp[0], buf, &have, sizeof(buf));
		else if (!open_pipe)
			poll(NULL, 0, 100);
	}
	if (have)
		take_line(&r, buf, have);
	fflush(stderr);
	close(errp[0]);

	if (job->exitcodes)
		print_exit_codes(&r);
	if (timed_out)
		return 254;
	if (got_signal)
		return 128 + got_signal;
	if (r.first_failed >= 0) {
		const struct rank_end *e = &r.ranks[r.first_failed];

		return e->signaled ? 128 + e->status : e->status;
	}
	if (WIFSIGNALED(r.launcher_status))
		return 128 + WTERMSIG(r.launcher_status);
	return WEXITSTATUS(r.launcher_status);
}

static bool is_help(const char *a)
{
	return !strcmp(a, "--help") || !strcmp(a, "-h") || !strcmp(a, "-?") || !strcmp(a, "/?") ||
	       !strcasecmp(a, "-help") || !strcasecmp(a, "/help");
}

int main(int argc, char **argv)
{
	const char *forced = getenv("NDMPIEXEC_LAUNCHER"), *path, *ndrun_env = getenv("NDMPIEXEC_NDRUN");
	char err[512], self[PATH_MAX], prog_abs[PATH_MAX], hostfile[] = "/tmp/ndmpiexec-hosts.XXXXXX";
	struct mpx_job job;
	struct mpx_cmd cmd;
	enum mpx_launcher launcher;
	char *ndrun, *dir, *line;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	ssize_t n;
	int rc;

	if (argc > 1 && !strcmp(argv[1], "--rank"))
		return mpx_rank_main(argc, argv);
	if (argc > 1 && is_help(argv[1])) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (argc < 2) {
		fprintf(stderr, "ndmpiexec: no program to run (try ndmpiexec --help)\n");
		return 2;
	}
	if (mpx_parse(argc, argv, getenv("MPIEXEC_TIMEOUT"), &job, err, sizeof(err))) {
		fprintf(stderr, "ndmpiexec: %s (try ndmpiexec --help)\n", err);
		return 2;
	}
	if (forced && *forced) {
		if (!strcmp(forced, "srun")) {
			launcher = MPX_SRUN;
		} else if (!strcmp(forced, "hydra")) {
			launcher = MPX_HYDRA;
		} else {
			fprintf(stderr, "ndmpiexec: NDMPIEXEC_LAUNCHER=%s: expected srun or hydra\n", forced);
			return 2;
		}
	} else {
		const char *jobid = getenv("SLURM_JOB_ID");

		launcher = jobid && *jobid ? MPX_SRUN : MPX_HYDRA;
	}
	path = getenv(launcher == MPX_SRUN ? "NDMPIEXEC_SRUN" : "NDMPIEXEC_HYDRA");
	if (!path || !*path)
		path = launcher == MPX_SRUN ? "srun" : "mpiexec.hydra";

	/* The ranks run this same file (its own path, which must be the same
	 * on every node, as ndrun's is) and the ndrun beside it. */
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0) {
		fprintf(stderr, "ndmpiexec: cannot find its own path in /proc/self/exe\n");
		return 125;
	}
	self[n] = 0;
	dir = ndrun_exe_dir();
	ndrun = NULL;
	if (ndrun_env && *ndrun_env)
		ndrun = strdup(ndrun_env);
	else if (dir && asprintf(&ndrun, "%s/ndrun", dir) > 0 && access(ndrun, X_OK)) {
		free(ndrun);
		ndrun = NULL;
	}
	if (!ndrun)
		ndrun = strdup("ndrun"); /* from PATH */
	free(dir);

	/* A program named by a relative path is the one here: -wdir changes
	 * the ranks' folder, not where the program is found. */
	if (job.prog[0][0] != '/' && strchr(job.prog[0], '/') && realpath(job.prog[0], prog_abs))
		job.prog[0] = prog_abs;
	if (mpx_translate(&job, launcher, path, self, ndrun, (int)cpus, &cmd, err, sizeof(err))) {
		fprintf(stderr, "ndmpiexec: %s\n", err);
		return 2;
	}
	if (cmd.hostfile) {
		int fd = job.dry_run ? -1 : mkstemp(hostfile);

		if (!job.dry_run && (fd < 0 || write(fd, cmd.hostfile, strlen(cmd.hostfile)) < 0 || close(fd))) {
			perror("ndmpiexec: the host file for SLURM_HOSTFILE");
			return 125;
		}
		setenv("SLURM_HOSTFILE", hostfile, 1);
	}
	if (job.dry_run) {
		line = mpx_cmd_string(&cmd, hostfile);
		printf("%s\n", line ? line : "(out of memory)");
		if (cmd.hostfile) {
			int r = 0;

			for (char *h = cmd.hostfile; *h; r++) {
				char *nl = strchr(h, '\n');

				printf("# rank %d: %.*s\n", r, (int)(nl ? nl - h : (long)strlen(h)), h);
				h = nl ? nl + 1 : h + strlen(h);
			}
		}
		free(line);
		rc = 0;
	} else {
		const char *ntasks = getenv("SLURM_NTASKS");
		int nranks = mpx_total_ranks(&job, (int)cpus);

		/* srun without -n or hosts starts the allocation's tasks. */
		if (launcher == MPX_SRUN && !job.nprocs && !job.nhosts && ntasks && atoi(ntasks) > 0)
			nranks = atoi(ntasks);
		rc = run_job(&job, &cmd, nranks);
		if (cmd.hostfile)
			unlink(hostfile);
	}
	mpx_cmd_free(&cmd);
	mpx_job_free(&job);
	free(ndrun);
	return rc;
}

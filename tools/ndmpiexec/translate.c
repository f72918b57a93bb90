/* A parsed mpiexec command line onto srun or mpiexec.hydra (job.h).
 *
 *   -n N            srun -n N                  hydra -n N
 *   -hosts/-host/   srun -n N --distribution=  hydra -hosts h1:n1,h2:n2
 *   -machinefile      arbitrary --overcommit,
 *                     SLURM_HOSTFILE listing
 *                     each rank's host
 *   -env/-genv K V  env K=V srun ...           hydra -genv K V
 *   -wdir D         srun --chdir=D             hydra -wdir D
 *   -affinity       srun --cpu-bind=cores      hydra -bind-to core
 *   -l              the rank wrapper's --lines (MS-MPI's "[rank]" prefix)
 *   -timeout, -exitcodes: main.c, around the launcher
 *
 * srun always gets --mpi=pmi2 (ndrun speaks PMI-2 to slurmstepd),
 * --kill-on-bad-exit=1 (a rank that fails ends the job, as with MS-MPI)
 * and --quit-on-interrupt (one Ctrl-C ends the job).  Hydra ends a job when
 * a rank dies of a signal, not when one exits non-zero: main.c does that,
 * from the rank wrapper's report. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/ndmpiexec/job.h"

struct argbuf {
	char **v;
	int n;
	bool oom;
};

static void push(struct argbuf *a, const char *s)
{
	char **v = realloc(a->v, (a->n + 2) * sizeof(*v));
	char *copy = strdup(s);

	if (!v || !copy) {
		free(copy);
		if (v)
			a->v = v;
		a->oom = true;
		return;
	}
	a->v = v;
	v[a->n++] = copy;
	v[a->n] = NULL;
}

static void pushf(struct argbuf *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void pushf(struct argbuf *a, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	push(a, buf);
}

/* Each rank's host, in rank order: -hosts gives the layout; -host and
 * -machinefile give slots that ranks fill in order, again from the first
 * host when there are more ranks than slots (as MS-MPI and hydra do). */
static char *rank_hosts(const struct mpx_job *job, int total)
{
	size_t len = 0, cap = 256;
	char *out = malloc(cap);
	int h = 0, used = 0;

	if (!out)
		return NULL;
	for (int r = 0; r < total; r++) {
		const char *name;
		size_t n;

		while (used >= job->hosts[h].count) {
			h = (h + 1) % job->nhosts;
			used = 0;
		}
		name = job->hosts[h].name;
		used++;
		n = strlen(name);
		if (len + n + 2 > cap) {
			char *bigger = realloc(out, cap = 2 * (len + n + 2));

			if (!bigger) {
				free(out);
				return NULL;
			}
			out = bigger;
		}
		memcpy(out + len, name, n);
		len += n;
		out[len++] = '\n';
	}
	out[len] = 0;
	return out;
}

int mpx_translate(const struct mpx_job *job, enum mpx_launcher launcher, const char *launcher_path,
		  const char *wrapper, const char *ndrun, int local_cpus, struct mpx_cmd *cmd, char *err,
		  size_t errlen)
{
	struct argbuf a = { 0 };
	int total = mpx_total_ranks(job, local_cpus);

	memset(cmd, 0, sizeof(*cmd));
	if (launcher == MPX_SRUN) {
		if (job->nenv) {
			push(&a, "env");
			for (int i = 0; i < job->nenv; i++)
				pushf(&a, "%s=%s", job->env[i].name, job->env[i].value);
		}
		push(&a, launcher_path);
		push(&a, "--mpi=pmi2");
		push(&a, "--kill-on-bad-exit=1");
		push(&a, "--quit-on-interrupt");
		/* Without -n or hosts, srun starts what the allocation holds. */
		if (job->nprocs || job->nhosts)
			pushf(&a, "--ntasks=%d", total);
		if (job->nhosts) {
			cmd->hostfile = rank_hosts(job, total);
			if (!cmd->hostfile)
				a.oom = true;
			push(&a, "--distribution=arbitrary");
			/* The layout is the user's: more ranks than CPUs on a
			 * host is theirs to decide, as with MS-MPI. */
			push(&a, "--overcommit");
		}
		if (job->wdir)
			pushf(&a, "--chdir=%s", job->wdir);
		if (job->affinity)
			push(&a, "--cpu-bind=cores");
	} else {
		push(&a, launcher_path);
		push(&a, "-n");
		pushf(&a, "%d", total);
		if (job->nhosts) {
			char list[8192] = "";
			size_t len = 0;

			for (int i = 0; i < job->nhosts; i++) {
				int n = snprintf(list + len, sizeof(list) - len, "%s%s:%d", i ? "," : "",
						 job->hosts[i].name, job->hosts[i].count);

				if (n < 0 || (size_t)n >= sizeof(list) - len) {
					snprintf(err, errlen, "too many hosts for one command line");
					mpx_cmd_free(&(struct mpx_cmd){ .argv = a.v, .argc = a.n });
					return -1;
				}
				len += n;
			}
			push(&a, "-hosts");
			push(&a, list);
		}
		for (int i = 0; i < job->nenv; i++) {
			push(&a, "-genv");
			push(&a, job->env[i].name);
			push(&a, job->env[i].value);
		}
		if (job->wdir) {
			push(&a, "-wdir");
			push(&a, job->wdir);
		}
		if (job->affinity) {
			push(&a, "-bind-to");
			push(&a, "core");
		}
	}
	push(&a, wrapper);
	push(&a, "--rank");
	if (job->lines)
		push(&a, "--lines");
	push(&a, "--");
	push(&a, ndrun);
	for (int i = 0; i < job->nprog; i++)
		push(&a, job->prog[i]);
	cmd->argv = a.v;
	cmd->argc = a.n;
	if (a.oom) {
		mpx_cmd_free(cmd);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

void mpx_cmd_free(struct mpx_cmd *cmd)
{
	for (int i = 0; i < cmd->argc; i++)
		free(cmd->argv[i]);
	free(cmd->argv);
	free(cmd->hostfile);
	memset(cmd, 0, sizeof(*cmd));
}

/* One shell word: as is when it holds only safe characters, else in
 * single quotes. */
static void quote(FILE *f, const char *s)
{
	if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=/.,:@%") == strlen(s)) {
		fputs(s, f);
		return;
	}
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

char *mpx_cmd_string(const struct mpx_cmd *cmd, const char *hostfile_path)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	if (cmd->hostfile && hostfile_path) {
		fputs("SLURM_HOSTFILE=", f);
		quote(f, hostfile_path);
		fputc(' ', f);
	}
	for (int i = 0; i < cmd->argc; i++) {
		if (i)
			fputc(' ', f);
		quote(f, cmd->argv[i]);
	}
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

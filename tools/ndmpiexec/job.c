/* MS-MPI's mpiexec command line (job.h).  The options and their meanings
 * are those of MS-MPI's `mpiexec -help2`; the ones a Linux process
 * manager cannot honour (-affinity_layout, -priority, -path, -job, -pwd,
 * ':' sections, ...) are refused by name rather than ignored. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tools/ndmpiexec/job.h"

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* A positive decimal number, whole word. */
static bool number(const char *s, int *out)
{
	char *end;
	long v;

	if (!s || !isdigit((unsigned char)*s))
		return false;
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end || errno || v <= 0 || v > 1000000)
		return false;
	*out = (int)v;
	return true;
}

static int add_host(struct mpx_job *job, const char *name, int count)
{
	struct mpx_host *h = realloc(job->hosts, (job->nhosts + 1) * sizeof(*h));

	if (!h)
		return -1;
	job->hosts = h;
	h[job->nhosts].name = strdup(name);
	if (!h[job->nhosts].name)
		return -1;
	h[job->nhosts++].count = count;
	return 0;
}

static int add_env(struct mpx_job *job, const char *name, const char *value)
{
	struct mpx_env *e = realloc(job->env, (job->nenv + 1) * sizeof(*e));

	if (!e)
		return -1;
	job->env = e;
	e[job->nenv].name = strdup(name);
	e[job->nenv].value = strdup(value);
	if (!e[job->nenv].name || !e[job->nenv].value)
		return -1;
	job->nenv++;
	return 0;
}

/* MS-MPI's machine file: one host per line, optionally followed by its
 * number of cores; '#' starts a comment; empty lines are ignored. */
static int read_machinefile(struct mpx_job *job, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	int lineno = 0;

	if (!f)
		return fail(err, errlen, "cannot read the machine file %s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char *hash = strchr(line, '#'), *name, *cores, *extra, *save;
		int count = 1;

		lineno++;
		if (hash)
			*hash = 0;
		name = strtok_r(line, " \t\r\n", &save);
		if (!name)
			continue;
		cores = strtok_r(NULL, " \t\r\n", &save);
		extra = strtok_r(NULL, " \t\r\n", &save);
		if ((cores && !number(cores, &count)) || extra) {
			fclose(f);
			return fail(err, errlen, "%s:%d: expected 'host [cores]'", path, lineno);
		}
		if (add_host(job, name, count)) {
			fclose(f);
			return fail(err, errlen, "out of memory");
		}
	}
	fclose(f);
	if (!job->nhosts)
		return fail(err, errlen, "the machine file %s names no host", path);
	return 0;
}

/* The option name of WORD without its '-' or '/', or NULL if WORD is not
 * written as an option. */
static const char *opt_name(const char *word)
{
	if (word[0] == '-' && word[1] == '-')
		return word + 2;
	if ((word[0] == '-' || word[0] == '/') && word[1])
		return word + 1;
	return NULL;
}

static bool is(const char *name, const char *a, const char *b)
{
	return !strcasecmp(name, a) || (b && !strcasecmp(name, b));
}

/* Options of MS-MPI's mpiexec that ndmpiexec refuses, each with why. */
static const char *const refused[][2] = {
	{ "affinity_layout", "a layout algorithm (use -affinity, or the launcher's own binding)" },
	{ "al", "a layout algorithm (use -affinity, or the launcher's own binding)" },
	{ "affinity_auto", "affinity shared between jobs" },
	{ "aa", "affinity shared between jobs" },
	{ "cores", "per-host core counts (give them in -hosts or -machinefile)" },
	{ "c", "per-host core counts (give them in -hosts or -machinefile)" },
	{ "configfile", "configuration files" },
	{ "optionfile", "option files" },
	{ "genvlist", "-genvlist (the launcher passes the whole environment already)" },
	{ "path", "a search path on the target host (give the program's path)" },
	{ "gpath", "a search path on the target host (give the program's path)" },
	{ "priority", "priority classes" },
	{ "port", "smpd's port (there is no smpd)" },
	{ "p", "smpd's port (there is no smpd)" },
	{ "job", "Windows HPC Server jobs" },
	{ "pwd", "the MS-MPI Launch Service's credentials" },
	{ "saveCreds", "the MS-MPI Launch Service's credentials" },
	{ "unicode", "a UTF-16 output stream" },
	{ "debug", "smpd's debug output (use NDSHIM_DEBUG for ndrun's)" },
	{ "d", "smpd's debug output (use NDSHIM_DEBUG for ndrun's)" },
	{ "logFile", "smpd's log file" },
};

int mpx_parse(int argc, char **argv, const char *timeout_env, struct mpx_job *job, char *err, size_t errlen)
{
	int i;

	memset(job, 0, sizeof(*job));
	if (timeout_env && *timeout_env && !number(timeout_env, &job->timeout))
		return fail(err, errlen, "MPIEXEC_TIMEOUT=%s: expected a positive number of seconds", timeout_env);
	for (i = 1; i < argc; i++) {
		const char *o = opt_name(argv[i]);
		int left = argc - i - 1;

		if (!o)
			break;
		if (!strcmp(argv[i], "--dry-run")) {
			job->dry_run = true;
		} else if (is(o, "n", "np")) {
			if (!left)
				return fail(err, errlen, "%s needs a number of processes", argv[i]);
			if (job->hosts_fixed)
				return fail(err, errlen, "-n and -hosts cannot be used together (-hosts gives the count)");
			i++;
			if (strcmp(argv[i], "*") && !number(argv[i], &job->nprocs))
				return fail(err, errlen, "%s %s: expected a positive number or *", argv[i - 1], argv[i]);
		} else if (is(o, "hosts", NULL)) {
			int n, h;

			if (job->nhosts)
				return fail(err, errlen, "hosts are given twice (-hosts, -host, -machinefile)");
			if (job->nprocs)
				return fail(err, errlen, "-n and -hosts cannot be used together (-hosts gives the count)");
			if (!left || !number(argv[i + 1], &n))
				return fail(err, errlen, "-hosts needs a positive number of hosts, then the hosts");
			i++;
			for (h = 0; h < n; h++) {
				const char *name;
				int count = 1;

				if (i + 1 >= argc || opt_name(argv[i + 1]))
					return fail(err, errlen, "-hosts %d: expected %d host names, found %d", n, n, h);
				i++;
				if (strchr(argv[i], ','))
					return fail(err, errlen, "-hosts: affinity masks (%s) are not supported", argv[i]);
				if (i + 1 < argc && strchr(argv[i + 1], ',') && isdigit((unsigned char)argv[i + 1][0]))
					return fail(err, errlen, "-hosts: affinity masks (%s) are not supported",
						    argv[i + 1]);
				name = argv[i];
				if (i + 1 < argc && number(argv[i + 1], &count))
					i++;
				if (add_host(job, name, count))
					return fail(err, errlen, "out of memory");
			}
			job->hosts_fixed = true;
		} else if (is(o, "host", "ghost")) {
			if (job->nhosts)
				return fail(err, errlen, "hosts are given twice (-hosts, -host, -machinefile)");
			if (!left)
				return fail(err, errlen, "%s needs a host name", argv[i]);
			if (add_host(job, argv[++i], 1))
				return fail(err, errlen, "out of memory");
		} else if (is(o, "machinefile", "gmachinefile")) {
			if (job->nhosts)
				return fail(err, errlen, "hosts are given twice (-hosts, -host, -machinefile)");
			if (!left)
				return fail(err, errlen, "%s needs a file name", argv[i]);
			if (read_machinefile(job, argv[++i], err, errlen))
				return -1;
		} else if (is(o, "env", "genv")) {
			if (left < 2)
				return fail(err, errlen, "%s needs a variable name and a value", argv[i]);
			if (!argv[i + 1][0] || strchr(argv[i + 1], '='))
				return fail(err, errlen, "%s: '%s' is not a variable name", argv[i], argv[i + 1]);
			if (add_env(job, argv[i + 1], argv[i + 2]))
				return fail(err, errlen, "out of memory");
			i += 2;
		} else if (is(o, "wdir", "dir") || is(o, "gwdir", "gdir")) {
			if (!left)
				return fail(err, errlen, "%s needs a folder", argv[i]);
			free(job->wdir);
			job->wdir = strdup(argv[++i]);
		} else if (is(o, "l", "lines")) {
			job->lines = true;
		} else if (is(o, "exitcodes", NULL)) {
			job->exitcodes = true;
		} else if (is(o, "a", "affinity")) {
			job->affinity = true;
		} else if (is(o, "timeout", NULL)) {
			if (!left || !number(argv[i + 1], &job->timeout))
				return fail(err, errlen, "-timeout needs a positive number of seconds");
			i++;
		} else {
			for (size_t r = 0; r < sizeof(refused) / sizeof(refused[0]); r++)
				if (!strcasecmp(o, refused[r][0]))
					return fail(err, errlen, "%s is not supported: ndmpiexec has no %s", argv[i],
						    refused[r][1]);
			/* A '/' word that names no option is a Linux path: the program. */
			if (argv[i][0] == '/')
				break;
			return fail(err, errlen, "unknown option %s", argv[i]);
		}
	}
	if (i >= argc)
		return fail(err, errlen, "no program to run");
	for (int j = i; j < argc; j++)
		if (!strcmp(argv[j], ":"))
			return fail(err, errlen, "':' sections (several programs in one job) are not supported");
	job->prog = argv + i;
	job->nprog = argc - i;
	return 0;
}

void mpx_job_free(struct mpx_job *job)
{
	for (int i = 0; i < job->nhosts; i++)
		free(job->hosts[i].name);
	for (int i = 0; i < job->nenv; i++) {
		free(job->env[i].name);
		free(job->env[i].value);
	}
	free(job->hosts);
	free(job->env);
	free(job->wdir);
	memset(job, 0, sizeof(*job));
}

int mpx_total_ranks(const struct mpx_job *job, int local_cpus)
{
	int n = 0;

	if (job->nprocs)
		return job->nprocs;
	for (int i = 0; i < job->nhosts; i++)
		n += job->hosts[i].count;
	return n ? n : (local_cpus > 0 ? local_cpus : 1);
}

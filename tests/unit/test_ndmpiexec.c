/* ndmpiexec's command line (tools/ndmpiexec/job.c) and its translation
 * onto srun and mpiexec.hydra (translate.c): MS-MPI's options as its
 * `mpiexec -help2` describes them, each launcher's command word by word,
 * and the refusals that name what is not supported. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "tools/ndmpiexec/job.h"

/* Parses a command line given as words (NULL-terminated, after "ndmpiexec"). */
static int parse(struct mpx_job *job, char *err, const char *timeout_env, ...)
{
	static char *argv[64];
	const char *w;
	va_list ap;
	int argc = 1;

	argv[0] = "ndmpiexec";
	va_start(ap, timeout_env);
	while ((w = va_arg(ap, const char *)) && argc < 63)
		argv[argc++] = (char *)w;
	va_end(ap);
	argv[argc] = NULL;
	err[0] = 0;
	return mpx_parse(argc, argv, timeout_env, job, err, 256);
}

/* The translated command as one string, the words joined by spaces. */
static char *joined(const struct mpx_cmd *cmd)
{
	static char buf[4096];

	buf[0] = 0;
	for (int i = 0; i < cmd->argc; i++) {
		if (i)
			strcat(buf, " ");
		strcat(buf, cmd->argv[i]);
	}
	assert_null(cmd->argv[cmd->argc]);
	return buf;
}

static void test_n_and_program(void **state)
{
	struct mpx_job job;
	char err[256];

	assert_int_equal(parse(&job, err, NULL, "-n", "4", "app.exe", "-n", "x", NULL), 0);
	assert_int_equal(job.nprocs, 4);
	assert_int_equal(job.nprog, 3);
	assert_string_equal(job.prog[0], "app.exe");
	/* The program's own arguments are not ndmpiexec's. */
	assert_string_equal(job.prog[1], "-n");
	assert_false(job.lines || job.exitcodes || job.affinity || job.dry_run);
	mpx_job_free(&job);

	/* Written /opt, any case; -np; -n *. */
	assert_int_equal(parse(&job, err, NULL, "/NP", "3", "/L", "-ExitCodes", "/affinity", "app.exe", NULL), 0);
	assert_int_equal(job.nprocs, 3);
	assert_true(job.lines && job.exitcodes && job.affinity);
	mpx_job_free(&job);
	assert_int_equal(parse(&job, err, NULL, "-n", "*", "app.exe", NULL), 0);
	assert_int_equal(job.nprocs, 0);
	assert_int_equal(mpx_total_ranks(&job, 6), 6);
	mpx_job_free(&job);

	/* A Linux path is the program, not an unknown /option. */
	assert_int_equal(parse(&job, err, NULL, "-n", "2", "/opt/app/a.exe", NULL), 0);
	assert_string_equal(job.prog[0], "/opt/app/a.exe");
	mpx_job_free(&job);
}

static void test_hosts(void **state)
{
	struct mpx_job job;
	char err[256];

	/* Counts are optional and default to 1. */
	assert_int_equal(parse(&job, err, NULL, "-hosts", "3", "a", "2", "b", "c", "4", "app.exe", "x", NULL), 0);
	assert_int_equal(job.nhosts, 3);
	assert_string_equal(job.hosts[0].name, "a");
	assert_int_equal(job.hosts[0].count, 2);
	assert_string_equal(job.hosts[1].name, "b");
	assert_int_equal(job.hosts[1].count, 1);
	assert_string_equal(job.hosts[2].name, "c");
	assert_int_equal(job.hosts[2].count, 4);
	assert_int_equal(mpx_total_ranks(&job, 1), 7);
	assert_string_equal(job.prog[0], "app.exe");
	assert_int_equal(job.nprog, 2);
	mpx_job_free(&job);

	/* "app.exe" becomes the second host: nothing is left to run. */
	assert_int_equal(parse(&job, err, NULL, "-hosts", "2", "a", "app.exe", NULL), -1);
	assert_string_equal(err, "no program to run");
	mpx_job_free(&job);
	assert_int_equal(parse(&job, err, NULL, "-hosts", "3", "a", "b", NULL), -1);
	assert_non_null(strstr(err, "expected 3 host names, found 2"));
	mpx_job_free(&job);
	assert_int_equal(parse(&job, err, NULL, "-hosts", "0", "a", "x.exe", NULL), -1);
	mpx_job_free(&job);
	assert_int_equal(parse(&job, err, NULL, "-n", "2", "-hosts", "1", "a", "x.exe", NULL), -1);
	assert_non_null(strstr(err, "-n and -hosts"));
	mpx_job_free(&job);
	assert_int_equal(parse(&job, err, NULL, "-hosts", "1", "a", "2,3", "x.exe", NULL), -1);
	assert_non_null(strstr(err, "affinity masks"));
	mpx_job_free(&job);
	assert_int_equal(parse(&job, err, NULL, "-host", "a", "-hosts", "1", "b", "x.exe", NULL), -1);
	assert_non_null(strstr(err, "hosts are given twice"));
	mpx_job_free(&job);

	assert_int_equal(parse(&job, err, NULL, "-n", "3", "-host", "h", "x.exe", NULL), 0);
	assert_int_equal(job.nhosts, 1);
	assert_int_equal(mpx_total_ranks(&job, 8), 3);
	mpx_job_free(&job);
}

static void test_machinefile(void **state)
{
	char path[] = "/tmp/test_ndmpiexec.XXXXXX", err[256];
	int fd = mkstemp(path);
	static const char text[] = "# the rig\nnode-a 2   # two cores\n\n  node-b\r\nnode-c 3\n";
	struct mpx_job job;
	FILE *f;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, sizeof(text) - 1), (ssize_t)sizeof(text) - 1);
	close(fd);
	assert_int_equal(parse(&job, err, NULL, "-machinefile", path, "x.exe", NULL), 0);
	assert_int_equal(job.nhosts, 3);
	assert_string_equal(job.hosts[0].name, "node-a");
	assert_int_equal(job.hosts[0].count, 2);
	assert_string_equal(job.hosts[1].name, "node-b");
	assert_int_equal(job.hosts[1].count, 1);
	assert_int_equal(job.hosts[2].count, 3);
	assert_int_equal(mpx_total_ranks(&job, 1), 6);
	mpx_job_free(&job);

	f = fopen(path, "w");
	fputs("node-a two\n", f);
	fclose(f);
	assert_int_equal(parse(&job, err, NULL, "-machinefile", path, "x.exe", NULL), -1);
	assert_non_null(strstr(err, ":1: expected 'host [cores]'"));
	mpx_job_free(&job);
	f = fopen(path, "w");
	fputs("# nobody\n", f);
	fclose(f);
	assert_int_equal(parse(&job, err, NULL, "-machinefile", path, "x.exe", NULL), -1);
	assert_non_null(strstr(err, "names no host"));
	mpx_job_free(&job);
	unlink(path);
	assert_int_equal(parse(&job, err, NULL, "-machinefile", path, "x.exe", NULL), -1);
	assert_non_null(strstr(err, "cannot read the machine file"));
	mpx_job_free(&job);
}

static void test_env_wdir_timeout(void **state)
{
	struct mpx_job job;
	char err[256];

	assert_int_equal(parse(&job, err, "30", "-env", "A", "1 2", "-genv", "B", "", "-wdir", "/tmp/w", "x.exe", NULL),
			 0);
	assert_int_equal(job.nenv, 2);
	assert_string_equal(job.env[0].name, "A");
	assert_string_equal(job.env[0].value, "1 2");
	assert_string_equal(job.env[1].value, "");
	assert_string_equal(job.wdir, "/tmp/w");
	assert_int_equal(job.timeout, 30); /* MPIEXEC_TIMEOUT */
	mpx_job_free(&job);

	assert_int_equal(parse(&job, err, "30", "-timeout", "5", "x.exe", NULL), 0);
	assert_int_equal(job.timeout, 5); /* the option wins */
	mpx_job_free(&job);
	assert_int_equal(parse(&job, err, "soon", "x.exe", NULL), -1);
	assert_non_null(strstr(err, "MPIEXEC_TIMEOUT=soon"));
	mpx_job_free(&job);
	assert_int_equal(parse(&job, err, NULL, "-timeout", "-1", "x.exe", NULL), -1);
	mpx_job_free(&job);
	assert_int_equal(parse(&job, err, NULL, "-env", "A=B", "c", "x.exe", NULL), -1);
	assert_non_null(strstr(err, "not a variable name"));
	mpx_job_free(&job);
	assert_int_equal(parse(&job, err, NULL, "-env", "A", NULL), -1);
	mpx_job_free(&job);
}

static void test_refusals(void **state)
{
	struct mpx_job job;
	char err[256];

	assert_int_equal(parse(&job, err, NULL, "-n", "2", NULL), -1);
	assert_string_equal(err, "no program to run");
	mpx_job_free(&job);
	assert_int_equal(parse(&job, err, NULL, "-frobnicate", "x.exe", NULL), -1);
	assert_string_equal(err, "unknown option -frobnicate");
	mpx_job_free(&job);
	assert_int_equal(parse(&job, err, NULL, "-affinity_layout", "spr:L", "x.exe", NULL), -1);
	assert_non_null(strstr(err, "-affinity_layout is not supported"));
	mpx_job_free(&job);
	assert_int_equal(parse(&job, err, NULL, "-n", "1", "a.exe", ":", "-n", "1", "b.exe", NULL), -1);
	assert_non_null(strstr(err, "':' sections"));
	mpx_job_free(&job);
	assert_int_equal(parse(&job, err, NULL, "-n", "0", "x.exe", NULL), -1);
	mpx_job_free(&job);
}

static void test_hydra(void **state)
{
	struct mpx_job job;
	struct mpx_cmd cmd;
	char err[256];

	assert_int_equal(parse(&job, err, NULL, "-hosts", "2", "a", "2", "b", "-env", "K", "v w", "-wdir", "/w", "-l",
			       "-affinity", "x.exe", "arg", NULL),
			 0);
	assert_int_equal(mpx_translate(&job, MPX_HYDRA, "mpiexec.hydra", "/bin/ndmpiexec", "/bin/ndrun", 1, &cmd, err,
				       sizeof(err)),
			 0);
	assert_string_equal(joined(&cmd), "mpiexec.hydra -n 3 -hosts a:2,b:1 -genv K v w -wdir /w -bind-to core "
					  "/bin/ndmpiexec --rank --lines -- /bin/ndrun x.exe arg");
	assert_null(cmd.hostfile);
	mpx_cmd_free(&cmd);
	mpx_job_free(&job);

	/* Without hosts: this machine, one rank per CPU for -n *. */
	assert_int_equal(parse(&job, err, NULL, "x.exe", NULL), 0);
	assert_int_equal(mpx_translate(&job, MPX_HYDRA, "h", "w", "r", 4, &cmd, err, sizeof(err)), 0);
	assert_string_equal(joined(&cmd), "h -n 4 w --rank -- r x.exe");
	mpx_cmd_free(&cmd);
	mpx_job_free(&job);
}

static void test_srun(void **state)
{
	struct mpx_job job;
	struct mpx_cmd cmd;
	char err[256], *line;

	assert_int_equal(parse(&job, err, NULL, "-hosts", "2", "a", "2", "b", "-genv", "K", "v", "-wdir", "/w",
			       "x.exe", NULL),
			 0);
	assert_int_equal(mpx_translate(&job, MPX_SRUN, "srun", "w", "r", 1, &cmd, err, sizeof(err)), 0);
	assert_string_equal(joined(&cmd), "env K=v srun --mpi=pmi2 --kill-on-bad-exit=1 --quit-on-interrupt "
					  "--ntasks=3 --distribution=arbitrary --overcommit --chdir=/w w --rank -- r x.exe");
	assert_string_equal(cmd.hostfile, "a\na\nb\n");
	line = mpx_cmd_string(&cmd, "/tmp/h f");
	assert_string_equal(line, "SLURM_HOSTFILE='/tmp/h f' env K=v srun --mpi=pmi2 --kill-on-bad-exit=1 "
				  "--quit-on-interrupt --ntasks=3 --distribution=arbitrary --overcommit --chdir=/w w --rank -- r x.exe");
	free(line);
	mpx_cmd_free(&cmd);
	mpx_job_free(&job);

	/* -host and -n: every rank there. */
	assert_int_equal(parse(&job, err, NULL, "-n", "3", "-host", "b", "x.exe", NULL), 0);
	assert_int_equal(mpx_translate(&job, MPX_SRUN, "srun", "w", "r", 1, &cmd, err, sizeof(err)), 0);
	assert_string_equal(cmd.hostfile, "b\nb\nb\n");
	mpx_cmd_free(&cmd);
	mpx_job_free(&job);

	/* Without -n or hosts srun starts what the allocation holds. */
	assert_int_equal(parse(&job, err, NULL, "-l", "-a", "x.exe", "it's", NULL), 0);
	assert_int_equal(mpx_translate(&job, MPX_SRUN, "srun", "w", "r", 1, &cmd, err, sizeof(err)), 0);
	assert_string_equal(joined(&cmd), "srun --mpi=pmi2 --kill-on-bad-exit=1 --quit-on-interrupt "
					  "--cpu-bind=cores w --rank --lines -- r x.exe it's");
	assert_null(cmd.hostfile);
	line = mpx_cmd_string(&cmd, NULL);
	assert_non_null(strstr(line, " x.exe 'it'\\''s'"));
	free(line);
	mpx_cmd_free(&cmd);
	mpx_job_free(&job);
}

/* Slots fill in order; past the last, ranks start again at the first
 * host (hydra's and MS-MPI's round robin over the slots). */
static void test_machinefile_fill(void **state)
{
	char path[] = "/tmp/test_ndmpiexec.XXXXXX", err[256];
	int fd = mkstemp(path);
	struct mpx_job job;
	struct mpx_cmd cmd;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, "a 2\nb\n", 6), 6);
	close(fd);
	assert_int_equal(parse(&job, err, NULL, "-n", "5", "-machinefile", path, "x.exe", NULL), 0);
	assert_int_equal(mpx_translate(&job, MPX_SRUN, "srun", "w", "r", 1, &cmd, err, sizeof(err)), 0);
	assert_string_equal(cmd.hostfile, "a\na\nb\na\na\n");
	assert_non_null(strstr(joined(&cmd), "--ntasks=5 "));
	mpx_cmd_free(&cmd);
	assert_int_equal(mpx_translate(&job, MPX_HYDRA, "h", "w", "r", 1, &cmd, err, sizeof(err)), 0);
	assert_string_equal(joined(&cmd), "h -n 5 -hosts a:2,b:1 w --rank -- r x.exe");
	mpx_cmd_free(&cmd);
	mpx_job_free(&job);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_n_and_program), cmocka_unit_test(test_hosts),
		cmocka_unit_test(test_machinefile),   cmocka_unit_test(test_env_wdir_timeout),
		cmocka_unit_test(test_refusals),      cmocka_unit_test(test_hydra),
		cmocka_unit_test(test_srun),	      cmocka_unit_test(test_machinefile_fill),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

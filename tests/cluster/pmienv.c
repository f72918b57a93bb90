/* pmienv.exe: a Windows rank that says how it was launched, for the cluster
 * rig's tests (tests/cluster/).  It needs no MPI library: it prints what a
 * process manager gave it, so srun, mpiexec.hydra and ndmpiexec can be
 * tested before msmpi.dll exists, and it misbehaves on request so the
 * launchers' handling of failed ranks can be tested.
 *
 * One line on stdout:
 *   pmienv rank=R size=S host=H cwd=D pm=LIST [NAME=VALUE ...]
 * R and S are PMI_RANK and PMI_SIZE (or "-" when unset); LIST names the
 * process-manager variables present, of PMI_FD, PMI_PORT, PMI_JOBID,
 * PMI_KVS (the last after ndrun translated the Linux PMI environment into
 * MS-MPI's), or "none".
 *
 * Arguments, in any order:
 *   --env NAME             also print NAME=VALUE (NAME=(unset) if unset)
 *   --exit-rank R CODE     rank R exits with CODE right after printing
 *   --sleep SECONDS        the other ranks sleep this long before exiting 0
 *   --stderr               also print the line on stderr
 * Exit status: 0, CODE as above, or 2 for bad arguments. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

static const char *env(const char *name, char *buf, DWORD size)
{
	DWORD n = GetEnvironmentVariableA(name, buf, size);

	return n && n < size ? buf : NULL;
}

static void append(char *line, size_t size, const char *text)
{
	size_t len = strlen(line);

	snprintf(line + len, size - len, "%s", text);
}

int main(int argc, char **argv)
{
	static const char *const pm_vars[] = { "PMI_FD", "PMI_PORT", "PMI_JOBID", "PMI_KVS" };
	char line[8192], buf[2048], host[256] = "?", cwd[MAX_PATH] = "?", item[2400];
	DWORD host_len = sizeof(host);
	const char *rank_s, *exit_rank = NULL, *exit_code = NULL;
	char rank[32], size[32];
	int sleep_s = 0, to_stderr = 0, any_pm = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--env") && i + 1 < argc) {
			i++;
		} else if (!strcmp(argv[i], "--exit-rank") && i + 2 < argc) {
			exit_rank = argv[i + 1];
			exit_code = argv[i + 2];
			i += 2;
		} else if (!strcmp(argv[i], "--sleep") && i + 1 < argc) {
			sleep_s = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--stderr")) {
			to_stderr = 1;
		} else {
			fprintf(stderr, "pmienv: bad argument '%s'\n", argv[i]);
			return 2;
		}
	}

	rank_s = env("PMI_RANK", rank, sizeof(rank));
	if (!env("PMI_SIZE", size, sizeof(size)))
		strcpy(size, "-");
	GetComputerNameA(host, &host_len);
	GetCurrentDirectoryA(sizeof(cwd), cwd);
	snprintf(line, sizeof(line), "pmienv rank=%s size=%s host=%s cwd=%s pm=", rank_s ? rank_s : "-", size, host,
		 cwd);
	for (size_t v = 0; v < sizeof(pm_vars) / sizeof(pm_vars[0]); v++) {
		if (env(pm_vars[v], buf, sizeof(buf))) {
			append(line, sizeof(line), any_pm ? "," : "");
			append(line, sizeof(line), pm_vars[v]);
			any_pm = 1;
		}
	}
	if (!any_pm)
		append(line, sizeof(line), "none");
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--env")) {
			const char *v = env(argv[i + 1], buf, sizeof(buf));

			snprintf(item, sizeof(item), " %s=%s", argv[i + 1], v ? v : "(unset)");
			append(line, sizeof(line), item);
			i++;
		}
	}
	printf("%s\n", line);
	fflush(stdout);
	if (to_stderr) {
		fprintf(stderr, "%s\n", line);
		fflush(stderr);
	}

	if (exit_rank && rank_s && !strcmp(exit_rank, rank_s))
		return atoi(exit_code);
	if (sleep_s > 0)
		Sleep((DWORD)sleep_s * 1000);
	return 0;
}

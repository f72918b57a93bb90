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
 *   --delay SECONDS        ranks other than 0 wait this long before their
 *                          line (rank 0 then ends first)
 *   --end HOW              how the process ends, with its exit status:
 *                          return (from main, the default), exit,
 *                          ExitProcess, TerminateProcess (of itself),
 *                          thread (a second thread calls exit while the
 *                          main one waits, as a runtime's error path may)
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

static const char *end_how = "return";

static DWORD WINAPI exit_thread(void *code)
{
	exit((int)(INT_PTR)code);
}

/* Ends the process with code the way --end asked. */
static int end(int code)
{
	if (!strcmp(end_how, "exit"))
		exit(code);
	if (!strcmp(end_how, "ExitProcess"))
		ExitProcess((UINT)code);
	if (!strcmp(end_how, "TerminateProcess"))
		TerminateProcess(GetCurrentProcess(), (UINT)code);
	if (!strcmp(end_how, "thread")) {
		HANDLE t = CreateThread(NULL, 0, exit_thread, (void *)(INT_PTR)code, 0, NULL);

		if (t)
			WaitForSingleObject(t, INFINITE);
		fprintf(stderr, "pmienv: the thread did not end the process\n");
		return 3;
	}
	return code;
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
	int sleep_s = 0, delay_s = 0, to_stderr = 0, any_pm = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--env") && i + 1 < argc) {
			i++;
		} else if (!strcmp(argv[i], "--exit-rank") && i + 2 < argc) {
			exit_rank = argv[i + 1];
			exit_code = argv[i + 2];
			i += 2;
		} else if (!strcmp(argv[i], "--sleep") && i + 1 < argc) {
			sleep_s = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--delay") && i + 1 < argc) {
			delay_s = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--end") && i + 1 < argc) {
			end_how = argv[++i];
			if (strcmp(end_how, "return") && strcmp(end_how, "exit") && strcmp(end_how, "ExitProcess") &&
			    strcmp(end_how, "TerminateProcess") && strcmp(end_how, "thread")) {
				fprintf(stderr, "pmienv: bad --end '%s'\n", end_how);
				return 2;
			}
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
	if (delay_s > 0 && !(rank_s && !strcmp(rank_s, "0")))
		Sleep((DWORD)delay_s * 1000);
	printf("%s\n", line);
	fflush(stdout);
	if (to_stderr) {
		fprintf(stderr, "%s\n", line);
		fflush(stderr);
	}

	if (exit_rank && rank_s && !strcmp(exit_rank, rank_s))
		return end(atoi(exit_code));
	if (sleep_s > 0)
		Sleep((DWORD)sleep_s * 1000);
	return end(0);
}

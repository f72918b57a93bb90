/* ndmpiexec --rank [--lines] -- NDRUN PROGRAM [ARG...]: what the launcher
 * starts on each node, around one rank's ndrun.  It is no process
 * manager: ndrun inherits everything the launcher gave (the PMI
 * connection included) and the wrapper only
 *   - prefixes each line of the rank's output with "[RANK]" (--lines, as
 *     MS-MPI's mpiexec -l does), whichever launcher runs it;
 *   - passes the signals a launcher sends to end a job on to ndrun;
 *   - reports how the rank ended to the front end, one line on stderr
 *     (RANK_REPORT below), so that -exitcodes can list every rank and a
 *     failed rank can end a hydra job (hydra only ends a job when a rank
 *     dies of a signal);
 *   - ends as ndrun did: the same exit code, or the same signal.
 * ndrun runs with PR_SET_PDEATHSIG: if the launcher kills the wrapper
 * (SIGKILL), the rank dies with it and nothing is left on the node. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/ndmpiexec/rank.h"

static volatile pid_t child;

static void forward(int sig)
{
	if (child > 0)
		kill(child, sig);
}

/* Copies what is in FD to OUT, "[RANK]" before each line; LINE_START
 * remembers whether the next byte starts a line.  false at end of file. */
static bool relay(int fd, int out, const char *prefix, bool *line_start)
{
	char buf[4096], obuf[8192 + 64];
	ssize_t n = read(fd, buf, sizeof(buf));
	size_t o = 0, plen = strlen(prefix);

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (n <= 0)
		return false;
	for (ssize_t i = 0; i < n; i++) {
		if (*line_start) {
			memcpy(obuf + o, prefix, plen);
			o += plen;
		}
		obuf[o++] = buf[i];
		*line_start = buf[i] == '\n';
	}
	for (size_t done = 0; done < o;) {
		ssize_t w = write(out, obuf + done, o - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		done += (size_t)w;
	}
	return true;
}

const char *mpx_rank_of_env(void)
{
	const char *r = getenv("PMI_RANK");

	if (!r || !*r)
		r = getenv("SLURM_PROCID");
	return r && *r ? r : "?";
}

int mpx_rank_main(int argc, char **argv)
{
	int i = 2, outp[2] = { -1, -1 }, errp[2] = { -1, -1 }, status;
	bool lines = false, o_start = true, e_start = true;
	char prefix[64], host[256] = "?", report[512];
	const char *rank = mpx_rank_of_env();
	struct sigaction sa = { .sa_handler = forward };
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGCONT };
	pid_t parent = getpid();

	if (i < argc && !strcmp(argv[i], "--lines")) {
		lines = true;
		i++;
	}
	if (i >= argc || strcmp(argv[i], "--") || i + 1 >= argc) {
		fprintf(stderr, "ndmpiexec: --rank is ndmpiexec's own (usage: --rank [--lines] -- NDRUN PROGRAM...)\n");
		return 2;
	}
	i++;
	snprintf(prefix, sizeof(prefix), "[%s]", rank);
	gethostname(host, sizeof(host) - 1);
	if (lines && (pipe(outp) || pipe(errp))) {
		perror("ndmpiexec: pipe");
		return 125;
	}
	sigemptyset(&sa.sa_mask);
	for (size_t s = 0; s < sizeof(sigs) / sizeof(sigs[0]); s++)
		sigaction(sigs[s], &sa, NULL);

	child = fork();
	if (child < 0) {
		perror("ndmpiexec: fork");
		return 125;
	}
	if (!child) {
		struct sigaction dfl = { .sa_handler = SIG_DFL };

		for (size_t s = 0; s < sizeof(sigs) / sizeof(sigs[0]); s++)
			sigaction(sigs[s], &dfl, NULL);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent) /* the wrapper died before prctl */
			_exit(125);
		if (lines) {
			dup2(outp[1], 1);
			dup2(errp[1], 2);
			close(outp[0]);
			close(outp[1]);
			close(errp[0]);
			close(errp[1]);
		}
		execvp(argv[i], argv + i);
		fprintf(stderr, "ndmpiexec: cannot run %s: %s\n", argv[i], strerror(errno));
		_exit(127);
	}
	if (lines) {
		struct pollfd p[2] = { { .fd = outp[0], .events = POLLIN }, { .fd = errp[0], .events = POLLIN } };
		int open_fds = 2;

		close(outp[1]);
		close(errp[1]);
		while (open_fds) {
			if (poll(p, 2, -1) < 0) {
				if (errno == EINTR)
					continue;
				break;
			}
			for (int k = 0; k < 2; k++) {
				if (p[k].fd >= 0 && (p[k].revents & (POLLIN | POLLHUP | POLLERR)) &&
				    !relay(p[k].fd, k ? 2 : 1, prefix, k ? &e_start : &o_start)) {
					close(p[k].fd);
					p[k].fd = -1;
					open_fds--;
				}
			}
		}
		/* A last line without its newline still ends the line. */
		if (!o_start && write(1, "\n", 1) < 0) {
		}
		if (!e_start && write(2, "\n", 1) < 0) {
		}
	}
	while (waitpid(child, &status, 0) < 0) {
		if (errno != EINTR) {
			perror("ndmpiexec: waitpid");
			return 125;
		}
	}
	if (WIFSIGNALED(status))
		snprintf(report, sizeof(report), RANK_REPORT "%s signal %d %s\n", rank, WTERMSIG(status), host);
	else
		snprintf(report, sizeof(report), RANK_REPORT "%s exit %d %s\n", rank, WEXITSTATUS(status), host);
	/* One write: the launcher forwards it whole, even amid other output. */
	if (write(2, report, strlen(report)) < 0) {
	}
	if (WIFSIGNALED(status)) {
		struct sigaction dfl = { .sa_handler = SIG_DFL };

		sigaction(WTERMSIG(status), &dfl, NULL);
		raise(WTERMSIG(status));
		return 128 + WTERMSIG(status);
	}
	return WEXITSTATUS(status);
}

/* fork/exec for CreateProcess.  Between fork and exec the child calls
 * only async-signal-safe functions on data prepared before the fork:
 * the parent has other threads, whose locks the child inherits held. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/close_range.h>

#include "core/debug.h"
#include "core/errors.h"
#include "core/process.h"
#include "core/spawn.h"
#include "core/startup.h"
#include "core/wstr.h"

/* The block for a PE child, in a new memfd; *fd gets the memfd. */
static struct startup_block *make_block(const struct spawn_params *sp, int *fd, size_t *size)
{
	size_t cmd_bytes = (wstr_len(sp->cmdline) + 1) * sizeof(WCHAR);
	size_t inh_off = sizeof(struct startup_block);
	size_t path_off = inh_off + sp->n_inherit * sizeof(struct startup_inherit), paths = 0, cmd_off;
	struct startup_inherit *in;
	struct startup_block *b;

	/* Segment names between the handles and the command line, which
	 * stays last (the child checks the block ends with its NUL). */
	for (size_t i = 0; i < sp->n_inherit; i++)
		if (sp->inherit[i].path)
			paths += strlen(sp->inherit[i].path) + 1;
	cmd_off = path_off + ((paths + 7) & ~(size_t)7);
	*size = cmd_off + cmd_bytes;
	if (*size > (1u << 30)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	*fd = memfd_create(STARTUP_MEMFD_NAME, MFD_CLOEXEC);
	if (*fd < 0 || ftruncate(*fd, (off_t)*size) ||
	    (b = mmap(NULL, *size, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0)) == MAP_FAILED) {
		set_last_error_from_errno(errno);
		if (*fd >= 0)
			close(*fd);
		return NULL;
	}
	b->magic = STARTUP_MAGIC;
	b->size = (uint32_t)*size;
	b->flags = sp->suspended ? STARTUP_SUSPENDED : 0;
	b->startf = sp->startf;
	b->show_window = sp->show_window;
	for (int i = 0; i < 3; i++)
		b->std_handles[i] = (uint64_t)(uintptr_t)sp->std_handles[i];
	b->n_inherit = (uint32_t)sp->n_inherit;
	b->inherit_off = (uint32_t)inh_off;
	in = (struct startup_inherit *)((char *)b + inh_off);
	for (size_t i = 0; i < sp->n_inherit; i++) {
		in[i].handle = (uint64_t)(uintptr_t)sp->inherit[i].handle;
		in[i].access = sp->inherit[i].access;
		in[i].options = sp->inherit[i].options;
		in[i].kind = sp->inherit[i].kind;
		in[i].fd = (uint32_t)(STARTUP_FD_FIRST_INHERIT + i);
		in[i].size = sp->inherit[i].size;
		in[i].type = sp->inherit[i].type;
		if (sp->inherit[i].path) {
			size_t n = strlen(sp->inherit[i].path) + 1;

			memcpy((char *)b + path_off, sp->inherit[i].path, n);
			in[i].path_off = (uint32_t)path_off;
			path_off += n;
		}
	}
	b->cmdline_off = (uint32_t)cmd_off;
	memcpy((char *)b + cmd_off, sp->cmdline, cmd_bytes);
	return b;
}

/* The child between fork and exec: src[i] becomes fd i for i < n, every
 * other fd closes at exec.  hi has room for n fds.  Never returns. */
/* The handle server's socket (kernel32/duphandle.c) for this child: the
 * address is sock_prefix + our pid + ".sock", made without stdio. */
static int child_handle_socket(const char *sock_prefix)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	char digits[16];
	size_t o = 0, d = 0;
	pid_t pid = getpid();
	int s;

	while (sock_prefix[o] && o < sizeof(a.sun_path) - 24) {
		a.sun_path[o] = sock_prefix[o];
		o++;
	}
	do
		digits[d++] = (char)('0' + pid % 10);
	while ((pid /= 10));
	while (d)
		a.sun_path[o++] = digits[--d];
	memcpy(a.sun_path + o, ".sock", 6);
	s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -1;
	/* A socket left by a killed process that had our pid. */
	unlink(a.sun_path);
	if (bind(s, (struct sockaddr *)&a, sizeof(a)) || listen(s, 16)) {
		close(s);
		return -1;
	}
	return s;
}

static void child_exec(const struct spawn_params *sp, const int *src, int *hi, unsigned int n,
		       int resume_fd, int err_fd, const char *path, char *const *argv,
		       const char *sock_prefix)
{
	int e, hs = -1;
	sigset_t none;
	char c;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	/* A Linux program cannot be held inside exec: hold it here. */
	if (!sp->pe && resume_fd >= 0) {
		ssize_t r;

		while ((r = read(resume_fd, &c, 1)) < 0 && errno == EINTR)
			;
		/* Never resumed (the parent is gone): never run. */
		if (r != 1)
			_exit(1);
	}
	if (sock_prefix && (e = child_handle_socket(sock_prefix)) >= 0) {
		hs = fcntl(e, F_DUPFD, (int)n);
		close(e);
	}
	/* Out of the way of the targets first: a source may be a target. */
	for (unsigned int i = 0; i < n; i++)
		if ((hi[i] = fcntl(src[i], F_DUPFD, (int)n)) < 0)
			goto fail;
	for (unsigned int i = 0; i < n; i++)
		if (dup2(hi[i], (int)i) < 0)
			goto fail;
	/* Without one (no room in /dev/shm), the child makes its own. */
	if (hs >= 0 && dup2(hs, STARTUP_FD_HANDLES) < 0)
		goto fail;
	close_range(n, ~0u, CLOSE_RANGE_CLOEXEC);
	if (sp->cwd && chdir(sp->cwd) < 0)
		goto fail;
	execve(path, argv, sp->envp);
fail:
	e = errno;
	if (write(err_fd, &e, sizeof(e)) < 0) {
		/* the parent sees EOF and a child that exits 127 */
	}
	_exit(127);
}

struct process *process_spawn(const struct spawn_params *sp)
{
	char *const *argv = sp->argv;
	char *ndrun_argv[] = { "ndrun", "--startup-fd", "3", (char *)sp->exe, NULL, NULL };
	int resume[2] = { -1, -1 }, err[2] = { -1, -1 }, life[2] = { -1, -1 }, *fds = NULL;
	int devnull = -1, memfd = -1, pidfd = -1, child_errno, *hi = NULL;
	char sock_prefix[64];
	unsigned int n = sp->pe ? STARTUP_FD_FIRST_INHERIT + (unsigned int)sp->n_inherit : 3;
	struct startup_block *block = NULL;
	struct process *p = NULL;
	size_t block_size = 0;
	const char *path = sp->exe;
	pid_t pid;
	ssize_t r;

	if (sp->pe) {
		if (!(block = make_block(sp, &memfd, &block_size)))
			return NULL;
		path = "/proc/self/exe";
		argv = ndrun_argv;
		if (sp->builtin) {
			ndrun_argv[3] = "--builtin";
			ndrun_argv[4] = (char *)sp->builtin;
		}
	}
	fds = malloc(n * sizeof(*fds));
	hi = malloc(n * sizeof(*hi));
	if (!fds || !hi) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		goto out;
	}
	devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (devnull < 0 || pipe2(err, O_CLOEXEC) || (sp->suspended && pipe2(resume, O_CLOEXEC)) ||
	    (sp->pe && pipe2(life, O_CLOEXEC))) {
		set_last_error_from_errno(errno);
		goto out;
	}
	for (int i = 0; i < 3; i++)
		fds[i] = sp->std_fds[i] >= 0 ? sp->std_fds[i] : devnull;
	if (sp->pe) {
		fds[STARTUP_FD_BLOCK] = memfd;
		fds[STARTUP_FD_RESUME] = resume[0] >= 0 ? resume[0] : devnull;
		fds[STARTUP_FD_LIFELINE] = life[0];
		fds[STARTUP_FD_HANDLES] = devnull;
		snprintf(sock_prefix, sizeof(sock_prefix), "/dev/shm/ndshim-%u", (unsigned)getuid());
		mkdir(sock_prefix, 0700);
		snprintf(sock_prefix, sizeof(sock_prefix), "/dev/shm/ndshim-%u/p", (unsigned)getuid());
		for (size_t i = 0; i < sp->n_inherit; i++)
			fds[STARTUP_FD_FIRST_INHERIT + i] = sp->inherit[i].fd;
	}

	/* An ndrun child may ask us for handles (OpenProcess on us, then
	 * DuplicateHandle) as soon as it runs, which under load can be
	 * before we get back from the exec below: serve before it exists. */
	if (sp->pe)
		duphandle_server_start();
	pid = fork();
	if (pid < 0) {
		set_last_error_from_errno(errno);
		goto out;
	}
	if (!pid)
		child_exec(sp, fds, hi, n, resume[0], err[1], path, argv, sp->pe ? sock_prefix : NULL);

	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	close(err[1]);
	err[1] = -1;
	do {
		r = read(err[0], &child_errno, sizeof(child_errno));
	} while (r < 0 && errno == EINTR);
	if (r == sizeof(child_errno) || pidfd < 0) {
		/* exec failed: nothing of the program ever ran. */
		if (pidfd < 0)
			kill(pid, SIGKILL);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		set_last_error_from_errno(r == sizeof(child_errno) ? child_errno : errno);
		goto out;
	}
	TRACE(process, "%s: pid %d%s\n", sp->exe, pid, sp->suspended ? " (suspended)" : "");
	p = process_create(pid, pidfd, true, block, block_size, resume[1]);
	if (p) {
		/* Both ends stay with us: the write end is the lifeline, the
		 * read end is how we arm it later. */
		p->lifeline[0] = life[0];
		p->lifeline[1] = life[1];
		life[0] = life[1] = -1;
	}
	if (!p) {
		kill(pid, SIGKILL);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		goto out;
	}
	pidfd = -1;
	block = NULL;
	resume[1] = -1;
out:
	if (block)
		munmap(block, block_size);
	if (pidfd >= 0)
		close(pidfd);
	for (int i = 0; i < 2; i++) {
		if (resume[i] >= 0)
			close(resume[i]);
		if (err[i] >= 0)
			close(err[i]);
		if (life[i] >= 0)
			close(life[i]);
	}
	if (memfd >= 0)
		close(memfd);
	if (devnull >= 0)
		close(devnull);
	free(fds);
	free(hi);
	return p;
}

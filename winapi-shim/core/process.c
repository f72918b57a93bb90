/* Process objects (see process.h) and the watcher thread that turns a
 * pidfd becoming readable into a signaled process object. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/debug.h"
#include "core/handle.h"
#include "core/klock.h"
#include "core/process.h"
#include "core/startup.h"
#include "core/wait.h"

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

static bool process_signaled(struct object *obj, unsigned int tid)
{
	return to_process(obj)->finished;
}

static bool process_satisfied(struct object *obj, unsigned int tid)
{
	return false;
}

/* A kernel lock (klock.h): a thread that SuspendThread stops while it
 * lists or reaps children must not hold up the others. */
static pthread_mutex_t children_lock = PTHREAD_MUTEX_INITIALIZER;
static struct list children = LIST_INIT(children);

static void process_destroy(struct object *obj)
{
	struct process *p = to_process(obj);

	klock(&children_lock);
	if (p->child)
		list_remove(&p->entry);
	kunlock(&children_lock);
	if (p->block)
		munmap(p->block, p->block_size);
	if (p->resume_fd >= 0)
		close(p->resume_fd);
	for (int i = 0; i < 2; i++)
		if (p->lifeline[i] >= 0)
			close(p->lifeline[i]);
	close(p->pidfd);
	free(p);
}

const struct object_ops process_ops = {
	/* OpenProcess grants only what was asked: a wait needs SYNCHRONIZE. */
	.wait_access = SYNCHRONIZE,
	.type_name = "process",
	.signaled = process_signaled,
	.satisfied = process_satisfied,
	.destroy = process_destroy,
};

/* Never destroyed, never signaled while anyone can wait on it. */
static struct process the_process = {
	.obj = {
		.ops = &process_ops,
		.refcount = 1,
		.waiters = LIST_INIT(the_process.obj.waiters),
	},
	.pidfd = -1,
	.resume_fd = -1,
	.lifeline = { -1, -1 },
	.exit_code = STILL_ACTIVE,
};

struct object *process_current(void)
{
	if (!the_process.pid)
		the_process.pid = getpid();
	return object_ref(&the_process.obj);
}

/* ---- the watcher ---------------------------------------------------------- */

static int watch_epoll = -1;
static pthread_once_t watch_once = PTHREAD_ONCE_INIT;

DWORD process_status_code(int status_code, int si_code)
{
	/* Killed by signal N: 128 + N, what a Linux shell reports too. */
	if (si_code == CLD_KILLED || si_code == CLD_DUMPED)
		return 128 + (DWORD)status_code;
	return (DWORD)status_code;
}

/* The wait status of p while it is a zombie (ended, not reaped yet),
 * from /proc/<pid>/stat's exit_code field.  The pid is p's as long as
 * the zombie exists, and the pidfd tells whether it still did after the
 * read: then the status read was p's. */
static bool zombie_status(struct process *p, DWORD *code)
{
	char path[64], buf[1024], *q;
	int status, field;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)p->pid);
	if (!(f = fopen(path, "re")))
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	/* After "(comm)": the state (field 3) and, as field 52, the
	 * status a wait would report. */
	if (!(q = strrchr(buf, ')')) || q[1] != ' ' || q[2] != 'Z')
		return false;
	for (field = 2; field < 52 && (q = strchr(q + 1, ' ')); field++)
		;
	if (!q || sscanf(q, " %d", &status) != 1)
		return false;
	if (syscall(SYS_pidfd_send_signal, p->pidfd, 0, NULL, 0))
		return false;
	*code = WIFSIGNALED(status) ? process_status_code(WTERMSIG(status), CLD_KILLED)
				    : (DWORD)WEXITSTATUS(status);
	return true;
}

/* p has ended: reaps it if it is our child, then takes its exit code
 * from the first source that knows it: the code it (or whoever
 * terminated it) recorded in its block, our own TerminateProcess, the
 * Linux wait status (ours to collect, or read off the zombie of a
 * process we did not start).  A parent records a code its child could
 * not (killed by a signal) in the child's block before it reaps it, so
 * every other process with the block finds it there once the zombie is
 * gone.  A process opened by pid that left no record and was reaped by
 * someone else before we looked has no code anyone could know. */
static void process_ended(struct process *p)
{
	struct rusage ru = { 0 };
	siginfo_t si = { 0 };
	bool known = true, zombie = false;
	DWORD code = 0, zcode = 0;
	UINT recorded;

	/* Disarmed while the pid is still ours (not reaped): once reaped,
	 * the pid may name someone else, whom our death must not kill. */
	wait_lock();
	for (int i = 0; i < 2; i++) {
		if (p->lifeline[i] >= 0)
			close(p->lifeline[i]);
		p->lifeline[i] = -1;
	}
	wait_unlock();
	if (p->child) {
		/* A zombie now, its pid ours until reaped: its handle
		 * server's socket (if it was killed, it could not remove it). */
		if (p->block) {
			duphandle_server_gone(p->pid);
			while (syscall(SYS_waitid, P_PIDFD, p->pidfd, &si, WEXITED | WNOWAIT, NULL) < 0 &&
			       errno == EINTR)
				;
			if (si.si_pid)
				startup_block_set_exit(p->block, STARTUP_EXITED,
						       process_status_code(si.si_status, si.si_code));
			memset(&si, 0, sizeof(si));
		}
		while (syscall(SYS_waitid, P_PIDFD, p->pidfd, &si, WEXITED, &ru) < 0 && errno == EINTR)
			;
		p->user_100ns = (uint64_t)ru.ru_utime.tv_sec * 10000000 + (uint64_t)ru.ru_utime.tv_usec * 10;
		p->kernel_100ns = (uint64_t)ru.ru_stime.tv_sec * 10000000 + (uint64_t)ru.ru_stime.tv_usec * 10;
		klock(&children_lock);
		list_remove(&p->entry);
		p->child = false;
		kunlock(&children_lock);
	} else if (!p->block || startup_block_exit(p->block, &recorded) == STARTUP_RUNNING) {
		zombie = zombie_status(p, &zcode);
	}
	wait_lock();
	/* The block again: its parent may have recorded the code and
	 * reaped it while we looked at the zombie. */
	if (p->block && startup_block_exit(p->block, &recorded) != STARTUP_RUNNING)
		code = recorded;
	else if (p->terminated)
		code = p->terminate_code;
	else if (si.si_pid)
		code = process_status_code(si.si_status, si.si_code);
	else if (zombie)
		code = zcode;
	else
		known = false;
	p->exit_code = known ? code : STILL_ACTIVE;
	p->code_unknown = !known;
	p->accounted = si.si_pid != 0;
	p->finished = true;
	wait_wake_object(&p->obj);
	if (p->main_thread)
		wait_wake_object(p->main_thread);
	wait_unlock();
	TRACE(process, "%d ended: %s %#x\n", p->pid, known ? "exit code" : "unknown exit code", code);
}

static void *watch_thread(void *arg)
{
	struct epoll_event ev[16];
	int n;

	for (;;) {
		n = epoll_wait(watch_epoll, ev, 16, -1);
		for (int i = 0; i < n; i++) {
			struct process *p = ev[i].data.ptr;

			epoll_ctl(watch_epoll, EPOLL_CTL_DEL, p->pidfd, NULL);
			process_ended(p);
			object_unref(&p->obj); /* the watcher's reference */
		}
	}
	return NULL;
}

static void watch_start(void)
{
	pthread_attr_t attr;
	pthread_t th;
	sigset_t all, old;

	watch_epoll = epoll_create1(EPOLL_CLOEXEC);
	if (watch_epoll < 0)
		return;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	/* Signals are for the program's threads, not for this one. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	if (pthread_create(&th, &attr, watch_thread, NULL)) {
		close(watch_epoll);
		watch_epoll = -1;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
}

struct process *process_create(pid_t pid, int pidfd, bool child, struct startup_block *block,
			       size_t block_size, int resume_fd)
{
	struct process *p = calloc(1, sizeof(*p));
	struct epoll_event ev = { .events = EPOLLIN };

	pthread_once(&watch_once, watch_start);
	/* A process that names another may be asked for handles by it. */
	duphandle_server_start();
	if (!p || watch_epoll < 0) {
		free(p);
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	object_init(&p->obj, &process_ops);
	p->pid = pid;
	p->pidfd = pidfd;
	p->child = child;
	p->block = block;
	p->block_size = block_size;
	p->resume_fd = resume_fd;
	p->lifeline[0] = p->lifeline[1] = -1;
	p->exit_code = STILL_ACTIVE;
	if (child) {
		klock(&children_lock);
		list_add_tail(&children, &p->entry);
		kunlock(&children_lock);
	}
	/* The watcher holds a reference until the process ends, so a child
	 * whose handles are all closed is still reaped. */
	object_ref(&p->obj);
	ev.data.ptr = p;
	if (epoll_ctl(watch_epoll, EPOLL_CTL_ADD, pidfd, &ev)) {
		object_unref(&p->obj);
		object_unref(&p->obj);
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	return p;
}

struct process *process_find_child(pid_t pid)
{
	struct process *found = NULL;
	struct list *cur;

	klock(&children_lock);
	LIST_FOR_EACH(cur, &children) {
		struct process *p = LIST_ENTRY(cur, struct process, entry);

		if (p->pid == pid) {
			found = p;
			object_ref(&p->obj);
			break;
		}
	}
	kunlock(&children_lock);
	return found;
}

BOOL process_terminate(struct process *p, UINT code)
{
	bool ok;

	wait_lock();
	ok = !p->finished;
	if (ok && p->block)
		ok = startup_block_set_exit(p->block, STARTUP_TERMINATED, code);
	if (ok) {
		p->terminated = true;
		p->terminate_code = code;
	}
	wait_unlock();
	if (!ok) {
		SetLastError(ERROR_ACCESS_DENIED);
		return FALSE;
	}
	TRACE(process, "%d with %#x\n", p->pid, code);
	if (syscall(SYS_pidfd_send_signal, p->pidfd, SIGKILL, NULL, 0) && errno != ESRCH) {
		SetLastError(ERROR_ACCESS_DENIED);
		return FALSE;
	}
	return TRUE;
}

BOOL process_exit_code(struct process *p, DWORD *code)
{
	bool unknown;
	DWORD c;

	wait_lock();
	c = p->exit_code;
	unknown = p->code_unknown;
	wait_unlock();
	/* An exit code of 259 (STILL_ACTIVE) is a real code, as on Windows. */
	if (unknown) {
		SetLastError(ERROR_ACCESS_DENIED);
		return FALSE;
	}
	*code = c;
	return TRUE;
}

/* ---- the main thread of a child ----------------------------------------- */

struct process_thread {
	struct object obj;
	struct process *proc; /* a reference */
	DWORD suspend_count;  /* wait lock */
};

static struct process_thread *to_pthread(struct object *obj)
{
	return container_of(obj, struct process_thread, obj);
}

static bool pthread_signaled(struct object *obj, unsigned int tid)
{
	return to_pthread(obj)->proc->finished;
}

static void pthread_destroy(struct object *obj)
{
	struct process_thread *t = to_pthread(obj);

	wait_lock();
	if (t->proc->main_thread == obj)
		t->proc->main_thread = NULL;
	wait_unlock();
	object_unref(&t->proc->obj);
	free(t);
}

const struct object_ops process_thread_ops = {
	.wait_access = SYNCHRONIZE,
	.type_name = "process thread",
	.signaled = pthread_signaled,
	.satisfied = process_satisfied,
	.destroy = pthread_destroy,
};

struct object *process_thread_create(struct process *p, bool suspended)
{
	struct process_thread *t = calloc(1, sizeof(*t));

	if (!t) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	object_init(&t->obj, &process_thread_ops);
	t->proc = p;
	object_ref(&p->obj);
	t->suspend_count = suspended ? 1 : 0;
	wait_lock();
	p->main_thread = &t->obj;
	wait_unlock();
	return &t->obj;
}

struct process *process_thread_process(struct object *thread)
{
	return to_pthread(thread)->proc;
}

DWORD process_thread_resume(struct object *thread)
{
	struct process_thread *t = to_pthread(thread);
	int fd = -1;
	DWORD prev;

	wait_lock();
	prev = t->suspend_count;
	if (prev && !--t->suspend_count) {
		fd = t->proc->resume_fd;
		t->proc->resume_fd = -1;
	}
	wait_unlock();
	if (fd >= 0) {
		/* The byte stays in the pipe after our end closes. */
		if (write(fd, "R", 1) != 1)
			TRACE(process, "%d: resume: %s\n", t->proc->pid, strerror(errno));
		close(fd);
	}
	return prev;
}

DWORD process_thread_suspend(struct object *thread)
{
	struct process_thread *t = to_pthread(thread);
	DWORD prev = (DWORD)-1;

	wait_lock();
	/* Only a child still held at its start can be held further. */
	if (t->suspend_count && t->suspend_count < MAXIMUM_SUSPEND_COUNT)
		prev = t->suspend_count++;
	wait_unlock();
	if (prev == (DWORD)-1)
		SetLastError(ERROR_NOT_SUPPORTED);
	return prev;
}

/* ---- jobs' needs ------------------------------------------------------------ */

bool process_set_kill_with_parent(struct process *p, bool on)
{
	bool ok = false;
	int fd, fl;

	/* Under the wait lock: the watcher closes the lifeline when p ends. */
	wait_lock();
	fd = p->lifeline[0];
	/* The read end's open file is shared with the child, which keeps
	 * it open: when our write end closes (we die), the pipe sends its
	 * readers' owner the signal set here, SIGKILL. */
	if (fd >= 0 && (!on || (!fcntl(fd, F_SETOWN, p->pid) && !fcntl(fd, F_SETSIG, SIGKILL))) &&
	    (fl = fcntl(fd, F_GETFL)) >= 0)
		ok = !fcntl(fd, F_SETFL, on ? fl | O_ASYNC : fl & ~O_ASYNC);
	wait_unlock();
	if (ok)
		TRACE(process, "%d: %s with us\n", p->pid, on ? "dies" : "no longer dies");
	return ok;
}

void process_times(struct process *p, uint64_t *user, uint64_t *kernel)
{
	unsigned long long ut = 0, st = 0;
	char path[64], buf[1024], *q;
	long hz = sysconf(_SC_CLK_TCK);
	size_t n;
	FILE *f;

	*user = *kernel = 0;
	wait_lock();
	if (p->accounted) {
		*user = p->user_100ns;
		*kernel = p->kernel_100ns;
	}
	wait_unlock();
	if (p->accounted || p->finished)
		return;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)p->pid);
	if (!(f = fopen(path, "re")))
		return;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	/* After "(comm)", which may hold blanks: state is field 3,
	 * utime and stime fields 14 and 15. */
	if (!(q = strrchr(buf, ')')) ||
	    sscanf(q + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2 || hz <= 0)
		return;
	*user = ut * 10000000ull / (unsigned long long)hz;
	*kernel = st * 10000000ull / (unsigned long long)hz;
}

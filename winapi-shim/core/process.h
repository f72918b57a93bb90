/* Process objects: the current process (the GetCurrentProcess()
 * pseudo-handle), children started by CreateProcess, and processes
 * opened by pid (see docs/processes.md).
 *
 * A process other than ours is a pidfd.  It is waitable through the
 * wait engine: one watcher thread (started by the first such process,
 * never in a process that has none) epolls the pidfds and, when one
 * ends, stores its exit code and wakes its waiters under the wait lock,
 * as SetEvent does.  The main thread of a child is a second object
 * (process_thread_ops) that CREATE_SUSPENDED children are resumed
 * through. */
#ifndef NDSHIM_PROCESS_H
#define NDSHIM_PROCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <windef.h>
#include <winbase.h>

#include "core/list.h"
#include "core/object.h"

struct startup_block;

struct process {
	struct object obj;
	pid_t pid;
	int pidfd;                  /* -1: the current process */
	bool child;                 /* ours to reap (waitid) */
	struct startup_block *block; /* mapped exit record, or NULL */
	size_t block_size;
	int resume_fd;              /* CREATE_SUSPENDED: write end, else -1; wait lock */
	bool finished;              /* wait lock */
	bool code_unknown;          /* finished, and nobody could learn how; wait lock */
	bool terminated;            /* TerminateProcess sent SIGKILL; wait lock */
	DWORD terminate_code;       /* for a child without a block; wait lock */
	DWORD exit_code;            /* STILL_ACTIVE until finished; wait lock */
	struct object *main_thread; /* weak: its thread object, wait lock */
	int lifeline[2];            /* ndrun child: read and write end, else -1 */
	bool accounted;             /* rusage valid (reaped) */
	uint64_t user_100ns, kernel_100ns; /* CPU time, once reaped */
	struct list entry;          /* in the children list */
};

extern const struct object_ops process_ops, process_thread_ops;

static inline struct process *to_process(struct object *obj)
{
	return container_of(obj, struct process, obj);
}

/* The process object with a new reference. */
struct object *process_current(void);

/* A new process object for pidfd (one reference), watched until it
 * ends; block (NULL if none) is a mapping the object now owns.  NULL
 * with the last error set. */
struct process *process_create(pid_t pid, int pidfd, bool child, struct startup_block *block,
			       size_t block_size, int resume_fd);

/* The process with that pid that this process already has an object
 * for (one of its children), with a new reference; else NULL. */
struct process *process_find_child(pid_t pid);

/* The thread object for p's main thread (one reference): waitable
 * until p ends, resumable while CREATE_SUSPENDED holds p. */
struct object *process_thread_create(struct process *p, bool suspended);
/* ResumeThread / SuspendThread on it: the previous suspend count. */
DWORD process_thread_resume(struct object *thread);
DWORD process_thread_suspend(struct object *thread);
/* Its process, borrowed (the thread holds a reference). */
struct process *process_thread_process(struct object *thread);

/* TerminateProcess on another process: FALSE + ERROR_ACCESS_DENIED
 * once it has ended. */
BOOL process_terminate(struct process *p, UINT code);

/* p's exit code: STILL_ACTIVE while it runs; FALSE with
 * ERROR_ACCESS_DENIED when it ended and nobody could learn the code. */
BOOL process_exit_code(struct process *p, DWORD *code);

/* KILL_ON_JOB_CLOSE: when on, the death of this process (closing the
 * lifeline's write end) makes the kernel SIGKILL p (F_SETSIG on the
 * lifeline's read end, shared with p).  false when p has no lifeline
 * (a Linux program or a process we did not start). */
bool process_set_kill_with_parent(struct process *p, bool on);

/* p's CPU time so far (user, kernel) in 100 ns units. */
void process_times(struct process *p, uint64_t *user, uint64_t *kernel);

/* The exit code Windows programs see for a Linux wait status. */
DWORD process_status_code(int status_code, int si_code);

/* kernel32/duphandle.c: this process answers other ndrun processes'
 * DuplicateHandle requests from now on (once; an ndrun child from its
 * start, any process from its first CreateProcess or OpenProcess). */
void duphandle_server_start(void);
/* The same with the listening socket the parent's spawn made (an fd
 * that may not be one: then the server makes its own). */
void duphandle_server_start_given(int fd);
/* The process ends: its socket goes (one left by a killed process is
 * replaced by the next process with that pid, and refuses connections
 * meanwhile). */
void duphandle_server_exit(void);
/* An ndrun child of ours ended (not reaped yet): its socket goes. */
void duphandle_server_gone(pid_t pid);

/* WSADuplicateSocket's transfer: the socket fd (still the caller's) and
 * its family, type and protocol go to process pid, which keeps them
 * until duphandle_take_socket(*token) there.  FALSE with the last error
 * (ERROR_ACCESS_DENIED: pid is not an ndrun process that serves
 * handles). */
BOOL duphandle_park_socket(DWORD pid, int fd, const int meta[3], uint32_t *token);
/* An ndrun child's inherited STARTUP_KIND_SYNC or _MAPPING handle: its
 * object, made of fd (consumed; a descriptor of its own, shared lock
 * held for a segment), or NULL with the last error. */
struct object *duphandle_import_inherited(unsigned int kind, int fd, const char *path, uint64_t size,
					  uint32_t type);
/* The fd parked under token (then forgotten) and its meta, or -1. */
int duphandle_take_socket(uint32_t token, int meta[3]);

#endif

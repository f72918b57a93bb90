/* The startup block: what a CreateProcess parent hands its ndrun child,
 * and where every ndrun process records how it ended.
 *
 * The parent writes the block into a memfd that the child receives as
 * fd STARTUP_FD_BLOCK (ndrun --startup-fd 3); both map it shared.  A
 * process started from a shell makes an empty block of its own, so
 * another process that opens it (OpenProcess) finds its exit code too.
 * Only fixed-width types: the layout is the contract between two ndrun
 * processes (built from the same source). */
#ifndef NDSHIM_STARTUP_H
#define NDSHIM_STARTUP_H

#include <stdbool.h>
#include <stdint.h>
#include <windef.h>
#include <winbase.h>

#define STARTUP_MAGIC 0x4e445331u /* "NDS1" */
#define STARTUP_MEMFD_NAME "ndshim-process"

/* Child fds: 0-2 standard streams, then these, then inherited handles.
 * The lifeline is the read end of a pipe whose write end only the
 * parent holds; the child keeps it open and never reads it (see
 * process_set_kill_with_parent). */
#define STARTUP_FD_BLOCK 3
#define STARTUP_FD_RESUME 4
#define STARTUP_FD_LIFELINE 5
/* The listening socket of the child's handle server (kernel32/duphandle.c),
 * bound by the child before exec, so that it exists once CreateProcess
 * returns: the parent may duplicate a handle into it at once. */
#define STARTUP_FD_HANDLES 6
#define STARTUP_FD_FIRST_INHERIT 7

#define STARTUP_SUSPENDED 1u
#define STARTUP_IN_JOB 2u    /* set by the parent when it puts the child in a job */

/* exit word: state in the high half, the exit code in the low half;
 * the first compare-and-swap away from RUNNING wins. */
#define STARTUP_RUNNING 0u
#define STARTUP_EXITED 1u
#define STARTUP_TERMINATED 2u

enum startup_kind {
	STARTUP_KIND_FILE = 0,
	STARTUP_KIND_PIPE = 1, /* anonymous pipe end: EOF reads as a broken pipe */
	STARTUP_KIND_SYNC = 2,    /* named event/semaphore/mutex segment; type: enum shsync_type */
	STARTUP_KIND_MAPPING = 3, /* file mapping; type: its PAGE_*, size: its size */
};

struct startup_inherit {
	uint64_t handle;
	uint32_t access;
	uint32_t options;
	uint32_t kind;
	uint32_t fd; /* in the child */
	uint64_t size;
	uint32_t type;
	uint32_t path_off; /* a segment's file name (NUL-terminated) in the block; 0: none */
};
_Static_assert(sizeof(struct startup_inherit) == 40, "startup_inherit layout");

struct startup_block {
	uint32_t magic;
	uint32_t size;          /* bytes in the memfd */
	_Atomic uint64_t exit;  /* see STARTUP_RUNNING */
	uint32_t flags;         /* STARTUP_SUSPENDED */
	uint32_t startf;        /* STARTUPINFO.dwFlags */
	uint32_t show_window;
	uint32_t n_inherit;
	uint64_t std_handles[3];
	uint32_t cmdline_off;   /* UTF-16, NUL-terminated; 0: none */
	uint32_t inherit_off;   /* struct startup_inherit[n_inherit] */
};
_Static_assert(sizeof(struct startup_block) == 64, "startup_block layout");

/* ndrun's first step: fd is the --startup-fd argument, or -1 for a
 * process started from a shell (an empty block of its own).  Installs
 * inherited handles at their values.  0, or -1 with a message printed. */
int startup_init(int fd);

/* The command line the parent passed, or NULL (from a shell). */
const WCHAR *startup_command_line(void);

/* CREATE_SUSPENDED: blocks until the parent resumes the process; a
 * parent gone without resuming ends it (exit code 1). */
void startup_wait_resume(void);

/* First thing in main: a standard descriptor (0-2) that is closed gets a
 * placeholder (/dev/null), so that nothing ndrun opens for itself (its
 * memfds, sockets, files) lands there and passes for the program's
 * stdin or stdout; startup_std_closed(fd) then says the program has no
 * such stream, as a Windows process started without that handle. */
void startup_hold_std_fds(void);
bool startup_std_closed(int fd);

/* STARTF_USESTDHANDLES: *h is the parent's handle value for stream i
 * (0 input, 1 output, 2 error).  false when the parent gave none. */
bool startup_std_handle(int i, HANDLE *h);
/* GetStartupInfo's dwFlags and wShowWindow. */
void startup_info(DWORD *startf, WORD *show_window);

/* Has the process that started us put us in a job object? */
bool startup_in_job(void);

/* Records code as this process's exit code (before _exit). */
void startup_record_exit(UINT code);
/* fn runs first in startup_record_exit, once, on whichever path the
 * process ends (return from main, exit, ExitProcess, TerminateProcess
 * of itself, an unhandled exception): one slot, rpcrt4's pmi_env.c's. */
void startup_at_exit(void (*fn)(void));

/* The first outcome recorded in b wins: true when this call set it. */
bool startup_block_set_exit(struct startup_block *b, uint32_t state, UINT code);
/* b's state (STARTUP_RUNNING, ...) and code. */
uint32_t startup_block_exit(struct startup_block *b, UINT *code);

#endif

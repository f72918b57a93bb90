/* Starting a Linux process for CreateProcess (see docs/processes.md):
 * the Win32 rules (finding the program, STARTUPINFO, the environment
 * block) are kernel32's; this is the fork/exec underneath. */
#ifndef NDSHIM_SPAWN_H
#define NDSHIM_SPAWN_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <windef.h>
#include <winbase.h>

struct process;

struct spawn_inherit {
	HANDLE handle;    /* the value the child gets */
	DWORD access, options;
	unsigned int kind; /* STARTUP_KIND_* */
	int fd;           /* ours */
	uint64_t size;    /* STARTUP_KIND_MAPPING */
	uint32_t type;    /* STARTUP_KIND_SYNC, _MAPPING */
	const char *path; /* a segment's file name, or NULL */
};

struct spawn_params {
	const char *exe;      /* Linux path of the program */
	bool pe;              /* run it under this ndrun (else exec it) */
	const char *builtin;  /* pe: a program of ndrun's own (exe ignored): "cmd.exe" */
	char *const *argv;    /* !pe: its argv */
	char *const *envp;
	const char *cwd;      /* NULL: ours */
	const WCHAR *cmdline; /* pe: GetCommandLineW in the child */
	int std_fds[3];       /* -1: /dev/null */
	DWORD startf, show_window;
	HANDLE std_handles[3];
	const struct spawn_inherit *inherit; /* pe only */
	size_t n_inherit;
	bool suspended;
};

/* The started process (one reference), or NULL with the last error. */
struct process *process_spawn(const struct spawn_params *sp);

#endif

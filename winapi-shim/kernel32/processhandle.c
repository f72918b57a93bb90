/* Process handles (processthreadsapi.h): OpenProcess, GetProcessId,
 * GetExitCodeProcess, TerminateProcess.  Each checks the access right it
 * needs on the handle, as Windows does; the current-process
 * pseudo-handle has them all.  See core/process.h. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <fcntl.h>
#include <unistd.h>

#include "core/debug.h"
#include "core/handle.h"
#include "core/process.h"
#include "core/startup.h"
#include "kernel32/kernel32_private.h"
#include "loader.h"

#pragma weak loader_exit_process

/* The process behind h (a reference) if the handle grants one of the
 * rights in need; else NULL with ERROR_INVALID_HANDLE or
 * ERROR_ACCESS_DENIED. */
static struct process *get_process(HANDLE h, DWORD need)
{
	struct object *obj = handle_get(h, &process_ops);
	DWORD access = PROCESS_ALL_ACCESS;

	if (!obj)
		return NULL;
	if (h != GetCurrentProcess())
		handle_get_info(h, &access, NULL);
	if (!(access & need)) {
		object_unref(obj);
		SetLastError(ERROR_ACCESS_DENIED);
		return NULL;
	}
	return to_process(obj);
}

DWORD WINAPI GetProcessId(HANDLE h)
{
	struct process *p = get_process(h, PROCESS_QUERY_INFORMATION | PROCESS_QUERY_LIMITED_INFORMATION);
	DWORD pid;

	if (!p)
		return 0;
	pid = p->pidfd < 0 ? (DWORD)getpid() : (DWORD)p->pid;
	object_unref(&p->obj);
	return pid;
}

BOOL WINAPI GetExitCodeProcess(HANDLE h, LPDWORD code)
{
	struct process *p = get_process(h, PROCESS_QUERY_INFORMATION | PROCESS_QUERY_LIMITED_INFORMATION);
	BOOL ok;

	if (!p)
		return FALSE;
	ok = process_exit_code(p, code);
	object_unref(&p->obj);
	return ok;
}

BOOL WINAPI TerminateProcess(HANDLE h, UINT code)
{
	struct process *p;
	BOOL ok;

	TRACE(process, "%p, %#x\n", h, code);
	if (!(p = get_process(h, PROCESS_TERMINATE)))
		return FALSE;
	if (p->pidfd < 0) {
		/* Ourselves: at once, without DLL_PROCESS_DETACH. */
		object_unref(&p->obj);
		startup_record_exit(code);
		fflush(NULL);
		_exit((int)code);
	}
	ok = process_terminate(p, code);
	object_unref(&p->obj);
	return ok;
}

/* The exit record of a process we did not start: its startup block,
 * which it keeps open as an ndshim memfd.  NULL if there is none. */
static struct startup_block *find_block(pid_t pid, size_t *size)
{
	char dir[64], entry[64 + 256], link[PATH_MAX], want[96];
	struct startup_block *b;
	struct dirent *de;
	struct stat st;
	int fd = -1;
	DIR *d;

	/* A child of ndrun has it at fd 3; one started from a shell made
	 * it at its lowest free fd, wherever the shell left that. */
	snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)pid);
	snprintf(want, sizeof(want), "/memfd:%s", STARTUP_MEMFD_NAME);
	if (!(d = opendir(dir)))
		return NULL;
	while (fd < 0 && (de = readdir(d))) {
		ssize_t n;

		if (de->d_name[0] == '.')
			continue;
		snprintf(entry, sizeof(entry), "%s/%s", dir, de->d_name);
		n = readlink(entry, link, sizeof(link) - 1);
		if (n < 0)
			continue;
		link[n] = 0;
		if (!strncmp(link, want, strlen(want)))
			fd = open(entry, O_RDWR | O_CLOEXEC);
	}
	closedir(d);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || st.st_size < (off_t)sizeof(*b) ||
	    (b = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) == MAP_FAILED) {
		close(fd);
		return NULL;
	}
	close(fd);
	if (b->magic != STARTUP_MAGIC) {
		munmap(b, (size_t)st.st_size);
		return NULL;
	}
	*size = (size_t)st.st_size;
	return b;
}

#define VALID_PROCESS_ACCESS (PROCESS_ALL_ACCESS | ACCESS_SYSTEM_SECURITY | MAXIMUM_ALLOWED | GENERIC_ALL)

struct object *process_open_pid(pid_t pid)
{
	struct startup_block *block = NULL;
	struct process *p;
	size_t block_size = 0;
	int fd;

	if (pid == getpid())
		return process_current();
	p = process_find_child(pid);
	if (!p) {
		fd = (int)syscall(SYS_pidfd_open, pid, 0);
		if (fd < 0) {
			SetLastError(errno == EPERM ? ERROR_ACCESS_DENIED : ERROR_INVALID_PARAMETER);
			return NULL;
		}
		block = find_block(pid, &block_size);
		p = process_create(pid, fd, false, block, block_size, -1);
		if (!p) {
			if (block)
				munmap(block, block_size);
			close(fd);
			return NULL;
		}
	}
	return &p->obj;
}

HANDLE WINAPI OpenProcess(DWORD access, BOOL inherit, DWORD pid)
{
	struct object *obj;
	HANDLE h;

	TRACE(process, "pid %u, access %#x\n", pid, access);
	if (access & MAXIMUM_ALLOWED || access & GENERIC_ALL)
		access = PROCESS_ALL_ACCESS;
	if (!pid || (access & ~VALID_PROCESS_ACCESS)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	obj = process_open_pid((pid_t)pid);
	if (!obj)
		return NULL;
	h = handle_create(obj, access, inherit ? HANDLE_FLAG_INHERIT : 0);
	object_unref(obj);
	return h;
}

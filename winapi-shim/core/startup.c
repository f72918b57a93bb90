/* The startup block (see startup.h): the child's side, and the exit
 * record every ndrun process keeps. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/debug.h"
#include "core/file.h"
#include "core/handle.h"
#include "core/process.h"
#include "core/shsync.h"
#include "core/shm.h"
#include "core/startup.h"

static struct startup_block *self;
static const WCHAR *cmdline;

bool startup_block_set_exit(struct startup_block *b, uint32_t state, UINT code)
{
	uint64_t expected = (uint64_t)STARTUP_RUNNING << 32;

	return atomic_compare_exchange_strong(&b->exit, &expected, (uint64_t)state << 32 | code);
}

uint32_t startup_block_exit(struct startup_block *b, UINT *code)
{
	uint64_t v = atomic_load(&b->exit);

	*code = (UINT)v;
	return (uint32_t)(v >> 32);
}

static void (*exit_hook)(void);

void startup_at_exit(void (*fn)(void))
{
	exit_hook = fn;
}

void startup_record_exit(UINT code)
{
	void (*hook)(void) = __atomic_exchange_n(&exit_hook, NULL, __ATOMIC_SEQ_CST);

	if (hook)
		hook();
	duphandle_server_exit();
	/* Every thread goes now: promoted mutexes they own without their
	 * robust lock are abandoned for the other processes. */
	shsync_thread_exit(0);
	if (self)
		startup_block_set_exit(self, STARTUP_EXITED, code);
	/* Last: the named objects this process is the last to hold go with
	 * it (their abandoned mutexes are marked by now). */
	shm_exit();
}

/* A process started from a shell: an empty block, so that OpenProcess
 * from another ndrun process can still learn how this one ended. */
static int make_own_block(void)
{
	int fd = memfd_create(STARTUP_MEMFD_NAME, MFD_CLOEXEC);
	void *p;

	if (fd < 0)
		return 0; /* no record: others will not learn our exit code */
	if (ftruncate(fd, sizeof(struct startup_block)) ||
	    (p = mmap(NULL, sizeof(struct startup_block), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) ==
		    MAP_FAILED) {
		close(fd);
		return 0;
	}
	self = p;
	self->magic = STARTUP_MAGIC;
	self->size = sizeof(struct startup_block);
	/* The fd stays open: OpenProcess finds the block through /proc. */
	return 0;
}

static bool in_block(uint32_t off, size_t len, uint32_t size)
{
	return off <= size && len <= size - off;
}

static int install_inherited(void)
{
	const struct startup_inherit *in = (const void *)((char *)self + self->inherit_off);

	for (uint32_t i = 0; i < self->n_inherit; i++) {
		struct file *f;
		int fd = (int)in[i].fd;

		struct object *obj;

		fcntl(fd, F_SETFD, FD_CLOEXEC);
		if (in[i].kind == STARTUP_KIND_SYNC || in[i].kind == STARTUP_KIND_MAPPING) {
			const char *path = NULL;

			if (in[i].path_off) {
				path = (const char *)self + in[i].path_off;
				if (!in_block(in[i].path_off, 1, self->size) ||
				    !memchr(path, 0, self->size - in[i].path_off))
					path = NULL;
			}
			obj = duphandle_import_inherited(in[i].kind, fd, path, in[i].size, in[i].type);
			if (!obj) {
				ndrun_error("cannot inherit handle %#llx: error %u", (unsigned long long)in[i].handle,
					    (unsigned)GetLastError());
				return -1;
			}
		} else {
			f = file_create(fd, in[i].access, in[i].options, true);
			if (!f)
				return -1;
			f->anon_pipe = in[i].kind == STARTUP_KIND_PIPE;
			obj = &f->obj;
		}
		/* The value is the parent's: the child sees the same HANDLE. */
		if (!handle_create_at((HANDLE)(uintptr_t)in[i].handle, obj, in[i].access, HANDLE_FLAG_INHERIT)) {
			ndrun_error("cannot inherit handle %#llx", (unsigned long long)in[i].handle);
			object_unref(obj);
			return -1;
		}
		object_unref(obj);
	}
	return 0;
}

/* STARTF_USESTDHANDLES values that were not inherited (a named pipe
 * end relayed through a Linux pipe, a handle the parent did not mark
 * inheritable): the child's fds 0-2 at those values, so GetStdHandle
 * returns what the parent passed and it works. */
static void install_std(void)
{
	if (!(self->startf & STARTF_USESTDHANDLES))
		return;
	for (int i = 0; i < 3; i++) {
		HANDLE h = (HANDLE)(uintptr_t)self->std_handles[i];
		DWORD access = i ? GENERIC_WRITE | GENERIC_READ : GENERIC_READ;
		struct file *f;

		if (!h || h == INVALID_HANDLE_VALUE || handle_get_info(h, NULL, NULL))
			continue;
		if (!(f = file_create(i, access, 0, true)))
			return;
		handle_create_at(h, &f->obj, f->access, 0);
		object_unref(&f->obj);
	}
}

int startup_init(int fd)
{
	struct stat st;
	void *p;

	/* OpenProcess(PROCESS_VM_READ) works between processes of one
	 * user on Windows; under Yama's ptrace_scope 1 only ancestors could
	 * read us.  Without Yama this fails harmlessly. */
	prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
	if (fd < 0)
		return make_own_block();
	if (fstat(fd, &st) || st.st_size < (off_t)sizeof(struct startup_block) || st.st_size > (1 << 30)) {
		ndrun_error("--startup-fd %d is not a startup block", fd);
		return -1;
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		ndrun_error("cannot map the startup block: %s", strerror(errno));
		return -1;
	}
	self = p;
	if (self->magic != STARTUP_MAGIC || self->size != (uint32_t)st.st_size ||
	    (self->cmdline_off && !in_block(self->cmdline_off, 2, self->size)) ||
	    !in_block(self->inherit_off, (size_t)self->n_inherit * sizeof(struct startup_inherit),
		      self->size) ||
	    ((const WCHAR *)((char *)self + self->size))[-1] != 0) {
		ndrun_error("--startup-fd %d: malformed startup block", fd);
		return -1;
	}
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	fcntl(STARTUP_FD_LIFELINE, F_SETFD, FD_CLOEXEC);
	if (self->cmdline_off)
		cmdline = (const WCHAR *)((char *)self + self->cmdline_off);
	TRACE(process, "started by %d: flags %#x, startf %#x, %u inherited handles\n", getppid(),
	      self->flags, self->startf, self->n_inherit);
	if (install_inherited())
		return -1;
	install_std();
	/* Its parent may duplicate handles into it (or out of it). */
	duphandle_server_start_given(STARTUP_FD_HANDLES);
	return 0;
}

const WCHAR *startup_command_line(void)
{
	return cmdline;
}

void startup_wait_resume(void)
{
	char c;
	ssize_t n;

	if (!self || !(self->flags & STARTUP_SUSPENDED))
		return;
	do {
		n = read(STARTUP_FD_RESUME, &c, 1);
	} while (n < 0 && errno == EINTR);
	close(STARTUP_FD_RESUME);
	if (n != 1) {
		TRACE(process, "parent gone before ResumeThread\n");
		startup_record_exit(1);
		_exit(1);
	}
}

bool startup_in_job(void)
{
	return self && (__atomic_load_n(&self->flags, __ATOMIC_ACQUIRE) & STARTUP_IN_JOB);
}

/* Bit i: descriptor i was closed when ndrun started (`<&-`). */
static unsigned int closed_std;

void startup_hold_std_fds(void)
{
	for (int fd = 0; fd < 3; fd++) {
		int held;

		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		/* The lowest free descriptor: fd itself, as the ones below
		 * are open by now. */
		held = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (held < 0)
			continue;
		if (held != fd) {
			close(held);
			continue;
		}
		closed_std |= 1u << fd;
	}
}

bool startup_std_closed(int fd)
{
	return fd >= 0 && fd < 3 && (closed_std & (1u << fd));
}

bool startup_std_handle(int i, HANDLE *h)
{
	if (!self || !(self->startf & STARTF_USESTDHANDLES))
		return false;
	*h = (HANDLE)(uintptr_t)self->std_handles[i];
	return true;
}

void startup_info(DWORD *startf, WORD *show_window)
{
	*startf = self ? self->startf : 0;
	*show_window = self ? (WORD)self->show_window : 0;
}

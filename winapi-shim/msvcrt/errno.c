/* errno: a per-thread int holding WINDOWS errno values.  Every glibc
 * errno crosses into it through crt_errno_from_host, the one mapping. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "msvcrt/msvcrt_private.h"

static __thread int thread_errno;
static __thread unsigned int thread_doserrno;

int crt_errno_from_host(int e)
{
	switch (e) {
	case 0:
		return 0;
	/* 1..34 are the same on both sides, except the two Linux-only ones */
	case EPERM: case ENOENT: case ESRCH: case EINTR: case EIO: case ENXIO:
	case E2BIG: case ENOEXEC: case EBADF: case ECHILD: case EAGAIN:
	case ENOMEM: case EACCES: case EFAULT: case EBUSY: case EEXIST:
	case EXDEV: case ENODEV: case ENOTDIR: case EISDIR: case EINVAL:
	case ENFILE: case EMFILE: case ENOTTY: case EFBIG: case ENOSPC:
	case ESPIPE: case EROFS: case EMLINK: case EPIPE: case EDOM: case ERANGE:
		return e;
	case ENOTBLK:
		return ENODEV;
	case ETXTBSY:
		return EACCES;
	case EDEADLK:
		return CRT_EDEADLK;
	case ENAMETOOLONG:
		return CRT_ENAMETOOLONG;
	case ENOLCK:
		return CRT_ENOLCK;
	case ENOSYS:
		return CRT_ENOSYS;
	case ENOTEMPTY:
		return CRT_ENOTEMPTY;
	case EILSEQ:
		return CRT_EILSEQ;
	/* the POSIX supplement of Windows' errno.h */
	case ELOOP:
		return 114;
	case EOPNOTSUPP:
		return 130;
	case EOVERFLOW:
		return 132;
	case ETIMEDOUT:
		return 138;
	default:
		return EINVAL;
	}
}

void crt_set_errno(int win_errno)
{
	thread_errno = win_errno;
}

void crt_set_errno_host(int host_errno)
{
	thread_errno = crt_errno_from_host(host_errno);
}

int *__cdecl crt__errno(void)
{
	return &thread_errno;
}

unsigned int *__cdecl crt___doserrno(void)
{
	return &thread_doserrno;
}

int __cdecl crt__get_errno(int *value)
{
	if (!value)
		return EINVAL;
	*value = thread_errno;
	return 0;
}

int __cdecl crt__set_errno(int value)
{
	thread_errno = value;
	return 0;
}

/* msvcrt's _sys_errlist texts, indexed by Windows errno. */
static const char *const errlist[] = {
	"No error",
	"Operation not permitted",
	"No such file or directory",
	"No such process",
	"Interrupted function call",
	"Input/output error",
	"No such device or address",
	"Arg list too long",
	"Exec format error",
	"Bad file descriptor",
	"No child processes",
	"Resource temporarily unavailable",
	"Not enough space",
	"Permission denied",
	"Bad address",
	"Unknown error",
	"Resource device",
	"File exists",
	"Improper link",
	"No such device",
	"Not a directory",
	"Is a directory",
	"Invalid argument",
	"Too many open files in system",
	"Too many open files",
	"Inappropriate I/O control operation",
	"Unknown error",
	"File too large",
	"No space left on device",
	"Invalid seek",
	"Read-only file system",
	"Too many links",
	"Broken pipe",
	"Domain error",
	"Result too large",
	"Unknown error",
	"Resource deadlock avoided",
	"Unknown error",
	"Filename too long",
	"No locks available",
	"Function not implemented",
	"Directory not empty",
	"Illegal byte sequence",
	"Unknown error",
};
#define ERRLIST_COUNT (int)(sizeof(errlist) / sizeof(errlist[0]))

char *__cdecl crt_strerror(int err)
{
	if (err < 0 || err >= ERRLIST_COUNT)
		err = ERRLIST_COUNT - 1;
	return (char *)errlist[err];
}

WCHAR *__cdecl crt__wcserror(int err)
{
	static __thread WCHAR buf[64];
	const char *s = crt_strerror(err);
	size_t i;
	for (i = 0; s[i] && i < 63; i++)
		buf[i] = (unsigned char)s[i];
	buf[i] = 0;
	return buf;
}

/* What perror writes, on stderr's descriptor as _write writes it (text
 * mode: the newline is "\r\n"). */
void __cdecl crt_perror(const char *s)
{
	const char *msg = crt_strerror(thread_errno);
	crt_flush_all_streams();
	if (s && *s) {
		if (crt__write(2, s, (unsigned int)strlen(s)) < 0 || crt__write(2, ": ", 2) < 0)
			return;
	}
	if (crt__write(2, msg, (unsigned int)strlen(msg)) < 0 || crt__write(2, "\n", 1) < 0)
		return;
}

/* "s: message\n" (or "message\n" for a NULL s) for the current errno, in
 * a buffer of the thread's; s is cut at 94 characters, as documented. */
char *__cdecl crt__strerror(const char *s)
{
	static __thread char buf[256];
	const char *msg = crt_strerror(thread_errno);

	if (s && *s)
		snprintf(buf, sizeof(buf), "%.94s: %s\n", s, msg);
	else
		snprintf(buf, sizeof(buf), "%s\n", msg);
	return buf;
}

/* Per-user named segments (see shm.h). */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "core/codepage.h"
#include "core/debug.h"
#include "core/errors.h"
#include "core/shm.h"
#include "core/wstr.h"

static const WCHAR *strip_prefix(const WCHAR *name)
{
	static const WCHAR local[] = u"Local\\", global[] = u"Global\\";

	/* Windows compares the prefixes case-sensitively too. */
	if (!memcmp(name, local, 6 * sizeof(WCHAR)))
		return name + 6;
	if (wstr_len(name) >= 7 && !memcmp(name, global, 7 * sizeof(WCHAR)))
		return name + 7;
	return name;
}

/* The segment's path: names are case-sensitive, so the UTF-8 name is
 * kept as it is, with '/', '%' and control characters escaped; a name
 * too long for a file name is replaced by two 64-bit hashes of it. */
static char *segment_path(const char *kind, const WCHAR *name)
{
	char *utf8 = utf16_to_utf8_dup(strip_prefix(name)), *path = NULL, enc[256];
	size_t o = 0;

	if (!utf8)
		return NULL;
	for (const unsigned char *p = (const unsigned char *)utf8; *p && o < 200; p++) {
		if (*p == '/' || *p == '%' || *p < 0x20)
			o += (size_t)snprintf(enc + o, sizeof(enc) - o, "%%%02x", *p);
		else
			enc[o++] = (char)*p;
	}
	enc[o] = 0;
	if (o >= 200) {
		uint64_t h1 = 0xcbf29ce484222325ull, h2 = 0x84222325cbf29ce4ull;

		for (const unsigned char *p = (const unsigned char *)utf8; *p; p++) {
			h1 = (h1 ^ *p) * 0x100000001b3ull;
			h2 = (h2 ^ *p) * 0x100000001b3ull + 7;
		}
		snprintf(enc, sizeof(enc), "#%016llx%016llx", (unsigned long long)h1, (unsigned long long)h2);
	}
	free(utf8);
	if (asprintf(&path, "/dev/shm/ndshim-%u/%s-%s", (unsigned)getuid(), kind, enc) < 0)
		return NULL;
	return path;
}

/* The segments this process holds (fd and file name), for shm_exit. */
struct held {
	int fd;
	char *path;
};
static struct held *held;
static size_t nheld, held_cap;
static pthread_mutex_t held_lock = PTHREAD_MUTEX_INITIALIZER;

static void track(int fd, const char *path)
{
	char *copy = path ? strdup(path) : NULL;

	if (!copy)
		return; /* untracked: the next start's sweep removes it */
	pthread_mutex_lock(&held_lock);
	if (nheld == held_cap) {
		size_t cap = held_cap ? 2 * held_cap : 16;
		struct held *n = realloc(held, cap * sizeof(*n));

		if (!n) {
			pthread_mutex_unlock(&held_lock);
			free(copy);
			return;
		}
		held = n;
		held_cap = cap;
	}
	held[nheld].fd = fd;
	held[nheld].path = copy;
	nheld++;
	pthread_mutex_unlock(&held_lock);
}

static void untrack(int fd)
{
	pthread_mutex_lock(&held_lock);
	for (size_t i = 0; i < nheld; i++)
		if (held[i].fd == fd) {
			free(held[i].path);
			held[i] = held[--nheld];
			break;
		}
	pthread_mutex_unlock(&held_lock);
}

void shm_adopt(int fd, const char *path)
{
	if (fd >= 0 && path && *path)
		track(fd, path);
}

/* The last holder removes the name, unless it already names a newer
 * segment.  (The path is remembered: /proc/self/fd of a segment made
 * with O_TMPFILE does not show the name it got.) */
static void release(int fd, const char *path)
{
	struct stat st, cur;

	if (!flock(fd, LOCK_EX | LOCK_NB) && !fstat(fd, &st) && st.st_nlink && path &&
	    !stat(path, &cur) && cur.st_ino == st.st_ino && cur.st_dev == st.st_dev)
		unlink(path);
	close(fd);
}

void shm_exit(void)
{
	/* Each closed in turn: the same segment held twice in this process
	 * (two descriptions, two shared locks) is removed at its last. */
	pthread_mutex_lock(&held_lock);
	for (size_t i = 0; i < nheld; i++)
		release(held[i].fd, held[i].path);
	nheld = 0;
	pthread_mutex_unlock(&held_lock);
}

/* The folder part of a segment path, in a static buffer. */
static const char *dir_of(const char *path)
{
	static __thread char dir[64];
	const char *slash = strrchr(path, '/');
	size_t n = (size_t)(slash - path);

	if (n >= sizeof(dir))
		n = sizeof(dir) - 1;
	memcpy(dir, path, n);
	dir[n] = 0;
	return dir;
}

static int ensure_dir(void)
{
	char dir[64];
	struct stat st;

	snprintf(dir, sizeof(dir), "/dev/shm/ndshim-%u", (unsigned)getuid());
	if (mkdir(dir, 0700) && errno != EEXIST)
		return -1;
	/* Someone else's folder must not hold our objects. */
	if (lstat(dir, &st) || !S_ISDIR(st.st_mode) || st.st_uid != getuid()) {
		errno = EACCES;
		return -1;
	}
	return 0;
}

int shm_open_named(const char *kind, const WCHAR *name, bool create, uint64_t size, bool *existed,
		   DWORD *err, char **path_out)
{
	return shm_open_named_init(kind, name, create, size, NULL, NULL, existed, err, path_out);
}

int shm_open_named_init(const char *kind, const WCHAR *name, bool create, uint64_t size,
			int (*init)(int fd, void *ctx), void *ctx, bool *existed, DWORD *err,
			char **path_out)
{
	char *path = segment_path(kind, name), self_fd[64];
	struct stat st;
	int fd = -1;

	*existed = false;
	if (!path || ensure_dir()) {
		*err = path ? win32_error_from_errno(errno) : ERROR_NOT_ENOUGH_MEMORY;
		free(path);
		return -1;
	}
	for (int tries = 0; tries < 100; tries++) {
		fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
		if (fd >= 0) {
			/* Nobody else holding it: stale, left by a killed
			 * holder.  Remove it under the exclusive lock. */
			if (!flock(fd, LOCK_EX | LOCK_NB)) {
				if (!fstat(fd, &st) && st.st_nlink)
					unlink(path);
				close(fd);
				continue;
			}
			flock(fd, LOCK_SH);
			/* Its last holder may have removed it meanwhile. */
			if (fstat(fd, &st) || !st.st_nlink) {
				close(fd);
				continue;
			}
			*existed = true;
			break;
		}
		if (errno != ENOENT || !create) {
			*err = errno == ENOENT ? ERROR_FILE_NOT_FOUND : win32_error_from_errno(errno);
			break;
		}
		/* Made unnamed, locked and sized, then given its name in
		 * one step: nobody can see it half made (or take it for a
		 * stale one before we hold our lock). */
		fd = open(dir_of(path), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
		if (fd < 0) {
			*err = win32_error_from_errno(errno);
			break;
		}
		flock(fd, LOCK_SH);
		if (ftruncate(fd, (off_t)size)) {
			*err = errno == EFBIG || errno == ENOSPC || errno == EINVAL ? ERROR_NOT_ENOUGH_MEMORY
										     : win32_error_from_errno(errno);
			close(fd);
			fd = -1;
			break;
		}
		if (init && init(fd, ctx)) {
			*err = win32_error_from_errno(errno);
			close(fd);
			fd = -1;
			break;
		}
		snprintf(self_fd, sizeof(self_fd), "/proc/self/fd/%d", fd);
		if (!linkat(AT_FDCWD, self_fd, AT_FDCWD, path, AT_SYMLINK_FOLLOW))
			break;
		close(fd);
		fd = -1;
		if (errno != EEXIST) {
			*err = win32_error_from_errno(errno);
			break;
		}
	}
	TRACE(sync, "%s %s -> fd %d%s\n", kind, debugstr_w(name), fd, *existed ? " (existed)" : "");
	if (fd >= 0) {
		track(fd, path);
		*path_out = path;
	}
	else
		free(path);
	return fd;
}

void shm_close_named(int fd, char *path)
{
	if (fd < 0)
		return;
	untrack(fd);
	release(fd, path);
	free(path);
}

bool shm_named_exists(const char *kind, const WCHAR *name)
{
	char *path = segment_path(kind, name);
	struct stat st;
	bool found;

	if (!path)
		return false;
	found = !stat(path, &st);
	free(path);
	return found;
}

/* "p<pid>.sock": the handle server of process pid (kernel32/duphandle.c),
 * stale when that process is gone and nothing listens on it (both: a
 * process in another pid namespace sharing the folder still listens). */
static bool stale_socket(const char *name)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	char *end;
	long pid;
	int s, r;

	if (name[0] != 'p' || name[1] < '1' || name[1] > '9')
		return false;
	pid = strtol(name + 1, &end, 10);
	if (strcmp(end, ".sock") || pid <= 0 || !kill((pid_t)pid, 0) || errno != ESRCH)
		return false;
	snprintf(a.sun_path, sizeof(a.sun_path), "/dev/shm/ndshim-%u/p%ld.sock", (unsigned)getuid(), pid);
	s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (s < 0)
		return false;
	r = connect(s, (struct sockaddr *)&a, sizeof(a));
	r = r && (errno == ECONNREFUSED || errno == ENOENT);
	close(s);
	return r;
}

int shm_sweep_stale(void)
{
	char dir[64];
	struct stat st;
	struct dirent *de;
	int removed = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "/dev/shm/ndshim-%u", (unsigned)getuid());
	if (lstat(dir, &st) || !S_ISDIR(st.st_mode) || st.st_uid != getuid())
		return 0;
	d = opendir(dir);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		int fd;

		if (de->d_name[0] == '.')
			continue;
		if (stale_socket(de->d_name)) {
			removed += !unlinkat(dirfd(d), de->d_name, 0);
			continue;
		}
		/* Segments are "<kind>-<name>" (segment_path), held with a
		 * shared flock by everyone who has them open. */
		if (!strchr(de->d_name, '-'))
			continue;
		fd = openat(dirfd(d), de->d_name, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
		if (fd < 0)
			continue;
		if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_nlink && !flock(fd, LOCK_EX | LOCK_NB))
			removed += !unlinkat(dirfd(d), de->d_name, 0);
		close(fd);
	}
	closedir(d);
	if (removed)
		TRACE(sync, "removed %d stale files from %s\n", removed, dir);
	return removed;
}

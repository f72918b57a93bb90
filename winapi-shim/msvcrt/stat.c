/* _stat and _fstat in all their layouts (sys/stat.h): the 64-bit-time,
 * 64-bit-size _stat64 is the one filled (file.c's _fstat64, and _stat64
 * here for a path); the others are copies into the narrower layouts
 * (_stat32, _stat32i64, _stat64i32; x64's _stat is _stat64i32 and
 * _stati64 is _stat64).  For a path, as Windows reports it: a folder and
 * a program (.exe .com .bat .cmd) are executable, a file without write
 * permission is read-only, st_dev and st_rdev are the drive's number (C:
 * is 2), and a name with a trailing slash must be a folder. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "msvcrt/msvcrt_private.h"

struct crt_stat32 {
	unsigned int st_dev;
	unsigned short st_ino, st_mode;
	short st_nlink, st_uid, st_gid;
	unsigned int st_rdev;
	int st_size;
	int atime, mtime, ctime_;
};
_Static_assert(sizeof(struct crt_stat32) == 36, "struct _stat32");

struct crt_stat32i64 {
	unsigned int st_dev;
	unsigned short st_ino, st_mode;
	short st_nlink, st_uid, st_gid;
	unsigned int st_rdev;
	int64_t st_size;
	int atime, mtime, ctime_;
};
_Static_assert(sizeof(struct crt_stat32i64) == 48, "struct _stat32i64");

struct crt_stat64i32 {
	unsigned int st_dev;
	unsigned short st_ino, st_mode;
	short st_nlink, st_uid, st_gid;
	unsigned int st_rdev;
	int st_size;
	crt_time64 atime, mtime, ctime_;
};
_Static_assert(sizeof(struct crt_stat64i32) == 48, "struct _stat64i32");

static int is_program(const char *path)
{
	const char *dot = strrchr(path, '.');

	return dot && !strchr(dot, '/') && !strchr(dot, '\\') &&
	       (!strcasecmp(dot, ".exe") || !strcasecmp(dot, ".com") || !strcasecmp(dot, ".bat") ||
		!strcasecmp(dot, ".cmd"));
}

int __cdecl crt__stat64(const char *path, struct crt_stat64 *buf)
{
	struct stat st;
	size_t len;
	char *u;
	unsigned short perm;

	if (!path || !buf) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return -1;
	}
	len = strlen(path);
	if (!(u = crt_unix_path(path))) {
		crt_set_errno(ENOMEM);
		return -1;
	}
	if (stat(u, &st) < 0) {
		/* "file\x" and "file\": no such file, for Windows */
		crt_set_errno_host(errno == ENOTDIR ? ENOENT : errno);
		free(u);
		return -1;
	}
	free(u);
	/* "file\" names a folder: a file there is not found */
	if (len > 1 && (path[len - 1] == '\\' || path[len - 1] == '/') && !S_ISDIR(st.st_mode)) {
		crt_set_errno(ENOENT);
		return -1;
	}
	memset(buf, 0, sizeof(*buf));
	perm = 0x100;
	if (st.st_mode & S_IWUSR)
		perm |= 0x80;
	if (S_ISDIR(st.st_mode) || is_program(path))
		perm |= 0x40;
	buf->st_mode = (S_ISDIR(st.st_mode) ? 0x4000 : S_ISCHR(st.st_mode) ? 0x2000 : 0x8000) | perm | (perm >> 3) |
		       (perm >> 6);
	buf->st_nlink = (short)st.st_nlink;
	/* the drive: the one named, else the current one (C:) */
	buf->st_dev = buf->st_rdev = ((path[0] | 0x20) >= 'a' && (path[0] | 0x20) <= 'z' && path[1] == ':') ?
					     (unsigned int)((path[0] | 0x20) - 'a') :
					     2;
	buf->st_size = S_ISDIR(st.st_mode) ? 0 : st.st_size;
	buf->atime = st.st_atim.tv_sec;
	buf->mtime = st.st_mtim.tv_sec;
	buf->ctime_ = st.st_ctim.tv_sec;
	return 0;
}

int __cdecl crt__wstat64(const WCHAR *path, struct crt_stat64 *buf)
{
	char *u;
	int r;

	if (!path) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return -1;
	}
	if (!(u = crt_wide_to_utf8_alloc(path))) {
		crt_set_errno(ENOMEM);
		return -1;
	}
	r = crt__stat64(u, buf);
	free(u);
	return r;
}

/* ---- the narrower layouts ---------------------------------------------------------- */

#define HEAD(d, s)                                                                                          \
	do {                                                                                                \
		memset(d, 0, sizeof(*(d)));                                                                 \
		(d)->st_dev = (s)->st_dev;                                                                  \
		(d)->st_ino = (s)->st_ino;                                                                  \
		(d)->st_mode = (s)->st_mode;                                                                \
		(d)->st_nlink = (s)->st_nlink;                                                              \
		(d)->st_uid = (s)->st_uid;                                                                  \
		(d)->st_gid = (s)->st_gid;                                                                  \
		(d)->st_rdev = (s)->st_rdev;                                                                \
	} while (0)

/* A size or time the layout cannot hold: EOVERFLOW, as the CRT says it. */
#define CRT_EOVERFLOW 132

static int to32(const struct crt_stat64 *s, struct crt_stat32 *d)
{
	if (s->st_size > INT32_MAX || s->mtime > INT32_MAX || s->atime > INT32_MAX || s->ctime_ > INT32_MAX) {
		crt_set_errno(CRT_EOVERFLOW);
		return -1;
	}
	HEAD(d, s);
	d->st_size = (int)s->st_size;
	d->atime = (int)s->atime;
	d->mtime = (int)s->mtime;
	d->ctime_ = (int)s->ctime_;
	return 0;
}

static int to32i64(const struct crt_stat64 *s, struct crt_stat32i64 *d)
{
	if (s->mtime > INT32_MAX || s->atime > INT32_MAX || s->ctime_ > INT32_MAX) {
		crt_set_errno(CRT_EOVERFLOW);
		return -1;
	}
	HEAD(d, s);
	d->st_size = s->st_size;
	d->atime = (int)s->atime;
	d->mtime = (int)s->mtime;
	d->ctime_ = (int)s->ctime_;
	return 0;
}

static int to64i32(const struct crt_stat64 *s, struct crt_stat64i32 *d)
{
	if (s->st_size > INT32_MAX) {
		crt_set_errno(CRT_EOVERFLOW);
		return -1;
	}
	HEAD(d, s);
	d->st_size = (int)s->st_size;
	d->atime = s->atime;
	d->mtime = s->mtime;
	d->ctime_ = s->ctime_;
	return 0;
}

#define FORMS(layout, conv)                                                                                 \
	int __cdecl crt__stat##layout(const char *path, struct crt_stat##layout *buf)                      \
	{                                                                                                   \
		struct crt_stat64 s;                                                                        \
		if (!buf) {                                                                                 \
			crt_set_errno(EINVAL);                                                              \
			crt_invalid_parameter_noinfo();                                                     \
			return -1;                                                                          \
		}                                                                                           \
		return crt__stat64(path, &s) ? -1 : conv(&s, buf);                                          \
	}                                                                                                   \
	int __cdecl crt__wstat##layout(const WCHAR *path, struct crt_stat##layout *buf)                    \
	{                                                                                                   \
		struct crt_stat64 s;                                                                        \
		if (!buf) {                                                                                 \
			crt_set_errno(EINVAL);                                                              \
			crt_invalid_parameter_noinfo();                                                     \
			return -1;                                                                          \
		}                                                                                           \
		return crt__wstat64(path, &s) ? -1 : conv(&s, buf);                                         \
	}                                                                                                   \
	int __cdecl crt__fstat##layout(int fd, struct crt_stat##layout *buf)                               \
	{                                                                                                   \
		struct crt_stat64 s;                                                                        \
		if (!buf) {                                                                                 \
			crt_set_errno(EINVAL);                                                              \
			crt_invalid_parameter_noinfo();                                                     \
			return -1;                                                                          \
		}                                                                                           \
		return crt__fstat64(fd, &s) ? -1 : conv(&s, buf);                                           \
	}

FORMS(32, to32)
FORMS(32i64, to32i64)
FORMS(64i32, to64i32)

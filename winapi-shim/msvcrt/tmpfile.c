/* tmpfile and tmpfile_s: a new file opened "w+b" that goes away when it
 * is closed or the program ends.  Its name is the CRT's own business
 * (msvcrt made it in the root folder, which later Windows refuses to
 * most users); here it has none at all: an unnamed Linux file in the
 * temporary folder (TMPDIR, else /tmp), so nothing is left behind even
 * when the program is killed. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msvcrt/msvcrt_private.h"

static int temp_fd(void)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
		return fd;
	/* a file system without O_TMPFILE: a named one, removed at once */
	if ((size_t)snprintf(path, sizeof(path), "%s/ndshim-tmpXXXXXX", dir) >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = mkostemp(path, O_CLOEXEC);
	if (fd >= 0)
		unlink(path);
	return fd;
}

struct crt_file *__cdecl crt_tmpfile(void)
{
	struct crt_file *f;
	int fd = temp_fd();

	if (fd < 0) {
		crt_set_errno_host(errno);
		return NULL;
	}
	crt_fd_opened(fd, CRT_O_BINARY);
	f = crt__fdopen(fd, "w+b");
	if (!f)
		close(fd);
	return f;
}

int __cdecl crt_tmpfile_s(struct crt_file **out)
{
	if (!out) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return EINVAL;
	}
	*out = crt_tmpfile();
	return *out ? 0 : *crt__errno();
}

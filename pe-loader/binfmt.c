/* binfmt_misc registration (Documentation/admin-guide/binfmt-misc.rst).
 *
 * The entry is ":NAME:M::MZ::NDRUN:" with
 *   - magic "MZ" at offset 0, as Wine registers it: every PE image starts
 *     so (DOS and 32-bit ones too; ndrun refuses those with status 126);
 *   - NDRUN the canonical path of the ndrun that runs --register, so the
 *     build tree's or an installation's ndrun is the one the user chose;
 *   - no flags.  Without 'P' the kernel calls `NDRUN /full/path/app.exe
 *     args...`, the ordinary ndrun command line; with it ndrun would get an
 *     extra argv[0] it cannot tell from a program argument.  Without 'F'
 *     the interpreter is opened at each exec, so reinstalling ndrun takes
 *     effect at once and ndrun finds lib/ndshim/ from that path; 'F' would
 *     pin the file registered (only needed inside containers or chroots
 *     that do not see NDRUN's path, where `--register` should be run from
 *     the container instead). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/vfs.h>

#include "binfmt.h"
#include "core/debug.h"

#define BINFMT_MISC_MAGIC 0x42494e4d /* "BINM", linux/magic.h */

static int usable(const char *what)
{
	struct statfs fs;

	if (statfs(BINFMT_DIR, &fs) || (unsigned long)fs.f_type != BINFMT_MISC_MAGIC) {
		ndrun_error("%s: binfmt_misc is not mounted on " BINFMT_DIR
			    " (as root: mount -t binfmt_misc binfmt_misc " BINFMT_DIR ")", what);
		return 0;
	}
	if (geteuid() != 0) {
		ndrun_error("%s: needs root (binfmt_misc entries are system-wide; try sudo)", what);
		return 0;
	}
	return 1;
}

/* binfmt_misc names may not contain '/' and are at most a few words. */
static int valid_name(const char *what, const char *name)
{
	if (!*name || strchr(name, '/') || strchr(name, ':') || !strcmp(name, ".") ||
	    !strcmp(name, "..") || !strcmp(name, "register") || !strcmp(name, "status") ||
	    strlen(name) > 64) {
		ndrun_error("%s: '%s' is not a usable binfmt_misc entry name", what, name);
		return 0;
	}
	return 1;
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int err;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	err = n < 0 ? errno : 0;
	close(fd);
	return n < 0 ? -err : 0;
}

int binfmt_register(const char *name)
{
	char self[PATH_MAX], entry[PATH_MAX], rule[PATH_MAX + 128];
	ssize_t n;
	int rc;

	if (!valid_name("--register", name) || !usable("--register"))
		return 1;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0) {
		ndrun_error("--register: cannot read /proc/self/exe: %s", strerror(errno));
		return 1;
	}
	self[n] = 0;
	snprintf(entry, sizeof(entry), BINFMT_DIR "/%s", name);
	if (!access(entry, F_OK)) {
		ndrun_error("--register: a binfmt_misc entry '%s' already exists (%s; ndrun --unregister%s%s first)",
			    name, entry, strcmp(name, BINFMT_DEFAULT_NAME) ? " " : "",
			    strcmp(name, BINFMT_DEFAULT_NAME) ? name : "");
		return 1;
	}
	/* The rule's fields are ':'-separated: a path with ':' cannot be one. */
	if (strchr(self, ':')) {
		ndrun_error("--register: ndrun's path %s contains ':', which binfmt_misc cannot take", self);
		return 1;
	}
	snprintf(rule, sizeof(rule), ":%s:M::MZ::%s:", name, self);
	rc = write_file(BINFMT_DIR "/register", rule);
	if (rc) {
		ndrun_error("--register: writing '%s' to " BINFMT_DIR "/register failed: %s", rule, strerror(-rc));
		return 1;
	}
	printf("registered binfmt_misc entry '%s': files starting with MZ run under %s\n", name, self);
	return 0;
}

int binfmt_unregister(const char *name)
{
	char entry[PATH_MAX];
	int rc;

	if (!valid_name("--unregister", name) || !usable("--unregister"))
		return 1;
	snprintf(entry, sizeof(entry), BINFMT_DIR "/%s", name);
	rc = write_file(entry, "-1");
	if (rc == -ENOENT) {
		ndrun_error("--unregister: no binfmt_misc entry '%s' is registered", name);
		return 1;
	}
	if (rc) {
		ndrun_error("--unregister: writing -1 to %s failed: %s", entry, strerror(-rc));
		return 1;
	}
	printf("removed binfmt_misc entry '%s'\n", name);
	return 0;
}

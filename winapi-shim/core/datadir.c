#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/datadir.h"

char *datadir_path(void)
{
	const char *env = getenv("NDSHIM_DATA"), *base;
	char *path;

	if (env && *env)
		return strdup(env);
	base = getenv("XDG_DATA_HOME");
	if (base && *base)
		return asprintf(&path, "%s/ndshim", base) < 0 ? NULL : path;
	base = getenv("HOME");
	if (!base || !*base) {
		struct passwd *pw = getpwuid(getuid());

		base = pw && pw->pw_dir && pw->pw_dir[0] == '/' ? pw->pw_dir : NULL;
	}
	if (!base)
		return NULL;
	return asprintf(&path, "%s/.local/share/ndshim", base) < 0 ? NULL : path;
}

int datadir_mkdirs(const char *path)
{
	char *p = strdup(path);
	int ret = 0, e = 0;

	if (!p) {
		errno = ENOMEM;
		return -1;
	}
	for (char *s = p + 1;; s++) {
		if (*s && *s != '/')
			continue;
		char c = *s;

		*s = 0;
		if (mkdir(p, 0700) && errno != EEXIST) {
			e = errno;
			ret = -1;
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
	if (!ret)
		return 0;
	/* a component that exists as something else, or a parent we may
	 * not write but that already holds the folder */
	struct stat st;

	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		return 0;
	errno = e;
	return -1;
}

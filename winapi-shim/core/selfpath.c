#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/selfpath.h"

char *ndrun_exe_dir(void)
{
	char exe[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return NULL;
	exe[n] = 0;
	slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	*slash = 0;
	return strdup(exe[0] ? exe : "/");
}

char *ndrun_own_file_in(const char *dir, const char *name)
{
	char *beside, *installed;

	if (asprintf(&beside, "%s/%s", dir, name) < 0)
		return NULL;
	if (!access(beside, F_OK))
		return beside;
	/* Installed: PREFIX/bin/ndrun and PREFIX/lib/ndshim/NAME. */
	if (asprintf(&installed, "%s/../lib/ndshim/%s", dir, name) < 0)
		return beside;
	if (access(installed, F_OK)) {
		free(installed);
		return beside;
	}
	free(beside);
	/* Canonical, so that traces and WSCGetProviderPath show no "..". */
	beside = realpath(installed, NULL);
	if (beside) {
		free(installed);
		return beside;
	}
	return installed;
}

char *ndrun_own_file(const char *name)
{
	char *dir = ndrun_exe_dir(), *path;

	if (!dir)
		return NULL;
	path = ndrun_own_file_in(dir, name);
	free(dir);
	return path;
}

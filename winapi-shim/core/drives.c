#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/datadir.h"
#include "core/debug.h"
#include "core/drives.h"

static char *roots[26]; /* realpath of each drive's target, or NULL */
static char *folder;    /* the dosdevices folder */
static pthread_once_t drives_once = PTHREAD_ONCE_INIT;

/* The default folder: c: -> ../drive_c, z: -> /.  Made beside dir and
 * renamed into place, so another process starting at the same time
 * sees no folder or a whole one; the loser of the race drops its copy. */
static void make_default(const char *dir)
{
	char *data = datadir_path(), *drive_c = NULL, *tmp = NULL, *link = NULL;

	if (!data || asprintf(&drive_c, "%s/drive_c", data) < 0) {
		drive_c = NULL;
		goto out;
	}
	if (asprintf(&tmp, "%s.%d", dir, (int)getpid()) < 0) {
		tmp = NULL;
		goto out;
	}
	if (datadir_mkdirs(drive_c) || datadir_mkdirs(tmp)) {
		TRACE(file, "cannot create %s: %s\n", tmp, strerror(errno));
		goto out;
	}
	if (asprintf(&link, "%s/c:", tmp) >= 0) {
		if (symlink("../drive_c", link))
			TRACE(file, "cannot create %s: %s\n", link, strerror(errno));
		free(link);
	}
	if (asprintf(&link, "%s/z:", tmp) >= 0) {
		if (symlink("/", link))
			TRACE(file, "cannot create %s: %s\n", link, strerror(errno));
		free(link);
	}
	if (rename(tmp, dir)) {
		/* another process made it first */
		if (asprintf(&link, "%s/c:", tmp) >= 0) {
			unlink(link);
			free(link);
		}
		if (asprintf(&link, "%s/z:", tmp) >= 0) {
			unlink(link);
			free(link);
		}
		rmdir(tmp);
	}
out:
	free(tmp);
	free(drive_c);
	free(data);
}

static char *folder_name(bool *explicit_name)
{
	const char *env = getenv("NDSHIM_DOSDEVICES");
	char *data, *dir;

	*explicit_name = env && *env;
	if (*explicit_name)
		return strdup(env);
	if (!(data = datadir_path()))
		return NULL;
	if (asprintf(&dir, "%s/dosdevices", data) < 0)
		dir = NULL;
	free(data);
	return dir;
}

static void drives_init(void)
{
	bool explicit_name, any = false;
	char link[PATH_MAX];

	folder = folder_name(&explicit_name);
	if (folder && !explicit_name && access(folder, F_OK))
		make_default(folder);
	for (int i = 0; folder && i < 26; i++) {
		if (snprintf(link, sizeof(link), "%s/%c:", folder, 'a' + i) >= (int)sizeof(link))
			continue;
		roots[i] = realpath(link, NULL);
		any |= roots[i] != NULL;
	}
	if (!any) {
		TRACE(file, "no drives in %s: C: and Z: are the Linux root\n", folder ? folder : "(none)");
		roots['C' - 'A'] = strdup("/");
		roots['Z' - 'A'] = strdup("/");
	}
	for (int i = 0; i < 26; i++)
		if (roots[i])
			TRACE(file, "%c: is %s\n", 'A' + i, roots[i]);
}

const char *drive_root(WCHAR letter)
{
	if (letter >= 'a' && letter <= 'z')
		letter -= 'a' - 'A';
	if (letter < 'A' || letter > 'Z')
		return NULL;
	pthread_once(&drives_once, drives_init);
	return roots[letter - 'A'];
}

DWORD drive_mask(void)
{
	DWORD mask = 0;

	pthread_once(&drives_once, drives_init);
	for (int i = 0; i < 26; i++)
		if (roots[i])
			mask |= 1u << i;
	return mask;
}

WCHAR drive_of_unix(const char *abs, const char **rest)
{
	size_t best_len = 0;
	int best = -1;

	pthread_once(&drives_once, drives_init);
	for (int i = 0; i < 26; i++) {
		const char *r = roots[i];
		size_t n;

		if (!r)
			continue;
		n = strcmp(r, "/") ? strlen(r) : 0; /* "/" holds every path */
		if (strncmp(abs, r, n) || (abs[n] && abs[n] != '/'))
			continue;
		if (best < 0 || n > best_len) {
			best = i;
			best_len = n;
		}
	}
	if (best < 0)
		return 0;
	*rest = abs + best_len;
	return (WCHAR)('A' + best);
}

char *drive_device(const char *name)
{
	char *link, *target;

	pthread_once(&drives_once, drives_init);
	if (!folder || asprintf(&link, "%s/%s", folder, name) < 0)
		return NULL;
	target = realpath(link, NULL);
	free(link);
	return target;
}

char *drive_folder(void)
{
	pthread_once(&drives_once, drives_init);
	return folder ? strdup(folder) : NULL;
}

void drives_reload(void)
{
	pthread_once(&drives_once, drives_init);
	for (int i = 0; i < 26; i++) {
		free(roots[i]);
		roots[i] = NULL;
	}
	free(folder);
	folder = NULL;
	drives_init();
}

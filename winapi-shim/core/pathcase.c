/* The case-insensitive half of the path policy (core/path.h): Windows
 * file systems fold case, Linux ones do not, so a name that does not
 * exist as given is looked for, one component at a time, among the
 * entries of its folder.  Only misses pay: an existing name costs one
 * lstat. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "core/codepage.h"
#include "core/path.h"
#include "core/wstr.h"

static bool is_ascii(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] >= 0x80)
			return false;
	return true;
}

/* Whether the Linux name d equals want[0..n) when both are folded as
 * Windows folds them (wstr_icmp); wwant is want in UTF-16, or NULL when
 * want is ASCII. */
static bool same_folded(const char *d, const char *want, size_t n, const WCHAR *wwant)
{
	WCHAR buf[256 + 1];
	ssize_t len;

	if (!wwant)
		return strlen(d) == n && !strncasecmp(d, want, n);
	len = utf8_to_utf16(d, strlen(d), buf, 256, false);
	if (len < 0)
		return false;
	buf[len] = 0;
	return !wstr_icmp(buf, wwant);
}

/* The name of the entry of folder dir matching want[0..n) but for case
 * (malloc'd), NULL when none. */
static char *find_entry(const char *dir, const char *want, size_t n)
{
	WCHAR *wwant = NULL;
	char *found = NULL;
	struct dirent *e;
	DIR *d;

	if (!is_ascii(want, n)) {
		char *tmp = strndup(want, n);

		wwant = tmp ? utf8_to_utf16_dup(tmp) : NULL;
		free(tmp);
		if (!wwant)
			return NULL;
	}
	if ((d = opendir(*dir ? dir : "."))) { /* "": a relative path's first name */
		while (!found && (e = readdir(d)))
			if (same_folded(e->d_name, want, n, wwant))
				found = strdup(e->d_name);
		closedir(d);
	}
	free(wwant);
	return found;
}

char *path_fold_case(char *u, size_t keep)
{
	struct stat st;
	size_t len = strlen(u), cap = len + 1, o;
	char *out, *p;

	if (!lstat(u, &st) || errno != ENOENT || keep >= len)
		return u;
	if (!(out = malloc(cap))) {
		free(u);
		return NULL;
	}
	memcpy(out, u, keep);
	o = keep;
	p = u + keep;
	while (*p) {
		char *comp, *match = NULL;
		size_t n, need;

		while (*p == '/')
			out[o++] = *p++;
		if (!*p)
			break;
		comp = p;
		while (*p && *p != '/')
			p++;
		n = (size_t)(p - comp);
		out[o] = 0;
		/* does the folder so far hold it as given? */
		memcpy(out + o, comp, n);
		out[o + n] = 0;
		if (!lstat(out, &st) || errno != ENOENT) {
			o += n;
			continue;
		}
		out[o] = 0;
		if (o > 1 && out[o - 1] == '/')
			out[o - 1] = 0; /* the folder's name without its separator */
		match = find_entry(out, comp, n);
		if (o > 1 && !out[o - 1])
			out[o - 1] = '/';
		if (!match) {
			/* a new name: the rest stays as given */
			memcpy(out + o, comp, len - (size_t)(comp - u) + 1);
			free(u);
			return out;
		}
		need = o + strlen(match) + (len - (size_t)(p - u)) + 1;
		if (need > cap) {
			char *bigger = realloc(out, need);

			if (!bigger) {
				free(match);
				free(out);
				free(u);
				return NULL;
			}
			out = bigger;
			cap = need;
		}
		memcpy(out + o, match, strlen(match));
		o += strlen(match);
		free(match);
	}
	out[o] = 0;
	free(u);
	return out;
}

char *path_case_rename(const char *src, const char *dst, const WCHAR *to)
{
	const char *slash = strrchr(src, '/');
	WCHAR *full, *last;
	char *name, *r = NULL;
	DWORD err;

	if (strcmp(src, dst) || !slash || !(full = path_full(to, &err)))
		return NULL;
	last = full + wstr_len(full);
	while (last > full && last[-1] != '\\')
		last--;
	name = *last ? utf16_to_utf8_dup(last) : NULL;
	free(full);
	/* the name as written (path_full trimmed its trailing dots and
	 * spaces), unless it is src's own: a rename onto itself */
	if (name && strcmp(name, slash + 1) && asprintf(&r, "%.*s/%s", (int)(slash - src), src, name) < 0)
		r = NULL;
	free(name);
	return r;
}

/* Finding a program's file the way CreateProcess does (progfile.h). */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "core/path.h"
#include "core/progfile.h"
#include "core/wstr.h"

static bool is_sep(WCHAR c)
{
	return c == '\\' || c == '/';
}

bool progfile_has_ext(const WCHAR *name, size_t len)
{
	while (len && !is_sep(name[len - 1]) && name[len - 1] != ':') {
		if (name[len - 1] == '.')
			return true;
		len--;
	}
	return false;
}

/* The entry of folder dir whose name equals name[0..len) ignoring the
 * case of ASCII letters (so it is len bytes long too); malloc'ed, or NULL. */
static char *entry_nocase(const char *dir, const char *name, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char *found = NULL;

	if (!d)
		return NULL;
	while ((de = readdir(d)))
		if (strlen(de->d_name) == len && !strncasecmp(de->d_name, name, len)) {
			found = strdup(de->d_name);
			break;
		}
	closedir(d);
	return found;
}

char *path_match_case(const char *unix_path)
{
	const char *p = unix_path;
	struct stat st;
	char *out, *o;

	if (!lstat(unix_path, &st))
		return strdup(unix_path);
	out = malloc(strlen(unix_path) + 1);
	if (!out)
		return NULL;
	o = out;
	while (*p == '/')
		*o++ = *p++;
	*o = 0;
	/* out holds the components matched so far, each followed by '/'. */
	while (*p) {
		size_t len = strcspn(p, "/");

		memcpy(o, p, len);
		o[len] = 0;
		if (lstat(out, &st)) {
			char *real;

			*o = 0;
			real = entry_nocase(o == out ? "." : out, p, len);
			if (!real) {
				free(out);
				return NULL;
			}
			memcpy(o, real, len);
			free(real);
		}
		o += len;
		p += len;
		while (*p == '/')
			*o++ = *p++;
		*o = 0;
	}
	return out;
}

char *progfile_try(const WCHAR *dir, const WCHAR *name, size_t len, const WCHAR *ext)
{
	size_t dlen = dir ? wstr_len(dir) : 0, elen = ext ? wstr_len(ext) : 0;
	WCHAR *w = malloc((dlen + 1 + len + elen + 1) * sizeof(WCHAR)), *p = w;
	struct stat st;
	char *u, *real;
	DWORD err;

	if (!w)
		return NULL;
	if (dlen) {
		memcpy(p, dir, dlen * sizeof(WCHAR));
		p += dlen;
		if (!is_sep(dir[dlen - 1]))
			*p++ = '\\';
	}
	memcpy(p, name, len * sizeof(WCHAR));
	p += len;
	if (elen)
		memcpy(p, ext, elen * sizeof(WCHAR));
	p[elen] = 0;
	u = path_to_unix(w, &err);
	free(w);
	if (!u)
		return NULL;
	real = path_match_case(u);
	free(u);
	if (real && (stat(real, &st) || !S_ISREG(st.st_mode))) {
		free(real);
		real = NULL;
	}
	return real;
}

char *progfile_find(const WCHAR *dir, const WCHAR *name, size_t len, bool add_exe)
{
	char *u;

	if (add_exe && (u = progfile_try(dir, name, len, u".exe")))
		return u;
	return progfile_try(dir, name, len, NULL);
}

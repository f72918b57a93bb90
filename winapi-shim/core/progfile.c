/* Finding a program's file the way CreateProcess does (progfile.h). */
#include <stdlib.h>
#include <string.h>
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

/* The case-insensitive lookup is the path policy's (core/path.h). */
char *path_match_case(const char *unix_path)
{
	char *u = strdup(unix_path);
	struct stat st;

	if (!u || !(u = path_fold_case(u, 0)))
		return NULL;
	if (lstat(u, &st)) {
		free(u);
		return NULL;
	}
	return u;
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

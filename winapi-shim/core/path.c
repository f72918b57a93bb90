#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/codepage.h"
#include "core/drives.h"
#include "core/errors.h"
#include "core/path.h"
#include "core/wstr.h"

static int is_sep(WCHAR c)
{
	return c == '\\' || c == '/';
}

static int is_alpha(WCHAR c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_drive(const WCHAR *p)
{
	return is_alpha(p[0]) && p[1] == ':';
}

/* "\\?\" and "\??\": the rest is taken as it is. */
static bool is_verbatim(const WCHAR *p)
{
	return p[0] == '\\' && ((p[1] == '\\' && p[2] == '?') || (p[1] == '?' && p[2] == '?')) && p[3] == '\\';
}

/* "\\.\" (either separator): the device namespace. */
static bool is_device_ns(const WCHAR *p)
{
	return is_sep(p[0]) && is_sep(p[1]) && p[2] == '.' && is_sep(p[3]);
}

/* Whether p starts with the ASCII word w (any case) followed by a
 * separator. */
static bool starts_word(const WCHAR *p, const char *w)
{
	for (; *w; w++, p++)
		if (wch_toupper(*p) != (WCHAR)*w)
			return false;
	return is_sep(*p);
}

static WCHAR *wdup_n(const WCHAR *s, size_t n)
{
	WCHAR *d = malloc((n + 1) * sizeof(WCHAR));

	if (d) {
		memcpy(d, s, n * sizeof(WCHAR));
		d[n] = 0;
	}
	return d;
}

/* ---- DOS devices ------------------------------------------------------ */

bool path_dos_device(const WCHAR *name, size_t *off, size_t *len)
{
	static const char *const three[] = { "AUX", "CON", "NUL", "PRN" };
	const WCHAR *last = name, *end;
	size_t n;

	if (is_sep(name[0]) && is_sep(name[1]))
		return false;
	for (const WCHAR *p = name; *p; p++)
		if (is_sep(*p))
			last = p + 1;
	if (last == name && is_drive(name))
		last += 2;
	for (end = last; *end && *end != '.' && *end != ':'; end++)
		;
	while (end > last && end[-1] == ' ')
		end--;
	n = (size_t)(end - last);
	if (n == 3) {
		for (size_t i = 0; i < 4; i++)
			if (wch_toupper(last[0]) == three[i][0] && wch_toupper(last[1]) == three[i][1] &&
			    wch_toupper(last[2]) == three[i][2])
				goto found;
		return false;
	}
	if ((n == 6 && !wstr_nicmp(last, u"CONIN$", 6)) || (n == 7 && !wstr_nicmp(last, u"CONOUT$", 7)))
		goto found;
	if (n == 4 && last[3] >= '1' && last[3] <= '9' &&
	    ((wch_toupper(last[0]) == 'C' && wch_toupper(last[1]) == 'O' && wch_toupper(last[2]) == 'M') ||
	     (wch_toupper(last[0]) == 'L' && wch_toupper(last[1]) == 'P' && wch_toupper(last[2]) == 'T')))
		goto found;
	return false;
found:
	*off = (size_t)(last - name);
	*len = n;
	return true;
}

/* The Linux file for the device name[0..n): NUL, CON, CONIN$, CONOUT$
 * are fixed; the others are dosdevices entries. */
static char *device_unix(const WCHAR *name, size_t n, DWORD *err)
{
	char lower[8], *u;

	if (n > 7) {
		*err = ERROR_FILE_NOT_FOUND;
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		lower[i] = (char)wch_tolower(name[i]);
	lower[n] = 0;
	if (!strcmp(lower, "nul"))
		u = strdup("/dev/null");
	else if (!strcmp(lower, "con") || !strcmp(lower, "conin$") || !strcmp(lower, "conout$"))
		u = strdup("/dev/tty");
	else if (!(u = drive_device(lower))) {
		*err = ERROR_FILE_NOT_FOUND;
		return NULL;
	}
	if (!u)
		*err = ERROR_NOT_ENOUGH_MEMORY;
	return u;
}

/* ---- trimming and normalisation ----------------------------------------- */

/* Win32 names lose what NTFS would keep but Windows does not let a
 * name end with: a component ending in one '.' loses it ("dir.\\x" is
 * "dir\\x"), and unless the name ends with a separator, its trailing
 * dots and spaces go ("a.txt. " is "a.txt").  "." and ".." stay, as
 * names made of dots only do in the middle.  In place. */
static void trim_names(WCHAR *path)
{
	WCHAR *src = path, *dst = path;
	size_t n;

	while (*src) {
		WCHAR *start = src;
		size_t len;

		while (*src && !is_sep(*src))
			src++;
		len = (size_t)(src - start);
		if (is_sep(*src) && len >= 2 && start[len - 1] == '.' && start[len - 2] != '.')
			len--;
		memmove(dst, start, len * sizeof(WCHAR));
		dst += len;
		while (is_sep(*src))
			*dst++ = *src++;
	}
	*dst = 0;
	n = (size_t)(dst - path);
	if (!n || is_sep(path[n - 1]))
		return;
	{
		size_t seg = n;

		while (seg && !is_sep(path[seg - 1]))
			seg--;
		/* "." and ".." are the relative components, not names */
		if ((n - seg == 1 && path[seg] == '.') || (n - seg == 2 && path[seg] == '.' && path[seg + 1] == '.'))
			return;
		while (n > seg && (path[n - 1] == '.' || path[n - 1] == ' '))
			n--;
		path[n] = 0;
	}
}

/* Resolves "." and ".." in an absolute path whose root (the first
 * root_len units, e.g. "C:\\") is kept; separators become '\\'; then
 * trims the names as trim_names does. */
static void normalize(WCHAR *path, size_t root_len)
{
	WCHAR *root = path + root_len, *src = root, *dst = root;
	int trailing = 0;

	for (WCHAR *p = path; p < root; p++)
		if (*p == '/')
			*p = '\\';
	/* dst never passes src: a separator was skipped before every
	 * component after the first, so there is room to write one back. */
	while (*src) {
		WCHAR *start;
		size_t len;

		while (is_sep(*src))
			src++;
		if (!*src)
			break;
		start = src;
		while (*src && !is_sep(*src))
			src++;
		len = (size_t)(src - start);
		trailing = is_sep(*src);
		if (len == 1 && start[0] == '.')
			continue;
		if (len == 2 && start[0] == '.' && start[1] == '.') {
			while (dst > root && dst[-1] != '\\')
				dst--;
			if (dst > root)
				dst--;
			continue;
		}
		if (dst > root)
			*dst++ = '\\';
		memmove(dst, start, len * sizeof(WCHAR));
		dst += len;
	}
	if (trailing && dst > root)
		*dst++ = '\\';
	*dst = 0;
	trim_names(root);
}

/* The length of the root of an absolute name: "X:\\" (3), "\\\\.\\" (4),
 * "\\\\server\\share\\" (through the share's separator, or its end), the
 * "\\\\?\\" forms likewise. */
static size_t root_length(const WCHAR *p)
{
	size_t i, parts;

	if (is_drive(p))
		return is_sep(p[2]) ? 3 : 2;
	if (!is_sep(p[0]) || !is_sep(p[1]))
		return 0;
	if (is_device_ns(p))
		return 4;
	i = 2;
	parts = 2; /* server, share */
	if (is_verbatim(p)) {
		i = 4;
		if (is_drive(p + 4))
			return is_sep(p[6]) ? 7 : 6;
		parts = starts_word(p + 4, "UNC") ? 3 : 1; /* "UNC\server\share", "unix" */
	}
	while (parts--) {
		while (p[i] && !is_sep(p[i]))
			i++;
		if (!p[i])
			return i;
		i++;
	}
	return i;
}

/* The current directory of drive d: cwd when it is the current drive,
 * else the "=D:" environment variable (cmd.exe keeps them), else its
 * root.  malloc'd. */
static WCHAR *drive_cwd(WCHAR d, const WCHAR *cwd)
{
	WCHAR var[4] = { '=', wch_toupper(d), ':', 0 }, *v;

	if (is_drive(cwd) && wch_toupper(cwd[0]) == wch_toupper(d))
		return wstr_dup(cwd);
	v = path_env_get(var);
	if (v && is_drive(v) && wch_toupper(v[0]) == wch_toupper(d) && is_sep(v[2]))
		return v;
	free(v);
	return wstr_dup((WCHAR[]){ d, ':', '\\', 0 });
}

/* dir + '\\' + name, malloc'd. */
static WCHAR *join(const WCHAR *dir, const WCHAR *name)
{
	size_t a = wstr_len(dir), b = wstr_len(name);
	WCHAR *out;

	if (!b)
		return wstr_dup(dir); /* "C:" is the directory itself */
	if (!(out = malloc((a + b + 2) * sizeof(WCHAR))))
		return NULL;
	memcpy(out, dir, a * sizeof(WCHAR));
	if (a && !is_sep(dir[a - 1]))
		out[a++] = '\\';
	memcpy(out + a, name, (b + 1) * sizeof(WCHAR));
	return out;
}

WCHAR *path_full(const WCHAR *name, DWORD *err)
{
	WCHAR *cwd = NULL, *buf = NULL, *dir = NULL;
	size_t off, len;

	if (!name || !*name) {
		*err = ERROR_INVALID_NAME;
		return NULL;
	}
	if (is_verbatim(name))
		return wstr_dup(name); /* taken literally, as Windows does */
	if (path_dos_device(name, &off, &len)) {
		/* "C:\\dir\\nul.txt" is the device "\\\\.\\nul" */
		if ((buf = malloc((len + 5) * sizeof(WCHAR)))) {
			memcpy(buf, u"\\\\.\\", 4 * sizeof(WCHAR));
			memcpy(buf + 4, name + off, len * sizeof(WCHAR));
			buf[len + 4] = 0;
		}
		goto done;
	}
	if ((is_sep(name[0]) && is_sep(name[1])) || (is_drive(name) && is_sep(name[2]))) {
		buf = wstr_dup(name); /* already absolute */
		goto done;
	}
	if (!(cwd = path_cwd(err)))
		return NULL;
	if (is_drive(name)) {
		/* "X:name": relative to drive X's current directory */
		if ((dir = drive_cwd(name[0], cwd)))
			buf = join(dir, name + 2);
	} else if (is_sep(name[0])) {
		/* "\\name": relative to the current drive's root */
		size_t r = root_length(cwd);

		if ((dir = wdup_n(cwd, r)))
			buf = join(dir, name + 1);
	} else {
		buf = join(cwd, name);
	}
done:
	free(cwd);
	free(dir);
	if (!buf) {
		*err = ERROR_NOT_ENOUGH_MEMORY;
		return NULL;
	}
	if (!(is_device_ns(buf) && path_dos_device(buf + 4, &off, &len)))
		normalize(buf, root_length(buf));
	return buf;
}

/* ---- Windows -> Linux ------------------------------------------------ */

/* root + rest (Windows separators turned), then the case lookup after
 * the root.  rest is "" or starts with a separator. */
static char *join_unix(const char *root, const WCHAR *rest, bool fold, DWORD *err)
{
	char *r = utf16_to_utf8_dup(rest), *u;
	size_t a, b;

	if (!r) {
		*err = ERROR_NOT_ENOUGH_MEMORY;
		return NULL;
	}
	if (!strcmp(root, "/"))
		root = "";
	a = strlen(root);
	b = strlen(r);
	if (!(u = malloc(a + b + 2))) {
		free(r);
		*err = ERROR_NOT_ENOUGH_MEMORY;
		return NULL;
	}
	memcpy(u, root, a);
	memcpy(u + a, r, b + 1);
	free(r);
	for (char *c = u + a; *c; c++)
		if (*c == '\\')
			*c = '/';
	if (!u[0] || (u[a] && u[a] != '/')) {
		/* the root itself, or a drive-relative rest ("\\\\?\\C:x") */
		memmove(u + a + 1, u + a, b + 1);
		u[a] = '/';
	}
	if (fold && !(u = path_fold_case(u, a)))
		*err = ERROR_NOT_ENOUGH_MEMORY;
	return u;
}

/* "X:" + rest: drive X's folder + rest. */
static char *map_drive(const WCHAR *p, DWORD *err)
{
	const char *root = drive_root(p[0]);

	if (!root) {
		*err = ERROR_PATH_NOT_FOUND;
		return NULL;
	}
	return join_unix(root, p + 2, true, err);
}

/* "server\\share\\rest" (after "\\\\" or "\\\\?\\UNC\\"): dosdevices'
 * unc/server/share when it exists. */
static char *map_unc(const WCHAR *p, DWORD *err)
{
	const WCHAR *share, *rest;
	char *name, *root, *u;
	WCHAR *key;

	for (share = p; *share && !is_sep(*share); share++)
		;
	if (share == p || !*share || !share[1]) {
		*err = ERROR_BAD_NETPATH;
		return NULL;
	}
	for (rest = ++share; *rest && !is_sep(*rest); rest++)
		;
	if (!(key = wdup_n(p, (size_t)(rest - p)))) {
		*err = ERROR_NOT_ENOUGH_MEMORY;
		return NULL;
	}
	for (WCHAR *c = key; *c; c++)
		*c = is_sep(*c) ? '/' : wch_tolower(*c);
	name = utf16_to_utf8_dup(key);
	free(key);
	if (!name || asprintf(&u, "unc/%s", name) < 0) {
		free(name);
		*err = ERROR_NOT_ENOUGH_MEMORY;
		return NULL;
	}
	free(name);
	root = drive_device(u);
	free(u);
	if (!root) {
		*err = ERROR_BAD_NETPATH;
		return NULL;
	}
	u = join_unix(root, rest, true, err);
	free(root);
	return u;
}

/* After "\\\\?\\": a drive, UNC\\server\\share, or unix\\<Linux path>. */
static char *map_verbatim(const WCHAR *p, DWORD *err)
{
	if (is_drive(p) && (!p[2] || p[2] == '\\'))
		return map_drive(p, err);
	if (starts_word(p, "UNC"))
		return map_unc(p + 4, err);
	if (starts_word(p, "UNIX"))
		return join_unix("/", p + 4, true, err);
	*err = ERROR_PATH_NOT_FOUND;
	return NULL;
}

char *path_to_unix(const WCHAR *win, DWORD *err)
{
	WCHAR *full;
	size_t off, len;
	char *u;

	if (!win || !*win) {
		*err = ERROR_PATH_NOT_FOUND;
		return NULL;
	}
	if (is_verbatim(win))
		return map_verbatim(win + 4, err);
	if (is_device_ns(win)) {
		const WCHAR *p = win + 4;

		if (path_dos_device(p, &off, &len) && !off && len == wstr_len(p))
			return device_unix(p, wstr_len(p), err);
		if (is_drive(p) && is_sep(p[2]))
			return path_to_unix(p, err); /* "\\\\.\\C:\\x" is "C:\\x" */
		*err = ERROR_FILE_NOT_FOUND;
		return NULL;
	}
	if (path_dos_device(win, &off, &len))
		return device_unix(win + off, len, err);
	if (!(full = path_full(win, err)))
		return NULL;
	if (is_drive(full))
		u = map_drive(full, err);
	else if (is_verbatim(full))
		u = map_verbatim(full + 4, err); /* the current directory is outside every drive */
	else if (is_sep(full[0]) && is_sep(full[1]) && !is_device_ns(full))
		u = map_unc(full + 2, err);
	else {
		*err = ERROR_PATH_NOT_FOUND;
		u = NULL;
	}
	free(full);
	return u;
}

/* ---- Linux -> Windows ------------------------------------------------ */

/* physical: unix_path has no symbolic link on the way (getcwd's), so
 * only its own text decides its drive. */
static WCHAR *from_unix(const char *unix_path, bool physical)
{
	const char *rest = NULL;
	char *real = NULL, *text;
	WCHAR letter, *w;

	if (unix_path[0] != '/') {
		if ((w = utf8_to_utf16_dup(unix_path)))
			for (WCHAR *q = w; *q; q++)
				if (*q == '/')
					*q = '\\';
		return w;
	}
	letter = drive_of_unix(unix_path, &rest);
	/* Only the whole file system holds it: through a symbolic link it
	 * may still be inside another drive's folder. */
	if (!physical && (!letter || rest == unix_path) && (real = realpath(unix_path, NULL))) {
		const char *rrest;
		WCHAR rl = drive_of_unix(real, &rrest);

		if (rl && rrest != real) {
			letter = rl;
			rest = rrest;
		}
	}
	if (letter) {
		if (asprintf(&text, "%c:%s", (char)letter, *rest ? rest : "/") < 0)
			text = NULL;
	} else if (asprintf(&text, "\\\\?\\unix%s", unix_path) < 0) {
		text = NULL;
	}
	free(real);
	if (!text)
		return NULL;
	w = utf8_to_utf16_dup(text);
	free(text);
	if (w)
		for (WCHAR *q = w; *q; q++)
			if (*q == '/')
				*q = '\\';
	return w;
}

WCHAR *path_from_unix(const char *unix_path)
{
	return from_unix(unix_path, false);
}

WCHAR *path_cwd(DWORD *err)
{
	char *cwd = getcwd(NULL, 0);
	WCHAR *w;

	if (!cwd) {
		*err = win32_error_from_errno(errno);
		return NULL;
	}
	w = from_unix(cwd, true);
	free(cwd);
	if (!w)
		*err = ERROR_NOT_ENOUGH_MEMORY;
	return w;
}

size_t path_fold_dots(const WCHAR *in, size_t len, size_t root, WCHAR *buf)
{
	size_t o = root;

	memcpy(buf, in, root * sizeof(WCHAR));
	for (const WCHAR *p = in + root; *p;) {
		const WCHAR *end = p;
		size_t n;

		while (*end && *end != '\\')
			end++;
		n = (size_t)(end - p);
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			/* back to the previous separator, not past the root */
			if (o > root) {
				o--;
				while (o > root && buf[o - 1] != '\\')
					o--;
			}
		} else if (!(n == 1 && p[0] == '.')) {
			memcpy(buf + o, p, n * sizeof(WCHAR));
			o += n;
			if (*end)
				buf[o++] = '\\';
		}
		p = *end ? end + 1 : end;
	}
	/* "a\\.." leaves "a\\" trimmed to nothing; a dropped last component
	 * leaves a separator that goes too, but a root's stays, and so does
	 * one the input ended with. */
	if (o > root && buf[o - 1] == '\\' && !(len && in[len - 1] == '\\'))
		o--;
	if (!o)
		buf[o++] = '\\';
	buf[o] = 0;
	return o;
}

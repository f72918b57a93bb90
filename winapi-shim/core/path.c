#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/codepage.h"
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

static const char *device_path(const WCHAR *name)
{
	static const WCHAR nul[] = u"NUL", con[] = u"CON", conin[] = u"CONIN$",
			   conout[] = u"CONOUT$";

	if (!wstr_icmp(name, nul))
		return "/dev/null";
	if (!wstr_icmp(name, con) || !wstr_icmp(name, conin) || !wstr_icmp(name, conout))
		return "/dev/tty";
	return NULL;
}

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

char *path_to_unix(const WCHAR *win, DWORD *err)
{
	const WCHAR *p = win, *last;
	const char *dev;
	WCHAR *tmp, *q;
	char *out;
	int verbatim = 0;

	if (!p || !*p) {
		*err = ERROR_PATH_NOT_FOUND;
		return NULL;
	}
	if ((p[0] == '\\' && p[1] == '\\' && p[2] == '?' && p[3] == '\\') ||
	    (p[0] == '\\' && p[1] == '?' && p[2] == '?' && p[3] == '\\')) {
		p += 4;
		verbatim = 1; /* names taken as they are */
	} else if (is_sep(p[0]) && is_sep(p[1]) && p[2] == '.' && is_sep(p[3]))
		p += 4; /* \\.\NUL: only devices live there */
	else if (is_sep(p[0]) && is_sep(p[1])) {
		*err = ERROR_BAD_NETPATH;
		return NULL;
	}

	for (last = q = (WCHAR *)p; *q; q++)
		if (is_sep(*q))
			last = q + 1;
	if ((dev = device_path(last)))
		return strdup(dev);

	if (is_alpha(p[0]) && p[1] == ':') {
		WCHAR d = p[0] & ~0x20;

		if (d != 'C' && d != 'Z') {
			*err = ERROR_PATH_NOT_FOUND;
			return NULL;
		}
		p += 2;
		if (!*p)
			return strdup("."); /* "C:" alone: the current directory */
	}
	tmp = wstr_dup(p);
	if (!tmp) {
		*err = ERROR_NOT_ENOUGH_MEMORY;
		return NULL;
	}
	if (!verbatim) {
		trim_names(tmp);
		if (!*tmp) {
			/* a name of dots and spaces only: the current directory */
			tmp[0] = '.';
			tmp[1] = 0;
		}
	}
	for (q = tmp; *q; q++)
		if (*q == '\\')
			*q = '/';
	out = utf16_to_utf8_dup(tmp);
	free(tmp);
	if (!out)
		*err = ERROR_NOT_ENOUGH_MEMORY;
	return out;
}

WCHAR *path_from_unix(const char *unix_path)
{
	WCHAR *w, *out, *q;
	size_t n;

	if (!(w = utf8_to_utf16_dup(unix_path)))
		return NULL;
	n = wstr_len(w);
	if (w[0] != '/') {
		out = w;
	} else {
		if (!(out = malloc((n + 3) * sizeof(WCHAR)))) {
			free(w);
			return NULL;
		}
		out[0] = 'C';
		out[1] = ':';
		memcpy(out + 2, w, (n + 1) * sizeof(WCHAR));
		free(w);
	}
	for (q = out; *q; q++)
		if (*q == '/')
			*q = '\\';
	return out;
}

WCHAR *path_cwd(DWORD *err)
{
	char *cwd = getcwd(NULL, 0);
	WCHAR *w;

	if (!cwd) {
		*err = win32_error_from_errno(errno);
		return NULL;
	}
	w = path_from_unix(cwd);
	free(cwd);
	if (!w)
		*err = ERROR_NOT_ENOUGH_MEMORY;
	return w;
}

/* Resolves "." and ".." in an absolute path whose root (the first
 * root_len units, e.g. "C:\\") is kept; separators become '\\'; then
 * trims the names as trim_names does. */
static void normalize(WCHAR *path, size_t root_len)
{
	WCHAR *root = path + root_len, *src = root, *dst = root;
	int trailing = 0;

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

WCHAR *path_full(const WCHAR *name, DWORD *err)
{
	WCHAR *cwd = NULL, *buf;
	size_t root_len, n;

	if (!name || !*name) {
		*err = ERROR_INVALID_NAME;
		return NULL;
	}
	if (name[0] == '\\' && name[1] == '\\' && name[2] == '?' && name[3] == '\\')
		return wstr_dup(name); /* taken literally, as Windows does */

	n = wstr_len(name);
	if (is_sep(name[0]) && is_sep(name[1])) {
		/* UNC or \\.\: the root is "\\\\server\\share\\" / "\\\\.\\" */
		buf = malloc((n + 1) * sizeof(WCHAR));
		if (!buf)
			goto oom;
		memcpy(buf, name, (n + 1) * sizeof(WCHAR));
		buf[0] = buf[1] = '\\';
		root_len = 2;
		normalize(buf, root_len);
		return buf;
	}
	if (is_alpha(name[0]) && name[1] == ':' && is_sep(name[2])) {
		buf = malloc((n + 1) * sizeof(WCHAR));
		if (!buf)
			goto oom;
		memcpy(buf, name, (n + 1) * sizeof(WCHAR));
		buf[2] = '\\';
		normalize(buf, 3);
		return buf;
	}
	if (!(cwd = path_cwd(err)))
		return NULL;
	if (is_alpha(name[0]) && name[1] == ':' && (name[0] & ~0x20) != (cwd[0] & ~0x20)) {
		/* another drive: its current directory is its root */
		buf = malloc((n + 2) * sizeof(WCHAR));
		if (!buf)
			goto oom;
		buf[0] = name[0];
		buf[1] = ':';
		buf[2] = '\\';
		memcpy(buf + 3, name + 2, (n - 1) * sizeof(WCHAR));
		free(cwd);
		normalize(buf, 3);
		return buf;
	}
	if (is_alpha(name[0]) && name[1] == ':') {
		name += 2;
		n -= 2;
	}
	if (is_sep(name[0])) {
		buf = malloc((n + 3) * sizeof(WCHAR));
		if (!buf)
			goto oom;
		buf[0] = cwd[0];
		buf[1] = ':';
		memcpy(buf + 2, name, (n + 1) * sizeof(WCHAR));
	} else {
		size_t c = wstr_len(cwd);

		buf = malloc((c + n + 2) * sizeof(WCHAR));
		if (!buf)
			goto oom;
		memcpy(buf, cwd, c * sizeof(WCHAR));
		buf[c] = '\\';
		memcpy(buf + c + 1, name, (n + 1) * sizeof(WCHAR));
	}
	free(cwd);
	buf[2] = '\\';
	normalize(buf, 3);
	return buf;
oom:
	free(cwd);
	*err = ERROR_NOT_ENOUGH_MEMORY;
	return NULL;
}

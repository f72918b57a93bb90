/* The builtin cmd's internal commands: echo, type, del/erase, copy, move,
 * mkdir/md, rmdir/rd, cd/chdir, set, exit, ver, dir, rem; cmd's other
 * internal commands are refused by name.  Messages are cmd's own words
 * (programs and scripts look for them), written with "\r\n". */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd_private.h"
#include "core/wstr.h"

typedef struct cmd_result (*builtin_fn)(const WCHAR *args, const struct cmd_io *io);

static const struct cmd_result done_ok = { TRUE, 0, FALSE };
static const struct cmd_result failed = { FALSE, 1, TRUE };

static BOOL is_blank(WCHAR c)
{
	return c == ' ' || c == '\t';
}

/* The words of args without its switches (/x); *switches gets the
 * letters of those seen (lower case). */
static int plain_words(const WCHAR *args, WCHAR ***argv, char *switches, size_t nsw)
{
	WCHAR **v;
	int n = cmd_words(args, &v), k = 0;
	size_t s = 0;

	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		if (v[i][0] == '/' && v[i][1]) {
			if (s + 1 < nsw)
				switches[s++] = (char)(v[i][1] | 0x20);
			free(v[i]);
			continue;
		}
		v[k++] = v[i];
	}
	v[k] = NULL;
	if (nsw)
		switches[s] = 0;
	*argv = v;
	return k;
}

static void print_error(const struct cmd_io *io, DWORD err)
{
	cmd_print(io, 2, "%s",
		  err == ERROR_FILE_NOT_FOUND ? "The system cannot find the file specified.\r\n" :
		  err == ERROR_PATH_NOT_FOUND ? "The system cannot find the path specified.\r\n" :
		  err == ERROR_ACCESS_DENIED ? "Access is denied.\r\n" :
		  err == ERROR_DIR_NOT_EMPTY ? "The directory is not empty.\r\n" :
		  err == ERROR_SHARING_VIOLATION ? "The process cannot access the file because it is being used by another process.\r\n" :
						   "The system cannot complete the operation.\r\n");
}

/* ---- echo, rem, ver, exit ---------------------------------------------------------- */

static BOOL echo_on = TRUE;

static struct cmd_result do_echo(const WCHAR *args, const struct cmd_io *io)
{
	const WCHAR *t = args;
	char *u;

	while (is_blank(*t))
		t++;
	if (!*args || (is_blank(*args) && !*t)) {
		cmd_print(io, 1, "ECHO is %s.\r\n", echo_on ? "on" : "off");
		return done_ok;
	}
	if (is_blank(*args) && (!wstr_icmp(t, u"on") || !wstr_icmp(t, u"off"))) {
		echo_on = (t[1] | 0x20) == 'n';
		return done_ok;
	}
	/* the separator after "echo" goes, the rest is printed as it is */
	u = cmd_u8(args + 1);
	cmd_print(io, 1, "%s\r\n", u);
	free(u);
	return done_ok;
}

static struct cmd_result do_rem(const WCHAR *args, const struct cmd_io *io)
{
	(void)args;
	(void)io;
	return done_ok;
}

static struct cmd_result do_ver(const WCHAR *args, const struct cmd_io *io)
{
	OSVERSIONINFOW v = { .dwOSVersionInfoSize = sizeof(v) };

	(void)args;
	GetVersionExW(&v);
	cmd_print(io, 1, "\r\nMicrosoft Windows [Version %u.%u.%u]\r\n", (unsigned)v.dwMajorVersion,
		  (unsigned)v.dwMinorVersion, (unsigned)v.dwBuildNumber);
	return done_ok;
}

static struct cmd_result do_exit(const WCHAR *args, const struct cmd_io *io)
{
	WCHAR **v;
	char sw[8];
	int n = plain_words(args, &v, sw, sizeof(sw));

	(void)io;
	if (n > 0) {
		long code = 0;
		int sign = 1;
		const WCHAR *p = v[0];

		if (*p == '-') {
			sign = -1;
			p++;
		}
		while (*p >= '0' && *p <= '9')
			code = code * 10 + (*p++ - '0');
		cmd_errorlevel = (DWORD)(sign * code);
	}
	cmd_words_free(v, n < 0 ? 0 : n);
	cmd_exiting = TRUE;
	return (struct cmd_result){ cmd_errorlevel == 0, cmd_errorlevel, TRUE };
}

/* ---- set -------------------------------------------------------------------------- */

static int cmp_env(const void *a, const void *b)
{
	return wstr_icmp(*(WCHAR *const *)a, *(WCHAR *const *)b);
}

/* The variables whose names start with prefix (all for ""), sorted as
 * cmd lists them; how many. */
static int list_vars(const WCHAR *prefix, const struct cmd_io *io)
{
	WCHAR *block = GetEnvironmentStringsW(), **v = NULL;
	size_t plen = wstr_len(prefix);
	int n = 0, cap = 0;

	if (!block)
		return 0;
	for (WCHAR *p = block; *p; p += wstr_len(p) + 1) {
		if (*p == '=' || wstr_nicmp(p, prefix, plen))
			continue;
		if (n == cap) {
			WCHAR **nv = realloc(v, (size_t)(cap = cap * 2 + 16) * sizeof(*v));

			if (!nv)
				break;
			v = nv;
		}
		v[n++] = p;
	}
	if (v)
		qsort(v, (size_t)n, sizeof(*v), cmp_env);
	for (int i = 0; i < n; i++) {
		char *u = cmd_u8(v[i]);

		cmd_print(io, 1, "%s\r\n", u);
		free(u);
	}
	free(v);
	FreeEnvironmentStringsW(block);
	return n;
}

static struct cmd_result do_set(const WCHAR *args, const struct cmd_io *io)
{
	const WCHAR *p = args;
	WCHAR *item, *eq;
	size_t len;

	while (is_blank(*p))
		p++;
	if (*p == '/' && ((p[1] | 0x20) == 'a' || (p[1] | 0x20) == 'p')) {
		cmd_print(io, 2, "ndrun's cmd: set /%c is not supported by ndrun's cmd\r\n", (char)(p[1] | 0x20));
		return failed;
	}
	if (!*p) {
		list_vars(u"", io);
		return done_ok;
	}
	/* set "NAME=value": up to the last quote */
	item = wstr_dup(*p == '"' ? p + 1 : p);
	if (!item)
		return failed;
	len = wstr_len(item);
	if (*p == '"') {
		while (len && item[len - 1] != '"')
			len--;
		if (len)
			item[--len] = 0;
	}
	eq = item;
	while (*eq && *eq != '=')
		eq++;
	if (!*eq) {
		/* "set PREFIX": the variables that start so */
		while (len && is_blank(item[len - 1]))
			item[--len] = 0;
		if (!list_vars(item, io)) {
			char *u = cmd_u8(item);

			cmd_print(io, 2, "Environment variable %s not defined\r\n", u);
			free(u);
			free(item);
			return failed;
		}
		free(item);
		return done_ok;
	}
	if (eq == item) {
		cmd_print(io, 2, "The syntax of the command is incorrect.\r\n");
		free(item);
		return failed;
	}
	*eq = 0;
	/* "set NAME=" removes it; the value keeps its trailing blanks */
	SetEnvironmentVariableW(item, eq[1] ? eq + 1 : NULL);
	free(item);
	return done_ok;
}

/* ---- files ------------------------------------------------------------------------ */

static BOOL has_wildcard(const WCHAR *s)
{
	for (; *s; s++)
		if (*s == '*' || *s == '?')
			return TRUE;
	return FALSE;
}

/* dir (with its separator) + name, malloc'ed. */
static WCHAR *join(const WCHAR *dir, size_t dlen, const WCHAR *name)
{
	size_t nlen = wstr_len(name);
	WCHAR *r = malloc((dlen + nlen + 2) * sizeof(WCHAR));

	if (!r)
		return NULL;
	memcpy(r, dir, dlen * sizeof(WCHAR));
	memcpy(r + dlen, name, (nlen + 1) * sizeof(WCHAR));
	return r;
}

/* How long the folder part of a path is (with its last separator). */
static size_t dir_part(const WCHAR *path)
{
	size_t n = wstr_len(path);

	while (n && path[n - 1] != '\\' && path[n - 1] != '/' && path[n - 1] != ':')
		n--;
	return n;
}

static const WCHAR *base_name(const WCHAR *path)
{
	return path + dir_part(path);
}

static struct cmd_result do_type(const WCHAR *args, const struct cmd_io *io)
{
	WCHAR **v;
	char sw[8];
	int n = plain_words(args, &v, sw, sizeof(sw));
	struct cmd_result r = done_ok;

	if (n <= 0) {
		cmd_print(io, 2, "The syntax of the command is incorrect.\r\n");
		cmd_words_free(v, n < 0 ? 0 : n);
		return failed;
	}
	for (int i = 0; i < n; i++) {
		HANDLE h = CreateFileW(v[i], GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING, 0,
				       NULL);
		char buf[8192];
		DWORD got, done;

		if (h == INVALID_HANDLE_VALUE) {
			char *u = cmd_u8(v[i]);

			print_error(io, GetLastError());
			if (n > 1)
				cmd_print(io, 2, "Error occurred while processing: %s.\r\n", u);
			free(u);
			r = failed;
			continue;
		}
		if (n > 1) {
			char *u = cmd_u8(v[i]);

			cmd_print(io, 2, "\r\n%s\r\n\r\n\r\n", u);
			free(u);
		}
		while (ReadFile(h, buf, sizeof(buf), &got, NULL) && got)
			if (!WriteFile(io->h[1], buf, got, &done, NULL))
				break;
		CloseHandle(h);
	}
	cmd_words_free(v, n);
	return r;
}

/* del: each name a file or a wildcard pattern in a folder.  A name that
 * matches nothing is reported and, as in cmd, leaves ERRORLEVEL alone. */
static struct cmd_result do_del(const WCHAR *args, const struct cmd_io *io)
{
	WCHAR **v;
	char sw[16];
	int n = plain_words(args, &v, sw, sizeof(sw));
	struct cmd_result r = done_ok;

	if (n <= 0) {
		cmd_print(io, 2, "The syntax of the command is incorrect.\r\n");
		cmd_words_free(v, n < 0 ? 0 : n);
		return failed;
	}
	if (strchr(sw, 's') || strchr(sw, 'p') || strchr(sw, 'a')) {
		cmd_print(io, 2, "ndrun's cmd: del /s, /p and /a are not supported by ndrun's cmd\r\n");
		cmd_words_free(v, n);
		return failed;
	}
	for (int i = 0; i < n; i++) {
		WIN32_FIND_DATAW fd;
		HANDLE find = FindFirstFileW(v[i], &fd);
		size_t dlen = dir_part(v[i]);
		int deleted = 0;

		if (find != INVALID_HANDLE_VALUE) {
			do {
				WCHAR *path;

				if (fd.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) {
					if (!has_wildcard(v[i])) {
						char *u = cmd_u8(v[i]);

						cmd_print(io, 2, "ndrun's cmd: del of a folder's files (%s) is not supported by ndrun's cmd\r\n", u);
						free(u);
						r = failed;
					}
					continue;
				}
				path = join(v[i], dlen, fd.cFileName);
				if (path && DeleteFileW(path))
					deleted++;
				else if (path) {
					char *u = cmd_u8(path);

					cmd_print(io, 2, "%s\r\n", u);
					print_error(io, GetLastError());
					free(u);
				}
				free(path);
			} while (FindNextFileW(find, &fd));
			FindClose(find);
		}
		if (find == INVALID_HANDLE_VALUE) {
			WCHAR full[MAX_PATH];
			char *u;

			if (!GetFullPathNameW(v[i], MAX_PATH, full, NULL))
				full[0] = 0;
			u = cmd_u8(full[0] ? full : v[i]);
			cmd_print(io, 2, "Could Not Find %s\r\n", u);
			free(u);
		}
		(void)deleted;
	}
	cmd_words_free(v, n);
	return r;
}

/* The destination of copy/move: into dst when it is a folder. */
static WCHAR *target_of(const WCHAR *src, const WCHAR *dst)
{
	DWORD a = GetFileAttributesW(dst);
	size_t dlen = wstr_len(dst);
	WCHAR *r;

	if (a == INVALID_FILE_ATTRIBUTES || !(a & FILE_ATTRIBUTE_DIRECTORY))
		return wstr_dup(dst);
	r = malloc((dlen + wstr_len(base_name(src)) + 2) * sizeof(WCHAR));
	if (!r)
		return NULL;
	memcpy(r, dst, dlen * sizeof(WCHAR));
	if (dlen && dst[dlen - 1] != '\\' && dst[dlen - 1] != '/')
		r[dlen++] = '\\';
	memcpy(r + dlen, base_name(src), (wstr_len(base_name(src)) + 1) * sizeof(WCHAR));
	return r;
}

static BOOL copy_file(const WCHAR *from, const WCHAR *to, DWORD *err)
{
	HANDLE in = CreateFileW(from, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING, 0, NULL);
	HANDLE out;
	char buf[65536];
	DWORD got, done;
	BOOL ok = TRUE;

	if (in == INVALID_HANDLE_VALUE) {
		*err = GetLastError();
		return FALSE;
	}
	out = CreateFileW(to, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
	if (out == INVALID_HANDLE_VALUE) {
		*err = GetLastError();
		CloseHandle(in);
		return FALSE;
	}
	while (ok && ReadFile(in, buf, sizeof(buf), &got, NULL) && got)
		ok = WriteFile(out, buf, got, &done, NULL) && done == got;
	if (!ok)
		*err = GetLastError();
	CloseHandle(in);
	CloseHandle(out);
	return ok;
}

static struct cmd_result copy_or_move(const WCHAR *args, const struct cmd_io *io, BOOL move)
{
	WCHAR **v, *to = NULL;
	char sw[16];
	int n = plain_words(args, &v, sw, sizeof(sw));
	DWORD err = 0;
	BOOL ok;

	if (n != 2 && !(n == 1 && !move)) {
		cmd_print(io, 2, n > 2 ? "ndrun's cmd: %s of several files is not supported by ndrun's cmd\r\n" :
				    "The syntax of the command is incorrect.\r\n%s",
			  n > 2 ? (move ? "move" : "copy") : "");
		cmd_words_free(v, n < 0 ? 0 : n);
		return failed;
	}
	if (has_wildcard(v[0])) {
		cmd_print(io, 2, "ndrun's cmd: wildcards in %s are not supported by ndrun's cmd\r\n", move ? "move" : "copy");
		cmd_words_free(v, n);
		return failed;
	}
	to = target_of(v[0], n == 2 ? v[1] : u".");
	ok = to && (move ? MoveFileExW(v[0], to, MOVEFILE_REPLACE_EXISTING | MOVEFILE_COPY_ALLOWED) ||
				   (err = GetLastError(), FALSE)
			 : copy_file(v[0], to, &err));
	if (!ok) {
		print_error(io, err ? err : ERROR_FILE_NOT_FOUND);
		if (!move)
			cmd_print(io, 1, "        0 file(s) copied.\r\n");
	} else {
		cmd_print(io, 1, "        1 file(s) %s.\r\n", move ? "moved" : "copied");
	}
	free(to);
	cmd_words_free(v, n);
	return ok ? done_ok : failed;
}

static struct cmd_result do_copy(const WCHAR *args, const struct cmd_io *io)
{
	return copy_or_move(args, io, FALSE);
}

static struct cmd_result do_move(const WCHAR *args, const struct cmd_io *io)
{
	return copy_or_move(args, io, TRUE);
}

/* mkdir makes the folders on the way, as cmd does with extensions on. */
static struct cmd_result do_mkdir(const WCHAR *args, const struct cmd_io *io)
{
	WCHAR **v;
	char sw[8];
	int n = plain_words(args, &v, sw, sizeof(sw));
	struct cmd_result r = done_ok;

	if (n <= 0) {
		cmd_print(io, 2, "The syntax of the command is incorrect.\r\n");
		cmd_words_free(v, n < 0 ? 0 : n);
		return failed;
	}
	for (int i = 0; i < n; i++) {
		WCHAR *p = v[i];

		if (GetFileAttributesW(p) != INVALID_FILE_ATTRIBUTES) {
			char *u = cmd_u8(p);

			cmd_print(io, 2, "A subdirectory or file %s already exists.\r\n", u);
			free(u);
			r = failed;
			continue;
		}
		for (WCHAR *c = p + 1; *c; c++) {
			if ((*c != '\\' && *c != '/') || c[-1] == ':')
				continue;
			WCHAR save = *c;

			*c = 0;
			CreateDirectoryW(p, NULL);
			*c = save;
		}
		if (!CreateDirectoryW(p, NULL)) {
			print_error(io, GetLastError());
			r = failed;
		}
	}
	cmd_words_free(v, n);
	return r;
}

static BOOL remove_tree(const WCHAR *dir)
{
	size_t dlen = wstr_len(dir);
	WCHAR *pattern = malloc((dlen + 3) * sizeof(WCHAR));
	WIN32_FIND_DATAW fd;
	HANDLE find;

	if (!pattern)
		return FALSE;
	memcpy(pattern, dir, dlen * sizeof(WCHAR));
	memcpy(pattern + dlen, u"\\*", 3 * sizeof(WCHAR));
	find = FindFirstFileW(pattern, &fd);
	free(pattern);
	if (find != INVALID_HANDLE_VALUE) {
		do {
			WCHAR *path;

			if (!wstr_cmp(fd.cFileName, u".") || !wstr_cmp(fd.cFileName, u".."))
				continue;
			path = malloc((dlen + wstr_len(fd.cFileName) + 2) * sizeof(WCHAR));
			if (!path)
				break;
			memcpy(path, dir, dlen * sizeof(WCHAR));
			path[dlen] = '\\';
			memcpy(path + dlen + 1, fd.cFileName, (wstr_len(fd.cFileName) + 1) * sizeof(WCHAR));
			if (fd.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY)
				remove_tree(path);
			else
				DeleteFileW(path);
			free(path);
		} while (FindNextFileW(find, &fd));
		FindClose(find);
	}
	return RemoveDirectoryW(dir);
}

static struct cmd_result do_rmdir(const WCHAR *args, const struct cmd_io *io)
{
	WCHAR **v;
	char sw[8];
	int n = plain_words(args, &v, sw, sizeof(sw));
	struct cmd_result r = done_ok;

	if (n <= 0) {
		cmd_print(io, 2, "The syntax of the command is incorrect.\r\n");
		cmd_words_free(v, n < 0 ? 0 : n);
		return failed;
	}
	for (int i = 0; i < n; i++) {
		BOOL ok = strchr(sw, 's') ? remove_tree(v[i]) : RemoveDirectoryW(v[i]);

		if (!ok) {
			print_error(io, GetLastError());
			r = failed;
		}
	}
	cmd_words_free(v, n);
	return r;
}

static struct cmd_result do_cd(const WCHAR *args, const struct cmd_io *io)
{
	const WCHAR *p = args;
	WCHAR *path;
	size_t len;

	while (is_blank(*p))
		p++;
	if ((p[0] == '/') && (p[1] | 0x20) == 'd' && (is_blank(p[2]) || !p[2]))
		for (p += 2; is_blank(*p); p++)
			;
	if (!*p) {
		WCHAR cwd[MAX_PATH];
		char *u;

		GetCurrentDirectoryW(MAX_PATH, cwd);
		u = cmd_u8(cwd);
		cmd_print(io, 1, "%s\r\n", u);
		free(u);
		return done_ok;
	}
	/* cd takes the rest of the line as one path, quoted or not */
	path = wstr_dup(*p == '"' ? p + 1 : p);
	if (!path)
		return failed;
	len = wstr_len(path);
	while (len && (is_blank(path[len - 1]) || path[len - 1] == '"'))
		path[--len] = 0;
	if (!SetCurrentDirectoryW(path)) {
		print_error(io, ERROR_PATH_NOT_FOUND);
		free(path);
		return failed;
	}
	free(path);
	return done_ok;
}

static int cmp_names(const void *a, const void *b)
{
	return wstr_icmp(*(WCHAR *const *)a, *(WCHAR *const *)b);
}

/* dir: names (/b) or a plain listing of a folder or a pattern. */
static struct cmd_result do_dir(const WCHAR *args, const struct cmd_io *io)
{
	WCHAR **v, *pattern, **names = NULL;
	char sw[16];
	int n = plain_words(args, &v, sw, sizeof(sw)), count = 0, cap = 0, files = 0, dirs = 0;
	WIN32_FIND_DATAW fd;
	ULONGLONG bytes = 0;
	HANDLE find;
	BOOL bare = strchr(sw, 'b') != NULL;

	if (n < 0)
		return failed;
	if (n > 1) {
		cmd_print(io, 2, "ndrun's cmd: dir of several names is not supported by ndrun's cmd\r\n");
		cmd_words_free(v, n);
		return failed;
	}
	if (n == 0) {
		pattern = wstr_dup(u"*");
	} else {
		DWORD a = GetFileAttributesW(v[0]);

		if (a != INVALID_FILE_ATTRIBUTES && (a & FILE_ATTRIBUTE_DIRECTORY))
			pattern = join(v[0], wstr_len(v[0]), u"\\*");
		else
			pattern = wstr_dup(v[0]);
	}
	cmd_words_free(v, n);
	if (!pattern)
		return failed;
	find = FindFirstFileW(pattern, &fd);
	if (find == INVALID_HANDLE_VALUE) {
		cmd_print(io, 2, "File Not Found\r\n");
		free(pattern);
		return failed;
	}
	if (!bare) {
		WCHAR full[MAX_PATH];
		char *u;
		size_t dl;

		GetFullPathNameW(pattern, MAX_PATH, full, NULL);
		dl = dir_part(full);
		if (dl > 3)
			dl--;
		full[dl] = 0;
		u = cmd_u8(full);
		cmd_print(io, 1, "\r\n Directory of %s\r\n\r\n", u);
		free(u);
	}
	do {
		if (bare && (!wstr_cmp(fd.cFileName, u".") || !wstr_cmp(fd.cFileName, u"..")))
			continue;
		if (!bare) {
			SYSTEMTIME st;
			FILETIME local;
			char *u = cmd_u8(fd.cFileName);
			ULONGLONG size = (ULONGLONG)fd.nFileSizeHigh << 32 | fd.nFileSizeLow;

			FileTimeToLocalFileTime(&fd.ftLastWriteTime, &local);
			FileTimeToSystemTime(&local, &st);
			if (fd.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) {
				cmd_print(io, 1, "%02u/%02u/%04u  %02u:%02u %s    <DIR>          %s\r\n", st.wMonth, st.wDay,
					  st.wYear, (st.wHour + 11) % 12 + 1, st.wMinute, st.wHour < 12 ? "AM" : "PM", u);
				dirs++;
			} else {
				cmd_print(io, 1, "%02u/%02u/%04u  %02u:%02u %s %17llu %s\r\n", st.wMonth, st.wDay, st.wYear,
					  (st.wHour + 11) % 12 + 1, st.wMinute, st.wHour < 12 ? "AM" : "PM",
					  (unsigned long long)size, u);
				files++;
				bytes += size;
			}
			free(u);
			continue;
		}
		if (count == cap) {
			WCHAR **nn = realloc(names, (size_t)(cap = cap * 2 + 16) * sizeof(*names));

			if (!nn)
				break;
			names = nn;
		}
		if (!(names[count] = wstr_dup(fd.cFileName)))
			break;
		count++;
	} while (FindNextFileW(find, &fd));
	FindClose(find);
	free(pattern);
	if (bare) {
		qsort(names, (size_t)count, sizeof(*names), cmp_names);
		for (int i = 0; i < count; i++) {
			char *u = cmd_u8(names[i]);

			cmd_print(io, 1, "%s\r\n", u);
			free(u);
			free(names[i]);
		}
		free(names);
		return done_ok;
	}
	cmd_print(io, 1, "%16d File(s) %14llu bytes\r\n%16d Dir(s)\r\n", files, (unsigned long long)bytes, dirs);
	return done_ok;
}

/* ---- the table -------------------------------------------------------------------- */

static const struct {
	const WCHAR *name;
	builtin_fn fn;
} builtins[] = {
	{ u"cd", do_cd },       { u"chdir", do_cd },   { u"copy", do_copy }, { u"del", do_del },
	{ u"dir", do_dir },     { u"echo", do_echo },  { u"erase", do_del }, { u"exit", do_exit },
	{ u"md", do_mkdir },    { u"mkdir", do_mkdir }, { u"move", do_move }, { u"rd", do_rmdir },
	{ u"rem", do_rem },     { u"rmdir", do_rmdir }, { u"set", do_set },   { u"type", do_type },
	{ u"ver", do_ver },
};

/* cmd's other internal commands: a program of the name would not run on
 * Windows either, so they are refused by name. */
static const WCHAR *const unsupported[] = {
	u"assoc", u"break", u"call", u"cls", u"color", u"date", u"endlocal", u"for", u"ftype", u"goto", u"if",
	u"mklink", u"path", u"pause", u"popd", u"prompt", u"pushd", u"setlocal", u"shift", u"start", u"time",
	u"title", u"verify", u"vol",
};

/* Where a command's name ends: cmd also ends it at these ("echo.",
 * "cd\", "echo:"). */
static BOOL name_end(WCHAR c)
{
	return !c || is_blank(c) || c == '.' || c == ',' || c == ';' || c == '=' || c == '/' || c == '\\' || c == ':' ||
	       c == '+' || c == '(' || c == '[' || c == ']' || c == '"';
}

BOOL cmd_builtin(const WCHAR *text, const struct cmd_io *io, struct cmd_result *r)
{
	size_t n = 0;

	while (!name_end(text[n]))
		n++;
	if (!n)
		return FALSE;
	for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++) {
		if (wstr_len(builtins[i].name) == n && !wstr_nicmp(text, builtins[i].name, n)) {
			/* echo keeps what follows exactly; the others read words */
			*r = builtins[i].fn(text + n, io);
			return TRUE;
		}
	}
	for (size_t i = 0; i < sizeof(unsupported) / sizeof(unsupported[0]); i++) {
		if (wstr_len(unsupported[i]) == n && !wstr_nicmp(text, unsupported[i], n)) {
			char *u = cmd_u8(unsupported[i]);

			cmd_print(io, 2, "ndrun's cmd: '%s' is not supported by ndrun's cmd\r\n", u);
			free(u);
			*r = failed;
			return TRUE;
		}
	}
	return FALSE;
}

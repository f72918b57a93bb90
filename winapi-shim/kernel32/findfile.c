/* fileapi's directory search: FindFirstFile(Ex), FindNextFile, FindClose.
 *
 * FindFirstFile reads the whole directory at once, keeps the entries
 * whose names match the pattern (the last path component) and hands them
 * out sorted by their upper-cased names, as NTFS returns them.  Matching
 * is case-insensitive unless FIND_FIRST_EX_CASE_SENSITIVE, with the
 * DOS wildcard rules Windows applies to FindFirstFile patterns (see
 * compile() below):
 *   "*" and "*.*" match every name; "*." the names without a dot;
 *   '?' is one character, or none before a dot or at the end ("a?.txt"
 *   matches "a.txt", "file??" matches "file1");
 *   "x.*" also matches "x"; "*.t*" matches "b.tar.gz".
 * There are no 8.3 short names: cAlternateFileName is always empty, and
 * "*.htm" does not match "x.html" as it would through a short name.
 * "." and ".." are listed as Windows lists them, except at the root. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/codepage.h"
#include "core/debug.h"
#include "core/handle.h"
#include "core/path.h"
#include "core/wstr.h"
#include "kernel32/kernel32_private.h"

/* Windows 8; not in the Wine headers. */
#ifndef FIND_FIRST_EX_ON_DISK_ENTRIES_ONLY
#define FIND_FIRST_EX_ON_DISK_ENTRIES_ONLY 4
#endif

struct find_entry {
	WCHAR name[MAX_PATH];
	struct stat st;
};

struct find {
	struct object obj;
	struct find_entry *entries;
	size_t count, next;
};

static struct find *to_find(struct object *obj) { return container_of(obj, struct find, obj); }

static void find_destroy(struct object *obj)
{
	free(to_find(obj)->entries);
	free(to_find(obj));
}

static const struct object_ops find_ops = {
	.type_name = "find",
	.destroy = find_destroy,
};

static WCHAR fold(WCHAR c, bool case_sensitive)
{
	return case_sensitive ? c : wch_toupper(c);
}

/* The pattern in the form Windows matches it (FsRtlIsNameInExpression's
 * DOS wildcards): '?' is DOS_QM; '*' right before a '.' is DOS_STAR; a
 * '.' before '?', '*' or the end is DOS_DOT.  Other characters stand for
 * themselves (case-folded unless case-sensitive). */
enum { PAT_END = -1, PAT_STAR = -2, PAT_QM = -3, PAT_DOS_STAR = -4, PAT_DOS_DOT = -5 };

static int *compile(const WCHAR *p, bool cs)
{
	size_t n = wstr_len(p);
	int *out = malloc((n + 1) * sizeof(int));

	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '?')
			out[i] = PAT_QM;
		else if (p[i] == '*')
			out[i] = p[i + 1] == '.' ? PAT_DOS_STAR : PAT_STAR;
		else if (p[i] == '.' && (!p[i + 1] || p[i + 1] == '?' || p[i + 1] == '*'))
			out[i] = PAT_DOS_DOT;
		else
			out[i] = fold(p[i], cs);
	}
	out[n] = PAT_END;
	return out;
}

/* n: the name (folded as the pattern was); last_dot: its final '.', or
 * NULL.
 *   STAR      any run of characters;
 *   DOS_STAR  any run that stays before the name's final '.' (any run
 *             at all when the name has no '.');
 *   QM        one character other than '.'; at a '.' or the end of the
 *             name it and the QMs right after it match nothing;
 *   DOS_DOT   a '.', or nothing at the end of the name. */
static bool match(const int *p, const WCHAR *n, const WCHAR *last_dot)
{
	for (;; p++) {
		switch (*p) {
		case PAT_END:
			return !*n;
		case PAT_STAR:
			for (;; n++) {
				if (match(p + 1, n, last_dot))
					return true;
				if (!*n)
					return false;
			}
		case PAT_DOS_STAR:
			for (;; n++) {
				if (match(p + 1, n, last_dot))
					return true;
				if (!*n || n == last_dot)
					return false;
			}
		case PAT_QM:
			if (!*n || *n == '.') {
				while (p[1] == PAT_QM)
					p++;
				break;
			}
			n++;
			break;
		case PAT_DOS_DOT:
			if (*n == '.')
				n++;
			else if (*n)
				return false;
			break;
		default:
			if (*n != (WCHAR)*p)
				return false;
			n++;
			break;
		}
	}
}

static bool name_matches(const int *pat, const WCHAR *name, bool cs)
{
	WCHAR folded[MAX_PATH];
	const WCHAR *last_dot = NULL;
	size_t i;

	for (i = 0; name[i] && i < MAX_PATH - 1; i++) {
		folded[i] = fold(name[i], cs);
		if (name[i] == '.')
			last_dot = folded + i;
	}
	folded[i] = 0;
	return match(pat, folded, last_dot);
}

static int entry_cmp(const void *a, const void *b)
{
	const WCHAR *x = ((const struct find_entry *)a)->name, *y = ((const struct find_entry *)b)->name;

	for (;; x++, y++) {
		WCHAR cx = wch_toupper(*x), cy = wch_toupper(*y);

		if (cx != cy || !cx)
			return cx < cy ? -1 : cx > cy;
	}
}

/* The directory of pattern (a Linux path, "." when none) and where its
 * last component starts. */
static char *split_pattern(const WCHAR *pattern, const WCHAR **last, DWORD *err)
{
	const WCHAR *slash = NULL;
	WCHAR *dir;
	char *u;
	size_t n;

	for (const WCHAR *p = pattern; *p; p++)
		if (*p == '\\' || *p == '/')
			slash = p;
	/* "C:name" is relative to the current directory of drive C:. */
	if (!slash && pattern[0] && pattern[1] == ':') {
		*last = pattern + 2;
		return strdup(".");
	}
	if (!slash) {
		*last = pattern;
		return strdup(".");
	}
	*last = slash + 1;
	n = slash - pattern + 1; /* keep the separator: "C:\" and "\" stay roots */
	dir = malloc((n + 1) * sizeof(WCHAR));
	if (!dir) {
		*err = ERROR_NOT_ENOUGH_MEMORY;
		return NULL;
	}
	memcpy(dir, pattern, n * sizeof(WCHAR));
	dir[n] = 0;
	u = path_to_unix(dir, err);
	free(dir);
	return u;
}

static bool add_entry(struct find *f, size_t *cap, const char *dir, const char *name, const WCHAR *wname)
{
	struct find_entry *e;
	size_t dlen = strlen(dir), nlen = strlen(name);
	char *full;

	if (f->count == *cap) {
		size_t ncap = *cap ? *cap * 2 : 16;
		struct find_entry *ne = realloc(f->entries, ncap * sizeof(*ne));

		if (!ne)
			return false;
		f->entries = ne;
		*cap = ncap;
	}
	e = &f->entries[f->count];
	full = malloc(dlen + nlen + 2);
	if (!full)
		return false;
	memcpy(full, dir, dlen);
	full[dlen] = '/';
	memcpy(full + dlen + 1, name, nlen + 1);
	/* A dangling symbolic link is listed as what it is. */
	if (stat(full, &e->st) && lstat(full, &e->st)) {
		free(full);
		return true;
	}
	free(full);
	memcpy(e->name, wname, (wstr_len(wname) + 1) * sizeof(WCHAR));
	f->count++;
	return true;
}

/* Reads dir and keeps the names matching pat.  ERROR_SUCCESS, or the
 * error FindFirstFile reports. */
static DWORD collect(struct find *f, const char *dir, const WCHAR *pattern, bool cs, bool dirs_only)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t cap = 0;
	bool root = !strcmp(dir, "/");
	int *pat;

	if (!d)
		return errno == ENOENT || errno == ENOTDIR ? ERROR_PATH_NOT_FOUND
							   : path_error(dir, errno);
	pat = compile(pattern, cs);
	if (!pat) {
		closedir(d);
		return ERROR_NOT_ENOUGH_MEMORY;
	}
	while ((de = readdir(d))) {
		WCHAR wname[MAX_PATH];
		ssize_t n;

		if (root && (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")))
			continue;
		n = utf8_to_utf16(de->d_name, strlen(de->d_name) + 1, wname, MAX_PATH, false);
		if (n <= 0)
			continue; /* longer than MAX_PATH: not listable here */
		if (!name_matches(pat, wname, cs))
			continue;
		if (dirs_only && de->d_type != DT_DIR && de->d_type != DT_UNKNOWN && de->d_type != DT_LNK)
			continue;
		if (!add_entry(f, &cap, dir, de->d_name, wname)) {
			closedir(d);
			free(pat);
			return ERROR_NOT_ENOUGH_MEMORY;
		}
	}
	closedir(d);
	free(pat);
	if (!f->count)
		return ERROR_FILE_NOT_FOUND;
	qsort(f->entries, f->count, sizeof(*f->entries), entry_cmp);
	return ERROR_SUCCESS;
}

static void fill_w(WIN32_FIND_DATAW *data, const struct find_entry *e)
{
	memset(data, 0, sizeof(*data));
	data->dwFileAttributes = file_attributes_from_stat(&e->st);
	filetime_from_timespec(&data->ftCreationTime, &e->st.st_ctim);
	filetime_from_timespec(&data->ftLastAccessTime, &e->st.st_atim);
	filetime_from_timespec(&data->ftLastWriteTime, &e->st.st_mtim);
	if (!S_ISDIR(e->st.st_mode)) {
		data->nFileSizeHigh = (DWORD)((ULONGLONG)e->st.st_size >> 32);
		data->nFileSizeLow = (DWORD)e->st.st_size;
	}
	memcpy(data->cFileName, e->name, (wstr_len(e->name) + 1) * sizeof(WCHAR));
}

HANDLE WINAPI FindFirstFileExW(LPCWSTR pattern, FINDEX_INFO_LEVELS level, LPVOID data,
			       FINDEX_SEARCH_OPS op, LPVOID filter, DWORD flags)
{
	const WCHAR *last;
	struct find *f;
	DWORD err = ERROR_SUCCESS;
	char *dir;
	HANDLE h;

	TRACE(file, "%s, level %d, op %d, flags %#x\n", debugstr_w(pattern), level, op, flags);
	/* filter is reserved ("should be NULL"): ignored. */
	if (!pattern || !data || (level != FindExInfoStandard && level != FindExInfoBasic) ||
	    (op != FindExSearchNameMatch && op != FindExSearchLimitToDirectories) ||
	    (flags & ~(FIND_FIRST_EX_CASE_SENSITIVE | FIND_FIRST_EX_LARGE_FETCH |
		       FIND_FIRST_EX_ON_DISK_ENTRIES_ONLY))) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return INVALID_HANDLE_VALUE;
	}
	if (!*pattern) {
		SetLastError(ERROR_PATH_NOT_FOUND);
		return INVALID_HANDLE_VALUE;
	}
	dir = split_pattern(pattern, &last, &err);
	if (!dir) {
		SetLastError(err ? err : ERROR_NOT_ENOUGH_MEMORY);
		return INVALID_HANDLE_VALUE;
	}
	/* "dir\" names nothing to find. */
	if (!*last) {
		free(dir);
		SetLastError(ERROR_FILE_NOT_FOUND);
		return INVALID_HANDLE_VALUE;
	}
	f = calloc(1, sizeof(*f));
	if (!f) {
		free(dir);
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return INVALID_HANDLE_VALUE;
	}
	object_init(&f->obj, &find_ops);
	/* The limit to directories is advisory (docs): applied where the
	 * directory entry says what it is. */
	err = collect(f, dir, last, flags & FIND_FIRST_EX_CASE_SENSITIVE,
		      op == FindExSearchLimitToDirectories);
	TRACE(file, "%s: %s -> %zu entries, error %u\n", dir, debugstr_w(last), f->count, err);
	free(dir);
	if (err) {
		object_unref(&f->obj);
		SetLastError(err);
		return INVALID_HANDLE_VALUE;
	}
	fill_w(data, &f->entries[0]);
	f->next = 1;
	h = handle_create(&f->obj, 0, 0);
	object_unref(&f->obj);
	if (!h)
		return INVALID_HANDLE_VALUE;
	SetLastError(ERROR_SUCCESS);
	return h;
}

HANDLE WINAPI FindFirstFileW(LPCWSTR pattern, LPWIN32_FIND_DATAW data)
{
	return FindFirstFileExW(pattern, FindExInfoStandard, data, FindExSearchNameMatch, NULL, 0);
}

BOOL WINAPI FindNextFileW(HANDLE h, LPWIN32_FIND_DATAW data)
{
	struct object *obj = handle_get(h, &find_ops);
	struct find *f;
	BOOL ret = FALSE;

	if (!obj)
		return FALSE;
	f = to_find(obj);
	/* One search is not meant to be shared by threads; the lock-free
	 * cursor only needs to stay in bounds. */
	if (f->next < f->count) {
		fill_w(data, &f->entries[f->next++]);
		ret = TRUE;
	} else {
		SetLastError(ERROR_NO_MORE_FILES);
	}
	object_unref(obj);
	return ret;
}

BOOL WINAPI FindClose(HANDLE h)
{
	struct object *obj = handle_get(h, &find_ops);

	TRACE(file, "%p\n", h);
	if (!obj)
		return FALSE;
	object_unref(obj);
	return handle_close(h);
}

/* The A forms: names through the ANSI code page. */
static bool data_to_a(const WIN32_FIND_DATAW *w, WIN32_FIND_DATAA *a)
{
	ssize_t n;

	memset(a, 0, sizeof(*a));
	a->dwFileAttributes = w->dwFileAttributes;
	a->ftCreationTime = w->ftCreationTime;
	a->ftLastAccessTime = w->ftLastAccessTime;
	a->ftLastWriteTime = w->ftLastWriteTime;
	a->nFileSizeHigh = w->nFileSizeHigh;
	a->nFileSizeLow = w->nFileSizeLow;
	n = utf16_to_cp(cp_file(), 0, w->cFileName, wstr_len(w->cFileName) + 1, a->cFileName,
			MAX_PATH, '?', NULL);
	return n > 0;
}

HANDLE WINAPI FindFirstFileA(LPCSTR pattern, LPWIN32_FIND_DATAA data)
{
	WIN32_FIND_DATAW wd;
	WCHAR *w;
	HANDLE h;

	if (!pattern) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return INVALID_HANDLE_VALUE;
	}
	if (!(w = cp_to_utf16_dup(cp_file(), pattern))) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return INVALID_HANDLE_VALUE;
	}
	h = FindFirstFileW(w, &wd);
	free(w);
	if (h != INVALID_HANDLE_VALUE)
		data_to_a(&wd, data);
	return h;
}

BOOL WINAPI FindNextFileA(HANDLE h, LPWIN32_FIND_DATAA data)
{
	WIN32_FIND_DATAW wd;

	if (!FindNextFileW(h, &wd))
		return FALSE;
	data_to_a(&wd, data);
	return TRUE;
}

HANDLE WINAPI FindFirstFileExA(LPCSTR pattern, FINDEX_INFO_LEVELS level, LPVOID data,
			       FINDEX_SEARCH_OPS op, LPVOID filter, DWORD flags)
{
	WIN32_FIND_DATAW wd;
	WCHAR *w;
	HANDLE h;

	if (!pattern || !data) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return INVALID_HANDLE_VALUE;
	}
	if (!(w = cp_to_utf16_dup(cp_file(), pattern))) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return INVALID_HANDLE_VALUE;
	}
	h = FindFirstFileExW(w, level, &wd, op, filter, flags);
	free(w);
	if (h != INVALID_HANDLE_VALUE)
		data_to_a(&wd, data);
	return h;
}

/* Directory search (fileapi.h): FindFirstFile(Ex)/FindNextFile/FindClose.
 *
 * The pattern's last component is matched, case-insensitively as Windows
 * file systems compare names, against the folder's entries: '*' matches
 * any run of characters, '?' one character, and "*.*" everything (names
 * without a dot too, as on Windows).  The matching entries are read when
 * the search starts, so a search handle is a snapshot: files created
 * afterwards are not returned, ones deleted meanwhile still are.  The
 * root folder has no "." and ".." entries, other folders do. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/codepage.h"
#include "core/debug.h"
#include "core/errors.h"
#include "core/handle.h"
#include "core/path.h"
#include "core/wstr.h"
#include "kernel32/kernel32_private.h"

#ifndef FIND_FIRST_EX_ON_DISK_ENTRIES_ONLY
#define FIND_FIRST_EX_ON_DISK_ENTRIES_ONLY 4 /* minwinbase.h; the Wine headers lack it */
#endif

struct find {
	struct object obj;
	WIN32_FIND_DATAW *entries;
	unsigned int count, next;
	bool basic; /* FindExInfoBasic: no short names */
};

static void find_destroy(struct object *obj)
{
	struct find *f = container_of(obj, struct find, obj);

	free(f->entries);
	free(f);
}

static const struct object_ops find_ops = {
	.type_name = "find",
	.destroy = find_destroy,
};

/* Windows' wildcard match of name against pattern (both UTF-16). */
static bool wild_match(const WCHAR *pat, const WCHAR *name, bool exact_case)
{
	const WCHAR *star = NULL, *resume = NULL;

	while (*name) {
		if (*pat == '*') {
			star = pat++;
			resume = name;
		} else if (*pat == '?' || (*pat && (exact_case ? *pat == *name : wch_toupper(*pat) == wch_toupper(*name)))) {
			pat++;
			name++;
		} else if (star) {
			pat = star + 1;
			name = ++resume;
		} else {
			return false;
		}
	}
	while (*pat == '*')
		pat++;
	/* "x.*" also matches "x": a trailing ".*" asks for any extension,
	 * none included. */
	if (pat[0] == '.' && pat[1] == '*') {
		pat += 2;
		while (*pat == '*')
			pat++;
	}
	return !*pat;
}

static bool add_entry(struct find *f, unsigned int *cap, const char *dir, const char *name, const WCHAR *wname)
{
	WIN32_FIND_DATAW *e;
	struct stat st;
	char *path;
	size_t len = wstr_len(wname);

	if (len >= MAX_PATH)
		return true; /* not representable in cFileName: Windows has none such */
	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return false;
	if (stat(path, &st) && lstat(path, &st)) {
		free(path);
		return true; /* gone since readdir */
	}
	free(path);
	if (f->count == *cap) {
		unsigned int n = *cap ? *cap * 2 : 16;
		WIN32_FIND_DATAW *grown = realloc(f->entries, n * sizeof(*grown));

		if (!grown)
			return false;
		f->entries = grown;
		*cap = n;
	}
	e = &f->entries[f->count++];
	memset(e, 0, sizeof(*e));
	e->dwFileAttributes = file_attributes_from_stat(&st);
	filetime_from_timespec(&e->ftCreationTime, &st.st_ctim);
	filetime_from_timespec(&e->ftLastAccessTime, &st.st_atim);
	filetime_from_timespec(&e->ftLastWriteTime, &st.st_mtim);
	if (!S_ISDIR(st.st_mode)) {
		e->nFileSizeHigh = (DWORD)((ULONGLONG)st.st_size >> 32);
		e->nFileSizeLow = (DWORD)st.st_size;
	}
	memcpy(e->cFileName, wname, (len + 1) * sizeof(WCHAR));
	return true;
}

/* Splits "folder\pattern" into the Linux folder and the pattern. */
static char *split_pattern(const WCHAR *name, const WCHAR **pattern, DWORD *err)
{
	const WCHAR *last = NULL;
	WCHAR *folder;
	char *unix_dir;
	size_t n;

	for (const WCHAR *p = name; *p; p++)
		if (*p == '\\' || *p == '/' || (p == name + 1 && *p == ':'))
			last = p;
	*pattern = last ? last + 1 : name;
	if (!last)
		return strdup(".");
	n = (size_t)(last - name) + 1;
	folder = malloc((n + 2) * sizeof(WCHAR));
	if (!folder) {
		*err = ERROR_NOT_ENOUGH_MEMORY;
		return NULL;
	}
	memcpy(folder, name, n * sizeof(WCHAR));
	/* Keep the separator ("C:\", "\") and name the folder itself. */
	folder[n] = '.';
	folder[n + 1] = 0;
	if (*last == ':') /* "C:pattern": the drive's current folder is ours */
		folder[n - 1] = 0;
	unix_dir = path_to_unix(folder, err);
	free(folder);
	return unix_dir;
}

HANDLE WINAPI FindFirstFileExW(LPCWSTR name, FINDEX_INFO_LEVELS level, LPVOID data, FINDEX_SEARCH_OPS op,
			       LPVOID filter, DWORD flags)
{
	const WCHAR *pattern;
	struct dirent *de;
	struct find *f;
	unsigned int cap = 0;
	struct stat st;
	char *dir;
	bool root;
	DWORD err = 0;
	HANDLE h;
	DIR *d;

	TRACE(file, "%s level %d op %d flags %#x\n", debugstr_w(name), (int)level, (int)op, (unsigned)flags);
	if (!name || !data || (level != FindExInfoStandard && level != FindExInfoBasic) ||
	    (op != FindExSearchNameMatch && op != FindExSearchLimitToDirectories) || filter ||
	    (flags & ~(FIND_FIRST_EX_CASE_SENSITIVE | FIND_FIRST_EX_LARGE_FETCH | FIND_FIRST_EX_ON_DISK_ENTRIES_ONLY))) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return INVALID_HANDLE_VALUE;
	}
	dir = split_pattern(name, &pattern, &err);
	if (!dir) {
		SetLastError(err ? err : ERROR_NOT_ENOUGH_MEMORY);
		return INVALID_HANDLE_VALUE;
	}
	if (!*pattern) {
		/* "folder\": Windows finds nothing to match. */
		free(dir);
		SetLastError(ERROR_FILE_NOT_FOUND);
		return INVALID_HANDLE_VALUE;
	}
	if (stat(dir, &st) || !S_ISDIR(st.st_mode) || !(d = opendir(dir))) {
		SetLastError(errno == EACCES ? ERROR_ACCESS_DENIED : ERROR_PATH_NOT_FOUND);
		free(dir);
		return INVALID_HANDLE_VALUE;
	}
	f = calloc(1, sizeof(*f));
	if (!f) {
		closedir(d);
		free(dir);
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return INVALID_HANDLE_VALUE;
	}
	object_init(&f->obj, &find_ops);
	f->basic = level == FindExInfoBasic;
	{
		char real[PATH_MAX];
		root = realpath(dir, real) && !strcmp(real, "/");
	}
	while ((de = readdir(d))) {
		WCHAR *wname;
		bool match;

		if (root && (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")))
			continue;
		wname = utf8_to_utf16_dup(de->d_name);
		if (!wname) {
			err = ERROR_NOT_ENOUGH_MEMORY;
			break;
		}
		match = wild_match(pattern, wname, flags & FIND_FIRST_EX_CASE_SENSITIVE);
		if (match && !add_entry(f, &cap, dir, de->d_name, wname))
			err = ERROR_NOT_ENOUGH_MEMORY;
		free(wname);
		if (err)
			break;
	}
	closedir(d);
	free(dir);
	if (!err && !f->count)
		err = ERROR_FILE_NOT_FOUND;
	if (err) {
		object_unref(&f->obj);
		SetLastError(err);
		return INVALID_HANDLE_VALUE;
	}
	h = handle_create(&f->obj, 0, 0);
	if (!h) {
		object_unref(&f->obj);
		return INVALID_HANDLE_VALUE;
	}
	memcpy(data, &f->entries[0], sizeof(WIN32_FIND_DATAW));
	f->next = 1;
	object_unref(&f->obj);
	return h;
}

HANDLE WINAPI FindFirstFileW(LPCWSTR name, LPWIN32_FIND_DATAW data)
{
	return FindFirstFileExW(name, FindExInfoStandard, data, FindExSearchNameMatch, NULL, 0);
}

BOOL WINAPI FindNextFileW(HANDLE h, LPWIN32_FIND_DATAW data)
{
	struct object *obj = handle_get(h, &find_ops);
	struct find *f;
	BOOL ret = TRUE;

	if (!obj)
		return FALSE;
	f = container_of(obj, struct find, obj);
	if (!data) {
		SetLastError(ERROR_INVALID_PARAMETER);
		ret = FALSE;
	} else if (f->next >= f->count) {
		SetLastError(ERROR_NO_MORE_FILES);
		ret = FALSE;
	} else {
		*data = f->entries[f->next++];
	}
	object_unref(obj);
	return ret;
}

BOOL WINAPI FindClose(HANDLE h)
{
	struct object *obj = handle_get(h, &find_ops);

	if (!obj)
		return FALSE;
	object_unref(obj);
	return CloseHandle(h);
}

/* The A forms: names through the ANSI code page. */
static void data_w_to_a(const WIN32_FIND_DATAW *w, WIN32_FIND_DATAA *a)
{
	a->dwFileAttributes = w->dwFileAttributes;
	a->ftCreationTime = w->ftCreationTime;
	a->ftLastAccessTime = w->ftLastAccessTime;
	a->ftLastWriteTime = w->ftLastWriteTime;
	a->nFileSizeHigh = w->nFileSizeHigh;
	a->nFileSizeLow = w->nFileSizeLow;
	a->dwReserved0 = w->dwReserved0;
	a->dwReserved1 = w->dwReserved1;
	if (!WideCharToMultiByte(CP_ACP, 0, w->cFileName, -1, a->cFileName, sizeof(a->cFileName), NULL, NULL))
		a->cFileName[0] = 0;
	if (!WideCharToMultiByte(CP_ACP, 0, w->cAlternateFileName, -1, a->cAlternateFileName,
				 sizeof(a->cAlternateFileName), NULL, NULL))
		a->cAlternateFileName[0] = 0;
}

HANDLE WINAPI FindFirstFileExA(LPCSTR name, FINDEX_INFO_LEVELS level, LPVOID data, FINDEX_SEARCH_OPS op,
			       LPVOID filter, DWORD flags)
{
	WIN32_FIND_DATAW w;
	WCHAR *wname;
	HANDLE h;

	if (!data) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return INVALID_HANDLE_VALUE;
	}
	if (!(wname = a_to_w(name)))
		return INVALID_HANDLE_VALUE;
	h = FindFirstFileExW(wname, level, &w, op, filter, flags);
	free(wname);
	if (h != INVALID_HANDLE_VALUE)
		data_w_to_a(&w, data);
	return h;
}

HANDLE WINAPI FindFirstFileA(LPCSTR name, LPWIN32_FIND_DATAA data)
{
	return FindFirstFileExA(name, FindExInfoStandard, data, FindExSearchNameMatch, NULL, 0);
}

BOOL WINAPI FindNextFileA(HANDLE h, LPWIN32_FIND_DATAA data)
{
	WIN32_FIND_DATAW w;

	if (!data) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!FindNextFileW(h, &w))
		return FALSE;
	data_w_to_a(&w, data);
	return TRUE;
}

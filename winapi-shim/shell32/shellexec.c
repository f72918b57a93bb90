/* ShellExecuteEx and ShellExecute for a process without a desktop: the
 * "open" verb (or none) on a program (.exe, .com) starts it with
 * CreateProcess, with the parameters after its quoted name, in the given
 * directory.  There are no file associations here, so a document, a URL
 * or any other verb fails as Windows fails for a file with no
 * application associated (ERROR_NO_ASSOCIATION, SE_ERR_NOASSOC); a file
 * that cannot be found is ERROR_FILE_NOT_FOUND (SE_ERR_FNF).  Item ID
 * lists and class keys, which need the shell namespace and the registry,
 * stop the program naming the case (core/unimpl.h). */
#include <string.h>

#include "core/debug.h"
#include "core/unimpl.h"
#include "core/wstr.h"
#include "shell32/shell32_private.h"

static BOOL is_program(const WCHAR *name)
{
	size_t len = wstr_len(name);

	return len > 4 && (!wstr_icmp(name + len - 4, u".exe") || !wstr_icmp(name + len - 4, u".com"));
}

static BOOL has_extension(const WCHAR *name)
{
	for (const WCHAR *p = name + wstr_len(name); p > name; p--) {
		if (p[-1] == '.')
			return TRUE;
		if (p[-1] == '\\' || p[-1] == '/' || p[-1] == ':')
			return FALSE;
	}
	return FALSE;
}

static BOOL has_path(const WCHAR *name)
{
	for (; *name; name++)
		if (*name == '\\' || *name == '/' || *name == ':')
			return TRUE;
	return FALSE;
}

static BOOL is_file(const WCHAR *path)
{
	DWORD attr = GetFileAttributesW(path);

	return attr != INVALID_FILE_ATTRIBUTES && !(attr & FILE_ATTRIBUTE_DIRECTORY);
}

/* dir\name (name alone when dir is NULL or name absolute), and the same
 * with ".exe" when name has no extension: the first that is a file. */
static BOOL try_in(const WCHAR *dir, const WCHAR *name, WCHAR *out, size_t size)
{
	size_t dlen = 0, nlen = wstr_len(name);

	if (dir && *dir && !(name[0] == '\\' || name[0] == '/' || (name[0] && name[1] == ':'))) {
		dlen = wstr_len(dir);
		if (dlen + 1 + nlen + 5 > size)
			return FALSE;
		memcpy(out, dir, dlen * sizeof(WCHAR));
		if (out[dlen - 1] != '\\' && out[dlen - 1] != '/')
			out[dlen++] = '\\';
	}
	if (dlen + nlen + 5 > size)
		return FALSE;
	memcpy(out + dlen, name, (nlen + 1) * sizeof(WCHAR));
	if (is_file(out))
		return TRUE;
	if (has_extension(name))
		return FALSE;
	memcpy(out + dlen + nlen, u".exe", 5 * sizeof(WCHAR));
	return is_file(out);
}

/* Where Windows looks for a program named without a path: the given
 * directory (or the current one), then each folder of PATH. */
static BOOL find_file(const WCHAR *name, const WCHAR *dir, WCHAR *out, size_t size)
{
	WCHAR path[4096];
	DWORD len;

	if (try_in(dir, name, out, size))
		return TRUE;
	if (has_path(name))
		return FALSE;
	len = GetEnvironmentVariableW(u"PATH", path, sizeof(path) / sizeof(path[0]));
	if (!len || len >= sizeof(path) / sizeof(path[0]))
		return FALSE;
	for (WCHAR *p = path, *next; p && *p; p = next) {
		next = p;
		while (*next && *next != ';')
			next++;
		if (*next)
			*next++ = 0;
		else
			next = NULL;
		if (*p && try_in(p, name, out, size))
			return TRUE;
	}
	return FALSE;
}

/* Whether name has a folder part that does not exist (ERROR_PATH_NOT_FOUND
 * rather than ERROR_FILE_NOT_FOUND, still SE_ERR_FNF). */
static BOOL folder_missing(const WCHAR *name, const WCHAR *dir)
{
	WCHAR path[MAX_PATH];
	size_t cut = 0;
	DWORD attr;

	path[0] = 0;
	try_in(dir, name, path, MAX_PATH); /* leaves the last name it tried */
	if (!path[0])
		return FALSE;
	for (size_t i = 0; path[i]; i++)
		if (path[i] == '\\' || path[i] == '/')
			cut = i;
	if (!cut)
		return FALSE;
	path[cut] = 0;
	if (cut == 2 && path[1] == ':')
		return FALSE;
	attr = GetFileAttributesW(path);
	return attr == INVALID_FILE_ATTRIBUTES || !(attr & FILE_ATTRIBUTE_DIRECTORY);
}

static BOOL fail(SHELLEXECUTEINFOW *info, DWORD error, UINT_PTR se_error)
{
	info->hInstApp = (HINSTANCE)se_error;
	SetLastError(error);
	return FALSE;
}

BOOL WINAPI ShellExecuteExW(SHELLEXECUTEINFOW *info)
{
	WCHAR file[MAX_PATH];
	STARTUPINFOW si;
	PROCESS_INFORMATION pi;
	WCHAR *line;
	size_t flen, plen;
	BOOL ok;

	if (!info) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if ((info->fMask & SEE_MASK_CLASSKEY) || (info->fMask & SEE_MASK_IDLIST))
		unimplemented_case("shell32.ShellExecuteExW", "mask %#lx: class keys and item ID lists",
				   (unsigned long)info->fMask);
	info->hProcess = NULL;
	if (!info->lpFile || !*info->lpFile)
		return fail(info, ERROR_FILE_NOT_FOUND, SE_ERR_FNF);
	if (info->lpVerb && *info->lpVerb && wstr_icmp(info->lpVerb, u"open"))
		return fail(info, ERROR_NO_ASSOCIATION, SE_ERR_NOASSOC);
	if (!find_file(info->lpFile, info->lpDirectory, file, MAX_PATH))
		return fail(info, folder_missing(info->lpFile, info->lpDirectory) ? ERROR_PATH_NOT_FOUND
									   : ERROR_FILE_NOT_FOUND, SE_ERR_FNF);
	if (!is_program(file))
		return fail(info, ERROR_NO_ASSOCIATION, SE_ERR_NOASSOC);

	/* "file" parameters */
	flen = wstr_len(file);
	plen = info->lpParameters ? wstr_len(info->lpParameters) : 0;
	line = HeapAlloc(GetProcessHeap(), 0, (flen + plen + 4) * sizeof(WCHAR));
	if (!line)
		return fail(info, ERROR_NOT_ENOUGH_MEMORY, SE_ERR_OOM);
	line[0] = '"';
	memcpy(line + 1, file, flen * sizeof(WCHAR));
	line[flen + 1] = '"';
	line[flen + 2] = 0;
	if (plen) {
		line[flen + 2] = ' ';
		memcpy(line + flen + 3, info->lpParameters, (plen + 1) * sizeof(WCHAR));
	}
	memset(&si, 0, sizeof(si));
	si.cb = sizeof(si);
	si.dwFlags = STARTF_USESHOWWINDOW;
	si.wShowWindow = (WORD)info->nShow;
	ok = CreateProcessW(file, line, NULL, NULL, FALSE,
			    (info->fMask & SEE_MASK_NO_CONSOLE) ? CREATE_NEW_CONSOLE : 0, NULL,
			    info->lpDirectory && *info->lpDirectory ? info->lpDirectory : NULL, &si, &pi);
	HeapFree(GetProcessHeap(), 0, line);
	if (!ok) {
		DWORD err = GetLastError();
		return fail(info, err, err == ERROR_FILE_NOT_FOUND ? SE_ERR_FNF :
				       err == ERROR_PATH_NOT_FOUND ? SE_ERR_PNF :
				       err == ERROR_ACCESS_DENIED ? SE_ERR_ACCESSDENIED : SE_ERR_NOASSOC);
	}
	CloseHandle(pi.hThread);
	if (info->fMask & SEE_MASK_NOCLOSEPROCESS)
		info->hProcess = pi.hProcess;
	else
		CloseHandle(pi.hProcess);
	info->hInstApp = (HINSTANCE)(UINT_PTR)42; /* above 32: success */
	return TRUE;
}

/* The HINSTANCE is above 32 on success, else an SE_ERR_* code. */
HINSTANCE WINAPI ShellExecuteW(HWND hwnd, LPCWSTR verb, LPCWSTR file, LPCWSTR params, LPCWSTR dir, INT show)
{
	SHELLEXECUTEINFOW info;

	memset(&info, 0, sizeof(info));
	info.cbSize = sizeof(info);
	info.hwnd = hwnd;
	info.lpVerb = verb;
	info.lpFile = file;
	info.lpParameters = params;
	info.lpDirectory = dir;
	info.nShow = show;
	ShellExecuteExW(&info);
	return info.hInstApp;
}

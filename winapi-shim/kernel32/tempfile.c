/* GetTempFileName (fileapi.h): "<dir>\<pre><hex>.tmp" names in an
 * existing folder.  With uUnique == 0 the function also claims the name:
 * it creates the file empty (CREATE_NEW, so two processes never get the
 * same one) and closes it; otherwise it only formats the name.
 *
 * <pre> is up to three characters of the prefix, <hex> the low 16 bits
 * of the number in upper-case hexadecimal without leading zeros (as
 * Windows writes it; Wine writes lower case, which a case-insensitive
 * Windows file system cannot tell apart but Linux can), ".tmp" the
 * extension.  The folder is kept as the caller wrote it, so "." gives
 * ".\\pre1.tmp"; names go through CreateFileW and so core/path.h. */
#include <stdlib.h>
#include <string.h>

#include "core/codepage.h"
#include "core/debug.h"
#include "core/wstr.h"
#include "kernel32/kernel32_private.h"

/* Longest folder name: the longest name, "\\", three prefix characters,
 * four digits, ".tmp" and the terminator fill MAX_PATH. */
#define TEMP_DIR_MAX (MAX_PATH - 14)

/* Writes dir, the separator and the prefix into name; returns where the
 * digits go. */
static WCHAR *temp_name_stem(const WCHAR *dir, size_t dir_len, const WCHAR *prefix, WCHAR *name)
{
	WCHAR *p = name;

	memcpy(p, dir, dir_len * sizeof(WCHAR));
	p += dir_len;
	if (!dir_len || p[-1] != '\\')
		*p++ = '\\';
	for (int i = 0; prefix && i < 3 && prefix[i]; i++)
		*p++ = prefix[i];
	return p;
}

static void temp_name_number(WCHAR *p, unsigned n)
{
	static const char digits[] = "0123456789ABCDEF";
	static const WCHAR ext[] = u".tmp";
	int shift = 12;

	while (shift && !(n >> shift))
		shift -= 4;
	for (; shift >= 0; shift -= 4)
		*p++ = digits[(n >> shift) & 0xf];
	memcpy(p, ext, sizeof(ext));
}

/* CREATE_NEW reports a name taken by a file as ERROR_FILE_EXISTS and one
 * taken by a folder as ERROR_ACCESS_DENIED: both mean "try the next". */
static bool temp_name_taken(const WCHAR *name, DWORD err)
{
	return err == ERROR_FILE_EXISTS || err == ERROR_ALREADY_EXISTS ||
	       (err == ERROR_ACCESS_DENIED && GetFileAttributesW(name) != INVALID_FILE_ATTRIBUTES);
}

UINT WINAPI GetTempFileNameW(LPCWSTR dir, LPCWSTR prefix, UINT unique, LPWSTR buf)
{
	WCHAR name[MAX_PATH + 8], *digits;
	DWORD attr, err;
	size_t dir_len;
	unsigned n;

	TRACE(file, "%s %s %#x\n", debugstr_w(dir), debugstr_w(prefix), unique);
	if (!buf) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return 0;
	}
	dir_len = dir ? wstr_len(dir) : 0;
	if (dir_len > TEMP_DIR_MAX) {
		SetLastError(ERROR_BUFFER_OVERFLOW);
		return 0;
	}
	/* Windows checks the folder even when it only formats a name. */
	attr = dir && dir_len ? GetFileAttributesW(dir) : INVALID_FILE_ATTRIBUTES;
	if (attr == INVALID_FILE_ATTRIBUTES || !(attr & FILE_ATTRIBUTE_DIRECTORY)) {
		SetLastError(ERROR_DIRECTORY);
		return 0;
	}
	digits = temp_name_stem(dir, dir_len, prefix, name);

	unique &= 0xffff;
	if (unique) {
		temp_name_number(digits, unique);
		memcpy(buf, name, (wstr_len(name) + 1) * sizeof(WCHAR));
		return unique;
	}

	/* Start from the clock, as Windows does, and walk on past taken
	 * names; 0 is not a number this function can return. */
	n = GetTickCount() & 0xffff;
	for (unsigned tries = 0; tries < 0xffff; tries++, n = (n & 0xffff) + 1) {
		HANDLE h;

		if (!(n &= 0xffff))
			n = 1;
		temp_name_number(digits, n);
		h = CreateFileW(name, GENERIC_WRITE, 0, NULL, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, NULL);
		if (h != INVALID_HANDLE_VALUE) {
			CloseHandle(h);
			memcpy(buf, name, (wstr_len(name) + 1) * sizeof(WCHAR));
			return n;
		}
		err = GetLastError();
		if (!temp_name_taken(name, err)) {
			/* A folder that vanished since the check is still not a folder. */
			SetLastError(err == ERROR_PATH_NOT_FOUND ? ERROR_DIRECTORY : err);
			return 0;
		}
	}
	SetLastError(ERROR_FILE_EXISTS);
	return 0;
}

UINT WINAPI GetTempFileNameA(LPCSTR dir, LPCSTR prefix, UINT unique, LPSTR buf)
{
	WCHAR *wdir = NULL, *wprefix = NULL, wbuf[MAX_PATH];
	char *a = NULL;
	UINT ret = 0;

	if (!buf) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return 0;
	}
	if (!dir) {
		SetLastError(ERROR_DIRECTORY);
		return 0;
	}
	if (!(wdir = a_to_w(dir)) || (prefix && !(wprefix = a_to_w(prefix))))
		goto out;
	if (!(ret = GetTempFileNameW(wdir, wprefix, unique, wbuf)))
		goto out;
	a = utf16_to_cp_dup(cp_file(), wbuf);
	if (!a || strlen(a) >= MAX_PATH) {
		/* The name does not fit the caller's MAX_PATH bytes: give back
		 * the file it would have named. */
		if (!(unique & 0xffff))
			DeleteFileW(wbuf);
		SetLastError(a ? ERROR_FILENAME_EXCED_RANGE : ERROR_NOT_ENOUGH_MEMORY);
		ret = 0;
		goto out;
	}
	memcpy(buf, a, strlen(a) + 1);
out:
	free(a);
	free(wprefix);
	free(wdir);
	return ret;
}

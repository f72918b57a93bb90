/* Links (winbase.h): CreateSymbolicLinkA/W as Linux symbolic links and
 * CreateHardLinkA/W as hard links.
 *
 * A symbolic link's target is stored as given, as Windows stores it: a
 * relative target ("..\\data\\x") stays relative to the link's folder,
 * with its separators turned; an absolute one is mapped by the one path
 * policy (core/path.h).  Windows asks for a privilege (or developer mode
 * and SYMBOLIC_LINK_FLAG_ALLOW_UNPRIVILEGED_CREATE); ndrun has no such
 * privileges, and Linux lets any user make a link, so the flag changes
 * nothing.  SYMBOLIC_LINK_FLAG_DIRECTORY only marks the link on Windows;
 * Linux links have no kind.  An existing link name is
 * ERROR_ALREADY_EXISTS. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/codepage.h"
#include "core/debug.h"
#include "core/errors.h"
#include "core/path.h"
#include "core/wstr.h"
#include "kernel32/kernel32_private.h"

#ifndef SYMBOLIC_LINK_FLAG_ALLOW_UNPRIVILEGED_CREATE
#define SYMBOLIC_LINK_FLAG_ALLOW_UNPRIVILEGED_CREATE 0x2
#endif

/* A relative target with '/' for '\\' (path_to_unix would anchor it to
 * the current folder's drive rules; a link's relative target is relative
 * to the link). */
static char *relative_target(const WCHAR *target)
{
	char *u = utf16_to_utf8_dup(target);

	for (char *c = u; c && *c; c++)
		if (*c == '\\')
			*c = '/';
	return u;
}

static bool is_absolute(const WCHAR *p)
{
	return p[0] == '\\' || p[0] == '/' || (p[0] && p[1] == ':');
}

BOOLEAN WINAPI CreateSymbolicLinkW(LPCWSTR link, LPCWSTR target, DWORD flags)
{
	char *ulink, *utarget;
	DWORD err = 0;

	TRACE(file, "%s -> %s, flags 0x%lx\n", link ? "(link)" : "NULL", target ? "(target)" : "NULL",
	      (unsigned long)flags);
	if (!link || !target || !*link || !*target ||
	    (flags & ~(SYMBOLIC_LINK_FLAG_DIRECTORY | SYMBOLIC_LINK_FLAG_ALLOW_UNPRIVILEGED_CREATE))) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!(ulink = path_to_unix(link, &err))) {
		SetLastError(err);
		return FALSE;
	}
	utarget = is_absolute(target) ? path_to_unix(target, &err) : relative_target(target);
	if (!utarget) {
		free(ulink);
		SetLastError(err ? err : ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	if (symlink(utarget, ulink))
		err = errno == EEXIST ? ERROR_ALREADY_EXISTS : win32_error_from_errno(errno);
	free(ulink);
	free(utarget);
	if (err) {
		SetLastError(err);
		return FALSE;
	}
	return TRUE;
}

BOOLEAN WINAPI CreateSymbolicLinkA(LPCSTR link, LPCSTR target, DWORD flags)
{
	WCHAR *wl = link ? cp_to_utf16_dup(cp_file(), link) : NULL;
	WCHAR *wt = target ? cp_to_utf16_dup(cp_file(), target) : NULL;
	BOOLEAN ret;

	if ((link && !wl) || (target && !wt)) {
		free(wl);
		free(wt);
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	ret = CreateSymbolicLinkW(wl, wt, flags);
	free(wl);
	free(wt);
	return ret;
}

BOOL WINAPI CreateHardLinkW(LPCWSTR name, LPCWSTR existing, LPSECURITY_ATTRIBUTES sa)
{
	char *ulink = NULL, *uold = NULL;
	DWORD err = 0;

	(void)sa; /* Linux links carry no security descriptor of their own */
	if (!name || !existing) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!(ulink = path_to_unix(name, &err)) || !(uold = path_to_unix(existing, &err))) {
		free(ulink);
		SetLastError(err);
		return FALSE;
	}
	if (link(uold, ulink))
		err = errno == EEXIST ? ERROR_ALREADY_EXISTS : errno == EPERM ? ERROR_ACCESS_DENIED
											 : win32_error_from_errno(errno);
	free(ulink);
	free(uold);
	if (err) {
		SetLastError(err);
		return FALSE;
	}
	return TRUE;
}

BOOL WINAPI CreateHardLinkA(LPCSTR link, LPCSTR existing, LPSECURITY_ATTRIBUTES sa)
{
	WCHAR *wl = link ? cp_to_utf16_dup(cp_file(), link) : NULL;
	WCHAR *we = existing ? cp_to_utf16_dup(cp_file(), existing) : NULL;
	BOOL ret;

	if ((link && !wl) || (existing && !we)) {
		free(wl);
		free(we);
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	ret = CreateHardLinkW(wl, we, sa);
	free(wl);
	free(we);
	return ret;
}

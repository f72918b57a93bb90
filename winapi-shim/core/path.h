/* File names: the one policy for mapping Windows paths to Linux paths,
 * used by every builtin that takes or returns a file name.
 *
 *   Windows -> Linux (path_to_unix):
 *     '\\' and '/' are both separators; the result uses '/'.
 *     "C:\\x" and "Z:\\x" (any case) -> "/x": the Linux root is drive C:
 *     (and Z:, which Wine users expect); other drive letters do not exist.
 *     "C:x" (drive-relative) -> "x" (relative to the current directory).
 *     "\\x" (root-relative) -> "/x"; a Linux path "/x" stays as it is.
 *     "\\\\?\\" and "\\??\\" prefixes are dropped, and the name after them
 *     is taken as it is; other names lose what Windows strips: a
 *     component's one trailing '.' ("dir.\\x" is "dir\\x"), and the
 *     trailing dots and spaces of the whole name ("a.txt. " is "a.txt").
 *     NUL, CON, CONIN$, CONOUT$ (any case, also after "\\\\.\\") are the
 *     devices /dev/null and /dev/tty.
 *     UNC paths ("\\\\server\\share") are not supported.
 *     Names are not case-folded: the Linux file system decides.
 *   Linux -> Windows (path_from_unix): "/x/y" -> "C:\\x\\y"; a relative
 *     path only has its separators turned.  So GetCurrentDirectoryW,
 *     GetFullPathNameW and GetTempPathW return "C:\\..." paths, which map
 *     back to the same Linux file.
 *
 * Strings are 16-bit for Windows, UTF-8 for Linux, all malloc'd. */
#ifndef NDSHIM_PATH_H
#define NDSHIM_PATH_H

#include <windef.h>
#include <winbase.h>

/* NULL with *err = a Win32 error (ERROR_PATH_NOT_FOUND, ERROR_BAD_NETPATH,
 * ERROR_NOT_ENOUGH_MEMORY) when the name cannot be mapped. */
char *path_to_unix(const WCHAR *win, DWORD *err);

/* NULL only when out of memory. */
WCHAR *path_from_unix(const char *unix_path);

/* The current directory as a Windows path (no trailing separator except
 * for the root, "C:\\"); NULL with *err set on failure. */
WCHAR *path_cwd(DWORD *err);

/* GetFullPathNameW's rule: name made absolute against the current
 * directory, separators turned to '\\', "." and ".." resolved, purely as
 * text (the file system is not consulted).  NULL with *err set. */
WCHAR *path_full(const WCHAR *name, DWORD *err);

#endif

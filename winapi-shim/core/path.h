/* File names: the one policy for mapping Windows paths to Linux paths,
 * used by every builtin that takes or returns a file name (kernel32,
 * ntdll, the loader, and the C runtime through crt_unix_path).
 * docs/paths.md describes it for users; in short:
 *
 *   Windows -> Linux (path_to_unix):
 *     '\\' and '/' both separate.  A name is first made full as
 *     GetFullPathNameW does (path_full): relative names against the
 *     current directory, "X:name" against drive X's current directory,
 *     "\\x" (and "/x") against the current drive's root, "." and ".."
 *     as text, then what Windows strips goes: a component's one trailing
 *     '.' and the trailing dots and spaces of the last one.
 *     "X:\\rest" is then the Linux folder of drive X (core/drives.h) plus
 *     rest; a missing drive is ERROR_PATH_NOT_FOUND.
 *     Each component is looked up case-insensitively: when the name as
 *     given does not exist, an existing file or folder whose name differs
 *     only in case is used instead (the last component of a new file
 *     keeps the case given).
 *     DOS devices (path_dos_device: NUL, CON, CONIN$, CONOUT$, AUX, PRN,
 *     COM1-9, LPT1-9 as the last component, with any extension, in any
 *     folder; also right after "\\\\.\\") are devices: NUL is
 *     /dev/null, the console names /dev/tty, the others what dosdevices
 *     maps them to (ERROR_FILE_NOT_FOUND when nothing).
 *     "\\\\?\\" and "\\??\\" take the rest as it is (no trimming, no "."
 *     or ".." resolution): "\\\\?\\X:\\...", "\\\\?\\UNC\\server\\share"
 *     and ndrun's own "\\\\?\\unix\\..." for a Linux path outside every
 *     drive.  UNC names "\\\\server\\share\\..." are what dosdevices'
 *     unc/server/share maps them to, else ERROR_BAD_NETPATH.
 *   Linux -> Windows (path_from_unix): the drive whose folder holds the
 *     path ("/home/u/x" -> "Z:\\home\\u\\x", the system drive's folder ->
 *     "C:\\..."), "\\\\?\\unix\\..." when none does; a relative path only
 *     has its separators turned.
 *
 * Strings are 16-bit for Windows, UTF-8 for Linux, all malloc'd. */
#ifndef NDSHIM_PATH_H
#define NDSHIM_PATH_H

#include <stdbool.h>
#include <stddef.h>

#include <windef.h>
#include <winbase.h>

/* NULL with *err = a Win32 error (ERROR_PATH_NOT_FOUND,
 * ERROR_FILE_NOT_FOUND for a device that does not exist,
 * ERROR_BAD_NETPATH, ERROR_INVALID_NAME, ERROR_NOT_ENOUGH_MEMORY) when
 * the name cannot be mapped. */
char *path_to_unix(const WCHAR *win, DWORD *err);

/* NULL only when out of memory. */
WCHAR *path_from_unix(const char *unix_path);

/* The current directory as a Windows path (no trailing separator except
 * for the root, "C:\\"); NULL with *err set on failure. */
WCHAR *path_cwd(DWORD *err);

/* GetFullPathNameW's rule: name made absolute against the current
 * directory (or, for "X:name", drive X's: the "=X:" environment variable
 * when set, else its root), separators turned to '\\', "." and ".."
 * resolved, trailing dots and spaces trimmed, purely as text (the file
 * system is not consulted); a DOS device name is "\\\\.\\NAME".  NULL
 * with *err set. */
WCHAR *path_full(const WCHAR *name, DWORD *err);

/* Whether the last component of name is a DOS device name (Windows'
 * reserved names: AUX, CON, NUL, PRN, COM1-9, LPT1-9, and since Windows 8
 * CONIN$ and CONOUT$, in any case, with
 * anything after a '.' or ':' and trailing spaces ignored).  Sets *off
 * and *len to the device's name within name.  UNC names ("\\\\x") are
 * never devices here. */
bool path_dos_device(const WCHAR *name, size_t *off, size_t *len);

/* The case-insensitive lookup: u is a malloc'd absolute Linux path whose
 * first keep bytes are used as they are; returns u, or a new string
 * (u freed) where missing components were replaced by an existing
 * entry whose name differs only in case; NULL when out of memory. */
char *path_fold_case(char *u, size_t keep);

/* A rename that changes only the case of a name ("a.txt" -> "A.txt"):
 * the case lookup maps the target dst onto the source src itself, so
 * the new name is src's folder + to's last component as written
 * (malloc'd).  NULL when dst is not src, when the name as written is
 * src's own, or out of memory: the caller then renames to dst. */
char *path_case_rename(const char *src, const char *dst, const WCHAR *to);

/* Provided by kernel32's environment: the value of a variable (malloc'd),
 * NULL when not set. */
WCHAR *path_env_get(const WCHAR *name);

/* PathCanonicalize's and PathCchCanonicalize's rule for the components
 * after in's first root characters (kept as they are): "." goes, ".."
 * drops the component before it but never the root; the separator a
 * dropped last component leaves goes (one the input ended with stays);
 * an empty result is "\\".  Into buf, NUL-terminated (never longer
 * than in, but "\\" for an empty in: room for len + 1 characters, and
 * 2 at least); its length.  (GetFullPathName's rule is another:
 * separators collapse, '/' counts, trailing dots and spaces go.) */
size_t path_fold_dots(const WCHAR *in, size_t len, size_t root, WCHAR *buf);

#endif

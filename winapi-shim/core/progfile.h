/* The file a program name stands for, by CreateProcess's rules: one
 * search shared by CreateProcess and ndrun's own command line
 * (`ndrun hello`, `ndrun HELLO.EXE`, `ndrun 'C:\tools\hello.exe'`).
 *
 *   - the name is a Windows or a Linux path (core/path.h maps it);
 *   - ".exe" is appended when its last component has no extension (the
 *     name as it is is tried after that, for Linux programs, which have
 *     none);
 *   - a component that does not exist with that exact case is matched
 *     case-insensitively against its folder's entries, as Windows file
 *     systems match names (core/path.h's lookup).
 */
#ifndef NDSHIM_PROGFILE_H
#define NDSHIM_PROGFILE_H

#include <stdbool.h>
#include <stddef.h>

#include <windef.h>

/* Does the last component of name[0..len) have an extension? */
bool progfile_has_ext(const WCHAR *name, size_t len);

/* dir\name (dir NULL: name alone) as a regular file: with ".exe"
 * appended first when add_exe, then as it is.  The Linux path
 * (malloc'ed), or NULL. */
char *progfile_find(const WCHAR *dir, const WCHAR *name, size_t len, bool add_exe);

/* dir\name plus ext (both may be NULL) if it names a regular file,
 * matching each component's case as above; malloc'ed Linux path or NULL. */
char *progfile_try(const WCHAR *dir, const WCHAR *name, size_t len, const WCHAR *ext);

/* The existing file a Linux path names when its components are matched
 * case-insensitively (exact matches first); malloc'ed, or NULL when no
 * such file exists. */
char *path_match_case(const char *unix_path);

#endif

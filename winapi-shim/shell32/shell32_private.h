/* shell32.dll for console programs: the command-line splitter, the
 * known folders (from the Windows environment ndrun builds), and
 * ShellExecute as far as a process without a desktop can take it (run a
 * program); see docs/SYSTEM-DLLS.md. */
#ifndef NDSHIM_SHELL32_PRIVATE_H
#define NDSHIM_SHELL32_PRIVATE_H

#include <windef.h>
#include <winbase.h>
#include <shlobj.h>
#include <shellapi.h>

#endif

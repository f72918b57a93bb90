/* shlwapi.dll: the path and string helpers programs use (PathCombine,
 * PathFindExtension, StrStrI, ...), purely on text but for
 * PathFileExists and PathIsDirectory; see docs/SYSTEM-DLLS.md. */
#ifndef NDSHIM_SHLWAPI_PRIVATE_H
#define NDSHIM_SHLWAPI_PRIVATE_H

#include <windef.h>
#include <winbase.h>
#include <winnls.h>
#include <shlwapi.h>

#endif

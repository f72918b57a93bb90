/* kernelbase.dll: on Windows it holds most of kernel32's functions;
 * ndrun's kernel32 carries those (apisets.list points the core API sets
 * at it), and this builtin holds what only kernelbase exports: the
 * PathCch* functions of api-ms-win-core-path-l1-1-0 (pathcch.h).  See
 * docs/SYSTEM-DLLS.md. */
#ifndef NDSHIM_KERNELBASE_PRIVATE_H
#define NDSHIM_KERNELBASE_PRIVATE_H

#include <windef.h>
#include <winbase.h>
#include <pathcch.h>

#endif

/* version.dll: a PE file's version resource (VS_VERSIONINFO) and the
 * queries into it; see docs/SYSTEM-DLLS.md. */
#ifndef NDSHIM_VERSION_PRIVATE_H
#define NDSHIM_VERSION_PRIVATE_H

#include <stdint.h>

#include <windef.h>
#include <winbase.h>
#include <winnls.h>
#include <winver.h>

/* The version resource of the PE image in file (size bytes): its
 * offset and length in *off and *len; 0 or a Win32 error
 * (ERROR_BAD_FORMAT: not a PE image; ERROR_RESOURCE_TYPE_NOT_FOUND: no
 * version resource) (resource.c). */
DWORD version_find_resource(const uint8_t *file, size_t size, size_t *off, size_t *len);

/* A builtin DLL's version resource, malloc'd (builtin.c); NULL when out
 * of memory.  version_builtin_name: which builtin a file name means
 * ("kernel32.dll", "C:\\windows\\system32\\kernel32.dll"), or NULL. */
BYTE *version_builtin_resource(const char *dll, size_t *len);
const char *version_builtin_name(const WCHAR *name);

#endif

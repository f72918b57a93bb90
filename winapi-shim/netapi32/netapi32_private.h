/* netapi32.dll for a machine in no domain: the API's buffers and the
 * join state (a workgroup); see docs/SYSTEM-DLLS.md. */
#ifndef NDSHIM_NETAPI32_PRIVATE_H
#define NDSHIM_NETAPI32_PRIVATE_H

#include <windef.h>
#include <winbase.h>
#include <lmcons.h>
#include <lmerr.h>
#include <lmapibuf.h>
#include <lmjoin.h>

#endif

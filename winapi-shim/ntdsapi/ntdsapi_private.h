/* ntdsapi.dll: directory-service helpers.  Only DsMakeSpn, which is pure
 * string composition (no directory is contacted). */
#ifndef NDSHIM_NTDSAPI_PRIVATE_H
#define NDSHIM_NTDSAPI_PRIVATE_H

#include <windef.h>
#include <winbase.h>
#include <ntdsapi.h>

#endif

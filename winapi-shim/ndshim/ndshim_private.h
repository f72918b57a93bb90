/* Prototypes of ndshim.dll's exports (the public header) for the export
 * table. */
#ifndef NDSHIM_NDSHIM_PRIVATE_H
#define NDSHIM_NDSHIM_PRIVATE_H

#include <windef.h>
#include <winbase.h>

#include "ndshim.h"

#endif

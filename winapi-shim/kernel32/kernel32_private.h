/* Prototypes of kernel32 exports that the Wine headers do not declare,
 * and helpers shared by kernel32's files. */
#ifndef NDSHIM_KERNEL32_PRIVATE_H
#define NDSHIM_KERNEL32_PRIVATE_H

#include <windef.h>
#include <winbase.h>
#include <winternl.h>

#include "ntdll/ntdll_private.h"

#endif

/* Prototypes of ntdll exports that the Wine headers do not declare,
 * and helpers shared by ntdll's files. */
#ifndef NDSHIM_NTDLL_PRIVATE_H
#define NDSHIM_NTDLL_PRIVATE_H

#include <windef.h>
#include <winbase.h>
#include <winternl.h>

#endif

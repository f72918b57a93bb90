/* Prototypes of kernel32 exports that the Wine headers do not declare,
 * and helpers shared by kernel32's files. */
#ifndef NDSHIM_KERNEL32_PRIVATE_H
#define NDSHIM_KERNEL32_PRIVATE_H

#include <stdbool.h>
#include <windef.h>
#include <winbase.h>
#include <winternl.h>

#include <winnls.h>
#include <wincon.h>

/* interlockedapi.c */
PSLIST_ENTRY WINAPI InterlockedPushListSListEx(PSLIST_HEADER head, PSLIST_ENTRY first,
					       PSLIST_ENTRY last, ULONG count);

/* memoryapi.c */
SIZE_T WINAPI GetLargePageMinimum(void);

#include "ntdll/ntdll_private.h"

#endif

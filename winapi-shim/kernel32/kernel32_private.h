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

/* strresult.c: the string-into-caller's-buffer size protocol; the A form
 * converts to the ANSI code page (0 and ERROR_NOT_ENOUGH_MEMORY when it
 * cannot allocate). */
DWORD string_result_w(const WCHAR *s, WCHAR *buf, DWORD size);
DWORD string_result_a(const WCHAR *s, char *buf, DWORD size);

/* stdrelay.c: for a named pipe end with write access, the write end of
 * a Linux pipe whose data a relay thread copies into it (the caller
 * closes the fd once the child has it); -1 for anything else. */
int stdrelay_start(HANDLE h);

/* procthreadattr.c: what CreateProcess honours of an attribute list
 * (handle list, job list; either may be absent).  FALSE with
 * ERROR_NOT_SUPPORTED when the list holds anything else. */
BOOL proc_attr_list_get(LPPROC_THREAD_ATTRIBUTE_LIST list, const HANDLE **handles, size_t *n_handles,
			const HANDLE **jobs, size_t *n_jobs);

/* memoryapi.c */
SIZE_T WINAPI GetLargePageMinimum(void);

#include "ntdll/ntdll_private.h"

#endif

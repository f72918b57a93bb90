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

/* memoryapi.c */
SIZE_T WINAPI GetLargePageMinimum(void);

/* fileapi.c: FILE_ATTRIBUTE_* of a stat result; a Linux time as a
 * FILETIME; the Win32 error for a failed open/stat of unix_path (ENOENT
 * splits into file and path not found). */
struct stat;
struct timespec;
DWORD file_attributes_from_stat(const struct stat *st);
void filetime_from_timespec(FILETIME *ft, const struct timespec *ts);
DWORD path_error(const char *unix_path, int err);

/* processthreadsapi.c */
BOOL WINAPI SetThreadStackGuarantee(PULONG size);

/* consolebuffer.c: the ANSI SGR sequence for a console text attribute
 * into buf; its length. */
size_t console_sgr(WORD attr, char *buf, size_t size);

/* psapi.c: the K32* names are the implementations (psapi.dll exports
 * them under its own names). */
#include <psapi.h>

/* cputimes.c */
BOOL WINAPI GetSystemTimes(LPFILETIME idle, LPFILETIME kernel, LPFILETIME user);

#include "ntdll/ntdll_private.h"

#endif

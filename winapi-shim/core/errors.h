/* Status translation: the one place where Linux errno values and
 * NTSTATUS values become Win32 error codes.  Every builtin that
 * fails because a Linux call failed goes through here, so one errno has
 * one Win32 meaning everywhere. */
#ifndef NDSHIM_ERRORS_H
#define NDSHIM_ERRORS_H

#include <windef.h>
#include <winbase.h>
#include <winternl.h>

/* The Win32 error for a Linux errno; an errno without a mapping is
 * becomes ERROR_GEN_FAILURE (the first one is traced on +misc). */
DWORD win32_error_from_errno(int err);

/* The Winsock error (WSAE*) for a Linux errno from a socket call; an
 * errno without a mapping is traced once and becomes WSASYSCALLFAILURE. */
DWORD wsa_error_from_errno(int err);

/* Winsock error <-> the NTSTATUS an overlapped socket request stores in
 * OVERLAPPED.Internal (WSA_OPERATION_ABORTED <-> STATUS_CANCELLED, ...);
 * unmapped values become STATUS_UNSUCCESSFUL / WSASYSCALLFAILURE. */
NTSTATUS ntstatus_from_wsa(DWORD err);
DWORD wsa_from_ntstatus(NTSTATUS status);

/* SetLastError(win32_error_from_errno(err)). */
void set_last_error_from_errno(int err);

/* The Win32 error for an NTSTATUS, as ntdll's RtlNtStatusToDosError
 * (exported from ntdll): a FACILITY_WIN32 status (0xC007xxxx) carries
 * its code, an unknown one gives ERROR_MR_MID_NOT_FOUND like Windows
 * (the first one is traced on +misc). */
ULONG WINAPI RtlNtStatusToDosError(NTSTATUS status);

/* An NTSTATUS carrying the Win32 error for a Linux errno (Windows'
 * NTSTATUS_FROM_WIN32: 0xC007xxxx), for overlapped requests that fail in
 * a Linux call; RtlNtStatusToDosError gives the same Win32 error back. */
NTSTATUS status_from_errno(int err);

/* SetLastError(RtlNtStatusToDosError(status)). */
void set_last_error_from_status(NTSTATUS status);

#endif

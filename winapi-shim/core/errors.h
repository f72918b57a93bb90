/* Status translation: the one place where Linux errno values become
 * Win32 error codes (and, later, NTSTATUS values).  Every builtin that
 * fails because a Linux call failed goes through here, so one errno has
 * one Win32 meaning everywhere. */
#ifndef NDSHIM_ERRORS_H
#define NDSHIM_ERRORS_H

#include <windef.h>
#include <winbase.h>

/* The Win32 error for a Linux errno; an errno without a mapping is
 * becomes ERROR_GEN_FAILURE (the first one is traced on +misc). */
DWORD win32_error_from_errno(int err);

/* SetLastError(win32_error_from_errno(err)). */
void set_last_error_from_errno(int err);

#endif

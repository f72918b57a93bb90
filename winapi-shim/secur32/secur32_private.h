/* secur32.dll: the user's names (GetUserNameEx) for a machine that is
 * in no domain; no security packages (SSPI); see docs/SYSTEM-DLLS.md. */
#ifndef NDSHIM_SECUR32_PRIVATE_H
#define NDSHIM_SECUR32_PRIVATE_H

#define SECURITY_WIN32
#include <windef.h>
#include <winbase.h>
#include <winnls.h>
#include <security.h>
#include <secext.h>

#endif

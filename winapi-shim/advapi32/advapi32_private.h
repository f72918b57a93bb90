/* advapi32.dll: the registry (over a file-backed store, regstore.h) and
 * the user/token queries console programs make, and ETW event providers
 * with no consumer (etw.c). */
#ifndef NDSHIM_ADVAPI32_PRIVATE_H
#define NDSHIM_ADVAPI32_PRIVATE_H

#include <windef.h>
#include <winbase.h>
#include <winreg.h>
#include <sddl.h>
#include <wincrypt.h>
#include <evntprov.h>

/* security.c: whether token is a token handle with access (FALSE with
 * the last error set otherwise). */
BOOL token_check(HANDLE token, DWORD access);

/* random.c: RtlGenRandom's export name */
BOOLEAN WINAPI SystemFunction036(PVOID buf, ULONG len);

#endif

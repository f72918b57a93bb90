/* advapi32.dll: the registry (over a file-backed store, regstore.h) and
 * the user/token queries console programs make. */
#ifndef NDSHIM_ADVAPI32_PRIVATE_H
#define NDSHIM_ADVAPI32_PRIVATE_H

#include <windef.h>
#include <winbase.h>
#include <winreg.h>
#include <sddl.h>
#include <wincrypt.h>

/* random.c: RtlGenRandom's export name */
BOOLEAN WINAPI SystemFunction036(PVOID buf, ULONG len);

#endif

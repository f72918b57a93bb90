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
#include <aclapi.h>

/* security.c: whether token is a token handle with access (FALSE with
 * the last error set otherwise). */
BOOL token_check(HANDLE token, DWORD access);

/* security.c: the account SID of Linux user uid, S-1-5-21-A-B-C-R with
 * R = 1000 + uid (the user's own for uid = getuid()), USER_SID_SIZE bytes. */
#define USER_SID_SIZE (8 + 5 * 4)
void account_sid(SID *sid, unsigned int uid);

/* random.c: RtlGenRandom's export name */
BOOLEAN WINAPI SystemFunction036(PVOID buf, ULONG len);

#endif

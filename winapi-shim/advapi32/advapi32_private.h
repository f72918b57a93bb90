/* advapi32.dll: the registry (over a file-backed store, regstore.h) and
 * the user/token queries console programs make, and ETW event providers
 * with no consumer (etw.c). */
#ifndef NDSHIM_ADVAPI32_PRIVATE_H
#define NDSHIM_ADVAPI32_PRIVATE_H

#include <windef.h>
#include <winbase.h>
#include <winreg.h>
#include <sddl.h>
#include <evntprov.h>

#endif

/* psapi.dll: its functions are kernel32's K32* ones (kernel32/psapi.c),
 * as on Windows 7 and later. */
#include "kernel32/kernel32_private.h"
#define BUILTIN_NAME psapi
#define BUILTIN_SPEC "psapi/psapi.spec"
#include "builtin_table.h"

/* advapi32.dll: the export table built from advapi32.spec. */
#include "advapi32/advapi32_private.h"
#define BUILTIN_NAME advapi32
#define BUILTIN_SPEC "advapi32/advapi32.spec"
#include "builtin_table.h"

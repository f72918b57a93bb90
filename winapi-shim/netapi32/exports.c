/* netapi32.dll: the export table built from netapi32.spec. */
#include "netapi32/netapi32_private.h"
#define BUILTIN_NAME netapi32
#define BUILTIN_SPEC "netapi32/netapi32.spec"
#include "builtin_table.h"

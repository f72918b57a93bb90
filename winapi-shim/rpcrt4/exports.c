#include "rpcrt4/rpcrt4_private.h"
#define BUILTIN_NAME rpcrt4
#define BUILTIN_SPEC "rpcrt4/rpcrt4.spec"
#include "builtin_table.h"

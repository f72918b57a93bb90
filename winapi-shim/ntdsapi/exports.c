#include "ntdsapi/ntdsapi_private.h"
#define BUILTIN_NAME ntdsapi
#define BUILTIN_SPEC "ntdsapi/ntdsapi.spec"
#include "builtin_table.h"

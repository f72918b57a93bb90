#include "authz/authz_private.h"
#define BUILTIN_NAME authz
#define BUILTIN_SPEC "authz/authz.spec"
#include "builtin_table.h"

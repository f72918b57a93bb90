#include "vcruntime140_1/vcruntime140_1_private.h"
#define BUILTIN_NAME vcruntime140_1
#define BUILTIN_SPEC "vcruntime140_1/vcruntime140_1.spec"
#include "builtin_table.h"

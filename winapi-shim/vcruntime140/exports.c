#include "vcruntime140/vcruntime140_private.h"
#include "vcruntime140/cxxframe.h"
#define BUILTIN_NAME vcruntime140
#define BUILTIN_SPEC "vcruntime140/vcruntime140.spec"
#include "builtin_table.h"

#include "ndshim/ndshim_private.h"
#define BUILTIN_NAME ndshim
#define BUILTIN_SPEC "ndshim/ndshim.spec"
#include "builtin_table.h"

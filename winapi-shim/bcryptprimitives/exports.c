#include "bcryptprimitives/bcryptprimitives_private.h"
#define BUILTIN_NAME bcryptprimitives
#define BUILTIN_SPEC "bcryptprimitives/bcryptprimitives.spec"
#include "builtin_table.h"

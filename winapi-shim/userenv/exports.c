/* userenv.dll: the export table built from userenv.spec. */
#include "userenv/userenv_private.h"
#define BUILTIN_NAME userenv
#define BUILTIN_SPEC "userenv/userenv.spec"
#include "builtin_table.h"

/* user32.dll: the export table built from user32.spec. */
#include "user32/user32_private.h"
#define BUILTIN_NAME user32
#define BUILTIN_SPEC "user32/user32.spec"
#include "builtin_table.h"

#include "kernel32/kernel32_private.h"
#define BUILTIN_NAME kernel32
#define BUILTIN_SPEC "kernel32/kernel32.spec"
#include "builtin_table.h"

#include "msvcrt/msvcrt_private.h"
#define BUILTIN_NAME msvcrt
#define BUILTIN_SPEC "msvcrt/msvcrt.spec"
#include "builtin_table.h"

#include "msvcrt/msvcrt_private.h"
#define BUILTIN_NAME msvcrt
#define BUILTIN_SPEC "msvcrt/msvcrt.spec"
#define BUILTIN_STOP crt_flush_at_stop
#include "builtin_table.h"

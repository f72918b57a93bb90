#include "msvcrt/msvcrt_private.h"
#define BUILTIN_NAME ucrtbase
#define BUILTIN_SPEC "ucrtbase/ucrtbase.spec"
#include "builtin_table.h"

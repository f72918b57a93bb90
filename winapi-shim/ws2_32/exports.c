#include "ws2_32/ws2_32_private.h"
#define BUILTIN_NAME ws2_32
#define BUILTIN_SPEC "ws2_32/ws2_32.spec"
#include "builtin_table.h"

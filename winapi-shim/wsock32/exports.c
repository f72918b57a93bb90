/* wsock32.dll: the export table built from wsock32.spec. */
#include "ws2_32/ws2_32_private.h"
#include "wsock32/wsock32_private.h"
#define BUILTIN_NAME wsock32
#define BUILTIN_SPEC "wsock32/wsock32.spec"
#include "builtin_table.h"

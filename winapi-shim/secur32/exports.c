/* secur32.dll: the export table built from secur32.spec. */
#include "secur32/secur32_private.h"
#define BUILTIN_NAME secur32
#define BUILTIN_SPEC "secur32/secur32.spec"
#include "builtin_table.h"

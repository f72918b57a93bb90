/* crypt32.dll: the export table built from crypt32.spec. */
#include "crypt32/crypt32_private.h"
#define BUILTIN_NAME crypt32
#define BUILTIN_SPEC "crypt32/crypt32.spec"
#include "builtin_table.h"

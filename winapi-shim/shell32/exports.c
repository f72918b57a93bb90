/* shell32.dll: the export table built from shell32.spec. */
#include "shell32/shell32_private.h"
#define BUILTIN_NAME shell32
#define BUILTIN_SPEC "shell32/shell32.spec"
#include "builtin_table.h"

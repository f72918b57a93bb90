/* oleaut32.dll: the export table built from oleaut32.spec. */
#include "oleaut32/oleaut32_private.h"
#define BUILTIN_NAME oleaut32
#define BUILTIN_SPEC "oleaut32/oleaut32.spec"
#include "builtin_table.h"

/* combase.dll: the export table built from combase.spec. */
#include "combase/combase_private.h"
#define BUILTIN_NAME combase
#define BUILTIN_SPEC "combase/combase.spec"
#include "builtin_table.h"

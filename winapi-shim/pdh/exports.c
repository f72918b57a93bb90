/* pdh.dll: the export table built from pdh.spec. */
#include "pdh/pdh_private.h"
#define BUILTIN_NAME pdh
#define BUILTIN_SPEC "pdh/pdh.spec"
#include "builtin_table.h"

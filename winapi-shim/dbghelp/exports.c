/* dbghelp.dll: the export table built from dbghelp.spec. */
#include "dbghelp/dbghelp_private.h"
#define BUILTIN_NAME dbghelp
#define BUILTIN_SPEC "dbghelp/dbghelp.spec"
#include "builtin_table.h"

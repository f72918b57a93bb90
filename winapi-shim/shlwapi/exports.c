/* shlwapi.dll: the export table built from shlwapi.spec. */
#include "shlwapi/shlwapi_private.h"
#define BUILTIN_NAME shlwapi
#define BUILTIN_SPEC "shlwapi/shlwapi.spec"
#include "builtin_table.h"

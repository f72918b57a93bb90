/* version.dll: the export table built from version.spec. */
#include "version/version_private.h"
#define BUILTIN_NAME version
#define BUILTIN_SPEC "version/version.spec"
#include "builtin_table.h"

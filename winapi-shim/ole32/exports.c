/* ole32.dll: COM's functions are combase's (winapi-shim/combase/), as
 * Windows forwards them there; ole32 adds CoInitialize and OLE's own
 * initialisation. */
#include "combase/combase_private.h"
#include <ole2.h>
#define BUILTIN_NAME ole32
#define BUILTIN_SPEC "ole32/ole32.spec"
#include "builtin_table.h"

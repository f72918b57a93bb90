/* winmm.dll: the export table built from winmm.spec. */
#include "winmm/winmm_private.h"
#define BUILTIN_NAME winmm
#define BUILTIN_SPEC "winmm/winmm.spec"
#include "builtin_table.h"

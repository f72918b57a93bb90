#include "ntdll/ntdll_private.h"
#define BUILTIN_NAME ntdll
#define BUILTIN_SPEC "ntdll/ntdll.spec"
#include "builtin_table.h"

/* powrprof.dll: the export table built from powrprof.spec. */
#include "powrprof/powrprof_private.h"
#define BUILTIN_NAME powrprof
#define BUILTIN_SPEC "powrprof/powrprof.spec"
#include "builtin_table.h"

/* kernelbase.dll: the export table built from kernelbase.spec. */
#include "kernelbase/kernelbase_private.h"
#define BUILTIN_NAME kernelbase
#define BUILTIN_SPEC "kernelbase/kernelbase.spec"
#include "builtin_table.h"

/* kernelbase.dll: the export table built from kernelbase.spec. */
#include "kernelbase/kernelbase_private.h"
#define BUILTIN_NAME kernelbase
#define BUILTIN_SPEC "kernelbase/kernelbase.spec"
/* Windows moved most of kernel32 into kernelbase; ndrun keeps them in
 * kernel32, and kernelbase answers with them. */
#define BUILTIN_ALSO builtin_kernel32
#include "builtin_table.h"

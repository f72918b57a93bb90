/* kernelbase.dll: on Windows 7 and later kernel32 forwards most of its
 * functions here, and every process has it loaded.  Runtimes rely on
 * both: GraalVM native images start with GetModuleHandleA("kernelbase.dll")
 * and exit when it fails, then look up newer functions there
 * (VirtualAlloc2).  ndrun's kernel32 carries those functions, so
 * kernelbase exports kernel32's own list: the same .spec, expanded again
 * under this name (one list of exports, not a copy). */
#include "kernel32/kernel32_private.h"
#define BUILTIN_NAME kernelbase
#define BUILTIN_SPEC "kernel32/kernel32.spec"
#include "builtin_table.h"

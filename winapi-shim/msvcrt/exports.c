#include "msvcrt/msvcrt_private.h"
/* msvcrt.dll carries the C++ exception support MSVC's older compilers
 * used (_CxxThrowException, __CxxFrameHandler...): vcruntime140's engine,
 * which takes every FuncInfo version (magic 0x19930520-22). */
#include "vcruntime140/vcruntime140_private.h"
#include "vcruntime140/cxxframe.h"
#define BUILTIN_NAME msvcrt
#define BUILTIN_SPEC "msvcrt/msvcrt.spec"
#define BUILTIN_STOP crt_flush_at_stop
#include "builtin_table.h"

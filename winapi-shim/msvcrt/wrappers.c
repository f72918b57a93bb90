/* The ms_abi faces of glibc functions msvcrt shares unchanged. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "msvcrt/msvcrt_private.h"

#define X(ret, name, params, args)                                            \
	ret __cdecl crt_##name params                                         \
	{                                                                     \
		return name args;                                             \
	}
#include "msvcrt/wrappers.h"
#undef X

/* crt_math against ucrtbase.dll. */
#include "crt_math.c"

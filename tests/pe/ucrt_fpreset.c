/* crt_fpreset against ucrtbase.dll. */
#include "crt_fpreset.c"

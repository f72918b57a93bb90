/* crt_osfhandle against ucrtbase.dll. */
#include "crt_osfhandle.c"

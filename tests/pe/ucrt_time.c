/* crt_time against ucrtbase.dll. */
#include "crt_time.c"

/* crt_system against ucrtbase.dll. */
#include "crt_system.c"

/* crt_spawn against ucrtbase.dll. */
#include "crt_spawn.c"

/* crt_stdio_more against ucrtbase.dll. */
#include "crt_stdio_more.c"

/* crt_stdlib_more against ucrtbase.dll. */
#include "crt_stdlib_more.c"

/* crt_string_more against ucrtbase.dll. */
#include "crt_string_more.c"

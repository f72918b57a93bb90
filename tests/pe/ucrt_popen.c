/* crt_popen against ucrtbase.dll. */
#include "crt_popen.c"

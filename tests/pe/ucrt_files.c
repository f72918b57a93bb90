/* crt_files against ucrtbase.dll. */
#include "crt_files.c"

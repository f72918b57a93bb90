/* crt_text_mode against ucrtbase.dll. */
#include "crt_text_mode.c"

/* crt_assert against ucrtbase.dll (_wassert). */
#include "crt_assert.c"

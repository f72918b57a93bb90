/* crt_putenv's checks against ucrtbase.dll (the same functions through
 * the api-ms-win-crt-* API sets). */
#include "crt_putenv.c"

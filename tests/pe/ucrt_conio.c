/* crt_conio's checks against ucrtbase.dll (the same functions through
 * the api-ms-win-crt-conio API set). */
#include "crt_conio.c"

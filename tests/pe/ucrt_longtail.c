/* crt_longtail's checks against ucrtbase.dll (the same functions through
 * the api-ms-win-crt-* API sets; mingw-w64's start-up installs an
 * invalid-parameter handler that returns, so wcscpy_s reports its errors
 * as msvcrt's does). */
#include "crt_longtail.c"

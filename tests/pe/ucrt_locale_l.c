/* crt_locale_l against ucrtbase.dll, with _create_locale. */
#include "crt_locale_l.c"

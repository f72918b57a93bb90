/* crt_printf_p against ucrtbase.dll: __stdio_common_v*printf_p, what the
 * UCRT headers' _sprintf_p and friends call. */
#include "crt_printf_p.c"

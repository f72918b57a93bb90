/* stop_flush against ucrtbase.dll (the api-ms-win-crt-* API sets): what
 * the UCRT buffered reaches the file when ndrun stops the program. */
#include "stop_flush.c"

/* Prototypes of msvcrt exports (named crt_* in C so they never clash with
 * glibc's own functions), and helpers shared by msvcrt's files. */
#ifndef NDSHIM_MSVCRT_PRIVATE_H
#define NDSHIM_MSVCRT_PRIVATE_H

#include <windef.h>

void __cdecl crt_abort(void) __attribute__((noreturn));

#endif

/* Prototypes of msvcrt exports (named crt_* in C so they never clash with
 * glibc's own functions), and helpers shared by msvcrt's files. */
#ifndef NDSHIM_MSVCRT_PRIVATE_H
#define NDSHIM_MSVCRT_PRIVATE_H

#include <windef.h>

#include "ntdll/ntdll_private.h" /* __C_specific_handler, exported here too */

void __cdecl crt_abort(void) __attribute__((noreturn));

#endif

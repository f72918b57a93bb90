/* bcryptprimitives.dll: the random-number entry point Rust's standard
 * library (1.78 and later) calls for every random byte it needs. */
#ifndef NDSHIM_BCRYPTPRIMITIVES_PRIVATE_H
#define NDSHIM_BCRYPTPRIMITIVES_PRIVATE_H

#include <windef.h>

/* Undocumented but stable since Windows 10: fills buf, always TRUE. */
BOOL WINAPI ProcessPrng(PBYTE buf, SIZE_T len);

#endif
